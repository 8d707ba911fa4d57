/**
 * The one way a request leaves this package: `TrioClient.request` (client.ts), sending what
 * request.ts builds. Around it, one module per concern: reading answers within their limits
 * (body.ts), retry arithmetic (retry.ts: also which failures are timeouts, marked on the error,
 * and the longest a request may take), the pace learnt from a 429 (pacing.ts), n8n's SSRF
 * protection (ssrf.ts) and the multipart body of a resume upload (multipart.ts).
 */
export { INTERACTIVE_CLIENT, TrioClient, type TrioClientOptions } from './client';
export { fillPath, type TrioRequest } from './request';
export type { MultipartPart } from './multipart';
export {
	backoffDelay,
	DEFAULT_RETRY_POLICY,
	parseRetryAfter,
	retryAfterOf,
	timedOut,
	worstCaseMs,
	type RetryPolicy,
} from './retry';
