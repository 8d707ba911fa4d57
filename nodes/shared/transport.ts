/**
 * The one way a request leaves this package. It builds the URL from the credential, sends
 * JSON or multipart bodies through n8n's authenticated HTTP helper (which adds X-API-KEY),
 * paces calls, retries what is safe to retry, and turns failures into NodeApiErrors.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { createHash } from 'node:crypto';

import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	BaseUrlError,
	resolveApiRoot,
	TRIO_CREDENTIAL_TYPE,
	type TrioCredentialData,
} from './credentials';
import { connectionError, redact, serviceError, type FailureContext } from './errors';
import { encodeMultipart, type MultipartPart } from './multipart';
import { setNewest } from './boundedMap';
import { CallPacer, paceKey } from './pacing';
import { blockedAddress, blockedAddressError } from './ssrf';

export type TrioFunctions =
	IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

type QueryValue = string | number | boolean | undefined;

export interface TrioRequest {
	method: 'GET' | 'POST';
	/** Below /api/v3, with `{name}` placeholders filled from pathParams, e.g. '/Job/{number}'. */
	path: string;
	pathParams?: Record<string, string | number>;
	query?: Record<string, QueryValue>;
	/** Sent as JSON. */
	body?: unknown;
	/** Sent as multipart/form-data instead of JSON. */
	multipart?: MultipartPart[];
	/**
	 * Whether sending the request twice has the same effect as sending it once. GETs are;
	 * webhook updates (POST with Id) are; creates and state changes are not, and are never
	 * re-sent once they may have reached the service.
	 */
	idempotent?: boolean;
	itemIndex?: number;
	context?: FailureContext;
	/**
	 * For a create: what it makes, in words ("submission of candidate 5001 to job 100001"). After
	 * a failure that leaves its outcome unknown, the same create is refused for a while
	 * (UNCERTAIN_CREATE_MS), so Retry On Fail or a re-run cannot make it twice.
	 */
	createKey?: string;
}

export interface RetryPolicy {
	/** Extra attempts after the first. */
	maxRetries: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** The longest Retry-After honoured; a longer one is shortened to this. */
	maxRetryAfterMs: number;
}

export interface TrioClientOptions {
	/**
	 * Wait at least this long between the start of two calls (the service asks callers to pause).
	 * After a 429 the client may pace itself slower than this (pacing.ts), never faster.
	 */
	pauseBetweenCallsMs?: number;
	retry?: Partial<RetryPolicy>;
	/** Idle timeout; the whole exchange gets twice as long. */
	timeoutMs?: number;
	/** The largest answer read (default MAX_RESPONSE_BYTES). */
	maxResponseBytes?: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxRetries: 3,
	baseDelayMs: 500,
	maxDelayMs: 20_000,
	maxRetryAfterMs: 60_000,
};

/**
 * For calls someone is waiting on (a dropdown, a list search, a workflow's activation): one quick
 * retry, and a Retry-After longer than two seconds is not waited out, so an outage shows within
 * seconds instead of after the default policy's minute of backoff.
 */
export const INTERACTIVE_CLIENT: TrioClientOptions = {
	retry: { maxRetries: 1, maxDelayMs: 2_000, maxRetryAfterMs: 2_000 },
	timeoutMs: 15_000,
};

const DEFAULT_TIMEOUT_MS = 60_000;

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
/** Connection failures where the request is known not to have reached the service. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);
/** Connection failures where it may have reached the service. */
const BROKEN_CODES = new Set([
	'ERESPONSETOOLARGE',
	'ECONNRESET',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'ESOCKETTIMEDOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'UND_ERR_SOCKET',
]);

/**
 * How long a create whose outcome is unknown blocks the same create. A gateway's 502/504 or a
 * connection broken after sending says nothing about the service behind it, which may store the
 * record seconds later, after a look for it found nothing; ten minutes outlasts that and n8n's
 * Retry On Fail (at most 5 tries, 5 seconds apart) while letting a user try again the same day.
 */
