/**
 * The memory of creates, so a create is never sent twice: not by Retry On Fail, a re-run, another
 * queue-mode worker, or after a restart.
 *
 * Where n8n offers nodes its duplicate store (the database-backed helpers behind the Remove
 * Duplicates node: `checkProcessedAndRecord`, `removeProcessed`), the memory lives there, per
 * workflow, shared by every n8n process. It holds, for each create (one service, one API key,
 * one thing created, e.g. "submission of candidate 5001 to job 100001"):
 * - a hold while the create is being sent and, when its outcome is unknown (any 5xx answer, or a
 *   connection broken after sending), for UNCERTAIN_CREATE_MS to UNCERTAIN_CREATE_MS plus one
 *   window afterwards. The store keeps no times, so the hold is written as the time windows it
 *   covers, and a window is looked up by the current time;
 * - "created", once the service answered it or the record was found afterwards.
 *
 * Where n8n offers no such store (older n8n, a context without it, a workflow n8n has not saved),
 * the memory is this process's own: a re-run on another worker or after a restart is not held
 * back, and the refusal says so.
 */
import type { DeduplicationItemTypes, ICheckProcessedOptions } from 'n8n-workflow';
import { createHash } from 'node:crypto';

import { setNewest } from '../boundedMap';

/**
 * How long a create whose outcome is unknown blocks the same create, at least. A 5xx or a
 * connection broken after sending says nothing certain about the service, which may store the
 * record seconds later, after a look for it found nothing; ten minutes outlasts that and n8n's
 * Retry On Fail (at most 5 tries, 5 seconds apart) while letting a user try again the same day.
 */
export const UNCERTAIN_CREATE_MS = 10 * 60_000;

/** The store keeps no times: a hold is written as the WINDOW_MS windows it covers. */
const WINDOW_MS = 5 * 60_000;
const HELD_WINDOWS = UNCERTAIN_CREATE_MS / WINDOW_MS + 1;

/** What the store keeps per workflow; n8n's Remove Duplicates offers the same default. */
const MAX_STORED_ENTRIES = 10_000;
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries', maxEntries: MAX_STORED_ENTRIES };

const MAX_UNCERTAIN_CREATES = 1_000;

/** Outcome-unknown creates of this process: key -> when the refusal ends (ms since the epoch). */
const uncertainCreates = new Map<string, number>();

/** When the in-process refusal of this create ends, or undefined when it is not refused. */
export function uncertainCreateRefusedUntil(key: string, now = Date.now()): number | undefined {
	const until = uncertainCreates.get(key);
	if (until === undefined) return undefined;
	if (until > now) return until;
	uncertainCreates.delete(key);
	return undefined;
}

export function rememberUncertainCreate(key: string, now = Date.now()): number {
	const until = now + UNCERTAIN_CREATE_MS;
	setNewest(uncertainCreates, key, until, MAX_UNCERTAIN_CREATES);
	return until;
}

/**
 * Forgets every outcome-unknown create of this process, as a new worker or a restart starts
 * without them; tests call it when they reset the service's faults.
 */
export function forgetUncertainCreates(): void {
	uncertainCreates.clear();
}

/** The helpers of n8n's duplicate store that the memory uses (action nodes have them). */
interface DuplicateStore {
	checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: 'workflow',
		options: ICheckProcessedOptions,
	): Promise<{ new: DeduplicationItemTypes[]; processed: DeduplicationItemTypes[] }>;
	removeProcessed(
		items: DeduplicationItemTypes[],
		scope: 'workflow',
		options: ICheckProcessedOptions,
	): Promise<void>;
}

