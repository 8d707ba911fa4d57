/**
 * Reading an answer: bounded in size, and in time by an idle timeout (no byte for that long)
 * under a ceiling for the whole exchange, so a large answer that keeps arriving is read to its
 * end while one that stalls, or trickles for ever, is given up.
 */
import { jsonParse } from 'n8n-workflow';

/**
 * The largest answer read. The biggest the service sends is the whole job list (about 17 MB at
 * 10,000 jobs); anything far beyond is not an answer to keep in n8n's memory.
 */
export const MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

/**
 * The longest a whole exchange may take while bytes keep arriving. The job list (17 MB) read at
 * 20 KB/s takes about 15 minutes; a slower trickle is given up.
 */
export const MAX_EXCHANGE_MS = 20 * 60_000;

/** The idle timeout when the caller sets none: no byte for this long gives the answer up. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

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

const timedOut = () => new TransportLimitError('ETIMEDOUT', 'no answer in time');

/** Time as the deadlines see it; tests hand in a virtual one. */
export interface DeadlineClock {
	now(): number;
	/** Resolves after `ms` (or later); it must not hold the process open. */
	after(ms: number): Promise<void>;
}

/**
 * Elapsed time, not the time of day: a wall clock set back or forward (NTP, a virtual clock in
 * a test) neither cuts an exchange short nor stretches it. AbortSignal.timeout keeps no handle
 * to clear and does not hold the process open.
 */
const REAL_DEADLINE_CLOCK: DeadlineClock = {
	now: () => performance.now(),
	after: async (ms) =>
		await new Promise<void>((resolve) => {
			AbortSignal.timeout(Math.max(1, Math.ceil(ms))).addEventListener('abort', () => resolve(), {
				once: true,
			});
		}),
};

let currentDeadlineClock: DeadlineClock = REAL_DEADLINE_CLOCK;

/**
 * The clock the client's deadlines run on from now on; undefined restores the real one. Tests of
 * the transport hand in a clock that moves only when they move it, as they do for the pacer
 * (pacing.ts), so a timeout is proven by moving time past it, not by racing a busy machine.
 */
export function useDeadlineClock(replacement: DeadlineClock | undefined): void {
	currentDeadlineClock = replacement ?? REAL_DEADLINE_CLOCK;
}

export function deadlineClock(): DeadlineClock {
	return currentDeadlineClock;
}

/**
 * Fails a wait after `idleMs` without `touch()`, or at `endBy` (on the deadline clock), whichever
 * comes first. It sleeps once per idle period, not once per chunk: on waking it looks at when the
 * last byte came, and sleeps again for what is left.
 *
 * Its sleep outlives the wait (a timer cannot be cleared through the clock), so once the wait
 * settles it lets go of it: a Promise.race against a promise the sleep still holds would keep the
 * answer (a whole job list, 17 MB) reachable until the timer fires, a minute or two later, and a
 * node listing jobs every second would carry dozens of them.
 */
class IdleDeadline {
	private last: number;

	/** Fails the wait in progress; undefined once it has settled. */
	private fail: ((error: Error) => void) | undefined;

	constructor(
		private readonly idleMs: number,
		private readonly endBy: number,
		private readonly clock: DeadlineClock,
	) {
		this.last = clock.now();
	}

	/** Bytes arrived: the idle wait starts again (never past the ceiling). */
	touch(): void {
		this.last = this.clock.now();
	}

	/** Settles like `work`, or fails with a timeout when the deadline comes first. */
	async race<T>(work: Promise<T>): Promise<T> {
		const waiting = new Promise<T>((resolve, reject) => {
			this.fail = reject;
			work.then(resolve, reject);
		});
		void this.watch();
		try {
			return await waiting;
		} finally {
			this.fail = undefined;
		}
	}

	private async watch(): Promise<void> {
		// Each turn sleeps until the earliest moment the deadline could be due, so there are at
		// most as many turns as idle periods that saw a byte, plus one.
		for (;;) {
			if (!this.fail) return;
			const left = Math.min(this.last + this.idleMs, this.endBy) - this.clock.now();
			if (left <= 0) break;
			await this.clock.after(left);
		}
		this.fail?.(timedOut());
	}
}

/** Settles like `work`, or rejects with a timeout once `deadline` (on `clock`) passes. */
export async function beforeDeadline<T>(
	work: Promise<T>,
	deadline: number,
	clock: DeadlineClock = REAL_DEADLINE_CLOCK,
): Promise<T> {
	return await new IdleDeadline(Math.max(1, deadline - clock.now()), deadline, clock).race(work);
}

/** The failure of an answer larger than the node reads. */
function tooLarge(maxBytes: number): TransportLimitError {
	return new TransportLimitError(
		'ERESPONSETOOLARGE',
		`the answer is larger than ${maxBytes} bytes`,
	);
}

export interface ReadLimits {
	maxBytes: number;
	/** Given up when no byte arrives for this long. */
	idleMs: number;
	/** Given up at this time (on the deadline clock) whatever still arrives. */
	endBy: number;
	clock?: DeadlineClock;
}

/**
 * Reads an answer's body within `limits`. When the answer declares its length, a larger one is
 * refused before a byte is read, and the body is read into one buffer of that length: no list
 * of chunks to keep and join (the job list is about 17 MB in a thousand chunks). A body longer
 * than it declared is still read and counted.
 */
export async function readBody(
	body: unknown,
	limits: ReadLimits,
	headers?: Record<string, unknown>,
): Promise<Buffer> {
	const { maxBytes } = limits;
	if (!isReadable(body)) {
		if (body === undefined || body === null) return Buffer.alloc(0);
		return Buffer.isBuffer(body) ? body : Buffer.from(String(body), 'utf8');
	}
	const declared = declaredLength(headers);
	if (declared !== undefined && declared > maxBytes) {
		const error = tooLarge(maxBytes);
		body.destroy(error);
		throw error;
	}
	const deadline = new IdleDeadline(
		limits.idleMs,
		limits.endBy,
		limits.clock ?? REAL_DEADLINE_CLOCK,
	);
	const reading = collect(body, declared, maxBytes, deadline);
	const read = deadline.race(reading);
	// On any failure (deadline, size, broken stream) the connection is closed, not left reading.
	read.catch(() => body.destroy());
	return await read;
}

/**
 * The bytes of a stream, into one buffer of the declared length while it holds, as chunks
 * otherwise; refused once they pass maxBytes, and never half a body when the stream closes early.
 * Each byte that arrives moves the idle deadline on.
 */
function collect(
	body: Readable,
	declared: number | undefined,
	maxBytes: number,
	deadline: IdleDeadline,
): Promise<Buffer> {
	return new Promise<Buffer>((resolve, reject) => {
		let whole = declared ? Buffer.allocUnsafe(declared) : undefined;
		const chunks: Buffer[] = [];
		let size = 0;
		body.on('data', (chunk) => {
			deadline.touch();
			const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, 'utf8');
			const at = size;
			size += buffer.length;
			if (size > maxBytes) {
				const error = tooLarge(maxBytes);
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
}

/** The body as JSON when it looks like JSON, as text otherwise; undefined when empty. */
export function parseBody(raw: unknown, headers: Record<string, unknown>): unknown {
	if (raw === undefined || raw === null) return undefined;
	const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
	if (typeof text !== 'string') return text;
	if (!text.trim()) return undefined;
	const contentType = String(headers['content-type'] ?? '');
	if (contentType.includes('json') || /^\s*[[{"]/.test(text))
		return jsonParse<unknown>(text, { fallbackValue: text });
	return text;
}
