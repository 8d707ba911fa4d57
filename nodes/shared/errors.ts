/**
 * Turns the service's failures into messages a recruiter can act on. The decided error shape is
 * problem details (docs: service notes), read through its schema; after it the notes require
 * { message }, { Message }, { error }, a plain-text body and an empty one to be read too.
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { z } from 'zod';

import { labelOfField } from './fieldLabels';
import { fieldOf } from './fields';
import { escapeRegExp, redact, withoutSecret } from './secrets';

export interface ServiceMessage {
	/** One line: what the service said, or a stand-in when it said nothing. */
	message: string;
	/** Field name -> what was wrong with it, from problem details `errors`. */
	fieldErrors: Record<string, string[]>;
}

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

function asText(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim()) return value.trim();
	return undefined;
}

function isText(part: string | undefined): part is string {
	return part !== undefined;
}

/**
 * The decided error shape: ASP.NET Core problem details (RFC 9457), whose members ASP.NET always
 * writes in lower case.
 */
export const problemDetailsSchema = z
	.object({
		type: z.string().optional(),
		title: z.string().optional(),
		status: z.number().optional(),
		detail: z.string().optional(),
		errors: z.record(z.array(z.string())).optional(),
	})
	.passthrough();

/** Problem details as the nodes read them: a field whose messages are not a list of strings is still shown. */
const readableProblemDetails = problemDetailsSchema.extend({
	errors: z.record(z.unknown()).optional(),
});

/**
 * The other shapes the notes require: { message } or { Message }, else { error } as text or as an
 * object with a message. Each keeps the one companion its convention gives it: ASP.NET Web API's
 * ExceptionMessage beside Message, and OAuth's error_description beside error (a gateway's refusal).
 */
function otherShapeParts(record: Record<string, unknown>): Array<string | undefined> {
	const message = asText(fieldOf(record as IDataObject, 'message'));
	if (message) return [message, asText(record.ExceptionMessage)];
	const { error } = record;
	if (error && typeof error === 'object' && !Array.isArray(error))
		return [asText(fieldOf(error as IDataObject, 'message'))];
	return [asText(error), asText(record.error_description)];
}

function parseIfJson(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	const trimmed = body.trim();
	if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return body;
	try {
		return JSON.parse(trimmed);
	} catch {
		return body;
	}
}

function readFieldErrors(errors: unknown): Record<string, string[]> {
	const result: Record<string, string[]> = {};
	if (!errors || typeof errors !== 'object') return result;
	for (const [field, messages] of Object.entries(errors as Record<string, unknown>).slice(
		0,
		MAX_FIELD_ERRORS,
	)) {
		const list = (Array.isArray(messages) ? messages : [messages])
			.slice(0, 5)
			.map((m) => bounded(typeof m === 'string' ? m : (JSON.stringify(m) ?? String(m)), 300));
		if (list.length) result[bounded(field, 200)] = list;
	}
	return result;
}

const HTML_TAG = /<[^>]+>/g;
/** Style sheets, scripts and comments of an error page are not words anyone should read. */
const HTML_NON_TEXT = /<(style|script)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const HTML_ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: ' ',
	'#39': "'",
};

/**
 * The most of a text body the clean-up reads. The tag patterns take time growing with the square
 * of what they read (a body of unclosed "<" makes each one scan to the end): 40 KB took 0.7 s and
 * 1 MB would hold n8n for minutes. The message keeps 300 characters, and a gateway's page says
 * its words well within the first few kilobytes.
 */
export const MAX_CLEANED_CHARS = 8_000;

/** The most of what the service said that an error keeps: its message, and each field's words. */
const MAX_MESSAGE_CHARS = 500;
/** The most of the answer's body an error keeps for the execution's data. */
const MAX_KEPT_BODY_CHARS = 2_000;
const MAX_FIELD_ERRORS = 30;
const MAX_LIST_ENTRIES = 20;

