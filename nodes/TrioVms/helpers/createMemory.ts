/**
 * The memory of creates and its refusals: what keeps a create (a candidate, a submission) from
 * being sent again while the first one is running, or after it failed in a way that leaves it
 * unknown whether Trio stored it.
 *
 * Two memories, because neither alone is both exact and shared:
 * - this process's own: which creates are running now (a lock per create, as long as the
 *   exchange lasts, whatever the clock says), which failed with an unknown outcome lately, and
 *   which it made (Trio's own answer to this workflow). Exact, and lost with the process.
 * - n8n's duplicate store (the database behind Remove Duplicates), in a row of this node alone
 *   (scope "node"), holding creates whose outcome is unknown ("holds").
 *
 * n8n's store has no read-only test for one value: its only way to ask "is this in the row" also
 * writes it there, and it reads a row and writes the whole row back without a lock, so a removal
 * can be undone by another process's write. So a look must never be able to leave behind what a
 * later look reads as a hold:
 * - a hold is three values per time window, written together in one call: the window's mark and
 *   two of the window's CODE_SIZE code values, the pair naming the minute the hold began;
 * - a look asks for the mark alone; only when the mark is there does it ask for the window's code
 *   values, all of them in one call, and whatever it added it takes away again. What a look leaves
 *   when its removal is undone is a mark alone, or every code value of the window: never exactly
 *   two, so never read as a hold. A window whose code values are neither none nor one pair (a
 *   look's leftovers, with or without a hold beneath them) is read in the windows around it,
 *   nearest first (a hold covering it covers one of each two, up to RINGS windows away); a look
 *   that finds no hold there takes the leftovers away, and one that cannot tell refuses without
 *   naming a start it does not know.
 * - a look removes only what looks left behind, never clears the row, and reads the row's size
 *   first (without writing): an empty row holds nothing, and nothing is written.
 * - a hold is read back after a pause until a read-back finds all of it (READ_BACKS): a look's
 *   write that undoes it lands within one round trip, so a hold found after the pause stays,
 *   unless a round trip outlasts the pause.
 * Holds and looks use one clock, this n8n process's own (never Trio's or a gateway's Date, which
 * can be off by hours or say 1970): a hold covers its windows widened by CLOCK_TOLERANCE_MS on
 * both sides, for n8n processes whose clocks differ.
 *
 * The shared memory may be wrong only towards refusing: it stops a create with an error the user
 * sees, and never answers "already submitted" (only Trio's list, or this process's own record of
 * Trio's answer, does that).
 *
 * Why one module, over the 350 lines every other module keeps to: it is one concern, the memory
 * of creates, and its parts are one encoding read and written together. A hold's windows, its
 * code values, the looks that must never leave a hold behind, the clock they share and the
 * refusal words that name a hold's start all depend on one another's exact choices; split, a
 * change to one (a window's length, what a look removes) could no longer be checked against the
 * others in one reading. createOnce.ts uses it; rowResult.ts only asks whether a failure is a hold.
 */
