/**
 * What a client may be told: its pace, retries, idle timeout and limits, and the preset for calls
 * someone is waiting on. retry.ts's TimingOptions is the part that decides how long a request may
 * take.
 */
import type { RetryPolicy } from './retry';

export interface TrioClientOptions {
	/**
	 * Wait at least this long between the start of two calls (the service asks callers to pause).
	 * After a 429 the client may pace itself slower than this (pacing.ts), never faster.
	 */
	pauseBetweenCallsMs?: number;
	retry?: Partial<RetryPolicy>;
	/**
	 * Idle timeout: the answer's headers must come within twice this, and its body may pause
	 * this long between bytes; a body that keeps arriving is read up to maxExchangeMs.
	 */
	timeoutMs?: number;
	/** The longest a whole exchange may take while bytes keep arriving (default MAX_EXCHANGE_MS). */
	maxExchangeMs?: number;
	/** The largest answer read (default MAX_RESPONSE_BYTES). */
	maxResponseBytes?: number;
}

/**
 * For calls someone is waiting on (a dropdown, a list search, a workflow's activation): one quick
 * retry, and a Retry-After longer than two seconds is not waited out, so an outage shows within
 * seconds instead of after the default policy's minute of backoff.
 */
export const INTERACTIVE_CLIENT: TrioClientOptions = {
	retry: { maxRetries: 1, maxDelayMs: 2_000, maxRetryAfterMs: 2_000 },
	timeoutMs: 15_000,
};
