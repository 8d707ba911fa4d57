/**
 * The one way a request leaves this package: `TrioClient.request` (client.ts), sending what
 * request.ts builds. Around it, one module per concern: reading answers within their limits
 * (body.ts), retry arithmetic (retry.ts: also which request is sent again after which failure,
 * which failures are timeouts, and the longest a request may take), the pace learnt from a 429 (pacing.ts), n8n's SSRF
 * protection (ssrf.ts), the multipart body of a resume upload (multipart.ts) and the client's
 * options (options.ts).
 */
export { TrioClient } from './client';
export { INTERACTIVE_CLIENT, type TrioClientOptions } from './options';
export type { TrioRequest } from './request';
export type { MultipartPart } from './multipart';
export { DEFAULT_RETRY_POLICY, worstCaseMs } from './retry';
export { blockedAddress } from './ssrf';