import type { INode, ICheckProcessedOptions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { setNewest } from '../../shared/boundedMap';

/**
 * How long a create whose outcome is unknown is refused, at least, from the end of its exchange.
 * A 5xx or a connection broken after sending says nothing certain: the service may store the
 * record seconds later, after a look for it found nothing. Ten minutes outlasts that and n8n's
 * Retry On Fail while letting a user try again the same day.
 */
export const UNCERTAIN_CREATE_MS = 10 * 60_000;

/**
 * How far apart two n8n processes' clocks may be without shortening a shared hold: a hold is
 * written this much wider on both sides, so a worker whose clock is up to this far off still
 * finds it for UNCERTAIN_CREATE_MS.
 */
export const CLOCK_TOLERANCE_MS = 15 * 60_000;

/** The store keeps no times: a hold is written as the WINDOW_MS windows it covers. */
const WINDOW_MS = 5 * 60_000;
const MINUTE_MS = 60_000;

/** How many windows a hold covers (span below): always this many. */
const SPAN_WINDOWS = (UNCERTAIN_CREATE_MS + 2 * CLOCK_TOLERANCE_MS) / WINDOW_MS + 1;

/**
 * How far around a window a look reads when the window itself cannot tell: every hold covering a
 * window also covers at least one of the two windows this far from it, up to this distance.
 */
const RINGS = Math.floor((SPAN_WINDOWS - 1) / 2);

/** How many minutes a hold covering one window can have begun in (beginnings below). */
const BEGINNINGS = (WINDOW_MS + UNCERTAIN_CREATE_MS + 2 * CLOCK_TOLERANCE_MS) / MINUTE_MS;

/** The pairs of code values, one per minute a hold covering a window can have begun in. */
const PAIRS: ReadonlyArray<readonly [number, number]> = (() => {
	const pairs: Array<[number, number]> = [];
	for (let b = 1; pairs.length < BEGINNINGS; b++)
		for (let a = 0; a < b && pairs.length < BEGINNINGS; a++) pairs.push([a, b]);
	return pairs;
})();

/** Code values per window: enough for a pair per minute a hold can have begun in. */
const CODE_SIZE = Math.max(...PAIRS.flat()) + 1;

/** A row of this node alone: a Remove Duplicates node (scope workflow, or its own node) never shares it. */
const SCOPE = 'node' as const;
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: 10_000 };

/**
 * Reading back a hold: how long to let other processes' writes land first, and how often at most.
 * A hold is read back until a read-back finds all of it: a look whose read came before the hold's
 * write puts back the row without it one round trip later, so a hold found after the pause stays.
 * While two other workers keep looking, about two writes of a hold in five are undone so
 * (test/nodes/TrioVms/hold-under-looks.test.ts): three read-backs at most lost 1 hold in 35
 * there; a hold is lost now only when all 21 of its writes are, or a round trip outlasts the pause.
 * The cap bounds the wait (6 s) on a row other workers never stop rewriting.
 */
export const READ_BACKS = 20;
const READ_BACK_PAUSE_MS = 300;

const MAX_REMEMBERED = 1_000;

interface LocalHold {
	since: number;
	until: number;
	/** Why n8n's database does not hold it too, when it does not. */
	notShared?: NotShared;
}

/** Why a hold is this process's only: n8n offers no store here, or its database failed. */
export type NotShared = { offered: false } | { failed: string };

/** What one n8n process remembers, and loses with it. */
export class ProcessMemory {
	/** Outcome-unknown creates: key -> since when, and until when, it is refused. */
	readonly uncertainCreates = new Map<string, LocalHold>();
	/** Creates this process made, per workflow: key -> Trio's answer. */
	readonly madeHere = new Map<string, Record<string, unknown>>();
	/** Creates being sent by this process now. */
	readonly running = new Map<string, Promise<unknown>>();
	/** This process's calls that write the shared rows, one at a time. */
	storeQueue: Promise<unknown> = Promise.resolve();
}

let thisProcess = new ProcessMemory();
let processNow = (): ProcessMemory | undefined => undefined;

/** Forgets everything this process remembered, as another worker or a restarted n8n starts. */
export function forgetUncertainCreates(): void {
	thisProcess = new ProcessMemory();
}

/**
 * Where a memory finds its process's state: the engine (harness/engine) runs several queue-mode
 * "workers" in one process, each execution with its own; n8n runs one per process.
 */
export function findProcessMemory(find: () => ProcessMemory | undefined): void {
	processNow = find;
}

/** The helpers of n8n's duplicate store that the memory uses (action nodes have them). */
interface DuplicateStore {
	checkProcessedAndRecord(
		items: string[],
		scope: typeof SCOPE,
		options: ICheckProcessedOptions,
	): Promise<{ new: unknown[]; processed: unknown[] }>;
	removeProcessed(
		items: string[],
		scope: typeof SCOPE,
		options: ICheckProcessedOptions,
	): Promise<void>;
	getProcessedDataCount(scope: typeof SCOPE, options: ICheckProcessedOptions): Promise<number>;
}

