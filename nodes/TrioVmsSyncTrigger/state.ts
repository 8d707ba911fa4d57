/**
 * What the Sync Trigger remembers between polls, kept in the node's static data (which n8n
 * stores with the workflow) in a compact, versioned, bounded form:
 *
 * ```
 * { v: 1, kind: 'jobs', wm: '2026-11-20T10:11:12.1230000Z', n: 3,
 *   e: { '100001': 'mhz3k2ab|O|3', ... } }
 * ```
 *
 * - `wm`: the watermark, the newest ModifiedDateUtc the service itself has sent (never n8n's clock);
 * - `n`: polls since the last full list;
 * - `e`: one short string per record. Jobs: `stamp|status|open positions`, submissions:
 *   `stamp|status code|status`. The stamp is milliseconds since the epoch in base 36, plus
 *   `.dddd` when the service's value had digits below the millisecond; `O` and `H` stand for
 *   Open and OnHold; an empty part means unknown.
 *
 * About 24 bytes per job: 10,000 jobs take about 240 KB (see bench/benchmarks/sync-trigger.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { stampMs } from './records';

export const STATE_VERSION = 1;

/** Records kept at most; beyond it the least recently modified are forgotten. */
export const MAX_ENTRIES = 100_000;

export type WatchKind = 'jobs' | 'submissions';

export interface JobEntry {
	stamp: string | null;
	status: string;
	/** NumberOfCurrentOpenPositions as the last full list gave it; null when not seen in one. */
	openPositions: number | null;
}

export interface SubmissionEntry {
	stamp: string | null;
	statusCode: number | null;
	status: string;
}

export interface SyncState<Entry> {
	kind: WatchKind;
	/** Newest service timestamp seen, in normal form. */
	watermark: string | null;
	pollsSinceFullList: number;
	entries: Map<number, Entry>;
}

export type JobState = SyncState<JobEntry>;
export type SubmissionState = SyncState<SubmissionEntry>;

interface StoredState {
	v: number;
	kind: WatchKind;
	wm: string | null;
	n: number;
	e: Record<string, string>;
}

const STATUS_CODES: Record<string, string> = { Open: 'O', OnHold: 'H' };
const STATUS_NAMES: Record<string, string> = { O: 'Open', H: 'OnHold' };

export function encodeStamp(stamp: string | null): string {
	if (stamp === null) return '';
	const below = stamp.slice(23, 27);
	return `${stampMs(stamp).toString(36)}${below === '0000' ? '' : `.${below}`}`;
}

export function decodeStamp(text: string): string | null {
	if (!text) return null;
	const [ms, below = '0000'] = text.split('.');
	return `${new Date(parseInt(ms, 36)).toISOString().slice(0, 23)}${below}Z`;
}

/** `|` separates the parts; a status that contains one is stored with it replaced. */
function safe(text: string): string {
	return text.replace(/\|/g, '/');
}

export function encodeJob(entry: JobEntry): string {
	const status = STATUS_CODES[entry.status] ?? safe(entry.status);
	return `${encodeStamp(entry.stamp)}|${status}|${entry.openPositions ?? ''}`;
}

export function decodeJob(text: string): JobEntry {
	const [stamp = '', status = '', positions = ''] = text.split('|');
	return {
		stamp: decodeStamp(stamp),
		status: STATUS_NAMES[status] ?? status,
		openPositions: positions === '' ? null : Number(positions),
	};
}

export function encodeSubmission(entry: SubmissionEntry): string {
	return `${encodeStamp(entry.stamp)}|${entry.statusCode ?? ''}|${safe(entry.status)}`;
}

export function decodeSubmission(text: string): SubmissionEntry {
	const [stamp = '', code = '', ...status] = text.split('|');
	return {
		stamp: decodeStamp(stamp),
		statusCode: code === '' ? null : Number(code),
		status: status.join('|'),
	};
}

function isStoredState(value: unknown): value is StoredState {
	if (!value || typeof value !== 'object') return false;
	const state = value as Partial<StoredState>;
	return (
		state.v === STATE_VERSION &&
		(state.kind === 'jobs' || state.kind === 'submissions') &&
		(state.wm === null || typeof state.wm === 'string') &&
		typeof state.n === 'number' &&
		!!state.e &&
		typeof state.e === 'object'
	);
}

/**
 * The state kept in static data for this kind of record, or undefined when there is none
 * usable: never polled, another kind watched before, or an older layout. Undefined means
 * "new state": the next poll reads the full list and records it.
 */
export function readState(staticData: IDataObject, kind: 'jobs'): JobState | undefined;
export function readState(
	staticData: IDataObject,
	kind: 'submissions',
): SubmissionState | undefined;
export function readState(
	staticData: IDataObject,
	kind: WatchKind,
): JobState | SubmissionState | undefined {
	const stored = staticData.sync;
	if (!isStoredState(stored) || stored.kind !== kind) return undefined;
	const decode = kind === 'jobs' ? decodeJob : decodeSubmission;
	const entries = new Map<number, JobEntry | SubmissionEntry>();
	for (const [number, text] of Object.entries(stored.e))
		if (typeof text === 'string') entries.set(Number(number), decode(text));
	return {
		kind,
		watermark: stored.wm,
		pollsSinceFullList: stored.n,
		entries,
	} as JobState | SubmissionState;
}

/** Keeps the MAX_ENTRIES most recently modified entries (records without a stamp go first). */
export function bound<Entry extends { stamp: string | null }>(
	entries: Map<number, Entry>,
	limit = MAX_ENTRIES,
): Map<number, Entry> {
	if (entries.size <= limit) return entries;
	const kept = [...entries].sort(([, a], [, b]) => ((b.stamp ?? '') > (a.stamp ?? '') ? 1 : -1));
	return new Map(kept.slice(0, limit));
}

/** The stored form; written into static data in one assignment, only after a poll succeeded. */
export function storeState(state: JobState | SubmissionState): StoredState {
	const e: Record<string, string> = {};
	if (state.kind === 'jobs') {
		for (const [number, entry] of bound((state as JobState).entries)) e[number] = encodeJob(entry);
	} else {
		for (const [number, entry] of bound((state as SubmissionState).entries))
			e[number] = encodeSubmission(entry);
	}
	return {
		v: STATE_VERSION,
		kind: state.kind,
		wm: state.watermark,
		n: state.pollsSinceFullList,
		e,
	};
}

export function writeState(staticData: IDataObject, state: JobState | SubmissionState): void {
	staticData.sync = storeState(state) as unknown as IDataObject;
}
