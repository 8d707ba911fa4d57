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
 * - a hold is two values per time window, written together in one call: the window's mark and its
 *   seal (the seal names the minute the hold began);
 * - a look asks for the mark alone; only when the mark is there does it ask for the seal, and
 *   whatever it added that turned out not to be a hold, it takes away again. What one look leaves
 *   when its removal is undone (a mark without a seal) is therefore never a hold.
 * - a look never removes or clears anything else, and reads the row's size first (without
 *   writing): an empty row holds nothing, and nothing is written.
 * Holds and looks use one clock, this n8n process's own (never Trio's or a gateway's Date, which
 * can be off by hours or say 1970): a hold covers its windows widened by CLOCK_TOLERANCE_MS on
 * both sides, for n8n processes whose clocks differ.
 *
 * The shared memory may be wrong only towards refusing: it stops a create with an error the user
 * sees, and never answers "already submitted" (only Trio's list, or this process's own record of
 * Trio's answer, does that).
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

/** A row of this node alone: a Remove Duplicates node (scope workflow, or its own node) never shares it. */
const SCOPE = 'node' as const;
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: 10_000 };

/** Reading back a hold: how often, and how long to let other processes' writes land first. */
const READ_BACKS = 3;
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

	/** A hold's mark in one window: a look asks for it first. */
	private static mark(key: string, window: number): string {
		return `${key} held ${window}`;
	}

	/** A hold's seal in one window, naming the minute the hold began: only holds write it. */
	private static seal(key: string, window: number, minute: number): string {
		return `${key} held ${window} since ${minute}`;
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
	 * Asks the row whether a hold covers now, and takes away again what the asking added where
	 * it found none: the mark alone, or the mark and the seals it asked for.
	 */
	private async look(row: DuplicateStore, key: string): Promise<HoldState> {
		const now = this.context.now();
		const window = Math.floor(now / WINDOW_MS);
		const mark = CreateMemory.mark(key, window);
		if ((await row.checkProcessedAndRecord([mark], SCOPE, STORE_OPTIONS)).new.length) {
			await row.removeProcessed([mark], SCOPE, STORE_OPTIONS);
			return { held: false };
		}
		// A hold covering this window began within these minutes (on any n8n clock within the
		// tolerance): one seal among them is there if the mark is a hold's.
		const first = Math.floor(
			(now - WINDOW_MS - UNCERTAIN_CREATE_MS - CLOCK_TOLERANCE_MS) / MINUTE_MS,
		);
		const last = Math.floor((now + WINDOW_MS + CLOCK_TOLERANCE_MS) / MINUTE_MS);
		const seals = new Map<string, number>();
		for (let minute = first; minute <= last; minute++)
			seals.set(CreateMemory.seal(key, window, minute), minute);
		const asked = await row.checkProcessedAndRecord([...seals.keys()], SCOPE, STORE_OPTIONS);
		const added = asked.new.map(String);
		const began = asked.processed.map((seal) => seals.get(String(seal)) ?? Infinity);
		if (!began.length) {
			await row.removeProcessed([mark, ...added], SCOPE, STORE_OPTIONS);
			return { held: false };
		}
		if (added.length) await row.removeProcessed(added, SCOPE, STORE_OPTIONS);
		const since = Math.min(...began) * MINUTE_MS;
		return { held: true, since, until: CreateMemory.holdEnd(since + MINUTE_MS - 1) };
	}

	/** The windows a hold that began at `since` covers, and when its refusal ends at the latest. */
	private static span(since: number): { first: number; last: number } {
		return {
			first: Math.floor((since - CLOCK_TOLERANCE_MS) / WINDOW_MS),
			last: Math.floor((since + UNCERTAIN_CREATE_MS + CLOCK_TOLERANCE_MS) / WINDOW_MS),
		};
	}

	private static holdEnd(since: number): number {
		return (CreateMemory.span(since).last + 1) * WINDOW_MS;
	}

	/**
	 * Holds a create whose outcome is unknown, from now on (the end of its exchange), and returns
	 * since when and until when it is refused at the latest, and why it is this process's hold
	 * only when n8n's database does not keep it.
	 */
	async hold(createKey: string): Promise<{ since: number; until: number; notShared?: NotShared }> {
		const key = this.key(createKey);
		const now = this.context.now();
		const minute = Math.floor(now / MINUTE_MS);
		const { first, last } = CreateMemory.span(now);
		const entries: string[] = [];
		for (let window = first; window <= last; window++)
			entries.push(CreateMemory.mark(key, window), CreateMemory.seal(key, window, minute));
		let failure: string | undefined;
		const written = await this.serially(async (row) => {
			// Another process writing the row at the same moment may put back the row it read before
			// this hold, or (the row's first write) fail this one: the hold is read back after a
			// pause, and written again where it is missing.
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
			until: Math.max(now + UNCERTAIN_CREATE_MS, CreateMemory.holdEnd(now)),
			notShared,
		};
		setNewest(this.process.uncertainCreates, key, local, MAX_REMEMBERED);
		return local;
	}
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
			description: `An earlier create of it failed in a way that leaves it unknown whether Trio VMS created it (a server error from Trio VMS or on the way to it, or a connection broken after sending): it may have been created, and sending it again could create it twice. ${memoryScope(hold.notShared)} Look for it in Trio VMS, or run Get Many; this refusal ends by ${utcTime(hold.until)} at the latest, after which it can be sent again if it is not there.`,
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