export const UNCERTAIN_CREATE_MS = 10 * 60_000;
const MAX_UNCERTAIN_CREATES = 1_000;

/** Outcome-unknown creates of this process: key -> when the refusal ends (ms since the epoch). */
const uncertainCreates = new Map<string, number>();

/** One service, one API key (hashed: no key sits in a map key), one create. */
function uncertainCreateKey(apiRoot: string, apiKey: string, createKey: string): string {
	const keyHash = createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
	return `${apiRoot}\n${keyHash}\n${createKey.toLowerCase()}`;
}

/** When the refusal of this create ends, or undefined when it is not refused. */
export function uncertainCreateRefusedUntil(key: string, now = Date.now()): number | undefined {
	const until = uncertainCreates.get(key);
	if (until === undefined) return undefined;
	if (until > now) return until;
	uncertainCreates.delete(key);
	return undefined;
}

export function rememberUncertainCreate(key: string, now = Date.now()): number {
	const until = now + UNCERTAIN_CREATE_MS;
	setNewest(uncertainCreates, key, until, MAX_UNCERTAIN_CREATES);
	return until;
}

/** Forgets every outcome-unknown create; tests call it when they reset the service's faults. */
export function forgetUncertainCreates(): void {
	uncertainCreates.clear();
}

function utcTime(ms: number): string {
	return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

/** What the user is told about the refusal that follows an outcome-unknown create. */
function refusalAdvice(what: string, until: number): string {
	return `Until ${utcTime(until)} this node refuses to send the same ${what} again (also under Retry On Fail or a re-run), so it cannot be created twice. Meanwhile look for it in Trio VMS, or run Get Many; after ${utcTime(until)} it can be sent again if it is not there.`;
}

/** A 502 or 504 comes from a gateway that gave up: the service behind it may still store the record. */
const GATEWAY_GAVE_UP = new Set([502, 504]);

interface RawResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

/**
 * The largest answer read. The biggest the service sends is the whole job list (about 17 MB at
 * 10,000 jobs); anything far beyond is not an answer to keep in n8n's memory.
 */
const MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

/** The client's own failures, shaped like the network errors the rest of the transport reads. */
class TransportLimitError extends Error {
	constructor(
		readonly code: 'ETIMEDOUT' | 'ERESPONSETOOLARGE',
		message: string,
	) {
		super(message);
	}
}

interface Readable {
	on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
	on(event: 'end' | 'close', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
	destroy(error?: Error): unknown;
}

function isReadable(value: unknown): value is Readable {
	return (
		!!value &&
		typeof (value as Readable).on === 'function' &&
		typeof (value as Readable).destroy === 'function'
	);
}

/** The answer's Content-Length when it is a plain whole number; undefined otherwise. */
function declaredLength(headers: Record<string, unknown> | undefined): number | undefined {
	const value = headers?.['content-length'];
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' && typeof text !== 'number') return undefined;
	return /^\d{1,15}$/.test(String(text).trim()) ? Number(text) : undefined;
}

/**
 * Reads an answer's body up to `maxBytes`, giving up at `deadline` (ms since the epoch). When the
 * answer declares its length, a larger one is refused before a byte is read, and the body is
 * read into one buffer of that length: no list of chunks to keep and join (the job list is
 * about 17 MB in a thousand chunks). A body longer than it declared is still read and counted.
 */
async function readBody(
	body: unknown,
	maxBytes: number,
	deadline: number,
	headers?: Record<string, unknown>,
): Promise<Buffer> {
	if (!isReadable(body)) {
		if (body === undefined || body === null) return Buffer.alloc(0);
		return Buffer.isBuffer(body) ? body : Buffer.from(String(body), 'utf8');
	}
	const tooLarge = () =>
		new TransportLimitError('ERESPONSETOOLARGE', `the answer is larger than ${maxBytes} bytes`);
	const declared = declaredLength(headers);
	if (declared !== undefined && declared > maxBytes) {
		const error = tooLarge();
		body.destroy(error);
		throw error;
	}
	const reading = new Promise<Buffer>((resolve, reject) => {
		let whole = declared ? Buffer.allocUnsafe(declared) : undefined;
		const chunks: Buffer[] = [];
		let size = 0;
		body.on('data', (chunk) => {
			const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, 'utf8');
			const at = size;
			size += buffer.length;
			if (size > maxBytes) {
				const error = tooLarge();
				body.destroy(error);
				reject(error);
				return;
			}
			if (whole && size <= whole.length) {
				buffer.copy(whole, at);
				return;
			}
			// Longer than declared (or no length given): collect the chunks.
			if (whole) {
				chunks.push(whole.subarray(0, at));
				whole = undefined;
			}
			chunks.push(buffer);
		});
		let ended = false;
		body.on('end', () => {
			ended = true;
			resolve(whole ? whole.subarray(0, size) : Buffer.concat(chunks, size));
		});
		// Closed before its end: the answer was cut short, which is a broken connection, never
		// half a body to parse.
		body.on('close', () => {
			if (!ended) {
				reject(
					Object.assign(new Error('the connection closed before the answer was complete'), {
						code: 'ECONNRESET',
					}),
				);
			}
		});
		body.on('error', reject);
	});
	const read = beforeDeadline(reading, deadline);
	// On any failure (deadline, size, broken stream) the connection is closed, not left reading.
	read.catch(() => body.destroy());
	return await read;
}

/** Settles like `work`, or rejects with a timeout once `deadline` (ms since the epoch) passes. */
async function beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
	// AbortSignal.timeout keeps no handle to clear and does not hold the process open.
	const signal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
	const expired = new Promise<never>((_, reject) => {
		signal.addEventListener(
			'abort',
			() => reject(new TransportLimitError('ETIMEDOUT', 'no answer in time')),
			{ once: true },
		);
	});
	return await Promise.race([work, expired]);
}

