/**
 * Faults on demand, so clients can be tested against a misbehaving service: latency, error
 * answers, rate limiting, dropped connections and duplicate webhook deliveries. Off by default.
 * Random decisions use a PRNG reseeded on every configuration change, so a given configuration
 * fails the same requests on every run.
 */
import { z } from 'zod/v3';

import { Rng } from './random';

const answerStatus = z.number().int().min(400).max(599);

const endpointFaultSchema = z
	.object({
		/** Added before anything else happens to the request. */
		latencyMs: z.number().int().min(0).max(120_000).optional(),
		/** Share (0..1) of requests answered with `failStatus`. */
		failRate: z.number().min(0).max(1).optional(),
		/** The next n requests are answered with `failStatus`. */
		failNext: z.number().int().min(0).optional(),
		/** Lets n requests through, answers the one after with `failStatus`, then lets the rest through: `2` fails the third. */
		failAfter: z.number().int().min(0).optional(),
		/** One status, or several to draw from; default 503. */
		failStatus: z.union([answerStatus, z.array(answerStatus).min(1)]).optional(),
		/** Body of a fault answer: problem details (default), plain text as a proxy sends, or none. */
		failBody: z.enum(['problem', 'text', 'empty']).optional(),
		rateLimit: z
			.object({
				limit: z.number().int().min(1),
				windowMs: z.number().int().min(1),
				/** Retry-After value; by default the seconds until the window frees a slot. */
				retryAfterSeconds: z.number().int().min(0).optional(),
			})
			.strict()
			.optional(),
		/** Close the socket without an answer, before the handler runs (nothing is changed). */
		dropNext: z.number().int().min(0).optional(),
		dropRate: z.number().min(0).max(1).optional(),
		/** Run the handler (the change happens), then close the socket without an answer. */
		dropAfterHandlerNext: z.number().int().min(0).optional(),
		/**
		 * Run the handler (the change happens), then answer `failStatus` (default 504) as a gateway
		 * that gave up waiting would: the client cannot tell whether anything was stored. A 429
		 * carries `Retry-After: 1`, as a gateway that rate-limits after forwarding answers.
		 */
		failAfterHandlerNext: z.number().int().min(0).optional(),
		/** Make the handler throw an unexpected error: proves a 500 is answered, never a crash. */
		throwNext: z.number().int().min(0).optional(),
	})
	.strict();

const ENDPOINT_KEY = /^(\*|(GET|POST|PUT|PATCH|DELETE) \/\S*)$/;

export const faultConfigSchema = z
	.object({
		endpoints: z
			.record(endpointFaultSchema)
			.default({})
			.superRefine((endpoints, ctx) => {
				for (const key of Object.keys(endpoints)) {
					if (!ENDPOINT_KEY.test(key)) {
						ctx.addIssue({
							code: 'custom',
							path: [key],
							message:
								'must be "*" or "METHOD /path", e.g. "GET /api/v3/Job" or "GET /api/v3/Job/{number}"',
						});
					}
				}
			}),
		/** Every webhook delivery is sent 1 + duplicates times. */
		duplicates: z.number().int().min(0).max(10).default(0),
		/**
		 * Shifts the Date header of every API answer by this many milliseconds, as a service or a
		 * gateway whose clock is wrong: 3600000 is an hour ahead, minus the current time is 1970.
		 */
		dateOffsetMs: z.number().int().optional(),
	})
	.strict();

export type EndpointFault = z.infer<typeof endpointFaultSchema>;
export type FaultConfig = z.infer<typeof faultConfigSchema>;

export type FaultDecision =
	| { kind: 'pass' }
	| { kind: 'drop' }
	| { kind: 'fail'; status: number; body: 'problem' | 'text' | 'empty' }
	| { kind: 'rateLimited'; retryAfterSeconds: number };

export class Faults {
	private config: FaultConfig = { endpoints: {}, duplicates: 0 };
	private rng: Rng;
	private readonly windows = new Map<string, number[]>();

	constructor(private readonly seed: number) {
		this.rng = Rng.derive(seed, 'faults');
	}

	set(config: FaultConfig): void {
		this.config = structuredClone(config);
		this.windows.clear();
		this.rng = Rng.derive(this.seed, 'faults');
	}

	clear(): void {
		this.set({ endpoints: {}, duplicates: 0 });
	}

