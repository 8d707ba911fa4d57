/**
 * The sandbox server: one node:http server that answers the agency API under /api/v3 (faults,
 * request log, key check, handler) and the scenario API under /_sandbox (none of those).
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createApiRouter } from './api';
import type { ApiRoute } from './api';
import { Deliveries } from './deliveries';
import { Faults } from './faults';
import type { FaultDecision } from './faults';
import { HttpError, problemResult, send, statusTitle } from './http';
import type { Handler, Result, RouteMatch, Router } from './http';
import { PerDiem } from './per-diem';
import { queryObject, RequestLog } from './request-log';
import type { KeyUse, RequestRecord } from './request-log';
import { createScenarioRouter, describeRoutes, SCENARIO_PREFIX } from './scenario';
import { Store } from './store';
import { API_PREFIX } from './wire';

export interface SandboxConfig {
	port: number;
	host: string;
	seed: number;
	jobs: number;
	adminKey: string;
	key: string;
	quiet: boolean;
	referenceDate?: Date;
	deliveryTimeoutMs?: number;
	allowHttpWebhooks: boolean;
}

/** The Retry-After, in seconds, of a 429 answered after the handler ran (failAfterHandlerNext). */
const GATEWAY_RETRY_AFTER = '1';

function countBy<T>(items: Iterable<T>, key: (item: T) => string): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
	return counts;
}

function faultResult(decision: Extract<FaultDecision, { kind: 'fail' }>): Result {
	if (decision.body === 'empty') return { status: decision.status };
	if (decision.body === 'text')
		return { status: decision.status, text: `${decision.status} ${statusTitle(decision.status)}` };
	return problemResult(
		new HttpError(
			decision.status,
			`Injected fault: the sandbox answered ${decision.status} on purpose (PUT ${SCENARIO_PREFIX}/faults).`,
		),
	);
}

export class Sandbox {
	readonly store: Store;
	readonly perDiem: PerDiem;
	readonly deliveries: Deliveries;
	readonly faults: Faults;
	readonly requests = new RequestLog();
	/** Keys the agency revoked in Trio: answered as any unknown key is, until reset. */
	readonly revokedKeys = new Set<string>();
	/** Unexpected exceptions answered with 500; a test can assert there were none. */
	readonly internalErrors: Error[] = [];
	url = '';

	private readonly apiRouter: Router<ApiRoute>;
	private readonly scenarioRouter: Router<Handler>;
	private readonly server: http.Server;
	private readonly delays = new Set<{
		timer: NodeJS.Timeout;
		resolve: () => void;
		ms: number;
	}>();
	private stopping?: Promise<void>;

	constructor(readonly config: SandboxConfig) {
		const log = config.quiet ? undefined : (line: string) => console.log(line);
		this.faults = new Faults(config.seed);
		this.deliveries = new Deliveries({
			registrations: () => [...this.store.registrations.values()],
			duplicates: () => this.faults.duplicates,
			timeoutMs: config.deliveryTimeoutMs,
			log,
		});
		this.store = new Store({
			seed: config.seed,
			jobs: config.jobs,
			referenceDate: config.referenceDate,
			allowHttpWebhooks: config.allowHttpWebhooks,
			emit: (event, payload) => {
				this.deliveries.dispatch(event, payload);
			},
		});
		this.perDiem = new PerDiem(this.store);
		this.apiRouter = createApiRouter(this.store);
		this.scenarioRouter = createScenarioRouter({
			store: this.store,
			perDiem: this.perDiem,
			deliveries: this.deliveries,
			faults: this.faults,
			requests: this.requests,
			reset: (options) => this.reset(options),
			summary: () => this.summary(),
		});
		this.server = http.createServer((req, res) => {
			void this.handle(req, res);
		});
	}

	async listen(): Promise<string> {
		await new Promise<void>((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(this.config.port, this.config.host, () => {
				this.server.off('error', reject);
				resolve();
			});
		});
		const { port } = this.server.address() as AddressInfo;
		const host = this.config.host;
		// A wildcard bind is reached through loopback from the same machine.
		const shown =
			host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
		this.url = `http://${shown}:${port}`;
		return this.url;
	}

	/** What the rate limit counts its window on: the machine's time unless a test gives its own. */
	faultClock: () => number = () => Date.now();

	/** The latencies (ms) of the requests a fault is holding now: tests see a delay without timing it. */
	heldRequests(): number[] {
		return [...this.delays].map((delay) => delay.ms);
	}

