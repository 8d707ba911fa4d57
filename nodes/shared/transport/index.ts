/**
 * The one way a request leaves this package: `TrioClient.request` (client.ts). Around it, one
 * module per concern: reading answers within their limits (body.ts), retry arithmetic
 * (retry.ts: also which failures are timeouts, marked on the error, and the longest a request
 * may take), and the memory that keeps a create from being sent twice (createMemory.ts).
 */
export {
	createTrioClient,
	fillPath,
	INTERACTIVE_CLIENT,
	TrioClient,
	type TrioClientOptions,
	type TrioRequest,
} from './client';
export {
	forgetUncertainCreates,
	rememberUncertainCreate,
	uncertainCreateRefusedUntil,
	UNCERTAIN_CREATE_MS,
} from './createMemory';
export {
	backoffDelay,
	DEFAULT_RETRY_POLICY,
	parseRetryAfter,
	timedOut,
	worstCaseMs,
	type RetryPolicy,
	type TimingOptions,
} from './retry';
