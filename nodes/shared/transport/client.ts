/**
 * The HTTP client: builds the URL from the credential, sends JSON or multipart bodies through
 * n8n's authenticated HTTP helper (which adds X-API-KEY), paces calls, retries what is safe to
 * retry, holds creates in the create memory, and turns failures into NodeApiErrors.
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

import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	BaseUrlError,
	resolveApiRoot,
	TRIO_CREDENTIAL_TYPE,
	type TrioCredentialData,
} from '../credentials';
import { connectionError, isOutcomeUnknown, serviceError, type FailureContext } from '../errors';
import { encodeMultipart, type MultipartPart } from './multipart';
import { redact } from '../secrets';
import { CallPacer, paceKey } from './pacing';
import {
	beforeDeadline,
	DEFAULT_IDLE_TIMEOUT_MS,
	MAX_EXCHANGE_MS,
	MAX_RESPONSE_BYTES,
	parseBody,
	readBody,
	REAL_DEADLINE_CLOCK as deadlines,
} from './body';
import { CreateMemory, memoryScope, type CreateClaim } from './createMemory';
import {
	backoffDelay,
	DEFAULT_RETRY_POLICY,
	errorCode,
	isTimeoutCode,
	markTimedOut,
	NOT_SENT_CODES,
	parseRetryAfter,
	RETRYABLE_STATUSES,
	type RetryPolicy,
} from './retry';
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
	 * For a create: what it makes, in words ("submission of candidate 5001 to job 100001"). It is
	 * held in the create memory while it is sent, and after a failure that leaves its outcome
	 * unknown the same create is refused for a while (UNCERTAIN_CREATE_MS), so Retry On Fail or a
	 * re-run, on this or another worker, cannot make it twice.
	 */
	createKey?: string;
}

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

interface RawResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

function utcTime(ms: number): string {
	return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

/** What the user is told about the refusal that follows an outcome-unknown create. */
function refusalAdvice(what: string, until: number, shared: boolean): string {
	return `Until ${utcTime(until)} this node refuses to send the same ${what} again (also under Retry On Fail or a re-run), so it cannot be created twice. ${memoryScope(shared)} Meanwhile look for it in Trio VMS, or run Get Many; after ${utcTime(until)} it can be sent again if it is not there.`;
}

export function fillPath(path: string, params: Record<string, string | number> = {}): string {
	return path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = params[name];
		if (value === undefined || value === '')
			throw new Error(`Missing path parameter "${name}" for ${path}`);
		return encodeURIComponent(String(value));
	});
}

export class TrioClient {
	private apiRoot: string | undefined;

	private secret: string | undefined;

	private memory: CreateMemory | undefined;

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

	/** The memory of creates for this credential: n8n's shared store when offered. */
	async createMemory(itemIndex?: number): Promise<CreateMemory> {
		const root = await this.root(itemIndex);
		this.memory ??= new CreateMemory(
			(this.functions as { helpers?: unknown }).helpers,
			CreateMemory.scopeFor(root, this.secret ?? ''),
		);
		return this.memory;
	}

	/**
	 * Whether this workflow made this create before, as n8n's shared store remembers it; undefined
	 * when there is no shared store or it cannot be read (the caller then looks in Trio).
	 */
	async createdBefore(createKey: string, itemIndex?: number): Promise<boolean | undefined> {
		return await (await this.createMemory(itemIndex)).createdBefore(createKey);
	}

	/** A create's record was found after all: remembered as made, and no longer refused. */
	async createFound(createKey: string, itemIndex?: number): Promise<void> {
		await (await this.createMemory(itemIndex)).found(createKey);
	}

