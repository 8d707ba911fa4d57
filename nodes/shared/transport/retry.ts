/**
 * Retry arithmetic: which failures may be tried again, how long to wait (Retry-After, or
 * exponential backoff with jitter), which connection failures mean the request never left and
 * which mean no answer came in time (errors.ts marks those: failureMarks.ts), and the longest one
 * request may take with all of it; and which request is sent again after which failure.
 *
 * The rule for a create after a 429. A 429 does not prove that nothing was stored: a gateway in
 * front of Trio may rate-limit after it passed the request on. So once the Retry-After is waited
 * out, a create that brings a look (TrioRequest.lookBeforeResend: the candidate's e-mail, the
 * submissions modified since n8n's clock at the first send less a margin, the webhook
 * registrations with the same name, address and events) is looked for first,
 * one request per 429: found, that record is the create's answer and nothing is sent again;
 * not found, the create is sent again; the look failing, it is not sent again and the error says
 * that whether it was created is unknown (the memory of creates then holds it). The last 429 the
 * retries allow is looked behind too: found, it is the answer; not found, the 429 is the error.
 * Requests without a look (accept, decline, withdraw) are sent again after a 429 as before.
 * The look's own request is a read of its own, outside worstCaseMs's sum for one request.
 */
import { DEFAULT_IDLE_TIMEOUT_MS, MAX_EXCHANGE_MS } from './body';
import { PACE_MARGIN } from './pacing';
export interface RetryPolicy {
	/** Extra attempts after the first. */
	maxRetries: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** The longest Retry-After honoured; a longer one is shortened to this. */
	maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxRetries: 3,
	baseDelayMs: 500,
	maxDelayMs: 20_000,
	maxRetryAfterMs: 60_000,
};

/** Answers worth asking again (for a create, only 429, and after a look when it brings one). */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/** Connection failures where the request is known not to have reached the service. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

/** No answer in time: the transport's own deadlines (ETIMEDOUT) and the HTTP library's. */
const TIMEOUT_CODES = new Set([
	'ETIMEDOUT',
	'ECONNABORTED',
	'ESOCKETTIMEDOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** Connection failures where it may have reached the service. */
const BROKEN_CODES = new Set([
	'ERESPONSETOOLARGE',
	'ECONNRESET',
	'EPIPE',
	'UND_ERR_SOCKET',
	...TIMEOUT_CODES,
]);

/**
 * Whether a request that got this error answer may be sent again: an idempotent one on any
 * answer worth asking again, a create only on a 429 (after its look, when it brings one).
 */
export function mayResendAfterAnswer(status: number, idempotent: boolean): boolean {
	return RETRYABLE_STATUSES.has(status) && (idempotent || status === 429);
}

/** Whether a request that got this answer is looked for before it is sent again: a create after a 429. */
export function looksBeforeResend(status: number, idempotent: boolean): boolean {
	return status === 429 && !idempotent;
}

/** Whether a request whose exchange failed with this code may have reached the service. */
function mayHaveReachedService(code: string): boolean {
	return !NOT_SENT_CODES.has(code);
}

/**
 * Whether a request whose exchange failed with this code may be sent again: never after an
 * answer too large (it would be as large again), a create only when it never left.
 */
export function mayResendAfterNoAnswer(code: string, idempotent: boolean): boolean {
	return code !== 'ERESPONSETOOLARGE' && (idempotent || !mayHaveReachedService(code));
}

/**
 * Whether a create whose exchange failed with this code has an unknown outcome: it may have
 * reached the service, and the failure is not an answer that was read but too large.
 */
export function createOutcomeUnknown(code: string, idempotent: boolean): boolean {
	return !idempotent && mayHaveReachedService(code) && code !== 'ERESPONSETOOLARGE';
}

/** The Retry-After the client waits out: the service's, shortened to the policy's longest. */
export function honouredRetryAfter(
	retryAfterMs: number | undefined,
	policy: RetryPolicy,
): number | undefined {
	return retryAfterMs === undefined ? undefined : Math.min(retryAfterMs, policy.maxRetryAfterMs);
}

/** Whether a connection failure's code means that no answer came in time. */
export function isTimeoutCode(code: string): boolean {
	return TIMEOUT_CODES.has(code);
}

/** What decides how long a request may take (a subset of the client's options). */
export interface TimingOptions {
	pauseBetweenCallsMs?: number;
	retry?: Partial<RetryPolicy>;
	timeoutMs?: number;
	maxExchangeMs?: number;
}

/**
 * The longest one request may take with these options: every attempt (its wait for its turn,
 * under a pace learned from a 429 at most the longest Retry-After honoured; its headers within
 * twice the idle timeout; its body up to the exchange ceiling) and every pause before a retry.
 * Anyone who budgets time asks this rather than redoing the sum.
 */
export function worstCaseMs(options: TimingOptions): number {
	const policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
	const idleMs = options.timeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
	const attemptMs = Math.max(2 * idleMs, options.maxExchangeMs ?? MAX_EXCHANGE_MS);
	const turnMs = Math.max(
		options.pauseBetweenCallsMs ?? 0,
		Math.ceil(policy.maxRetryAfterMs * PACE_MARGIN),
	);
	const pauseMs = Math.max(policy.maxDelayMs, policy.maxRetryAfterMs);
	return (policy.maxRetries + 1) * (turnMs + attemptMs) + policy.maxRetries * pauseMs;
}

/** The network code of a failure (looking through its causes), or undefined when it has none. */
export function errorCode(error: unknown): string | undefined {
	const seen = new Set<unknown>();
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const candidate = current as { code?: unknown; cause?: unknown; message?: unknown };
		if (
			typeof candidate.code === 'string' &&
			(NOT_SENT_CODES.has(candidate.code) || BROKEN_CODES.has(candidate.code))
		) {
			return candidate.code;
		}
		if (typeof candidate.message === 'string' && /socket hang up/i.test(candidate.message))
			return 'ECONNRESET';
		current = candidate.cause;
	}
	return undefined;
}

/** Seconds or an HTTP date, as RFC 9110 allows; undefined when absent or unreadable. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' && typeof text !== 'number') return undefined;
	const trimmed = String(text).trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	// Every HTTP-date form names the month. Without this, Date.parse reads junk such as "-1" or
	// "3." as a date in 2001, which would make the client retry at once instead of backing off.
	if (!/[a-z]{3}/i.test(trimmed)) return undefined;
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/** Exponential backoff with "equal jitter": half fixed, half random, so callers spread out. */
export function backoffDelay(
	attempt: number,
	policy: RetryPolicy,
	random: () => number = Math.random,
): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
	return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