export function fillPath(path: string, params: Record<string, string | number> = {}): string {
	return path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = params[name];
		if (value === undefined || value === '')
			throw new Error(`Missing path parameter "${name}" for ${path}`);
		return encodeURIComponent(String(value));
	});
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

function errorCode(error: unknown): string | undefined {
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

function parseBody(raw: unknown, headers: Record<string, unknown>): unknown {
	if (raw === undefined || raw === null) return undefined;
	const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
	if (typeof text !== 'string') return text;
	if (!text.trim()) return undefined;
	const contentType = String(headers['content-type'] ?? '');
	if (contentType.includes('json') || /^\s*[[{"]/.test(text)) {
		try {
			return JSON.parse(text);
		} catch {
			return text;
		}
	}
	return text;
}

export class TrioClient {
	private apiRoot: string | undefined;

	private secret: string | undefined;

	private readonly retry: RetryPolicy;

	private readonly pacer: CallPacer;

	/** Counts what actually went over the wire; benchmarks and tests read it. */
	readonly stats = { requests: 0, retries: 0 };

	/**
	 * The service's own clock at its last successful answer (its Date header), so a caller can
	 * tell a timestamp in the future from the service's point of view; undefined without one.
	 */
	serviceDateMs: number | undefined;

	constructor(
		private readonly functions: TrioFunctions,
		private readonly options: TrioClientOptions = {},
	) {
		this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
		this.pacer = new CallPacer(options.pauseBetweenCallsMs ?? 0);
	}

	/** How often a call waited for its turn, and the pause learned from 429s; tests read it. */
	get pacing(): { waits: number; learnedPauseMs: number } {
		return this.pacer.stats;
	}

	private get node(): INode {
		return this.functions.getNode();
	}

	private async root(itemIndex?: number): Promise<string> {
		if (this.apiRoot === undefined) {
			const credentials = (await this.functions.getCredentials(
				TRIO_CREDENTIAL_TYPE,
			)) as TrioCredentialData;
			this.secret = credentials.apiKey;
			try {
				this.apiRoot = resolveApiRoot(credentials);
				const executionId = this.executionId();
				if (executionId) this.pacer.share(paceKey(executionId, this.apiRoot, this.secret ?? ''));
			} catch (error) {
				const message =
					error instanceof BaseUrlError
						? error.message
						: `The Trio VMS credential could not be read: ${String(error)}. Open the credential, check Environment and API Key, and save it again.`;
				throw new NodeOperationError(this.node, message, { itemIndex });
			}
		}
		return this.apiRoot;
	}

	/** The execution's id, when the context has one (activation and dropdowns may not). */
	private executionId(): string | undefined {
		try {
			const id = this.functions.getExecutionId();
			return typeof id === 'string' && id ? id : undefined;
		} catch {
			return undefined;
		}
	}

	async request<T = unknown>(request: TrioRequest): Promise<T> {
		const root = await this.root(request.itemIndex);
		const path = fillPath(request.path, request.pathParams);
		const idempotent = request.idempotent ?? request.method === 'GET';
		const options = this.buildOptions(request, `${root}${path}`);
		const uncertainKey =
			request.createKey && !idempotent
				? uncertainCreateKey(root, this.secret ?? '', request.createKey)
				: undefined;
		if (uncertainKey && request.createKey) {
			const until = uncertainCreateRefusedUntil(uncertainKey);
			if (until !== undefined) throw this.refusedCreate(request, until);
		}

		for (let attempt = 0; ; attempt++) {
			const startedAt = await this.pacer.nextCall();
			let response: RawResponse;
			let raw: Buffer;
			// The timeout is an idle timeout: a trickling answer could hold the node for ever. One
			// deadline covers the whole exchange, answer included, at twice the idle timeout.
			const deadline = Date.now() + 2 * (this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
			try {
				this.stats.requests++;
				response = (await beforeDeadline(
					this.functions.helpers.httpRequestWithAuthentication.call(
						this.functions,
						TRIO_CREDENTIAL_TYPE,
						options,
					) as Promise<RawResponse>,
					deadline,
				)) as RawResponse;
				raw = await readBody(
					response.body,
					this.options.maxResponseBytes ?? MAX_RESPONSE_BYTES,
					deadline,
					response.headers,
				);
			} catch (error) {
				const code = errorCode(error);
				if (!code) throw this.unexpected(error, request, path);
				const reachedService = !NOT_SENT_CODES.has(code);
				if (
					code !== 'ERESPONSETOOLARGE' &&
					(idempotent || !reachedService) &&
					attempt < this.retry.maxRetries
				) {
					this.stats.retries++;
					await this.pacer.wait(backoffDelay(attempt, this.retry));
					continue;
				}
				const failure = connectionError(this.node, {
					code,
					method: request.method,
					path,
					itemIndex: request.itemIndex,
					outcomeUnknown: reachedService && !idempotent,
					secret: this.secret,
				});
				if (uncertainKey && reachedService && code !== 'ERESPONSETOOLARGE')
					this.remember(failure, uncertainKey, request);
				throw failure;
			}

			const body = parseBody(raw, response.headers ?? {});
			if (response.statusCode !== 429) this.pacer.accepted(startedAt);
			if (response.statusCode >= 200 && response.statusCode < 300) {
				const serviceDate = Date.parse(String(response.headers?.date ?? ''));
				if (Number.isFinite(serviceDate)) this.serviceDateMs = serviceDate;
				return body as T;
			}

			const retryAfter = parseRetryAfter(response.headers?.['retry-after']);
			const honouredRetryAfter =
				retryAfter === undefined ? undefined : Math.min(retryAfter, this.retry.maxRetryAfterMs);
			if (response.statusCode === 429 && honouredRetryAfter !== undefined)
				this.pacer.refused(startedAt, honouredRetryAfter);

			// A 429 is a refusal before any work, so even a create may be sent again.
			const retryable =
				RETRYABLE_STATUSES.has(response.statusCode) && (idempotent || response.statusCode === 429);
			if (retryable && attempt < this.retry.maxRetries) {
				const delay = honouredRetryAfter ?? backoffDelay(attempt, this.retry);
				this.stats.retries++;
				await this.pacer.wait(delay);
				continue;
			}
			const failure = serviceError(this.node, {
				status: response.statusCode,
				body,
				method: request.method,
				path,
				itemIndex: request.itemIndex,
				context: { creates: !idempotent, ...request.context },
				secret: this.secret,
			});
			if (uncertainKey && GATEWAY_GAVE_UP.has(response.statusCode))
				this.remember(failure, uncertainKey, request);
			throw failure;
		}
	}

	/** Blocks the same create for a while and says so in the error. */
	private remember(error: NodeApiError, key: string, request: TrioRequest): void {
		const until = rememberUncertainCreate(key);
		error.description = [error.description, refusalAdvice(request.createKey ?? 'request', until)]
			.filter(Boolean)
			.join('\n\n');
	}

	private refusedCreate(request: TrioRequest, until: number): NodeOperationError {
		const what = request.createKey ?? 'request';
		return new NodeOperationError(
			this.node,
			`Not sent: the same ${what} failed in the last few minutes in a way that leaves it unknown whether Trio VMS created it`,
			{
				itemIndex: request.itemIndex,
				description: `A gateway error (502 or 504) or a connection broken after sending hid the result of the earlier request, so it may have been created. Sending it again could create it twice. Look for it in Trio VMS, or run Get Many; this refusal ends at ${utcTime(until)}, after which it can be sent again if it is not there.`,
			},
		);
	}

	private buildOptions(request: TrioRequest, url: string): IHttpRequestOptions {
		const headers: IDataObject = { Accept: 'application/json' };
		const options: IHttpRequestOptions = {
			method: request.method as IHttpRequestMethods,
			url,
			headers,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			// Read here, bounded in size and time; every error shape, plain text included, then
			// reaches readServiceMessage.
			encoding: 'stream',
			timeout: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
			// A redirect would carry the X-API-KEY header to wherever it points: it is reported instead.
			disableFollowRedirect: true,
		};
		const query = Object.fromEntries(
			Object.entries(request.query ?? {}).filter(
				([, value]) => value !== undefined && value !== '',
			),
		);
		if (Object.keys(query).length) options.qs = query as IDataObject;
		if (request.multipart) {
			const encoded = encodeMultipart(request.multipart);
			headers['Content-Type'] = encoded.contentType;
			options.body = encoded.body;
		} else if (request.body !== undefined) {
			headers['Content-Type'] = 'application/json';
			options.body = JSON.stringify(request.body);
		}
		return options;
	}

	private unexpected(error: unknown, request: TrioRequest, path: string): Error {
		const blocked = blockedAddress(error);
		if (blocked) return blockedAddressError(this.node, blocked, request.itemIndex);
		if (error instanceof NodeApiError || error instanceof NodeOperationError) {
			error.message = redact(error.message, this.secret);
			if (error.description) error.description = redact(error.description, this.secret);
			return error;
		}
		const message = error instanceof Error ? error.message : String(error);
		return new NodeOperationError(
			this.node,
			redact(
				`The call to Trio VMS (${request.method} ${path}) failed unexpectedly: ${message}. Run the node again; if it fails the same way, report this message to the package's maintainers.`,
				this.secret,
			),
			{
				itemIndex: request.itemIndex,
			},
		);
	}
}

export function createTrioClient(
	functions: TrioFunctions,
	options?: TrioClientOptions,
): TrioClient {
	return new TrioClient(functions, options);
}
