/**
 * n8n's duplicate store for the in-process engine: n8n-core's own DataDeduplicationService
 * (the service behind `this.helpers.checkProcessedAndRecord` and its siblings), started once per
 * test file with a storage provided here in place of n8n's database table.
 *
 * The storage is an object the test can hand to several engine "processes": run a workflow,
 * forget what the process held in memory (`forgetProcessMemory` in engine.ts, as a restart or
 * another queue-mode worker starts without it), run it again against the same storage, and the
 * second run sees what the first recorded, as two n8n processes sharing one database do.
 *
 * Like n8n's database-backed store (packages/cli/src/deduplication/deduplication-helper.ts):
 * rows per workflow and context ('' for scope 'workflow', `n:<node id>` for scope 'node'),
 * entries kept as hashes, `maxEntries` dropping the oldest, a row's mode fixed by its first
 * write. And like it, weaknesses included: a call that records or removes reads the row (one
 * database round trip), computes, then writes the whole row back (another), with no lock, so two
 * executions writing one row at once can undo each other's entries (a lost update); an update of
 * a row deleted meanwhile changes nothing (UPDATE ... WHERE matches no row), and a first write
 * that meets another's insert fails (the primary key). Every call, reads included, takes its
 * round trips: by default a few turns of the event loop, or, with `roundTripMs`, a time drawn
 * from that range (a seeded draw, so a run repeats), as a database over a network. Only
 * 'entries' mode.
 */
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';
import { AssertionError } from 'node:assert';
import { createHash } from 'node:crypto';

interface Row {
	mode: ICheckProcessedOptions['mode'];
	entries: string[];
}

/** The shared "database table": what every engine process using it reads and writes. */
export class ProcessedDataStorage {
	readonly rows = new Map<string, Row>();

	/** Set to make every call fail, as a database that does not answer. */
	failure: Error | undefined;

	/** Set to make every write fail (reads still answer), as a database that refuses writes. */
	writeFailure: Error | undefined;

	/** Store calls so far, by kind; tests read them. All but getProcessedDataCount write the row. */
	readonly calls = {
		checkProcessedAndRecord: 0,
		removeProcessed: 0,
		clearAllProcessedItems: 0,
		getProcessedDataCount: 0,
	};

	/** Each round trip to the database takes a time from this range (ms); unset: a few event-loop turns. */
	roundTripMs: [number, number] | undefined;

	/** The seed of the round trips' draws: a storage per seed repeats one interleaving exactly. */
	constructor(private seed = 0x2f6e_1d3b) {}

	/** Calls that wrote the row (every call but a count). */
	get writes(): number {
		return (
			this.calls.checkProcessedAndRecord +
			this.calls.removeProcessed +
			this.calls.clearAllProcessedItems
		);
	}

	/** One database round trip: other executions run meanwhile. */
	async roundTrip(): Promise<void> {
		const range = this.roundTripMs;
		if (!range) {
			for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
			return;
		}
		// xorshift: the same delays on every run of a test.
		this.seed ^= this.seed << 13;
		this.seed ^= this.seed >>> 17;
		this.seed ^= this.seed << 5;
		const share = (this.seed >>> 0) / 0x1_0000_0000;
		await new Promise((resolve) => setTimeout(resolve, range[0] + share * (range[1] - range[0])));
	}

	/** How many entries a workflow holds (scope 'workflow'), or a node of it (scope 'node'). */
	entryCount(workflowId: string, nodeId?: string): number {
		return this.rows.get(rowKey(workflowId, nodeId ? `n:${nodeId}` : ''))?.entries.length ?? 0;
	}

	/** Every row of a workflow, whatever its scope. */
	rowsOf(workflowId: string): Row[] {
		return [...this.rows]
			.filter(([key]) => key.startsWith(`${workflowId}\n`))
			.map(([, row]) => row);
	}
}

function rowKey(workflowId: string, context: string): string {
	return `${workflowId}\n${context}`;
}

function contextOf(scope: DeduplicationScope, data: ICheckProcessedContextData): string {
	if (scope === 'workflow') return '';
	if (!data.node) throw new Error("Scope 'node' needs the node");
	return `n:${data.node.id}`;
}

function hashed(value: DeduplicationItemTypes): string {
	return createHash('sha256').update(String(value)).digest('base64');
}

let storage: ProcessedDataStorage | undefined = new ProcessedDataStorage();

/**
 * Points the engine's duplicate store at `next` (shared by every run until changed), or, with
 * undefined, makes it fail as n8n-core's service does when n8n never started it (older n8n
 * versions, or a process without a database): an assertion error.
 */
export function useProcessedDataStorage(next: ProcessedDataStorage | undefined): void {
	storage = next;
}

