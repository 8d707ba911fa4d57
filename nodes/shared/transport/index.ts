/**
 * The one way a request leaves this package: `TrioClient.request` (client.ts). Around it, one
 * module per concern: reading answers within their limits (body.ts), retry arithmetic
 * (retry.ts).
 */
export {
	createTrioClient,
	fillPath,
	INTERACTIVE_CLIENT,
	TrioClient,
	type TrioClientOptions,
	type TrioRequest,
} from './client';
export { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, type RetryPolicy } from './retry';
