/**
 * Why a check failed, said to n8n's scheduler on the error the poll throws. From n8n 2.4x its
 * durable scheduler backs a failing poll trigger off (5 s doubling to 30 minutes) and reads the
 * node's own declaration first: a plain `failure` property, `{ cause, retryAfterMs? }`, looked
 * up on the error and on the errors it wraps, without `instanceof`. Without one n8n guesses from
 * the answer's status, and guesses a 403 permanent. Older n8n never reads the property, so it is
 * stamped on the error as plain data (n8n-workflow 1.x's error constructors drop the option).
 *
 * The causes, as n8n defines them (n8n-workflow's TIMED_CAUSES and ACTIONABLE_CAUSES, the split
 * its scheduler's back-off reads; the back-off itself ships with n8n's server, not in n8n-core
 * 2.41's or n8n-workflow's files): `rate-limited`, `quota-exhausted` and
 * `temporarily-unavailable` come back on their own, so n8n waits (at least `retryAfterMs`) and
 * tries again on its curve from 5 s; `credential-invalid`, `configuration-invalid` and
 * `node-defect` need someone to act, so n8n waits its longest (30 minutes) from the first failure.
 *
 * Only what is known is declared as needing someone: a refusal the status names, a setting out
 * of range, a request Trio calls malformed. A failure the trigger cannot classify (no status, no
 * connection code, an error of no known kind) is not known to need anyone, and most such
 * failures pass (a gateway's odd answer, a hiccup of the network stack), so it is declared
 * `temporarily-unavailable`: n8n tries again soon, and backs off if it goes on.
 */
import { NodeApiError, type Failure } from 'n8n-workflow';

import { isTimedOut, retryAfterOf } from '../shared/failureMarks';
import type { WatchKind } from './state';

type Declared = Error & { failure: Failure };

/** Stamps why a check failed on the error, as a plain property; the error is returned. */
export function declared<E extends Error>(error: E, failure: Failure): E & Declared {
	return Object.assign(error, { failure });
}

function isDeclared(error: Error): error is Declared {
	const failure = (error as { failure?: unknown }).failure;
	return typeof failure === 'object' && failure !== null && 'cause' in failure;
}

/** n8n's connection-failure errors keep the code under errorResponse. */
function connectionCode(error: NodeApiError): string | undefined {
	const code = (error as { errorResponse?: { code?: unknown } }).errorResponse?.code;
	return typeof code === 'string' ? code : undefined;
}

/**
 * Why a failed request stops the check. Trio's 403 means "insufficient permissions or an API
 * key problem" (spec 7), and any agency key may read the job list: a 403 there is the key
 * refused, which only a working key mends (`credential-invalid`). A 403 for the submission list
 * is this key not being given a list Trio's published API does not describe: the key may be fine,
 * the workflow has to follow submissions another way (`configuration-invalid`). A 403 with a
 * Retry-After is a throttle, as n8n itself reads it.
 */
function failureOfRequest(error: NodeApiError, watch: WatchKind): Failure {
	if (isTimedOut(error)) return { cause: 'temporarily-unavailable' };
	const status = Number(error.httpCode);
	const retryAfterMs = retryAfterOf(error);
	if (status === 429 || (status === 403 && retryAfterMs !== undefined))
		return retryAfterMs === undefined
			? { cause: 'rate-limited' }
			: { cause: 'rate-limited', retryAfterMs };
	if (status >= 500 || status === 408) return { cause: 'temporarily-unavailable' };
	if (status === 401) return { cause: 'credential-invalid' };
	if (status === 403)
		return { cause: watch === 'submissions' ? 'configuration-invalid' : 'credential-invalid' };
	// A list asked for exactly as the node asks is refused (400): the node asked wrongly.
	if (status === 400) return { cause: 'node-defect' };
	// Any other refusal (404 or 405: no such list at this address) is the address the credential
	// or the workflow points at.
	if (status >= 400) return { cause: 'configuration-invalid' };
	// An answer larger than any of Trio's comes from another address than Trio's.
	if (connectionCode(error) === 'ERESPONSETOOLARGE') return { cause: 'configuration-invalid' };
	// No answer (a refused or broken connection, a name that did not resolve), or a failure
	// without a status or code: nothing says someone has to act.
	return { cause: 'temporarily-unavailable' };
}

/**
 * The error a check throws, with why it failed: what the step that threw it declared, else what
 * the request's failure says, else a failure passing for now (nothing known says otherwise).
 */
export function withFailure(error: unknown, watch: WatchKind): Error {
	const thrown = error instanceof Error ? error : new Error(String(error));
	if (isDeclared(thrown)) return thrown;
	if (thrown instanceof NodeApiError) return declared(thrown, failureOfRequest(thrown, watch));
	return declared(thrown, { cause: 'temporarily-unavailable' });
}