class EngineDeduplicator implements IDataDeduplicator {
	/** The storage and the row's key, or the failure n8n's store would throw before reading. */
	private target(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): { store: ProcessedDataStorage; key: string } {
		if (!storage)
			throw new AssertionError({ message: 'Instance needs to initialized before use.' });
		if (storage.failure) throw storage.failure;
		if (options.mode !== 'entries')
			throw new Error(`The engine's duplicate store keeps entries only, not "${options.mode}"`);
		if (!data.workflow.id) throw new AssertionError({ message: 'The workflow has no id' });
		return { store: storage, key: rowKey(String(data.workflow.id), contextOf(scope, data)) };
	}

	/** SELECT: a copy of the row as it stands after one round trip; later writes are not in it. */
	private async read(
		store: ProcessedDataStorage,
		key: string,
		options: ICheckProcessedOptions,
	): Promise<Row | undefined> {
		await store.roundTrip();
		if (store.failure) throw store.failure;
		const stored = store.rows.get(key);
		if (stored && stored.mode !== options.mode)
			throw new Error('Deduplication data was originally saved with an incompatible setting');
		return stored && { mode: stored.mode, entries: [...stored.entries] };
	}

	/** UPDATE of the whole row, after one round trip: a row deleted meanwhile stays deleted. */
	private async update(store: ProcessedDataStorage, key: string, row: Row): Promise<void> {
		await store.roundTrip();
		if (store.failure ?? store.writeFailure) throw store.failure ?? store.writeFailure;
		if (store.rows.has(key)) store.rows.set(key, row);
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const { store, key } = this.target(scope, data, options);
		store.calls.checkProcessedAndRecord++;
		const row = await this.read(store, key, options);
		const entries = row?.entries ?? [];
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			const entry = hashed(item);
			if (entries.includes(entry)) output.processed.push(item);
			else {
				output.new.push(item);
				entries.push(entry);
			}
		}
		if (options.maxEntries && entries.length > options.maxEntries)
			entries.splice(0, entries.length - options.maxEntries);
		if (row) {
			await this.update(store, key, { mode: options.mode, entries });
			return output;
		}
		// INSERT: another insert meanwhile makes it fail, as the primary key does in n8n.
		await store.roundTrip();
		if (store.failure ?? store.writeFailure) throw store.failure ?? store.writeFailure;
		if (store.rows.has(key))
			throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
		store.rows.set(key, { mode: options.mode, entries });
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		const { store, key } = this.target(scope, data, options);
		store.calls.removeProcessed++;
		const row = await this.read(store, key, options);
		if (!row) return;
		const gone = new Set(items.map(hashed));
		await this.update(store, key, {
			mode: row.mode,
			entries: row.entries.filter((entry) => !gone.has(entry)),
		});
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		const { store, key } = this.target(scope, data, { ...options, mode: 'entries' });
		store.calls.clearAllProcessedItems++;
		await store.roundTrip();
		store.rows.delete(key);
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<number> {
		const { store, key } = this.target(scope, data, options);
		store.calls.getProcessedDataCount++;
		return (await this.read(store, key, options))?.entries.length ?? 0;
	}
}

/**
 * A node's duplicate-store helpers (`this.helpers.checkProcessedAndRecord` and its siblings) over
 * the engine's storage, for tests of a module that takes them without running a workflow.
 */
export function storeHelpersFor(workflowId: string, nodeId: string) {
	const deduplicator = new EngineDeduplicator();
	const data = {
		workflow: { id: workflowId, active: false },
		node: { id: nodeId },
	} as unknown as ICheckProcessedContextData;
	return {
		checkProcessedAndRecord: async (
			items: DeduplicationItemTypes[],
			scope: DeduplicationScope,
			options: ICheckProcessedOptions,
		) => await deduplicator.checkProcessedAndRecord(items, scope, data, options),
		removeProcessed: async (
			items: DeduplicationItemTypes[],
			scope: DeduplicationScope,
			options: ICheckProcessedOptions,
		) => await deduplicator.removeProcessed(items, scope, data, options),
		clearAllProcessedItems: async (
			scope: DeduplicationScope,
			options: ICheckProcessedOptions = { mode: 'entries' },
		) => await deduplicator.clearAllProcessedItems(scope, data, options),
		getProcessedDataCount: async (scope: DeduplicationScope, options: ICheckProcessedOptions) =>
			await deduplicator.getProcessedDataCount(scope, data, options),
	};
}

let started = false;

/** Starts n8n-core's DataDeduplicationService with the engine's storage (once per test file). */
export async function startDeduplicationService(): Promise<void> {
	if (started) return;
	started = true;
	await DataDeduplicationService.init(new EngineDeduplicator());
}
