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
 *   (scope "node"), holding only creates whose outcome is unknown. n8n's database store reads a
 *   row and writes the whole row back without a lock, so two processes writing at once can undo
 *   each other: the row is written only after an unknown outcome (never on the way of a create
 *   that succeeds or is refused), a look-up reads the row's size first and writes only when it
 *   holds something, this process writes the row one call at a time, and a hold is read back
 *   and written again where it went missing.
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
 * How far apart two n8n processes' clocks may be without shortening a shared hold. A hold is
 * written on the clock of the service (its Date header) when one answered, else on the worker's
 * own; it is written this much wider on both sides, so a worker whose clock is up to this far off
 * still finds it for UNCERTAIN_CREATE_MS.
 */
export const CLOCK_TOLERANCE_MS = 15 * 60_000;

/** The store keeps no times: a hold is written as the WINDOW_MS windows it covers. */
const WINDOW_MS = 5 * 60_000;

/** A row of this node alone: a Remove Duplicates node (scope workflow, or its own node) never shares it. */
const SCOPE = 'node' as const;
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: 10_000 };

/** Reading back a hold: how often, and how long to let other processes' writes land first. */
const READ_BACKS = 3;
const READ_BACK_PAUSE_MS = 300;

const MAX_REMEMBERED = 1_000;

/** What one n8n process remembers, and loses with it. */
export class ProcessMemory {
	/** Outcome-unknown creates: key -> when its refusal ends (this process's clock). */
	readonly uncertainCreates = new Map<string, number>();
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
	clearAllProcessedItems(scope: typeof SCOPE, options: ICheckProcessedOptions): Promise<void>;
}