function duplicateStoreOf(helpers: unknown): DuplicateStore | undefined {
	const store = helpers as Partial<DuplicateStore> | undefined;
	return typeof store?.checkProcessedAndRecord === 'function' &&
		typeof store.removeProcessed === 'function' &&
		typeof store.getProcessedDataCount === 'function'
		? (store as DuplicateStore)
		: undefined;
}

/**
 * n8n's store is there but cannot serve: its service was never started (n8n-core asserts
 * "Instance needs to initialized"), or the workflow has no id. Any other failure is real.
 */
function storeNotServing(error: unknown): boolean {
	return (
		!!error && typeof error === 'object' && (error as { code?: unknown }).code === 'ERR_ASSERTION'
	);
}

export type HoldState =
	| { held: false }
	/**
	 * `since`: when the hold began (undefined when unknown); `until`: when the refusal ends at
	 * the latest (ms since the epoch); `notShared`: why it is this process's hold only.
	 */
	| { held: true; since?: number; until: number; notShared?: NotShared }
	/** n8n's store failed: whether the create is held is unknown. */
	| { unreadable: string };

export interface MemoryContext {
	/** n8n's node helpers (`this.helpers`). */
	helpers: unknown;
	/** One service and one API key (hashed). */
	credential: string;
	workflowId: string;
	/** This n8n process's clock: the one clock of every hold (Date.now; injected in tests). */
	now: () => number;
}

export class CreateMemory {
	private store: DuplicateStore | undefined;
	private readonly process = processNow() ?? thisProcess;

	constructor(private readonly context: MemoryContext) {
		this.store = duplicateStoreOf(context.helpers);
	}

	private key(createKey: string): string {
		return `trio-vms create ${this.context.credential} ${createKey.trim().toLowerCase()}`;
	}

	private madeKey(createKey: string): string {
		return `${this.context.workflowId}\n${this.key(createKey)}`;
	}

	/**
	 * Runs `work` when no other create with this key runs in this process, so two executions on
	 * one worker never send the same create at once, however long its exchange lasts.
	 */
	async oneAtATime<T>(createKey: string, work: () => Promise<T>): Promise<T> {
		const key = this.key(createKey);
		const running = this.process.running;
		for (let other = running.get(key); other; other = running.get(key))
			await other.catch(() => undefined);
		const mine = work();
		running.set(key, mine);
		try {
			return await mine;
		} finally {
			if (running.get(key) === mine) running.delete(key);
		}
	}

	/** Trio's answer to a create this workflow made in this process, if any. */
	madeByThisWorkflow(createKey: string): Record<string, unknown> | undefined {
		return this.process.madeHere.get(this.madeKey(createKey));
	}

	made(createKey: string, record: Record<string, unknown>): void {
		setNewest(this.process.madeHere, this.madeKey(createKey), record, MAX_REMEMBERED);
	}

	/** Runs one call that writes the shared row, after this process's earlier ones. */
	private async serially<T>(work: (store: DuplicateStore) => Promise<T>): Promise<T | undefined> {
		const store = this.store;
		if (!store) return undefined;
		const turn = this.process.storeQueue.then(async () => await work(store));
		this.process.storeQueue = turn.catch(() => undefined);
		return await turn.catch((error: unknown) => {
			if (!storeNotServing(error)) throw error;
			this.store = undefined;
			return undefined;
		});
	}

	/** Whether the same create failed lately with an unknown outcome, here or on another worker. */
	async state(createKey: string): Promise<HoldState> {
		const key = this.key(createKey);
		const uncertainCreates = this.process.uncertainCreates;
		let local = uncertainCreates.get(key);
		if (local !== undefined && local.until <= this.context.now()) {
			uncertainCreates.delete(key);
			local = undefined;
		}
		const heldHere = (hold: LocalHold): HoldState => ({
			held: true,
			since: hold.since,
			until: hold.until,
			notShared: this.store ? hold.notShared : (hold.notShared ?? { offered: false }),
		});
		try {
			const store = this.store;
			// The size is read without writing: an empty row holds nothing. Read also when this
			// process holds it, to tell the user where the refusal holds.
			const size = store ? await store.getProcessedDataCount(SCOPE, STORE_OPTIONS) : 0;
			if (local !== undefined) return heldHere(local);
			if (size === 0) return { held: false };
			const found = await this.serially(async (row) => await this.look(row, key));
			return found ?? { held: false };
		} catch (error) {
			if (storeNotServing(error)) {
				this.store = undefined;
				return local === undefined ? { held: false } : heldHere(local);
			}
			return { unreadable: error instanceof Error ? error.message : String(error) };
		}
	}

