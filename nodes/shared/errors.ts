/**
 * The NodeApiErrors the nodes throw for the service's failures, each with advice a recruiter can
 * act on: an answer with an error status (serviceError, reading the body with serviceMessage.ts),
 * a connection that broke or timed out (connectionError), and a step of a workflow's activation
 * that failed (explainFailure). The marks a caller reads on them are in failureMarks.ts.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { labelOfField } from './fieldLabels';
import { isPermissionRefusal, markOutcomeUnknown, markTimedOut } from './failureMarks';
import { escapeRegExp, redact, withoutSecret } from './secrets';
import { bounded, readServiceMessage } from './serviceMessage';

/** The most of the answer's body an error keeps for the execution's data. */
const MAX_KEPT_BODY_CHARS = 2_000;

const STATUS_TEXT: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	409: 'Conflict',
	413: 'Payload Too Large',
	415: 'Unsupported Media Type',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

export function statusText(status: number): string {
	return STATUS_TEXT[status] ?? 'Error';
}

export interface FailureContext {
	/** What the request was about, for 404s: "job 123", "submission 9". */
	subject?: string;
	/** The request touched webhook registrations (403 then means agency admin permission). */
	webhookManagement?: boolean;
	/** The request may have created something (its outcome matters on 5xx). */
	creates?: boolean;
	/** The operation's own service field name -> label, on top of the shared FIELD_LABELS. */
	fieldLabels?: Record<string, string>;
}

export function hintForStatus(status: number, context: FailureContext = {}): string {
	if (status === 400)
		return 'The service rejected the data it was sent. Check the field named above, then run the node again.';
	if (status === 401 || status === 403) {
		return context.webhookManagement
			? 'Managing webhooks needs an API key of a user with the agency administrator permission. Ask your agency admin or MSP contact for such a key.'
			: 'The API key is wrong, expired or lacks permission for this operation. Create a new key on your Trio User Profile page, or ask your MSP contact.';
	}
	if (status === 404) {
		return context.subject
			? `No ${context.subject} was found. Check the number (it may belong to another agency, be closed or never have existed).`
			: "The service does not know this address or item. Check the number and the credential's environment and base URL.";
	}
	if (status >= 300 && status < 400) {
		return "The address answered with a redirect, which the node does not follow: the API key would go wherever it points. Check the credential's environment and base URL (use the address the redirect names, if it is Trio's).";
	}
	if (status === 429)
		return 'The service is limiting how fast you call it. Raise "Pause Between Requests" under the node\'s Options, or run the workflow less often.';
	if (status >= 500) {
		return context.creates
			? 'The service failed. If this request creates something it may or may not have been created: check before running it again.'
			: 'The service failed or is unavailable. Try again later; if it persists, contact your MSP.';
	}
	return 'The service refused the request.';
}

/** Titles that only say field errors follow: never a headline when a field error can be one. */
const GENERIC_VALIDATION =
	/^(one or more validation errors occurred\.?|one or more fields are invalid\.?)$/i;

/**
 * Field errors in the user's words: each named by its label, and the service's name for it
 * inside the message ("The email1 field is required.") replaced by the label too.
 */