function duplicateStoreOf(helpers: unknown): DuplicateStore | undefined {
	const store = helpers as Partial<DuplicateStore> | undefined;
	return typeof store?.checkProcessedAndRecord === 'function' &&
		typeof store.removeProcessed === 'function' &&
		typeof store.getProcessedDataCount === 'function' &&
		typeof store.clearAllProcessedItems === 'function'
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
	/** `until`: when the refusal ends at the latest (ms since the epoch). */
	| { held: true; until: number }
	/** n8n's store failed: whether the create is held is unknown. */
	| { unreadable: string };

export interface MemoryContext {
	/** n8n's node helpers (`this.helpers`). */
	helpers: unknown;
	/** One service and one API key (hashed). */
	credential: string;
	workflowId: string;
	/** The service's clock when it answered lately, else this worker's. */
	now: () => number;
}

export class CreateMemory {
	private store: DuplicateStore | undefined;
	private readonly process = processNow() ?? thisProcess;

	constructor(private readonly context: MemoryContext) {
		this.store = duplicateStoreOf(context.helpers);
	}

	/** Whether the memory is n8n's shared store (true) or this process's own (false). */
	get shared(): boolean {
		return this.store !== undefined;
	}

	private key(createKey: string): string {
		return `trio-vms create ${this.context.credential} ${createKey.trim().toLowerCase()}`;
	}

	private madeKey(createKey: string): string {
		return `${this.context.workflowId}\n${this.key(createKey)}`;
	}

	private static held(key: string, window: number): string {
		return `${key} held ${window}`;
	}

	/** Written beside every hold, so a look that finds no hold at all can empty the row. */
	private static live(window: number): string {
		return `trio-vms holds ${window}`;
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
		if (local !== undefined && local <= Date.now()) {
			uncertainCreates.delete(key);
			local = undefined;
		}
		const now = this.context.now();
		const window = Math.floor(now / WINDOW_MS);
		const entry = CreateMemory.held(key, window);
		const live = CreateMemory.live(window);
		try {
			const store = this.store;
			// The size is read without writing: an empty row holds nothing. Read also when this
			// process holds it, to tell the user where the refusal holds.
			const size = store ? await store.getProcessedDataCount(SCOPE, STORE_OPTIONS) : 0;
			if (local !== undefined) return { held: true, until: local };
			if (size === 0) return { held: false };
			const held = await this.serially(async (row) => {
				const seen = (await row.checkProcessedAndRecord([entry, live], SCOPE, STORE_OPTIONS)).new;
				if (!seen.includes(entry)) return true;
				// Nothing held now at all: the row is emptied, so looks are free again.
				if (seen.includes(live)) await row.clearAllProcessedItems(SCOPE, STORE_OPTIONS);
				else await row.removeProcessed([entry], SCOPE, STORE_OPTIONS);
				return false;
			});
			return held
				? { held: true, until: now + UNCERTAIN_CREATE_MS + 2 * CLOCK_TOLERANCE_MS }
				: { held: false };
		} catch (error) {
			if (storeNotServing(error)) {
				this.store = undefined;
				return local === undefined ? { held: false } : { held: true, until: local };
			}
			return { unreadable: error instanceof Error ? error.message : String(error) };
		}
	}

	/**
	 * Holds a create whose outcome is unknown, from now on (the end of its exchange), and returns
	 * when the refusal ends at the latest. A hold that cannot be written is this process's only,
	 * and `shared` says so.
	 */
	async hold(createKey: string): Promise<{ until: number; shared: boolean }> {
		const key = this.key(createKey);
		const localUntil = Date.now() + UNCERTAIN_CREATE_MS;
		setNewest(this.process.uncertainCreates, key, localUntil, MAX_REMEMBERED);
		const now = this.context.now();
		const first = Math.floor((now - CLOCK_TOLERANCE_MS) / WINDOW_MS);
		const last = Math.floor((now + UNCERTAIN_CREATE_MS + CLOCK_TOLERANCE_MS) / WINDOW_MS);
		const entries: string[] = [];
		for (let window = first; window <= last; window++)
			entries.push(CreateMemory.held(key, window), CreateMemory.live(window));
		const until = Math.max(localUntil, (last + 1) * WINDOW_MS);
		const written = await this.serially(async (row) => {
			// Another process writing the row at the same moment may put back the row it read before
			// this hold, or (the row's first write) fail this one: the hold is read back, and each
			// look writes again what is missing.
			let wrote = false;
			for (let call = 0; call <= READ_BACKS; call++) {
				if (call > 0) await sleep(READ_BACK_PAUSE_MS);
				const seen = await row
					.checkProcessedAndRecord(entries, SCOPE, STORE_OPTIONS)
					.catch((error: unknown) => {
						if (storeNotServing(error)) throw error;
						return undefined;
					});
				if (seen) wrote = true;
				if (call > 0 && seen && !seen.new.length) break;
			}
			return wrote;
		}).catch(() => false);
		return { until, shared: written === true };
	}
}

function utcTime(ms: number): string {
	return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

/** What is said of the memory in refusals: where it holds, and where it does not. */
function memoryScope(shared: boolean): string {
	return shared
		? "This node keeps its memory of it in n8n's database, so the refusal holds on every worker and after a restart. The memory belongs to this node in this workflow: a copy of the workflow (duplicated, or imported as a new one) or another Trio VMS node does not see it, and Remove Duplicates neither shares nor clears it."
		: 'This n8n does not offer nodes its database-backed duplicate store here (older n8n versions lack it, and it needs a saved workflow), so only this n8n remembers it while it runs: a re-run on another worker or after a restart is not held back.';
}

/** The advice added to the failure of a create whose outcome is unknown. */
export function holdAdvice(what: string, until: number, shared: boolean): string {
	return `Until ${utcTime(until)} at the latest this node refuses to send the same ${what} again (also under Retry On Fail or a re-run), so it cannot be created twice. ${memoryScope(shared)} Meanwhile look for it in Trio VMS, or run Get Many; afterwards it can be sent again if it is not there.`;
}

export function refusedCreate(
	node: INode,
	what: string,
	until: number,
	shared: boolean,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(
		node,
		`Not sent: the same ${what} failed in the last few minutes in a way that leaves it unknown whether Trio VMS created it`,
		{
			itemIndex,
			description: `A server error from Trio VMS or on the way to it, or a connection broken after sending, hid the result of the earlier request, so it may have been created. Sending it again could create it twice. ${memoryScope(shared)} Look for it in Trio VMS, or run Get Many; this refusal ends by ${utcTime(until)} at the latest, after which it can be sent again if it is not there.`,
		},
	);
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
