/**
 * What a failed request tells the code that made it, read from the NodeApiError the transport
 * threw (errors.ts builds them and sets the marks as it does): whether a create's outcome is
 * unknown and whether no answer came in time (marks the error carries), what the service
 * answered, whether the key lacks a permission, and whether Trio does not offer the submission
 * list. Also the one mark of a failure that is about the run, not an item. No words for users
 * here: those are in errors.ts and where each failure is found.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { parseIfJson } from './serviceMessage';

/**
 * Errors of a request that may have created something although it failed (a 5xx answer, or a
 * connection that broke after the request was sent) carry this mark in their context, so an
 * operation can look for what it tried to create before reporting the failure.
 */
const OUTCOME_UNKNOWN = 'outcomeUnknown';

export function markOutcomeUnknown(error: NodeApiError): void {
	error.context[OUTCOME_UNKNOWN] = true;
}

/** Whether the error says a create failed in a way that leaves its outcome unknown. */
export function isOutcomeUnknown(error: unknown): error is NodeApiError {
	return error instanceof NodeApiError && error.context?.[OUTCOME_UNKNOWN] === true;
}

/** Errors of a request that got no answer in time carry this mark (retry.ts says which codes). */
const TIMED_OUT = 'timedOut';

export function markTimedOut(error: NodeApiError): void {
	error.context[TIMED_OUT] = true;
}

/**
 * Whether a request failed for want of an answer in time, as the transport marked it: an HTTP
 * status is an answer, whatever its words say.
 */
export function isTimedOut(error: unknown): boolean {
	return error instanceof NodeApiError && error.context?.[TIMED_OUT] === true;
}

/** Errors of an answer that carried a Retry-After carry the wait it asked for, in ms. */
const RETRY_AFTER_MS = 'retryAfterMs';

export function markRetryAfter(
	error: NodeApiError,
	retryAfterMs: number | undefined,
): NodeApiError {
	if (retryAfterMs !== undefined) error.context[RETRY_AFTER_MS] = retryAfterMs;
	return error;
}

/** The wait the service's last answer asked for (its Retry-After, in full), if it gave one. */
export function retryAfterOf(error: unknown): number | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const value: unknown = error.context?.[RETRY_AFTER_MS];
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
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

const PERMISSION_STATUSES = new Set(['401', '403']);

/** Whether the service refused the API key (401) or its permission (403). */
export function isPermissionRefusal(error: unknown): error is NodeApiError {
	return error instanceof NodeApiError && PERMISSION_STATUSES.has(error.httpCode ?? '');
}

/**
 * Trio's list of an agency's submissions is not part of its published API: the address the
 * package reads may not be offered to an API key. Whether a failed request for that list means
 * Trio does not offer it (404 or 405) or could not give it (5xx), rather than a refusal the user
 * can fix (a wrong key, a bad filter). One reading for every caller (Submission Create's
 * duplicate check, the Sync Trigger).
 */
export function submissionListNotOffered(error: unknown): error is NodeApiError {
	if (!(error instanceof NodeApiError)) return false;
	const status = Number(error.httpCode);
	return status === 404 || status === 405 || status >= 500;
}

/**
 * A failure of the node's setting rather than of an item (a Resume Folder that does not exist, or
 * that n8n may not read): every item would fail the same way, so it stops the run once and is
 * about no row. Such errors carry `context.runLevel = true` and no item index.
 */
const RUN_LEVEL = 'runLevel';

export function markRunLevel(error: NodeOperationError): NodeOperationError {
	error.context[RUN_LEVEL] = true;
	return error;
}

/** Whether the error is about the run (the node's setting), not about the item it stopped at. */
export function isRunLevelFailure(error: unknown): error is NodeOperationError {
	return error instanceof NodeOperationError && error.context?.[RUN_LEVEL] === true;
}