	/**
	 * Asks the row whether a hold covers now: the window's mark, then (only when it is there) the
	 * window's code values. Takes away what the asking added, and the mark too when no hold wrote
	 * it (an earlier look's, whose removal was undone).
	 */
	private async look(row: DuplicateStore, key: string): Promise<HoldState> {
		const window = Math.floor(this.context.now() / WINDOW_MS);
		const mark = markOf(key, window);
		if ((await row.checkProcessedAndRecord([mark], SCOPE, STORE_OPTIONS)).new.length) {
			await row.removeProcessed([mark], SCOPE, STORE_OPTIONS);
			return { held: false };
		}
		const here = await askWindows(row, key, [window], false);
		const reading = here.readings[0];
		if (reading.kind === 'unclear') return await lookAround(row, key, window, here.added);
		const taken = reading.kind === 'none' ? [mark, ...here.added] : here.added;
		if (taken.length) await row.removeProcessed(taken, SCOPE, STORE_OPTIONS);
		return reading.kind === 'hold' ? heldSince([reading.minute], window) : { held: false };
	}

	/**
	 * Holds a create whose outcome is unknown, from now on (the end of its exchange), and returns
	 * since when and until when it is refused at the latest, and why it is this process's hold
	 * only when n8n's database does not keep it.
	 */
	async hold(createKey: string): Promise<{ since: number; until: number; notShared?: NotShared }> {
		const key = this.key(createKey);
		const now = this.context.now();
		const entries = holdValues(key, now);
		let failure: string | undefined;
		const written = await this.serially(async (row) => {
			// Another process writing the row at the same moment may put back the row it read before
			// this hold, or (the row's first write) fail this one: the hold is read back after a
			// pause, and written again where it is missing, until a read-back finds all of it.
			let wrote = false;
			for (let call = 0; call <= READ_BACKS; call++) {
				if (call > 0) await sleep(READ_BACK_PAUSE_MS);
				const seen = await row
					.checkProcessedAndRecord(entries, SCOPE, STORE_OPTIONS)
					.catch((error: unknown) => {
						if (storeNotServing(error)) throw error;
						failure = error instanceof Error ? error.message : String(error);
						return undefined;
					});
				if (seen) wrote = true;
				if (call > 0 && seen && !seen.new.length) break;
			}
			return wrote;
		}).catch((error: unknown) => {
			failure ??= error instanceof Error ? error.message : String(error);
			return false;
		});
		const notShared: NotShared | undefined =
			written === true
				? undefined
				: this.store && failure !== undefined
					? { failed: failure }
					: { offered: false };
		const local: LocalHold = {
			since: now,
			until: Math.max(now + UNCERTAIN_CREATE_MS, holdEnd(now)),
			notShared,
		};
		setNewest(this.process.uncertainCreates, key, local, MAX_REMEMBERED);
		return local;
	}
}

/** The windows a hold that began at `since` covers. */
function span(since: number): { first: number; last: number } {
	return {
		first: Math.floor((since - CLOCK_TOLERANCE_MS) / WINDOW_MS),
		last: Math.floor((since + UNCERTAIN_CREATE_MS + CLOCK_TOLERANCE_MS) / WINDOW_MS),
	};
}

/** When the refusal of a hold that began at `since` ends at the latest. */
function holdEnd(since: number): number {
	return (span(since).last + 1) * WINDOW_MS;
}

/** The first and last minute a hold covering `window` can have begun in. */
function beginnings(window: number): { first: number; last: number } {
	const first = Math.ceil(
		(window * WINDOW_MS - UNCERTAIN_CREATE_MS - CLOCK_TOLERANCE_MS) / MINUTE_MS,
	);
	return { first, last: first + BEGINNINGS - 1 };
}