	/**
	 * The one entry every request goes through. A create (createKey, not idempotent) is held in
	 * the create memory while it is sent, and refused while the same create is held.
	 */
	async request<T = unknown>(request: TrioRequest): Promise<T> {
		const root = await this.root(request.itemIndex);
		const idempotent = request.idempotent ?? request.method === 'GET';
		if (!request.createKey || idempotent) return await this.send<T>(request, root, idempotent);

		const memory = await this.createMemory(request.itemIndex);
		const claim = await this.claim(memory, request);
		const sent = await this.send<T>(request, root, idempotent).then(
			(value) => ({ value }),
			(failure: unknown) => ({ failure }),
		);
		if ('value' in sent) {
			await memory.settle(claim, 'created');
			return sent.value;
		}
		const failure = sent.failure;
		if (!isOutcomeUnknown(failure)) {
			await memory.settle(claim, 'notCreated');
			throw this.unexpected(failure, request, request.path);
		}
		const until = await memory.settle(claim, 'unknown');
		if (until !== undefined) {
			failure.description = [
				failure.description,
				refusalAdvice(request.createKey, until, memory.shared),
			]
				.filter(Boolean)
				.join('\n\n');
		}
		return await Promise.reject(failure);
	}

	private async claim(memory: CreateMemory, request: TrioRequest): Promise<CreateClaim> {
		const what = request.createKey ?? 'request';
		const result = await memory.claim(what);
		if ('unreadable' in result) {
			throw new NodeOperationError(
				this.node,
				`Not sent: this workflow's memory of what it sent could not be read (${result.unreadable})`,
				{
					itemIndex: request.itemIndex,
					description: `Without it, the node cannot tell whether the same ${what} is already being sent or failed a moment ago in a way that may have created it, so sending it could create it twice. Run the item again once n8n's database answers. If another node of this workflow (such as Remove Duplicates) keeps its history for the whole workflow in another way, set that node to keep it for itself.`,
				},
			);
		}
		if (result.refused) throw this.refusedCreate(request, result.until, memory.shared);
		return result.claim;
	}

	private async send<T>(request: TrioRequest, root: string, idempotent: boolean): Promise<T> {
		const path = fillPath(request.path, request.pathParams);
		const options = this.buildOptions(request, `${root}${path}`);
		const idleMs = this.options.timeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;

		for (let attempt = 0; ; attempt++) {
			const startedAt = await this.pacer.nextCall();
			let response: RawResponse;
			let raw: Buffer;
			// The timeout is an idle timeout: the headers must come within twice it, and the body
			// may pause that long between bytes. A body that keeps arriving is read to its end, up
			// to a ceiling for the whole exchange, so a trickle cannot hold the node for ever.
			const endBy =
				deadlines.now() + Math.max(2 * idleMs, this.options.maxExchangeMs ?? MAX_EXCHANGE_MS);
			try {
				this.stats.requests++;
				response = (await beforeDeadline(
					this.functions.helpers.httpRequestWithAuthentication.call(
						this.functions,
						TRIO_CREDENTIAL_TYPE,
						options,
					) as Promise<RawResponse>,
					Math.min(endBy, deadlines.now() + 2 * idleMs),
				)) as RawResponse;
				raw = await readBody(
					response.body,
					{
						maxBytes: this.options.maxResponseBytes ?? MAX_RESPONSE_BYTES,
						idleMs,
						endBy,
					},
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
					outcomeUnknown: reachedService && !idempotent && code !== 'ERESPONSETOOLARGE',
					timedOut: isTimeoutCode(code),
					secret: this.secret,
				});
				throw isTimeoutCode(code) ? markTimedOut(failure) : failure;
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
			throw serviceError(this.node, {
				status: response.statusCode,
				body,
				method: request.method,
				path,
				itemIndex: request.itemIndex,
				context: { creates: !idempotent, ...request.context },
				secret: this.secret,
			});
		}
	}

	private refusedCreate(request: TrioRequest, until: number, shared: boolean): NodeOperationError {
		const what = request.createKey ?? 'request';
		return new NodeOperationError(
			this.node,
			`Not sent: the same ${what} failed in the last few minutes in a way that leaves it unknown whether Trio VMS created it, or is being sent right now`,
			{
				itemIndex: request.itemIndex,
				description: `An error answer from Trio VMS or a gateway (5xx), or a connection broken after sending, hid the result of the earlier request, so it may have been created. Sending it again could create it twice. ${memoryScope(shared)} Look for it in Trio VMS, or run Get Many; this refusal ends at ${utcTime(until)}, after which it can be sent again if it is not there.`,
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
			timeout: this.options.timeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
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