	/** Ends every fault delay now, so held requests go on at once. */
	releaseHeld(): void {
		for (const delay of this.delays) {
			clearTimeout(delay.timer);
			delay.resolve();
		}
		this.delays.clear();
	}

	/** Closes the server, in-flight deliveries and fault delays: nothing is left open. */
	stop(): Promise<void> {
		this.stopping ??= (async () => {
			await this.deliveries.stop();
			this.releaseHeld();
			await new Promise<void>((resolve) => {
				this.server.close(() => resolve());
				this.server.closeAllConnections();
			});
		})();
		return this.stopping;
	}

	reset(options: { seed?: number; jobs?: number; keepWebhooks?: boolean } = {}): void {
		this.revokedKeys.clear();
		this.store.reset({
			seed: options.seed ?? this.store.seed,
			jobs: options.jobs ?? this.store.jobCount,
			keepWebhooks: options.keepWebhooks,
		});
		this.faults.clear();
		this.deliveries.clear();
		this.requests.clear();
		this.internalErrors.length = 0;
	}

	summary(): Record<string, unknown> {
		const { store } = this;
		return {
			service: 'Trio VMS sandbox',
			url: this.url,
			api: `${this.url}${API_PREFIX}`,
			seed: store.seed,
			jobs: countBy(store.jobs.values(), (record) => String(record.job.JobStatus)),
			candidates: store.candidates.size,
			submissions: countBy(store.submissions.values(), (record) => record.submission.Status),
			perDiemShifts: countBy(store.shifts.values(), (shift) => shift.Status),
			webhookRegistrations: {
				total: store.registrations.size,
				active: [...store.registrations.values()].filter((r) => r.IsActive).length,
			},
			deliveries: this.deliveries.records().length,
			requests: this.requests.records().length,
			faults: this.faults.get(),
			internalErrors: this.internalErrors.map((error) => error.message),
			routes: describeRoutes([this.apiRouter, this.scenarioRouter] as Array<Router<unknown>>),
		};
	}