/** The text cut to `max` characters, saying so. */
function bounded(text: string, max = MAX_MESSAGE_CHARS): string {
	return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

export function htmlToText(html: string): string {
	return html
		.replace(HTML_NON_TEXT, ' ')
		.replace(HTML_TAG, ' ')
		.replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => HTML_ENTITIES[name])
		.replace(/\s+/g, ' ')
		.trim();
}

/**
 * `clean` is the HTML clean-up; tests pass a spy to see that it is only ever handed a bounded
 * text (MAX_CLEANED_CHARS), whatever the body's size.
 */
export function readServiceMessage(
	rawBody: unknown,
	clean: (text: string) => string = htmlToText,
): ServiceMessage {
	const body = parseIfJson(rawBody);
	if (body === undefined || body === null || (typeof body === 'string' && !body.trim())) {
		return { message: 'The service gave no details', fieldErrors: {} };
	}
	if (typeof body === 'string') {
		// A gateway's HTML error page is noise; keep its words, cut to one readable line.
		const text = clean(body.slice(0, MAX_CLEANED_CHARS));
		return {
			message:
				text.length > 300 ? `${text.slice(0, 297)}...` : text || 'The service gave no details',
			fieldErrors: {},
		};
	}
	if (Array.isArray(body)) {
		const texts = body
			.slice(0, MAX_LIST_ENTRIES)
			.map((entry) => bounded(asText(entry) ?? readServiceMessage(entry, clean).message));
		return { message: bounded(texts.join('; ')) || 'The service gave no details', fieldErrors: {} };
	}
	if (typeof body !== 'object') return { message: bounded(String(body)), fieldErrors: {} };

	const record = body as Record<string, unknown>;
	const problem = readableProblemDetails.safeParse(record);
	const fieldErrors = problem.success ? readFieldErrors(problem.data.errors) : {};
	const problemParts = problem.success
		? [asText(problem.data.title), asText(problem.data.detail)].filter(isText)
		: [];
	const parts = problemParts.length ? problemParts : otherShapeParts(record).filter(isText);
	const unique = [...new Set(parts)];
	// A JSON body is as unbounded as a text one: a 5 MB "detail" must not become the message.
	let message = bounded(unique.join(': '));
	if (!message && Object.keys(fieldErrors).length) message = 'One or more fields are invalid';
	// An empty object says as little as an empty body; "{}" in a message would only puzzle.
	if (!message)
		message = Object.keys(record).length
			? JSON.stringify(body).slice(0, 300)
			: 'The service gave no details';
	return { message, fieldErrors };
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

export function formatFieldErrors(fieldErrors: Record<string, string[]>): string {
	return Object.entries(fieldErrors)
		.map(([field, messages]) => `${field}: ${messages.join(' ')}`)
		.join('\n');
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
 * What the service answered, as serviceError kept it in the error (status, and the body as text
 * with any key taken out), or undefined for an error that is not an answer.
 */
export function answerOf(error: unknown): { status: number; body: unknown } | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const response = (error as { errorResponse?: { status?: unknown; body?: unknown } })
		.errorResponse;
	if (!response || typeof response.status !== 'number') return undefined;
	return { status: response.status, body: parseIfJson(response.body) };
}

/**
 * Errors of a request that may have created something although it failed (a 5xx answer, or a
 * connection that broke after the request was sent) carry this mark in their context, so an
 * operation can look for what it tried to create before reporting the failure.
 */
const OUTCOME_UNKNOWN = 'outcomeUnknown';

function markOutcomeUnknown(error: NodeApiError): void {
	error.context[OUTCOME_UNKNOWN] = true;
}

/** Whether the error says a create failed in a way that leaves its outcome unknown. */
export function isOutcomeUnknown(error: unknown): error is NodeApiError {
	return error instanceof NodeApiError && error.context?.[OUTCOME_UNKNOWN] === true;
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
	/** No answer came in time (the transport decides which failures are timeouts). */
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
	return error;
}
