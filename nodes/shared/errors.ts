/**
 * The NodeApiErrors the nodes throw for the service's failures, each with advice a recruiter can
 * act on: an answer with an error status (serviceError, in the words statusWords.ts reads from
 * its body), a connection that broke or timed out (connectionError), and a step of a workflow's
 * activation that failed (explainFailure). The marks a caller reads on them are in failureMarks.ts.
 */
import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isPermissionRefusal, markOutcomeUnknown, markTimedOut } from './failureMarks';
import { redact, withoutSecret } from './secrets';
import { bounded } from './serviceMessage';
import { errorAnswerInWords, hintForStatus, statusText, type FailureContext } from './statusWords';

/** The most of the answer's body an error keeps for the execution's data. */
const MAX_KEPT_BODY_CHARS = 2_000;

export interface ServiceFailure {
	status: number;
	body: unknown;
	method: string;
	/** Path below the API root, e.g. /Job/123: never the full URL with host or key. */
	path: string;
	itemIndex?: number;
	context?: FailureContext;
	secret?: string;
	/** The wait the answer's Retry-After asked for, in ms (in full, however long the node waited). */
	retryAfterMs?: number;
	/**
	 * Why the look for a create after a 429 failed (retry.ts states the rule): the create was not
	 * sent again, and whether Trio stored it is unknown.
	 */
	lookFailed?: string;
}

/** The first words of the details of a create whose look after a 429 failed: the row's Trio Problem. */
function lookFailedWords(reason: string): string {
	return `A gateway in front of Trio can answer 429 after passing the request on, so before sending it again the node looked whether Trio had stored it, and the look failed (${reason.replace(/[.\s]+$/, '')}). It was not sent again, to avoid creating it twice: whether it was created is unknown. Check in Trio (for example with Get Many) before running this item again.`;
}

/**
 * The NodeApiError for a response the service answered with an error status. Its message is
 * the headline in the recruiter's words; its description says what to do and whether Trio
 * carried anything out, then the technical part: status, request, and Trio's field names.
 */
export function serviceError(node: INode, failure: ServiceFailure): NodeApiError {
	const { status, secret } = failure;
	const context = failure.context ?? {};
	// The key is taken out of the whole body first: what is read from it is cut to length, and a
	// cut must never leave part of a key behind.
	const body = withoutSecret(failure.body, secret);
	const words = errorAnswerInWords({
		status,
		body,
		context,
		retryAfterMs: failure.retryAfterMs,
		secret,
	});
	// A refusal is made before any work: Trio stored nothing for it. A read has nothing to store.
	// A 429 whose look failed may have been forwarded first: nothing is known then.
	const lookFailed = failure.lookFailed;
	const refused =
		status >= 400 && status < 500 && failure.method !== 'GET' && lookFailed === undefined;
	const advice = [
		refused ? 'Trio VMS did not carry it out.' : undefined,
		// "Run again after the wait" would be wrong advice for a create that may exist.
		lookFailed === undefined ? words.hint : undefined,
	];
	const technical = [
		`Status: ${status} ${statusText(status)}`,
		`Request: ${failure.method} ${failure.path}`,
		words.fieldNames ? `Fields as Trio VMS named them: ${words.fieldNames}` : undefined,
	];
	const description = redact(
		[
			lookFailed === undefined ? undefined : lookFailedWords(lookFailed),
			bounded(words.otherLines.join('\n'), MAX_KEPT_BODY_CHARS),
			words.saidElsewhere,
			advice.filter(Boolean).join(' '),
			technical.filter(Boolean).join('\n'),
		]
			.filter(Boolean)
			.join('\n\n'),
		secret,
	);
	const error = keepMessage(
		new NodeApiError(node, keptResponse(status, body, secret), {
			message: words.headline,
			description,
			httpCode: String(status),
			itemIndex: failure.itemIndex,
		}),
		words.headline,
	);
	// Any 5xx may come after the service did the work: for a create, its outcome is unknown. A
	// gateway's 502/504 says nothing about the service behind it, and a 500 can follow the store
	// (the service failed while answering), so a look that finds nothing right after proves nothing.
	if ((status >= 500 && context.creates) || lookFailed !== undefined) markOutcomeUnknown(error);
	return error;
}

/** Only what the service said goes into the error object: never the request, its headers or the key. */
function keptResponse(status: number, body: unknown, secret: string | undefined): JsonObject {
	return {
		status,
		// Redacted whole before it is cut, so no part of a key can sit at the cut.
		body: bounded(
			redact(typeof body === 'string' ? body : JSON.stringify(body ?? null), secret),
			MAX_KEPT_BODY_CHARS,
		),
	};
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
