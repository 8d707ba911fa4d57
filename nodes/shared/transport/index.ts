/**
 * The one way a request leaves this package: `TrioClient.request` (client.ts). Around it, one
 * module per concern: reading answers within their limits (body.ts), retry arithmetic
 * (retry.ts: also which failures are timeouts, marked on the error, and the longest a request
 * may take), the pace learnt from a 429 (pacing.ts), n8n's SSRF protection (ssrf.ts) and the
 * multipart body of a resume upload (multipart.ts).
 */
export {
	createTrioClient,
	fillPath,
	INTERACTIVE_CLIENT,
	TrioClient,
	type TrioClientOptions,
	type TrioRequest,
} from './client';
export type { MultipartPart } from './multipart';
export {
	backoffDelay,
	DEFAULT_RETRY_POLICY,
	parseRetryAfter,
	timedOut,
	worstCaseMs,
	type RetryPolicy,
} from './retry';
