/* eslint
	"@n8n/community-nodes/no-restricted-imports": "off"
	-- not in the package: n8n's rules for the code users install do not apply here */
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
 * Like n8n's database-backed store: rows per workflow and context ('' for scope 'workflow',
 * the node's id for scope 'node'), entries kept as hashes, `maxEntries` dropping the oldest, a
 * row's mode fixed by its first write. Only the 'entries' mode is provided.
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

	/** Store calls so far, by kind; tests read them. */
	readonly calls = { checkProcessedAndRecord: 0, removeProcessed: 0 };

	/** How many entries a workflow holds (scope 'workflow'). */
	entryCount(workflowId: string): number {
		return this.rows.get(rowKey(workflowId, ''))?.entries.length ?? 0;
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
	private row(
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
		create: boolean,
	): { store: ProcessedDataStorage; row: Row | undefined } {
		if (!storage)
			throw new AssertionError({ message: 'Instance needs to initialized before use.' });
		if (options.mode !== 'entries')
			throw new Error(`The engine's duplicate store keeps entries only, not "${options.mode}"`);
		if (!data.workflow.id) throw new AssertionError({ message: 'The workflow has no id' });
		const key = rowKey(String(data.workflow.id), contextOf(scope, data));
		let row = storage.rows.get(key);
		if (row && row.mode !== options.mode)
			throw new Error('Deduplication data was originally saved with an incompatible setting');
		if (!row && create) {
			row = { mode: options.mode, entries: [] };
			storage.rows.set(key, row);
		}
		return { store: storage, row };
	}

	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		const { store, row } = this.row(scope, data, options, true);
		store.calls.checkProcessedAndRecord++;
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
		return output;
	}

	async removeProcessed(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		data: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<void> {
		const { store, row } = this.row(scope, data, options, false);
		store.calls.removeProcessed++;
		if (!row) return;
		const gone = new Set(items.map(hashed));
		row.entries = row.entries.filter((entry) => !gone.has(entry));
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

let started = false;

/** Starts n8n-core's DataDeduplicationService with the engine's storage (once per test file). */
export async function startDeduplicationService(): Promise<void> {
	if (started) return;
	started = true;
	await DataDeduplicationService.init(new EngineDeduplicator());
}