function covers(minute: number, window: number): boolean {
	const { first, last } = span(minute * MINUTE_MS);
	return first <= window && window <= last;
}

/** A hold's mark in one window: a look asks for it first. */
function markOf(key: string, window: number): string {
	return `${key} held ${window}`;
}

/** The window's code values: a hold writes the two naming the minute it began, a look asks all. */
function codesOf(key: string, window: number): string[] {
	return Array.from({ length: CODE_SIZE }, (_, index) => `${key} held ${window} code ${index}`);
}

/** What a hold that began at `since` writes: in each window it covers, its mark and its pair. */
function holdValues(key: string, since: number): string[] {
	const minute = Math.floor(since / MINUTE_MS);
	const { first, last } = span(since);
	const values: string[] = [];
	for (let window = first; window <= last; window++) {
		const codes = codesOf(key, window);
		const [a, b] = PAIRS[minute - beginnings(window).first];
		values.push(markOf(key, window), codes[a], codes[b]);
	}
	return values;
}

/**
 * What one window says: no hold's code values (`none`), exactly one hold's pair with its mark
 * (`hold`, and the minute it began), or anything else (`unclear`: a look's leftovers, with or
 * without a hold beneath them, or holds on top of each other).
 */
type WindowReading = { kind: 'none' } | { kind: 'hold'; minute: number } | { kind: 'unclear' };

function readWindow(window: number, marked: boolean, present: number[]): WindowReading {
	if (!present.length) return { kind: 'none' };
	const pair =
		present.length === 2 ? PAIRS.findIndex(([a, b]) => a === present[0] && b === present[1]) : -1;
	if (!marked || pair < 0) return { kind: 'unclear' };
	return { kind: 'hold', minute: beginnings(window).first + pair };
}

/** Asks the row, in one call, for the code values (and marks, `withMarks`) of `windows`. */
async function askWindows(
	row: DuplicateStore,
	key: string,
	windows: number[],
	withMarks: boolean,
): Promise<{ readings: WindowReading[]; added: string[] }> {
	const asked = windows.map((window) => ({
		window,
		mark: withMarks ? markOf(key, window) : undefined,
		codes: codesOf(key, window),
	}));
	const values = asked.flatMap(({ mark, codes }) => (mark ? [mark, ...codes] : codes));
	const answer = await row.checkProcessedAndRecord(values, SCOPE, STORE_OPTIONS);
	const present = new Set(answer.processed.map(String));
	const readings = asked.map(({ window, mark, codes }) =>
		readWindow(
			window,
			mark === undefined || present.has(mark),
			codes.flatMap((code, index) => (present.has(code) ? [index] : [])),
		),
	);
	return { readings, added: answer.new.map(String) };
}

/** The hold the minutes name (their earliest start, their latest end), seen in `window`. */
function heldSince(minutes: number[], window: number): HoldState {
	const since = Math.min(...minutes) * MINUTE_MS;
	const ends = minutes.map((minute) => holdEnd(minute * MINUTE_MS + MINUTE_MS - 1));
	return { held: true, since, until: Math.max((window + 1) * WINDOW_MS, ...ends) };
}

/**
 * What a ring of windows around `window` says of it: the holds in them that cover it, no hold
 * (when none of them shows one that does), or undefined when a window of the ring cannot tell.
 */
function ringVerdict(readings: WindowReading[], window: number): HoldState | undefined {
	const minutes = readings.flatMap((reading) =>
		reading.kind === 'hold' && covers(reading.minute, window) ? [reading.minute] : [],
	);
	if (minutes.length) return heldSince(minutes, window);
	return readings.every((reading) => reading.kind !== 'unclear') ? { held: false } : undefined;
}

/**
 * Reads a window that cannot tell (`unclear`) in the windows around it, nearest first: every hold
 * covering it covers one of each ring's two windows. Takes away what the asking added (in the
 * window itself too: `addedHere`) and, when
 * no hold covers the window, the leftovers in it; when no ring can tell, the create is refused
 * without a start, until the latest end a hold covering the window can have.
 */
