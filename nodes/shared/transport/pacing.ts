/**
 * When the transport may start its next call.
 *
 * Trio limits calls (how many over what time is not published) and refuses the rest with 429
 * and a Retry-After in whole seconds. A client that sends as fast as it can until refused, then
 * waits out the Retry-After, loses the rounding on every refusal: at 20 calls a second it sends
 * 20 calls in about 150 ms, is refused, and waits a whole second where the first slot would
 * have freed after 850 ms (87% of the limit, measured in bench/real-n8n). So a refusal also
 * teaches a budget: as many calls as the service accepted within the Retry-After interval before
 * it refused, within any such interval (plus a margin). The following calls keep that budget and
 * meet the limit rarely, if ever, again.
 *
 * A budget, not an even spacing: the service counts calls in a window, not the gaps between
 * them. A call slower than the even spacing (a resume upload, n8n's own work between two items)
 * would lose its slot for good under a fixed pause (89-91% of the limit in the bulk benchmark);
 * under a budget the next calls start at once, until the window holds as many as it may, and
 * make the slot up.
 *
 * A call holds its place in the window from its start until its answer, and from then on counts
 * as made at its answer. The service counts a call where it arrives, which is after the client
 * started it and before the answer came: counted from its start, a call that left late (a busy
 * n8n can send a call hundreds of milliseconds after it started) made the call a window later
 * arrive too soon and cost a whole Retry-After second (17 such refusals per 1,000 rows in the
 * bulk benchmark, about 10% of the limit); counted from its answer, no call can arrive too soon.
 * What that costs is each call's exchange time once per window: a few milliseconds for most
 * calls, the upload's time for a resume (about 2% of the limit in the bulk benchmark). One
 * execution sends its calls one after another, so a slow exchange slows it anyway.
 *
 * A learned budget is never made faster while in use (a later refusal can only slow it), and it
 * lives as long as one execution: the next node of the same execution, using the same service
 * and API key, starts with it (and with the calls already in its window) instead of learning it
 * again with one more refusal. A new execution starts unpaced, so a limit that was hit once does
 * not slow workflows for ever.
 */
import { sleep } from 'n8n-workflow';

import { setNewest } from '../boundedMap';

/**
 * The margin a budget's window starts with, as a share of the window: calls count from their
 * answers, so arrival jitter needs none; 0.5% (5 ms a second) covers the service counting a
 * window's edge on a clock that ticks differently from n8n's.
 */
export const FIRST_MARGIN = 0.005;

/**
 * How much a margin grows after refusals at the budget's edge that come close together, as a
 * share of the window (see learnedBudget).
 */
export const MARGIN_STEP = 0.025;

/** How often a call waiting for a place held by calls still in flight looks again (ms). */
const IN_FLIGHT_RECHECK_MS = 5;

/**
 * The longest a budget's window may grow with its margin, as a multiple of the Retry-After it was
 * learned from: refusals at the budget's edge that come close together widen the margin by one
 * step up to this; beyond it, such a refusal takes one call off the budget.
 * No call ever waits longer than this for its turn (retry.ts budgets time with it).
 */
export const PACE_MARGIN = 1.05;

/** Calls remembered for learning and for the window; more than any limit the interval can count. */
const HISTORY = 1_000;

/** Executions whose learned budget is kept; the oldest is forgotten first. */
const MAX_REMEMBERED = 200;

/** At most `calls` calls start within any `windowMs + marginMs`. */
export interface CallBudget {
	calls: number;
	windowMs: number;
	marginMs: number;
}

/** One call's place in the window: from its start, and counted as made when its answer came. */
interface Place {
	startedAt: number;
	/** When the call's answer (or its failure) came, ms since the epoch; Infinity while in flight. */
	countsFrom: number;
}

/** What the pacers of one execution and credential share: the budget, and the calls started. */
interface SharedPace {
	budget: CallBudget | undefined;
	/** Every call's place, oldest first. */
	places: Place[];
	/** Start times (ms since the epoch) of the calls accepted, oldest first. */
	accepted: number[];
	/** When the last refusal at the budget's edge came. */
	lastEdgeAt?: number;
}

const remembered = new Map<string, SharedPace>();

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