	/** The configuration with counters as they stand (failNext and the like count down). */
	get(): FaultConfig {
		return structuredClone(this.config);
	}

	get duplicates(): number {
		return this.config.duplicates;
	}

	/** The Date header for an API answer given now, or undefined for the server's own. */
	answerDate(nowMs: number): string | undefined {
		const offset = this.config.dateOffsetMs;
		return offset === undefined ? undefined : new Date(Math.max(0, nowMs + offset)).toUTCString();
	}

	/** Entries that apply to a request: its concrete path, its route template, and "*". */
	private entries(keys: readonly string[]): Array<[string, EndpointFault]> {
		const seen = new Set<string>();
		const result: Array<[string, EndpointFault]> = [];
		for (const key of [...keys, '*']) {
			const fault = this.config.endpoints[key];
			if (fault && !seen.has(key)) {
				seen.add(key);
				result.push([key, fault]);
			}
		}
		return result;
	}

	latency(keys: readonly string[]): number {
		return this.entries(keys).reduce((sum, [, fault]) => sum + (fault.latencyMs ?? 0), 0);
	}

	/** Decided in order drop, rate limit, failure; counters only move when they fire. */
	before(keys: readonly string[], now = Date.now()): FaultDecision {
		const entries = this.entries(keys);
		for (const [, fault] of entries) {
			if (
				this.consume(fault, 'dropNext') ||
				(fault.dropRate !== undefined && this.rng.chance(fault.dropRate))
			)
				return { kind: 'drop' };
		}
		for (const [key, fault] of entries) {
			if (!fault.rateLimit) continue;
			const { limit, windowMs, retryAfterSeconds } = fault.rateLimit;
			const hits = (this.windows.get(key) ?? []).filter((time) => time > now - windowMs);
			this.windows.set(key, hits);
			if (hits.length >= limit) {
				const freesInMs = hits[0] + windowMs - now;
				return {
					kind: 'rateLimited',
					retryAfterSeconds: retryAfterSeconds ?? Math.max(1, Math.ceil(freesInMs / 1000)),
				};
			}
			hits.push(now);
		}
		for (const [, fault] of entries) {
			if (
				this.failAfterFires(fault) ||
				this.consume(fault, 'failNext') ||
				(fault.failRate !== undefined && this.rng.chance(fault.failRate))
			) {
				return {
					kind: 'fail',
					status: this.failStatus(fault, 503),
					body: fault.failBody ?? 'problem',
				};
			}
		}
		return { kind: 'pass' };
	}

	shouldThrow(keys: readonly string[]): boolean {
		return this.entries(keys).some(([, fault]) => this.consume(fault, 'throwNext'));
	}

	shouldDropAfterHandler(keys: readonly string[]): boolean {
		return this.entries(keys).some(([, fault]) => this.consume(fault, 'dropAfterHandlerNext'));
	}

	/** The status to answer after the handler ran, or undefined when no such fault fires. */
	failAfterHandler(keys: readonly string[]): number | undefined {
		for (const [, fault] of this.entries(keys)) {
			if (!this.consume(fault, 'failAfterHandlerNext')) continue;
			return this.failStatus(fault, 504);
		}
		return undefined;
	}

	/**
	 * The status a fault answers: drawn from its statuses, or from the kind's default. A single
	 * status is drawn too, so the fault generator's sequence (and a seeded run) stays as it was.
	 */
	private failStatus(fault: EndpointFault, otherwise: number): number {
		const { failStatus = otherwise } = fault;
		return this.rng.pick(Array.isArray(failStatus) ? failStatus : [failStatus]);
	}

	/** Counts `failAfter` down; at 0 it fires once and is removed. */
	private failAfterFires(fault: EndpointFault): boolean {
		if (fault.failAfter === undefined) return false;
		if (fault.failAfter > 0) {
			fault.failAfter -= 1;
			return false;
		}
		delete fault.failAfter;
		return true;
	}

	private consume(
		fault: EndpointFault,
		counter:
			'dropNext' | 'failNext' | 'throwNext' | 'dropAfterHandlerNext' | 'failAfterHandlerNext',
	): boolean {
		const left = fault[counter] ?? 0;
		if (left <= 0) return false;
		fault[counter] = left - 1;
		return true;
	}
}