async function lookAround(
	row: DuplicateStore,
	key: string,
	window: number,
	addedHere: string[],
): Promise<HoldState> {
	const added = [...addedHere];
	let verdict: HoldState | undefined;
	for (let distance = 1; distance <= RINGS && !verdict; distance++) {
		const ring = await askWindows(row, key, [window - distance, window + distance], true);
		added.push(...ring.added);
		verdict = ringVerdict(ring.readings, window);
	}
	verdict ??= {
		held: true,
		until: holdEnd(beginnings(window).last * MINUTE_MS + MINUTE_MS - 1),
	};
	const leftovers =
		'held' in verdict && !verdict.held ? [markOf(key, window), ...codesOf(key, window)] : [];
	if (added.length || leftovers.length)
		await row.removeProcessed([...added, ...leftovers], SCOPE, STORE_OPTIONS);
	return verdict;
}

function utcTime(ms: number): string {
	return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

/** What is said of the memory in refusals: where it holds, and where it does not. */
function memoryScope(notShared: NotShared | undefined): string {
	if (!notShared)
		return "This node keeps its memory of it in n8n's database, so the refusal holds on every worker and after a restart. The memory belongs to this node in this workflow: a copy of the workflow (duplicated, or imported as a new one) or another Trio VMS node does not see it, and Remove Duplicates neither shares nor clears it.";
	if ('failed' in notShared)
		return `n8n's database failed while this node wrote its memory of it (${notShared.failed}), so only this n8n remembers it while it runs: other workers and a restart of n8n will not hold it back.`;
	return 'This n8n does not offer nodes its database-backed duplicate store here (older n8n versions lack it, and it needs a saved workflow), so only this n8n remembers it while it runs: a re-run on another worker or after a restart is not held back.';
}

/** The advice added to the failure of a create whose outcome is unknown. */
export function holdAdvice(what: string, until: number, notShared: NotShared | undefined): string {
	return `Until ${utcTime(until)} at the latest this node refuses to send the same ${what} again (also under Retry On Fail or a re-run), so it cannot be created twice. ${memoryScope(notShared)} Meanwhile look for it in Trio VMS, or run Get Many; afterwards it can be sent again if it is not there.`;
}

/** Refusals of a held create carry this mark: they are about that one create, not the run. */
const HELD_CREATE = 'heldCreate';

export function isHeldCreate(error: unknown): boolean {
	return error instanceof NodeOperationError && error.context?.[HELD_CREATE] === true;
}

const KNOWN_HOLD =
	'An earlier create of it failed in a way that leaves it unknown whether Trio VMS created it (a server error from Trio VMS or on the way to it, or a connection broken after sending): it may have been created, and sending it again could create it twice.';

/** A hold whose start is unknown: the memory's row cannot tell it from what looks left. */
const UNSURE_HOLD =
	"This node's memory in n8n's database cannot tell whether an earlier create of it failed in a way that leaves it unknown whether Trio VMS created it (what the node took away from its memory was put back by another n8n process's write, and no longer tells one from the other), so it refuses rather than risk creating it twice.";

export function refusedCreate(
	node: INode,
	what: string,
	hold: Extract<HoldState, { held: true }>,
	itemIndex: number,
): NodeOperationError {
	const since = hold.since === undefined ? '' : ` since ${utcTime(hold.since)}`;
	const refusal = new NodeOperationError(
		node,
		`Not sent: this node holds a create of the same ${what}${since}; check in Trio VMS`,
		{
			itemIndex,
			description: `${hold.since === undefined ? UNSURE_HOLD : KNOWN_HOLD} ${memoryScope(hold.notShared)} Look for it in Trio VMS, or run Get Many; this refusal ends by ${utcTime(hold.until)} at the latest, after which it can be sent again if it is not there.`,
		},
	);
	refusal.context[HELD_CREATE] = true;
	return refusal;
}

export function unreadableMemory(
	node: INode,
	what: string,
	reason: string,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(
		node,
		`Not sent: this node's memory of what it sent could not be read (${reason})`,
		{
			itemIndex,
			description: `Without it, the node cannot tell whether the same ${what} failed a moment ago in a way that may have created it, so sending it could create it twice. Run the item again once n8n's database answers.`,
		},
	);
}
