/**
 * The one bounded wait of the harness and the tests: poll until something is there, never sleep
 * a fixed time and hope. An absence is proven by waiting for a later marker, not by waiting.
 */
import { sleep, type ExitStatus } from './exec';

export interface WaitOptions {
	/** How long to poll before giving up (ms). */
	timeoutMs: number;
	/** Pause between two checks (ms); default 250. */
	intervalMs?: number;
	/** More evidence for the time-out's message, e.g. the last lines of a log. */
	detail?: () => string;
	/** A reason to give up at once (e.g. the process exited); undefined while worth waiting. */
	stopIf?: () => string | undefined;
}

/**
 * Polls `check` until it returns something other than undefined, and returns that; throws,
 * naming `what` (and `detail`), after `timeoutMs` or as soon as `stopIf` gives a reason.
 */
export async function waitUntil<T>(
	what: string,
	check: () => T | undefined | Promise<T | undefined>,
	options: WaitOptions,
): Promise<T> {
	const deadline = Date.now() + options.timeoutMs;
	const detail = () => (options.detail ? `\n${options.detail()}` : '');
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		const stop = options.stopIf?.();
		if (stop !== undefined) throw new Error(`${stop} before ${what}${detail()}`);
		if (Date.now() > deadline)
			throw new Error(`Timed out after ${options.timeoutMs} ms waiting for ${what}${detail()}`);
		await sleep(options.intervalMs ?? 250);
	}
}

/**
 * Polls `read` until `accept` takes its value; returns the first accepted value or, after the
 * deadline, the last one read, for the caller's assertion to show.
 */
export async function pollUntil<T>(
	read: () => T | Promise<T>,
	accept: (value: T) => boolean,
	timeoutMs: number,
	intervalMs = 250,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let value = await read();
	while (!accept(value) && Date.now() < deadline) {
		await sleep(intervalMs);
		value = await read();
	}
	return value;
}

/** waitUntil for a value: polls `read` every 500 ms until `accept` takes it, and returns it. */
export function waitForValue<T>(
	what: string,
	read: () => Promise<T> | T,
	accept: (value: T) => boolean,
	timeoutMs: number,
): Promise<T> {
	return waitUntil(
		what,
		async () => {
			const value = await read();
			return accept(value) ? value : undefined;
		},
		{ timeoutMs, intervalMs: 500 },
	);
}

/** For stopIf: why a process that exited while it was starting can no longer become ready. */
export function exitedDuringStart(what: string, exit: ExitStatus | undefined): string | undefined {
	return exit
		? `${what} exited during start-up (code ${exit.code}, signal ${exit.signal})`
		: undefined;
}