function fieldErrorsInWords(
	fieldErrors: Record<string, string[]>,
	extraLabels: Record<string, string> = {},
): string[] {
	return Object.entries(fieldErrors).map(([field, messages]) => {
		const label = labelOfField(field, extraLabels);
		if (!label) return `${field}: ${messages.join(' ')}`;
		const bare = field.replace(/^\$\.?/, '');
		// Only a name no one would write in prose (email1, CandidateNumber) is replaced inside the
		// message: "reason" or "Email" may be the service's own words.
		if (!/\d|[a-z][A-Z]|[.[]/.test(bare)) return `${label}: ${messages.join(' ')}`;
		const named = new RegExp(`(^|[^\\w.$])(\\$\\.)?${escapeRegExp(bare)}(?![\\w])`, 'gi');
		const text = messages.map((message) => message.replace(named, `$1${label}`)).join(' ');
		return `${label}: ${text}`;
	});
}

/** What to do about a field Trio refused: fix that field (named by its label) and run again. */
function fieldHint(firstField: string): string {
	const field = firstField.slice(0, firstField.indexOf(':'));
	return `Trio VMS refused the value of "${field}". Correct it in the node, or in the input data mapped into it, then run the node again.`;
}

export interface ServiceFailure {
	status: number;
	body: unknown;
	method: string;
	/** Path below the API root, e.g. /Job/123: never the full URL with host or key. */
	path: string;
	itemIndex?: number;
	context?: FailureContext;
	secret?: string;
}

/** The NodeApiError for a response the service answered with an error status. */
export function serviceError(node: INode, failure: ServiceFailure): NodeApiError {
	const { status, secret } = failure;
	// The key is taken out of the whole body first: what is read from it is cut to length, and a
	// cut must never leave part of a key behind.
	const body = withoutSecret(failure.body, secret);
	const { message, fieldErrors } = readServiceMessage(body);
	const fieldLines = fieldErrorsInWords(fieldErrors, failure.context?.fieldLabels);
	// Problem details often carry the status text as their title: "403 Forbidden: Forbidden: ..." says nothing twice.
	const label = statusText(status);
	const said = message.toLowerCase().startsWith(`${label.toLowerCase()}: `)
		? message.slice(label.length + 2)
		: message;
	// The first field error is the headline of a refused request (400, 422) or of any answer that
	// says nothing more; "One or more validation errors occurred." never hides it.
	const generic = GENERIC_VALIDATION.test(said.trim());
	const fieldFirst = fieldLines.length > 0 && (status === 400 || status === 422 || generic);
	const [firstField, ...otherFields] = fieldFirst ? fieldLines : [undefined, ...fieldLines];
	const headline = redact(`Trio VMS answered ${status} ${label}: ${firstField ?? said}`, secret);
	const saidElsewhere = firstField && !generic ? said : undefined;
	const description = redact(
		[
			bounded(otherFields.join('\n'), MAX_KEPT_BODY_CHARS),
			saidElsewhere,
			firstField ? fieldHint(firstField) : hintForStatus(status, failure.context),
			`Request: ${failure.method} ${failure.path}`,
		]
			.filter(Boolean)
			.join('\n\n'),
		secret,
	);
	// Only what the service said goes into the error object: never the request, its headers or the key.
	const response: JsonObject = {
		status,
		// Redacted whole before it is cut, so no part of a key can sit at the cut.
		body: bounded(
			redact(typeof body === 'string' ? body : JSON.stringify(body ?? null), secret),
			MAX_KEPT_BODY_CHARS,
		),
	};
	const error = keepMessage(
		new NodeApiError(node, response, {
			message: headline,
			description,
			httpCode: String(status),
			itemIndex: failure.itemIndex,
		}),
		headline,
	);
	// Any 5xx may come after the service did the work: for a create, its outcome is unknown. A
	// gateway's 502/504 says nothing about the service behind it, and a 500 can follow the store
	// (the service failed while answering), so a look that finds nothing right after proves nothing.
	if (status >= 500 && failure.context?.creates) markOutcomeUnknown(error);
	return error;
}

/**
 * NodeApiError replaces a message that has a network error code in it (ECONNRESET, ETIMEDOUT...)
 * with n8n's generic text, e.g. "You can retry the request immediately", which is wrong advice
 * for a create whose outcome is unknown and loses the method and path. Put ours back.
 */
function keepMessage(error: NodeApiError, message: string): NodeApiError {
	error.message = message;
	return error;
}

export interface ConnectionFailure {
	code: string;
	method: string;
	path: string;
	itemIndex?: number;
	/** The request may have reached the service before the connection broke. */
	outcomeUnknown: boolean;
	/** No answer came in time (the transport decides which failures are timeouts); marked on the error. */
	timedOut?: boolean;
	secret?: string;
}

export function connectionError(node: INode, failure: ConnectionFailure): NodeApiError {
	if (failure.code === 'ERESPONSETOOLARGE') {
		const message = `Trio VMS answered ${failure.method} ${failure.path} with more than the node reads; the answer was not read`;
		return keepMessage(
			new NodeApiError(
				node,
				{ code: failure.code },
				{
					message,
					description:
						"An answer that large is not one of the service's; check the credential's base URL. For job lists, a Modified After filter reads less.",
					itemIndex: failure.itemIndex,
				},
			),
			message,
		);
	}
	const timedOut = failure.timedOut === true;
	const headline = timedOut
		? `Trio VMS did not answer ${failure.method} ${failure.path} in time (${failure.code})`
		: `Could not reach Trio VMS (${failure.code}) for ${failure.method} ${failure.path}`;
	const what = timedOut
		? 'No answer came in time after the request was sent'
		: 'The connection broke after the request was sent';
	const description = failure.outcomeUnknown
		? `${what}, so it is unknown whether the service carried it out. It was not sent again, to avoid creating it twice: check in Trio (for example with Get Many) before running this item again.`
		: "Check the credential's environment and base URL, and that this n8n can reach the service. Requests that are safe to repeat were retried before giving up.";
	const message = redact(headline, failure.secret);
	const error = keepMessage(
		new NodeApiError(
			node,
			{ code: failure.code },
			{ message, description: redact(description, failure.secret), itemIndex: failure.itemIndex },
		),
		message,
	);
	// Broken after sending: the service may have the whole request and still be storing it.
	if (failure.outcomeUnknown) markOutcomeUnknown(error);
	if (timedOut) markTimedOut(error);
	return error;
}

const SYNC_TRIGGER_HINT =
	'Without such a key, use the Trio VMS Sync Trigger: it works with any API key and needs no administrator permission.';

/**
 * Names the step in the error n8n shows when a workflow's activation fails. For 401/403 the
 * agency-admin hint goes into the message itself: n8n's activation error shows only the message.
 */
export function explainFailure(node: INode, step: string, error: unknown): Error {
	if (error instanceof NodeApiError) {
		const status = error.httpCode ?? '';
		let message = `${step} failed. ${error.message}`;
		// Added unless the service already said so in its own words.
		if (isPermissionRefusal(error) && !/administrator/i.test(message)) {
			message += ` ${hintForStatus(Number(status), { webhookManagement: true })}`;
		}
		if (status === '403') message += `${/[.!?]$/.test(message) ? '' : '.'} ${SYNC_TRIGGER_HINT}`;
		error.message = message;
		return error;
	}
	if (error instanceof NodeOperationError) {
		error.message = `${step} failed. ${error.message}`;
		return error;
	}
	const reason = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(node, `${step} failed: ${reason}`);
}