/** Adds an entry to a history, forgetting the oldest beyond HISTORY. */
function remember<T>(history: T[], entry: T): void {
	history.push(entry);
	if (history.length > HISTORY) history.shift();
}

/** Two histories as one, oldest first by `key`, the newest HISTORY kept. */
function merged<T>(a: readonly T[], b: readonly T[], key: (entry: T) => number): T[] {
	return [...a, ...b].sort((x, y) => key(x) - key(y)).slice(-HISTORY);
}

const itself = (time: number) => time;

/** Calls a millisecond a budget allows. */
const rate = (budget: CallBudget) => budget.calls / (budget.windowMs + budget.marginMs);

/** The slower of two budgets (the first when they are as fast). */
function slower(a: CallBudget | undefined, b: CallBudget | undefined): CallBudget | undefined {
	if (a === undefined) return b;
	if (b === undefined) return a;
	return rate(b) < rate(a) ? b : a;
}

/**
 * A refusal at the budget's edge within this many windows of the one before slows the budget; a
 * lone one does not (see learnedBudget).
 */
const EDGE_WINDOWS = 3;

/**
 * The budget a refusal at `refusedAt` teaches, given the calls accepted before it, the budget in
 * force (if any) and when the last refusal at its edge came; `current` when there is nothing to
 * learn (no interval, or no call accepted in it: others used up the limit). Pure.
 *
 * Unpaced, the calls accepted within the Retry-After interval before the refusal are the budget.
 * Paced, a refusal with fewer calls in the interval than the budget allows means the limit is
 * lower than learned (or shared): those calls become the budget. A refusal at the budget's edge
 * means a call arrived later than the margin allows for. On a busy machine a call can leave
 * hundreds of milliseconds after it started, more than any margin could cover at a price worth
 * paying, and such a stray is rare: a lone refusal at the edge leaves the budget as it is (it
 * costs one Retry-After, where a slower budget would cost a share of every window after it). A
 * second within EDGE_WINDOWS windows means the service's window counts longer than learned: the
 * margin grows by a step, up to PACE_MARGIN, and beyond it the budget loses a call.
 */
export function learnedBudget(
	acceptedStarts: readonly number[],
	refusedAt: number,
	retryAfterMs: number,
	current?: CallBudget,
	lastEdgeAt?: number,
): { budget: CallBudget | undefined; edge: boolean } {
	const unchanged = { budget: current, edge: false };
	if (!(retryAfterMs > 0)) return unchanged;
	const since = refusedAt - retryAfterMs;
	const accepted = acceptedStarts.filter((start) => start > since && start <= refusedAt).length;
	if (accepted === 0) return unchanged;
	const fresh = { calls: accepted, windowMs: retryAfterMs, marginMs: retryAfterMs * FIRST_MARGIN };
	if (current === undefined) return { budget: fresh, edge: false };
	// What the budget in force lets start in the interval besides the refused call.
	const allowed = (current.calls * retryAfterMs) / (current.windowMs + current.marginMs) - 1;
	if (accepted < Math.floor(allowed)) return { budget: slower(current, fresh), edge: false };
	const span = current.windowMs + current.marginMs;
	if (lastEdgeAt === undefined || refusedAt - lastEdgeAt > EDGE_WINDOWS * span)
		return { budget: current, edge: true };
	const step = current.windowMs * MARGIN_STEP;
	if (span + step <= current.windowMs * PACE_MARGIN + 1e-9)
		return { budget: { ...current, marginMs: current.marginMs + step }, edge: true };
	return {
		budget: current.calls > 1 ? { ...current, calls: current.calls - 1 } : current,
		edge: true,
	};
}

export class CallPacer {
	private lastStartedAt = 0;

	private shared: SharedPace = { budget: undefined, places: [], accepted: [] };

	/**
	 * How often a call waited for its turn, and the average pause the learned budget keeps (its
	 * window and margin over its calls; 0 unpaced); tests and benchmarks read it.
	 */
	readonly stats = { waits: 0, learnedPauseMs: 0 };

	private readonly clock: PacerClock = currentClock;

	/** @param minPauseMs the user's Pause Between Requests: calls never start closer than this. */
	constructor(private readonly minPauseMs = 0) {}

