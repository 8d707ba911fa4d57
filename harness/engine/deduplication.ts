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
 * write. And like it, weaknesses included: a call that records or removes reads the row, lets
 * other work run (the database round trip), then writes the whole row back, with no lock, so two
 * executions writing one row at once can undo each other's entries. Only 'entries' mode.
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

	/** Store calls that write a row so far, by kind; tests read them. */
	readonly calls = { checkProcessedAndRecord: 0, removeProcessed: 0 };

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

/** The database round trip between reading a row and writing it back: others run meanwhile. */
async function roundTrip(): Promise<void> {
	for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
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
	private row(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
		create: boolean,
	): { store: ProcessedDataStorage; key: string; row: Row | undefined } {
		if (!storage)
			throw new AssertionError({ message: 'Instance needs to initialized before use.' });
		if (storage.failure) throw storage.failure;
		if (options.mode !== 'entries')
			throw new Error(`The engine's duplicate store keeps entries only, not "${options.mode}"`);
		if (!data.workflow.id) throw new AssertionError({ message: 'The workflow has no id' });
		const key = rowKey(String(data.workflow.id), contextOf(scope, data));
		const stored = storage.rows.get(key);
		if (stored && stored.mode !== options.mode)
			throw new Error('Deduplication data was originally saved with an incompatible setting');
		// A copy, as read from the database: what others write afterwards is not in it.
		const row = stored
			? { mode: stored.mode, entries: [...stored.entries] }
			: create
				? { mode: options.mode, entries: [] }
				: undefined;
		return { store: storage, key, row };
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const existed = storage?.rows.has(rowKey(String(data.workflow.id), contextOf(scope, data)));
		const { store, key, row } = this.row(scope, data, options, true);
		store.calls.checkProcessedAndRecord++;
		await roundTrip();
		// The row's first write is an insert: another insert meanwhile makes it fail, as in n8n.
		if (!existed && store.rows.has(key))
			throw new Error('duplicate key value violates unique constraint "PK_processed_data"');
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
		store.rows.set(key, { mode: options.mode, entries });
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		const { store, key, row } = this.row(scope, data, options, false);
		store.calls.removeProcessed++;
		if (!row) return;
		await roundTrip();
		const gone = new Set(items.map(hashed));
		store.rows.set(key, {
			mode: row.mode,
			entries: row.entries.filter((entry) => !gone.has(entry)),
		});
	}

	async clearAllProcessedItems(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
	): Promise<void> {
		storage?.rows.delete(rowKey(String(data.workflow.id), contextOf(scope, data)));
	}

	async getProcessedDataCount(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<number> {
		return this.row(scope, data, options, false).row?.entries.length ?? 0;
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
		clearAllProcessedItems: async (scope: DeduplicationScope) =>
			await deduplicator.clearAllProcessedItems(scope, data),
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
