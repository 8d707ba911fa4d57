/**
 * How far apart the transport starts its calls.
 *
 * Trio limits calls (how many over what time is not published) and refuses the rest with 429
 * and a Retry-After in whole seconds. A client that sends as fast as it can until refused, then
 * waits out the Retry-After, loses the rounding on every refusal: at 20 calls a second it sends
 * 20 calls in about 150 ms, is refused, and waits a whole second where the first slot would
 * have freed after 850 ms (87% of the limit, measured in bench/real-n8n). So a refusal also
 * teaches a pace: the calls the service accepted within the Retry-After interval before it
 * refused, spread over that interval with a margin. The following calls keep that pace and meet
 * the limit rarely, if ever, again.
 *
 * A learned pace is never made faster while in use (a later refusal can only slow it), and it
 * lives as long as one execution: the next node of the same execution, using the same service
 * and API key, starts at it instead of learning it again with one more refusal. A new execution
 * starts unpaced, so a limit that was hit once does not slow workflows for ever.
 */
import { sleep } from 'n8n-workflow';

import { setNewest } from '../boundedMap';

/**
 * The learned pause exceeds the measured one by this much: calls start at the client but are
 * counted where they arrive, and 5% of the interval (50 ms a second) absorbs the arrival jitter
 * of a busy n8n without giving up more than 5% of the limit.
 */
export const PACE_MARGIN = 1.05;

/** Accepted calls remembered for learning; more than any limit the interval can count. */
const ACCEPTED_HISTORY = 1_000;

/** Executions whose learned pace is kept; the oldest is forgotten first. */
const MAX_REMEMBERED = 200;

const remembered = new Map<string, number>();

/**
 * When the last paced call of a shared pace started: the next node of the execution keeps the
 * pause after the previous node's last call too, instead of starting with a call right after it.
 */
const lastStarts = new Map<string, number>();

/** The time a pacer reads and waits on. */
export interface PacerClock {
	now(): number;
	sleep(ms: number): Promise<void>;
}

const REAL_CLOCK: PacerClock = { now: () => Date.now(), sleep: async (ms) => await sleep(ms) };

let currentClock: PacerClock = REAL_CLOCK;

/**
 * Replaces the clock of the pacers created from now on (undefined: the real one again). Tests
 * give the pacer and the sandbox's rate limit one virtual clock, so what they prove about the
 * pace does not depend on how fast the machine runs.
 */
export function usePacerClock(replacement: PacerClock | undefined): void {
	currentClock = replacement ?? REAL_CLOCK;
}

/**
 * Which calls share a pace: one execution's calls with one credential, named by the client's
 * credential key (one service and one API key, hashed once, in client.ts).
 */
export function paceKey(executionId: string, credentialKey: string): string {
	return `${executionId}\n${credentialKey}`;
}

/**
 * The pause (ms) that spreads the calls accepted in the `retryAfterMs` before a refusal over
 * that interval, with PACE_MARGIN; undefined when none were accepted (nothing to learn from:
 * others used up the limit). Pure.
 */
export function learnedPause(
	acceptedStarts: readonly number[],
	refusedAt: number,
	retryAfterMs: number,
): number | undefined {
	if (!(retryAfterMs > 0)) return undefined;
	const since = refusedAt - retryAfterMs;
	const accepted = acceptedStarts.filter((start) => start > since && start <= refusedAt).length;
	if (accepted === 0) return undefined;
	return Math.ceil((retryAfterMs * PACE_MARGIN) / accepted);
}

export class CallPacer {
	private lastStartedAt = 0;

	private key: string | undefined;

	private readonly acceptedStarts: number[] = [];

	/** How often a call waited for its turn, and the pause learned from refusals; tests read it. */
	readonly stats = { waits: 0, learnedPauseMs: 0 };

	private readonly clock: PacerClock = currentClock;

	/** @param minPauseMs the user's Pause Between Requests: the pace never goes below it. */
	constructor(private readonly minPauseMs = 0) {}

	/** Waits `ms` on the pacer's clock (the transport's retries wait here too). */
	async wait(ms: number): Promise<void> {
		await this.clock.sleep(ms);
	}

	/** Shares the pace under `key` (see paceKey): adopts one learned earlier in the execution. */
	share(key: string): void {
		this.key = key;
		const earlier = remembered.get(key);
		if (earlier !== undefined && earlier > this.stats.learnedPauseMs) this.setLearned(earlier);
		this.lastStartedAt = Math.max(this.lastStartedAt, lastStarts.get(key) ?? 0);
	}

	/** Waits for the call's turn; returns when it started (ms since the epoch). */
	async nextCall(): Promise<number> {
		const pause = Math.max(this.minPauseMs, this.stats.learnedPauseMs);
		if (pause > 0 && this.lastStartedAt > 0) {
			const wait = this.lastStartedAt + pause - this.clock.now();
			if (wait > 0) {
				this.stats.waits++;
				await this.clock.sleep(wait);
			}
		}
		this.lastStartedAt = this.clock.now();
		if (this.key !== undefined && this.stats.learnedPauseMs > 0)
			setNewest(lastStarts, this.key, this.lastStartedAt, MAX_REMEMBERED);
		return this.lastStartedAt;
	}

	/** The service answered the call started at `startedAt` with something other than 429. */
	accepted(startedAt: number): void {
		this.acceptedStarts.push(startedAt);
		if (this.acceptedStarts.length > ACCEPTED_HISTORY) this.acceptedStarts.shift();
	}

	/** The service refused the call started at `startedAt`, asking for `retryAfterMs`. */
	refused(startedAt: number, retryAfterMs: number): void {
		const pause = learnedPause(this.acceptedStarts, startedAt, retryAfterMs);
		if (pause !== undefined && pause > this.stats.learnedPauseMs) this.setLearned(pause);
	}

	private setLearned(pauseMs: number): void {
		this.stats.learnedPauseMs = pauseMs;
		if (this.key !== undefined) setNewest(remembered, this.key, pauseMs, MAX_REMEMBERED);
	}
}