	/** The budget in force, if one was learned. */
	get budget(): CallBudget | undefined {
		return this.shared.budget;
	}

	/** Waits `ms` on the pacer's clock (the transport's retries wait here too). */
	async wait(ms: number): Promise<void> {
		await this.clock.sleep(ms);
	}

	/**
	 * Shares the pace under `key` (see paceKey): adopts a budget learned earlier in the execution
	 * (or hands on its own, whichever is slower), and counts the calls the other pacers started.
	 */
	share(key: string): void {
		const earlier = remembered.get(key);
		if (earlier === undefined) {
			setNewest(remembered, key, this.shared, MAX_REMEMBERED);
			return;
		}
		if (earlier === this.shared) return;
		earlier.budget = slower(earlier.budget, this.shared.budget);
		earlier.places = merged(earlier.places, this.shared.places, (place) => place.startedAt);
		earlier.accepted = merged(earlier.accepted, this.shared.accepted, itself);
		earlier.lastEdgeAt = Math.max(
			earlier.lastEdgeAt ?? -Infinity,
			this.shared.lastEdgeAt ?? -Infinity,
		);
		if (earlier.lastEdgeAt === -Infinity) delete earlier.lastEdgeAt;
		this.shared = earlier;
		this.noteBudget();
		setNewest(remembered, key, earlier, MAX_REMEMBERED);
	}

	/** Waits for the call's turn; returns when it started (ms since the epoch). */
	async nextCall(): Promise<number> {
		for (;;) {
			const wait = this.turnIn(this.clock.now());
			if (wait <= 0) break;
			this.stats.waits++;
			await this.clock.sleep(wait);
		}
		const startedAt = this.clock.now();
		this.lastStartedAt = startedAt;
		remember(this.shared.places, { startedAt, countsFrom: Infinity });
		return startedAt;
	}

	/**
	 * The call started at `startedAt` ended without an answer (the connection failed): it counts
	 * as made now. An answer is told with accepted or refused.
	 */
	ended(startedAt: number): void {
		const place = this.shared.places.find(
			(each) => each.startedAt === startedAt && each.countsFrom === Infinity,
		);
		if (place) place.countsFrom = this.clock.now();
	}

	/** The service answered the call started at `startedAt` with something other than 429. */
	accepted(startedAt: number): void {
		this.ended(startedAt);
		remember(this.shared.accepted, startedAt);
	}

	/**
	 * The service refused the call started at `startedAt`, asking for `retryAfterMs`. Without a
	 * Retry-After there is no pace to learn, but the call was made: left in flight, it would hold
	 * every later call once a refusal with one teaches a budget.
	 */
	refused(startedAt: number, retryAfterMs: number | undefined): void {
		this.ended(startedAt);
		if (retryAfterMs === undefined) return;
		const shared = this.shared;
		const { budget, edge } = learnedBudget(
			shared.accepted,
			startedAt,
			retryAfterMs,
			shared.budget,
			shared.lastEdgeAt,
		);
		shared.budget = budget;
		if (edge) shared.lastEdgeAt = startedAt;
		this.noteBudget();
	}

	/** How long (ms) until a call may start at `now`; 0 or less: at once. */
	private turnIn(now: number): number {
		let wait = 0;
		if (this.minPauseMs > 0 && this.lastStartedAt > 0)
			wait = this.lastStartedAt + this.minPauseMs - now;
		const { budget, places } = this.shared;
		if (budget === undefined) return wait;
		const span = budget.windowMs + budget.marginMs;
		// The places held within the span (calls in flight included): when there are as many as
		// the budget allows, the next call waits until the oldest that must leave the span has left
		// it, or, where that one is still in flight, looks again shortly.
		const held = places
			.map((place) => place.countsFrom)
			.filter((countsFrom) => countsFrom > now - span)
			.sort((a, b) => a - b);
		if (held.length < budget.calls) return wait;
		const leaving = held[held.length - budget.calls];
		return Math.max(wait, leaving === Infinity ? IN_FLIGHT_RECHECK_MS : leaving + span - now);
	}

	private noteBudget(): void {
		const budget = this.shared.budget;
		this.stats.learnedPauseMs =
			budget === undefined ? 0 : Math.ceil((budget.windowMs + budget.marginMs) / budget.calls);
	}
}
