/**
 * The HTTP client: the exchange. It reads the API root from the credential, sends the request
 * request.ts built through n8n's authenticated HTTP helper (which adds X-API-KEY), paces calls,
 * retries what is safe to retry, never re-sends a create once it may have reached the service,
 * and turns failures into NodeApiErrors.
 */
import { createHash } from 'node:crypto';
import type {
	IExecuteFunctions,
	IHookFunctions,
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
import { connectionError, serviceError } from '../errors';
import { markRetryAfter } from '../failureMarks';
import { redact } from '../secrets';
import { CallPacer, paceKey } from './pacing';
import {
	beforeDeadline,
	DEFAULT_IDLE_TIMEOUT_MS,
	MAX_EXCHANGE_MS,
	MAX_RESPONSE_BYTES,
	parseBody,
	deadlineClock,
	readBody,
} from './body';
import {
	backoffDelay,
	createOutcomeUnknown,
	DEFAULT_RETRY_POLICY,
	errorCode,
	honouredRetryAfter,
	isTimeoutCode,
	looksBeforeResend,
	mayResendAfterAnswer,
	mayResendAfterNoAnswer,
	parseRetryAfter,
	type RetryPolicy,
} from './retry';
import { fillPath, httpOptions, type TrioRequest } from './request';
import { lookBeforeResend } from './resendLook';
import type { TrioClientOptions } from './options';
import { blockedAddress, blockedAddressError, refusedBeforeSending } from './ssrf';
import { ServiceClock } from './serviceClock';

export type TrioFunctions =
	IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

/** One try of a request: what was asked, where, whether it may be repeated, which try it is. */
interface Attempt {
	request: TrioRequest;
	path: string;
	idempotent: boolean;
	attempt: number;
}

interface RawResponse {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

export class TrioClient {
	private apiRoot: string | undefined;

	private secret: string | undefined;

	private readonly retry: RetryPolicy;

	private readonly pacer: CallPacer;

	/** Counts what actually went over the wire; benchmarks and tests read it. */
	readonly stats = { requests: 0, retries: 0 };

	/** Trio's clock: only its own successful answers set it (serviceClock.ts). */
	private readonly clock = new ServiceClock();

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

	get node(): INode {
		return this.functions.getNode();
	}

	/** n8n's helpers of the calling node (the create memory uses its duplicate store). */
	get helpers(): unknown {
		return (this.functions as { helpers?: unknown }).helpers;
	}

	/** The workflow's id, when the context has one. */
	get workflowId(): string | undefined {
		try {
			const id = this.functions.getWorkflow().id;
			return id ? String(id) : undefined;
		} catch {
			return undefined;
		}
	}

	/**
	 * The service's own clock at its last successful answer (its Date header), so a caller can
	 * tell a timestamp in the future from the service's point of view. Undefined until Trio has
	 * answered 2xx with a Date within MAX_CLOCK_SKEW_MS of n8n's clock: the caller then uses n8n's.
	 */
	get serviceDateMs(): number | undefined {
		return this.clock.lastDateMs;
	}

	/**
	 * The service's clock now, from the Date header of its last successful answer plus the time
	 * since on this process's monotonic clock: one clock for every worker, whatever their own say.
	 * Undefined as serviceDateMs is: never from a failed answer, which a gateway may have written.
	 */
	serviceNow(): number | undefined {
		return this.clock.now();
	}

	private async root(itemIndex?: number): Promise<string> {
		if (this.apiRoot === undefined) {
			const credentials = (await this.functions.getCredentials(
				TRIO_CREDENTIAL_TYPE,
			)) as TrioCredentialData;
			this.secret = credentials.apiKey;
			let root: string;
			try {
				root = resolveApiRoot(credentials);
			} catch (error) {
				const message =
					error instanceof BaseUrlError
						? error.message
						: `The Trio VMS credential could not be read: ${String(error)}. Open the credential, check Environment and API Key, and save it again.`;
				throw new NodeOperationError(this.node, message, { itemIndex });
			}
			// Trio's own addresses are public; a Custom URL (a proxy, the sandbox) may be refused.
			if (credentials.environment === 'custom') {
				const blocked = await refusedBeforeSending(this.helpers, root);
				if (blocked) throw blockedAddressError(this.node, blocked, itemIndex);
			}
			this.apiRoot = root;
			const executionId = this.executionId();
			if (executionId) this.pacer.share(paceKey(executionId, this.keyOf(root)));
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

	/**
	 * One service and one API key, hashed: the credential's one name in every memory that outlives
	 * a call (the pace of an execution, the list search's choices, the memory of creates).
	 */
	async credentialKey(itemIndex?: number): Promise<string> {
		return this.keyOf(await this.root(itemIndex));
	}

	private keyOf(root: string): string {
		return createHash('sha256')
			.update(`${root}\n${this.secret ?? ''}`)
			.digest('hex')
			.slice(0, 16);
	}

	/**
	 * The one entry every request goes through. A request that is not idempotent is never sent
	 * again once it may have reached the service (helpers/createOnce.ts keeps a create from being
	 * sent twice across runs).
	 */
	async request<T = unknown>(request: TrioRequest): Promise<T> {
		const root = await this.root(request.itemIndex);
		const idempotent = request.idempotent ?? request.method === 'GET';
		return await this.send<T>(request, root, idempotent);
	}

	private async send<T>(request: TrioRequest, root: string, idempotent: boolean): Promise<T> {
		const path = fillPath(request.path, request.pathParams);
		const idleMs = this.options.timeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
		const options = httpOptions(request, `${root}${path}`, idleMs);

		for (let attempt = 0; ; attempt++) {
			const startedAt = await this.pacer.nextCall();
			let answer: { response: RawResponse; raw: Buffer };
			try {
				this.stats.requests++;
				answer = await this.exchange(options, idleMs);
			} catch (error) {
				this.pacer.ended(startedAt);
				await this.afterNoAnswer(error, { request, path, idempotent, attempt });
				continue;
			}
			const { response, raw } = answer;
			const body = parseBody(raw, response.headers ?? {});
			if (response.statusCode !== 429) this.pacer.accepted(startedAt);
			if (response.statusCode >= 200 && response.statusCode < 300) {
				this.clock.answered(response.headers?.date);
				return body as T;
			}
			const found = await this.afterErrorAnswer(response, body, startedAt, {
				request,
				path,
				idempotent,
				attempt,
			});
			if (found) return found.record as T;
		}
	}

	/**
	 * An error answer: learns the pace from a 429, waits before the next try when the request may
	 * be sent again (retry.ts decides which), else throws the answer as a NodeApiError. A create's
	 * look, after the wait, may find what it made: that record is returned instead of a next try.
	 */
	private async afterErrorAnswer(
		response: RawResponse,
		body: unknown,
		startedAt: number,
		at: Attempt,
	): Promise<{ record: unknown } | undefined> {
		const { request, idempotent, attempt } = at;
		const status = response.statusCode;
		const retryAfter = parseRetryAfter(response.headers?.['retry-after']);
		const honoured = honouredRetryAfter(retryAfter, this.retry);
		if (status === 429) this.pacer.refused(startedAt, honoured);
		const answerError = (lookFailed?: string) =>
			markRetryAfter(
				serviceError(this.node, {
					status,
					body,
					method: request.method,
					path: at.path,
					itemIndex: request.itemIndex,
					context: { creates: !idempotent, ...request.context },
					secret: this.secret,
					retryAfterMs: retryAfter,
					lookFailed,
				}),
				retryAfter,
			);
		const look = looksBeforeResend(status, idempotent) ? request.lookBeforeResend : undefined;
		const lastAttempt = attempt >= this.retry.maxRetries;
		// The last 429 is looked behind too: thrown unlooked, it would pass for "not stored", and
		// running the row again could make a second record.
		if (!mayResendAfterAnswer(status, idempotent) || (lastAttempt && !look)) throw answerError();
		await this.pacer.wait(honoured ?? backoffDelay(attempt, this.retry));
		const found = look ? await lookBeforeResend(look, answerError) : undefined;
		if (!found && lastAttempt) throw answerError();
		if (!found) this.stats.retries++;
		return found;
	}

	/**
	 * One exchange: the answer's headers, then its body. The timeout is an idle timeout: the
	 * headers must come within twice it, and the body may pause that long between bytes. A body
	 * that keeps arriving is read to its end, up to a ceiling for the whole exchange, so a trickle
	 * cannot hold the node for ever.
	 */
	private async exchange(
		options: ReturnType<typeof httpOptions>,
		idleMs: number,
	): Promise<{ response: RawResponse; raw: Buffer }> {
		const clock = deadlineClock();
		const endBy = clock.now() + Math.max(2 * idleMs, this.options.maxExchangeMs ?? MAX_EXCHANGE_MS);
		const response = (await beforeDeadline(
			this.functions.helpers.httpRequestWithAuthentication.call(
				this.functions,
				TRIO_CREDENTIAL_TYPE,
				options,
			) as Promise<RawResponse>,
			Math.min(endBy, clock.now() + 2 * idleMs),
			clock,
		)) as RawResponse;
		const maxBytes = this.options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
		const raw = await readBody(response.body, { maxBytes, idleMs, endBy, clock }, response.headers);
		return { response, raw };
	}

	/**
	 * An exchange that brought no answer: waits before the next try when one is safe (never for
	 * an answer too large, nor for a create that may have reached the service), else throws.
	 */
	private async afterNoAnswer(error: unknown, at: Attempt): Promise<void> {
		const { request, path, idempotent, attempt } = at;
		const code = errorCode(error);
		if (!code) throw this.unexpected(error, request, path);
		if (mayResendAfterNoAnswer(code, idempotent) && attempt < this.retry.maxRetries) {
			this.stats.retries++;
			await this.pacer.wait(backoffDelay(attempt, this.retry));
			return;
		}
		throw connectionError(this.node, {
			code,
			method: request.method,
			path,
			itemIndex: request.itemIndex,
			outcomeUnknown: createOutcomeUnknown(code, idempotent),
			timedOut: isTimeoutCode(code),
			secret: this.secret,
		});
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