function duplicateStoreOf(helpers: unknown): DuplicateStore | undefined {
	const candidate = helpers as Partial<DuplicateStore> | undefined;
	return typeof candidate?.checkProcessedAndRecord === 'function' &&
		typeof candidate.removeProcessed === 'function'
		? (candidate as DuplicateStore)
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

/** A create's hold, from claim() to settle(). */
export interface CreateClaim {
	key: string;
	/** The windows this claim wrote into the shared store (none in the in-process memory). */
	windows: string[];
}

export type ClaimResult =
	| { refused: false; claim: CreateClaim }
	/** `until`: when the refusal ends, at the latest (ms since the epoch). */
	| { refused: true; until: number }
	/** n8n's store failed: it is not known whether the create is held, so it is not sent. */
	| { unreadable: string };

/** A store call's result: its value, no store to use (this process's memory then), or a failure. */
type StoreResult<T> = { value: T } | { absent: true } | { failed: string };

export type CreateOutcome = 'created' | 'notCreated' | 'unknown';

export class CreateMemory {
	private store: DuplicateStore | undefined;

	constructor(
		helpers: unknown,
		private readonly scope: string,
		private readonly now: () => number = Date.now,
	) {
		this.store = duplicateStoreOf(helpers);
	}

	/** Whether the memory is n8n's shared store (true) or this process's own (false). */
	get shared(): boolean {
		return this.store !== undefined;
	}

	/** One service, one API key (hashed: no key is stored), one create. */
	static scopeFor(apiRoot: string, apiKey: string): string {
		return createHash('sha256').update(`${apiRoot}\n${apiKey}`).digest('hex').slice(0, 16);
	}

	private key(createKey: string): string {
		return `trio-vms create ${this.scope} ${createKey.trim().toLowerCase()}`;
	}

	private window(key: string, index: number): string {
		return `${key} held ${index}`;
	}

	private created(key: string): string {
		return `${key} created`;
	}

	/** Runs a store call; falls back to the in-process memory when n8n's store cannot serve. */
	private async useStore<T>(work: (store: DuplicateStore) => Promise<T>): Promise<StoreResult<T>> {
		const store = this.store;
		if (!store) return { absent: true };
		return await work(store).then(
			(value): StoreResult<T> => ({ value }),
			(error: unknown): StoreResult<T> => {
				if (!storeNotServing(error))
					return { failed: error instanceof Error ? error.message : String(error) };
				this.store = undefined;
				return { absent: true };
			},
		);
	}

	/**
	 * Holds the create before it is sent, or says it is refused because the same create is being
	 * sent, or was sent with an unknown outcome, in the last few minutes.
	 */
	async claim(createKey: string): Promise<ClaimResult> {
		const key = this.key(createKey);
		// This process's memory also holds creates of other workflows of this n8n.
		const local = uncertainCreateRefusedUntil(key, this.now());
		const first = Math.floor(this.now() / WINDOW_MS);
		const windows = Array.from({ length: HELD_WINDOWS }, (_, at) => this.window(key, first + at));
		const shared = await this.useStore(async (store) => {
			const seen = await store.checkProcessedAndRecord(windows, 'workflow', STORE_OPTIONS);
			if (!seen.processed.length && local === undefined)
				return { refused: false as const, claim: { key, windows } };
			// Held already: give back the windows this look wrote.
			if (seen.new.length) await store.removeProcessed(seen.new, 'workflow', STORE_OPTIONS);
			const held = new Set(seen.processed.map(String));
			const last = windows.reduce((end, window, at) => (held.has(window) ? at : end), -1);
			const until = last < 0 ? 0 : (first + last + 1) * WINDOW_MS;
			return { refused: true as const, until: Math.max(until, local ?? 0) };
		});
		if ('value' in shared) return shared.value;
		if ('failed' in shared) return { unreadable: shared.failed };
		if (local !== undefined) return { refused: true, until: local };
		return { refused: false, claim: { key, windows: [] } };
	}

	/**
	 * Ends the hold: a create that was made or certainly not made lets go of it; one whose
	 * outcome is unknown keeps it (in this process too), and the time it ends at is returned. A
	 * store that cannot be written only holds the create longer: a create that was made is never
	 * failed for it.
	 */
	async settle(claim: CreateClaim, outcome: CreateOutcome): Promise<number | undefined> {
		const local =
			outcome === 'unknown' ? rememberUncertainCreate(claim.key, this.now()) : undefined;
		const windows = claim.windows;
		if (!windows.length) return local;
		// The windows were written before sending; a slow answer may have used some of them up,
		// so an unknown outcome is held from now on: the windows from the current one.
		const first = Math.floor(this.now() / WINDOW_MS);
		const heldFromNow = Array.from({ length: HELD_WINDOWS }, (_, at) =>
			this.window(claim.key, first + at),
		);
		// A failure here leaves the windows held, which only refuses the same create for a while.
		await this.useStore(async (store) => {
			if (outcome === 'created')
				await store.checkProcessedAndRecord([this.created(claim.key)], 'workflow', STORE_OPTIONS);
			if (outcome === 'unknown')
				await store.checkProcessedAndRecord(heldFromNow, 'workflow', STORE_OPTIONS);
			else await store.removeProcessed(windows, 'workflow', STORE_OPTIONS);
		});
		if (local === undefined) return undefined;
		// Refused wherever either memory holds it: until the later of the two.
		return Math.max(local, (first + HELD_WINDOWS) * WINDOW_MS);
	}

	/**
	 * Whether this workflow made this create before (as n8n's store remembers it); undefined
	 * without the shared store. The store has no plain look-up: a look records, so a miss is
	 * taken back at once.
	 */
	async createdBefore(createKey: string): Promise<boolean | undefined> {
		const entry = this.created(this.key(createKey));
		const result = await this.useStore(async (store) => {
			const seen = await store.checkProcessedAndRecord([entry], 'workflow', STORE_OPTIONS);
			if (seen.processed.length) return true;
			await store.removeProcessed([entry], 'workflow', STORE_OPTIONS);
			return false;
		});
		return 'value' in result ? result.value : undefined;
	}

	/** The record was found after all: remembered as created, and the same create no longer held. */
	async found(createKey: string): Promise<void> {
		const key = this.key(createKey);
		uncertainCreates.delete(key);
		await this.useStore(async (store) => {
			await store.checkProcessedAndRecord([this.created(key)], 'workflow', STORE_OPTIONS);
			const first = Math.floor(this.now() / WINDOW_MS) - HELD_WINDOWS;
			const windows = Array.from({ length: 2 * HELD_WINDOWS }, (_, at) =>
				this.window(key, first + at),
			);
			await store.removeProcessed(windows, 'workflow', STORE_OPTIONS);
		});
	}
}

/** What is said of the memory in refusals: where it holds, and where it does not. */
export function memoryScope(shared: boolean): string {
	return shared
		? "This workflow's memory of it is kept in n8n's database, so the refusal holds on every worker and after a restart."
		: 'This n8n does not offer nodes its database-backed duplicate store here (older n8n versions lack it, and it needs a saved workflow), so only this n8n process remembers it: a re-run on another worker or after a restart is not held back.';
}
