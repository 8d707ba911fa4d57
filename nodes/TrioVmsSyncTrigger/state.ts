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
 * - `s`: checks saved so far: an item whose change Trio made without moving the record's stamp
 *   carries it in its `changeKey` (see items.ts), so two runs of one check (from the same saved
 *   state) give the same key and two checks do not;
 * - `m`: jobs missing from the last full list whose own lookup (`GET /Job/{number}`) gave no
 *   answer: they are asked about again at the next full list, never closed on a failed lookup;
 * - `o`: jobs missing from the last full list that their lookup still calls Open or On Hold:
 *   asked about again at each full list, but not counted by the cut-short guard;
 * - `f`: the newest stamp among records forgotten at the size limit: a record not remembered
 *   but stamped at or before it is an old one, not a new one;
 * - `fn`: the highest number among records forgotten at the size limit (see forgottenNumber);
 * - `r`: fingerprints of unreadable records already reported (each is reported once);
 * - `b`: 1 while the baseline is still to be taken: the first check could not read the list
 *   (Trio busy or slow at that moment), so it remembered only when it began watching (`f`, on
 *   n8n's clock: the failed answer's Date may be a gateway's);
 *   the next check takes the baseline, and a record changed after that moment is new to it;
 * - `e`: one short string per record. Jobs: `stamp|status|open positions|state|profession`
 *   (plus `|state name` when the job has no state abbreviation), submissions:
 *   `stamp|status code|status`. The stamp is milliseconds since the epoch in base 36, plus
 *   `.dddd` when the service's value had digits below the millisecond; `O` and `H` stand for
 *   Open and OnHold; an empty part means unknown.
 *
 * About 35 bytes per job: 10,000 jobs take about 350 KB (measured over the sandbox's jobs).
 */
import type { IDataObject } from 'n8n-workflow';

import { RememberedRecords, MAX_ENTRIES, type Codec } from './rememberedRecords';
import { stampMs } from './records';

const STATE_VERSION = 1;

export type WatchKind = 'jobs' | 'submissions';

export interface JobEntry {
	stamp: string | null;
	status: string;
	/** NumberOfCurrentOpenPositions as the last full list gave it; null when not seen in one. */
	openPositions: number | null;
	/** What the State and Profession filters read, so a closure built from memory passes them as the job did. */
	stateAbbreviation: string;
	/** The State name, kept only when the job has no abbreviation. */
	stateName?: string;
	profession: string;
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
	/**
	 * Checks saved so far. A change Trio made without moving the record's stamp is keyed with the
	 * count its check started from: every run of that check starts from the same saved state and
	 * so from the same count.
	 */
	checks: number;
	entries: RememberedRecords<Entry>;
	/** Jobs the last full list did not hold and whose lookup gave no answer: asked again. */
	missing: number[];
	/** Jobs the last full list did not hold but whose lookup calls them Open or On Hold. */
	omitted: number[];
	/** Records stamped at or before this and not remembered were forgotten at the size limit. */
	forgottenUpTo: string | null;
	/**
	 * The highest number among records forgotten at the size limit. Trio numbers records as it
	 * creates them, so a record not remembered but numbered at or below it was forgotten, not
	 * created since.
	 */
	forgottenNumber: number | null;
	/** Fingerprints of unreadable records already reported. */
	reported: string[];
	/**
	 * The first check could not read the list: no record is known yet, and `forgottenUpTo` is
	 * when the trigger began watching. The next check takes the baseline.
	 */
	baselinePending?: boolean;
}

export type JobState = SyncState<JobEntry>;
export type SubmissionState = SyncState<SubmissionEntry>;

interface StoredState {
	v: number;
	kind: WatchKind;
	wm: string | null;
	n: number;
	e: Record<string, string>;
	s?: number;
	m?: number[];
	o?: number[];
	f?: string | null;
	fn?: number;
	r?: string[];
	b?: 1;
}

/**
 * Unreadable records remembered as reported. Only those still in Trio's list are kept (see
 * poll.ts), so this bound is only reached by a list of that many unreadable records.
 */
const MAX_REPORTED = MAX_ENTRIES;

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
	const known = `${encodeStamp(entry.stamp)}|${status}|${entry.openPositions ?? ''}`;
	const place = `${known}|${safe(entry.stateAbbreviation)}|${safe(entry.profession)}`;
	return entry.stateName ? `${place}|${safe(entry.stateName)}` : place;
}

export function decodeJob(text: string): JobEntry {
	const [
		stamp = '',
		status = '',
		positions = '',
		stateAbbreviation = '',
		profession = '',
		stateName,
	] = text.split('|');
	const entry: JobEntry = {
		stamp: decodeStamp(stamp),
		status: STATUS_NAMES[status] ?? status,
		openPositions: positions === '' ? null : Number(positions),
		stateAbbreviation,
		profession,
	};
	if (stateName) entry.stateName = stateName;
	return entry;
}

/** Whether two job entries are stored alike (an unchanged entry keeps its stored string). */
export function sameJobEntry(a: JobEntry, b: JobEntry): boolean {
	return (
		a.stamp === b.stamp &&
		a.status === b.status &&
		a.openPositions === b.openPositions &&
		a.stateAbbreviation === b.stateAbbreviation &&
		a.stateName === b.stateName &&
		a.profession === b.profession
	);
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

export const JOB_CODEC: Codec<JobEntry> = { encode: encodeJob, decode: decodeJob };
const SUBMISSION_CODEC: Codec<SubmissionEntry> = {
	encode: encodeSubmission,
	decode: decodeSubmission,
};

export function emptyEntries(kind: 'jobs'): RememberedRecords<JobEntry>;
export function emptyEntries(kind: 'submissions'): RememberedRecords<SubmissionEntry>;
export function emptyEntries(
	kind: WatchKind,
): RememberedRecords<JobEntry> | RememberedRecords<SubmissionEntry> {
	return kind === 'jobs'
		? new RememberedRecords(JOB_CODEC)
		: new RememberedRecords(SUBMISSION_CODEC);
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
 * usable: never polled, another kind watched before, or another layout. Undefined means
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
	const strings: Record<string, string> = {};
	for (const [number, text] of Object.entries(stored.e))
		if (typeof text === 'string' && /^\d+$/.test(number)) strings[number] = text;
	const entries =
		kind === 'jobs'
			? new RememberedRecords(JOB_CODEC, strings)
			: new RememberedRecords(SUBMISSION_CODEC, strings);
	return {
		kind,
		watermark: stored.wm,
		pollsSinceFullList: stored.n,
		checks: Number.isSafeInteger(stored.s) && (stored.s as number) > 0 ? (stored.s as number) : 0,
		entries,
		missing: Array.isArray(stored.m) ? stored.m.filter(Number.isSafeInteger) : [],
		omitted: Array.isArray(stored.o) ? stored.o.filter(Number.isSafeInteger) : [],
		forgottenUpTo: typeof stored.f === 'string' ? stored.f : null,
		forgottenNumber: Number.isSafeInteger(stored.fn) ? (stored.fn as number) : null,
		reported: Array.isArray(stored.r) ? stored.r.filter((r) => typeof r === 'string') : [],
		...(stored.b === 1 ? { baselinePending: true } : {}),
	} as JobState | SubmissionState;
}

function higher(a: number | null, b: number | null): number | null {
	if (a === null) return b;
	return b === null || a > b ? a : b;
}

/** The stored form; written into static data in one assignment, only after a poll succeeded. */
export function storeState(state: JobState | SubmissionState, limit = MAX_ENTRIES): StoredState {
	const { record, forgottenUpTo, forgottenNumber } = state.entries.toRecord(limit);
	const floor =
		forgottenUpTo !== null && (state.forgottenUpTo === null || forgottenUpTo > state.forgottenUpTo)
			? forgottenUpTo
			: state.forgottenUpTo;
	const stored: StoredState = {
		v: STATE_VERSION,
		kind: state.kind,
		wm: state.watermark,
		n: state.pollsSinceFullList,
		e: record,
	};
	if (state.checks > 0) stored.s = state.checks;
	if (state.missing.length) stored.m = state.missing;
	if (state.omitted.length) stored.o = state.omitted;
	if (floor !== null) stored.f = floor;
	const numberFloor = higher(state.forgottenNumber, forgottenNumber);
	if (numberFloor !== null) stored.fn = numberFloor;
	if (state.reported.length) stored.r = state.reported.slice(-MAX_REPORTED);
	if (state.baselinePending) stored.b = 1;
	return stored;
}

/**
 * The state of a trigger whose first check could not read the list: nothing known, and watching
 * since `since`, on n8n's clock (a failed answer's Date may be a gateway's), so that the check
 * that takes the baseline outputs what changed after it on Trio's clock (sinceOnServiceClock),
 * as `opened` (`created`), and only notes the rest; `since` null (Output Current Jobs on First
 * Check on): every record is output.
 */
export function pendingBaseline(kind: WatchKind, since: string | null): JobState | SubmissionState {
	return {
		kind,
		watermark: null,
		pollsSinceFullList: 0,
		checks: 0,
		entries: kind === 'jobs' ? emptyEntries('jobs') : emptyEntries('submissions'),
		missing: [],
		omitted: [],
		forgottenUpTo: since,
		forgottenNumber: null,
		reported: [],
		baselinePending: true,
	} as JobState | SubmissionState;
}

export function writeState(staticData: IDataObject, state: JobState | SubmissionState): void {
	staticData.sync = storeState(state) as unknown as IDataObject;
}