	private delay(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const entry = {
				timer: setTimeout(() => {
					this.delays.delete(entry);
					resolve();
				}, ms),
				resolve,
				ms,
			};
			this.delays.add(entry);
		});
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		// Concatenated rather than resolved: '//api/v3/Job' (a base URL with a trailing slash)
		// must stay a path, not become host 'api'.
		const url = new URL(`http://sandbox.invalid${req.url ?? '/'}`);
		let path = url.pathname;
		if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
		const method = (req.method ?? 'GET').toUpperCase();
		try {
			if (path === SCENARIO_PREFIX || path.startsWith(`${SCENARIO_PREFIX}/`))
				await this.handleScenario(req, res, method, path, url);
			else await this.handleApi(req, res, method, path, url);
		} catch (error) {
			// Last line of defence: whatever happens, answer instead of crashing the process.
			send(res, this.errorResult(error));
		}
	}

	private async handleScenario(
		req: IncomingMessage,
		res: ServerResponse,
		method: string,
		path: string,
		url: URL,
	): Promise<void> {
		let result: Result;
		try {
			const match = this.scenarioRouter.match(method, path);
			result = await this.dispatch(match, method, path, (route, params) =>
				route.handler({ req, params, query: url.searchParams }),
			);
		} catch (error) {
			result = this.errorResult(error);
		}
		req.resume();
		send(res, result);
	}

	private async handleApi(
		req: IncomingMessage,
		res: ServerResponse,
		method: string,
		path: string,
		url: URL,
	): Promise<void> {
		const started = Date.now();
		const match = this.apiRouter.match(method, path);
		const route = match.kind === 'found' ? `${method} ${match.route.path}` : null;
		const keys = route ? [`${method} ${path}`, route] : [`${method} ${path}`];
		const entry: Omit<RequestRecord, 'id'> = {
			time: new Date(started).toISOString(),
			method,
			path,
			query: queryObject(url.searchParams),
			route,
			key: 'not checked',
			contentType: req.headers['content-type'] ?? null,
			status: null,
			outcome: 'answered',
			fault: null,
			durationMs: 0,
		};
		const finish = (status: number | null, outcome: RequestRecord['outcome']) => {
			entry.status = status;
			entry.outcome = outcome;
			entry.durationMs = Date.now() - started;
			this.requests.add(entry);
			if (!this.config.quiet)
				console.log(
					`${method} ${path}${url.search} ${status ?? outcome} ${entry.durationMs}ms${entry.fault ? ` [${entry.fault}]` : ''}`,
				);
		};
		const drop = () => {
			req.socket.destroy();
			res.destroy();
		};

		let result: Result;
		try {
			const latency = this.faults.latency(keys);
			if (latency > 0) {
				entry.fault = `latency ${latency}ms`;
				await this.delay(latency);
			}
			const decision = this.faults.before(keys, this.faultClock());
			if (decision.kind === 'drop') {
				entry.fault = 'drop';
				drop();
				finish(null, 'dropped');
				return;
			}
			if (decision.kind === 'rateLimited') {
				entry.fault = 'rateLimit';
				const seconds = String(decision.retryAfterSeconds);
				result = problemResult(
					new HttpError(429, `Rate limit exceeded. Retry after ${seconds} seconds.`, undefined, {
						'Retry-After': seconds,
					}),
				);
			} else if (decision.kind === 'fail') {
				entry.fault = `fail ${decision.status}`;
				result = faultResult(decision);
			} else {
				entry.key = this.keyUse(req);
				result = await this.dispatch(match, method, path, (apiRoute, params) => {
					this.authorize(entry.key, apiRoute.handler.admin);
					if (this.faults.shouldThrow(keys))
						throw new Error('forced internal error (fault throwNext)');
					return apiRoute.handler.handle({ req, params, query: url.searchParams });
				});
				if (this.faults.shouldDropAfterHandler(keys)) {
					entry.fault = `dropAfterHandler (handler answered ${result.status})`;
					drop();
					finish(null, 'dropped after handler');
					return;
				}
				const gatewayStatus = this.faults.failAfterHandler(keys);
				if (gatewayStatus !== undefined) {
					entry.fault = `failAfterHandler ${gatewayStatus} (handler answered ${result.status})`;
					result = faultResult({ kind: 'fail', status: gatewayStatus, body: 'text' });
					// A gateway that rate-limits after forwarding says when to come back, as every 429 here does.
					if (gatewayStatus === 429)
						result = {
							...result,
							headers: { ...result.headers, 'Retry-After': GATEWAY_RETRY_AFTER },
						};
				}
			}
		} catch (error) {
			result = this.errorResult(error);
		}
		req.resume();
		const date = this.faults.answerDate(Date.now());
		if (date) result = { ...result, headers: { ...result.headers, Date: date } };
		send(res, result);
		finish(result.status, 'answered');
	}

	private async dispatch<H>(
		match: RouteMatch<H>,
		method: string,
		path: string,
		run: (
			route: { handler: H; path: string },
			params: Record<string, string>,
		) => Promise<Result> | Result,
	): Promise<Result> {
		if (match.kind === 'none') {
			throw new HttpError(
				404,
				`No route ${method} ${path}. The API is under ${API_PREFIX} (paths are case-sensitive); the scenario API under ${SCENARIO_PREFIX}.`,
			);
		}
		if (match.kind === 'method') {
			throw new HttpError(
				405,
				`${path} does not take ${method}; it takes ${match.allowed.join(', ')}.`,
				undefined,
				{ Allow: match.allowed.join(', ') },
			);
		}
		return run(match.route, match.params);
	}

	private keyUse(req: IncomingMessage): KeyUse {
		const given = req.headers['x-api-key'];
		if (given === undefined || given === '') return 'missing';
		if (typeof given === 'string' && this.revokedKeys.has(given)) return 'invalid';
		if (given === this.config.adminKey) return 'admin';
		if (given === this.config.key) return 'agency';
		return 'invalid';
	}

	private authorize(key: KeyUse, admin: boolean): void {
		if (key === 'missing')
			throw new HttpError(
				403,
				"The X-API-KEY header is missing. Every API request carries the agency's API key.",
			);
		if (key === 'invalid')
			throw new HttpError(403, 'The API key is not valid: it is unknown, expired or revoked.');
		if (admin && key !== 'admin') {
			throw new HttpError(
				403,
				'Managing webhooks requires the agency administrator permission; the API key belongs to a user without it.',
			);
		}
	}

	private errorResult(error: unknown): Result {
		if (error instanceof HttpError) return problemResult(error);
		const failure = error instanceof Error ? error : new Error(String(error));
		this.internalErrors.push(failure);
		if (!this.config.quiet) console.error('sandbox: unexpected error', failure);
		return problemResult(
			new HttpError(500, `The sandbox hit an unexpected error: ${failure.message}`),
		);
	}
}
