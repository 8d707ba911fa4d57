/**
 * The Sync Trigger's decisions, as pure functions: which list to ask for (planPoll), what
 * changed between the remembered state and a list answer (diffJobs, diffSubmissions), and the
 * items that go out (filters and item shapes). The node only wires them to the service and to
 * n8n; every rule lives here and is tested without HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	displayStamp,
	field,
	laterStamp,
	stampMs,
	type JobRecord,
	type SubmissionRecord,
} from './records';
import {
	emptyEntries,
	type JobEntry,
	type JobState,
	type SubmissionState,
	type SyncState,
} from './state';

export const JOB_CHANGES = ['opened', 'updated', 'closed', 'openPositionsChanged'] as const;
type JobChangeType = (typeof JOB_CHANGES)[number];
export const SUBMISSION_CHANGES = ['created', 'statusChanged'] as const;
type SubmissionChangeType = (typeof SUBMISSION_CHANGES)[number];

/** A full list every 10 polls: at n8n's default of one poll a minute, counts are ≤ 10 min old. */
export const DEFAULT_FULL_LIST_EVERY = 10;
/** Cheap polls ask for changes after the watermark minus this. */
export const DEFAULT_OVERLAP_SECONDS = 300;

export interface PollPlan {
	/** Read the whole list (finds closures and open-position changes). */
	full: boolean;
	/** For a cheap poll: the `modifiedDate` to send (the service answers records modified strictly after it). */
	modifiedDate?: string;
	/** Why a full list is read: 'new state', 'no watermark' or 'every N polls'. */
	reason?: string;
}

export interface PlanOptions {
	fullListEvery: number;
	overlapSeconds: number;
}

export function planPoll(state: SyncState<unknown> | undefined, options: PlanOptions): PollPlan {
	if (!state) return { full: true, reason: 'new state' };
	if (state.watermark === null) return { full: true, reason: 'no watermark' };
	if (state.pollsSinceFullList + 1 >= Math.max(1, options.fullListEvery))
		return { full: true, reason: 'every N polls' };
	const from = Math.max(0, stampMs(state.watermark) - Math.max(0, options.overlapSeconds) * 1000);
	return { full: false, modifiedDate: new Date(from).toISOString() };
}

export interface JobChange {
	change: JobChangeType;
	number: number;
	/** The job as the service returned it (for `closed` without a fetched job: undefined). */
	job?: IDataObject;
	/** The fields that changed, with their values before, where the state knows them. */
	previous?: IDataObject;
	/** For `closed`: what the state remembered about the job. */
	last?: JobEntry;
}

export interface JobDiff {
	changes: JobChange[];
	next: JobState;
}

export interface DiffOptions {
	/** Whether the listing is the full list (no modifiedDate). */
	full: boolean;
	/** With no state yet: emit every current record as opened / created. */
	emitExisting: boolean;
}

/**
 * Compares a list answer with the state. A record whose stamp equals the remembered one is the
 * same change seen again (the overlap window repeats records on purpose) and yields nothing.
 */
export function diffJobs(
	state: JobState | undefined,
	listing: JobRecord[],
	options: DiffOptions,
): JobDiff {
	const previousEntries = state?.entries ?? emptyEntries('jobs');
	const entries = previousEntries.copy();
	const changes: JobChange[] = [];
	let watermark = state?.watermark ?? null;
	const seen = new Set<number>();

	for (const record of listing) {
		seen.add(record.number);
		watermark = laterStamp(watermark, record.stamp);
		// Against what is known so far, so a record listed twice in one answer counts once.
		const before = entries.get(record.number);
		if (record.status === 'Closed') {
			// The list should not hold closed jobs (spec 3.1); if it does, believe it.
			if (before)
				changes.push({ change: 'closed', number: record.number, job: record.raw, last: before });
			entries.delete(record.number);
			continue;
		}
		const entry: JobEntry = {
			stamp: record.stamp,
			status: record.status,
			// Counts are current only in the full list; a cheap poll keeps the last full one.
			openPositions: options.full ? record.openPositions : (before?.openPositions ?? null),
		};
		// Unchanged entries keep their stored string (nothing to encode again).
		if (
			!before ||
			before.stamp !== entry.stamp ||
			before.status !== entry.status ||
			before.openPositions !== entry.openPositions
		)
			entries.set(record.number, entry);
		if (!state) {
			if (options.emitExisting && !before)
				changes.push({ change: 'opened', number: record.number, job: record.raw });
			continue;
		}
		if (!before) {
			changes.push({ change: 'opened', number: record.number, job: record.raw });
			continue;
		}
		if (record.stamp !== before.stamp || record.status !== before.status) {
			const previous: IDataObject = {};
			if (record.stamp !== before.stamp) previous.ModifiedDateUtc = displayStamp(before.stamp);
			if (record.status !== before.status) previous.JobStatus = before.status;
			changes.push({ change: 'updated', number: record.number, job: record.raw, previous });
		}
		if (
			options.full &&
			before.openPositions !== null &&
			record.openPositions !== null &&
			record.openPositions !== before.openPositions
		) {
			changes.push({
				change: 'openPositionsChanged',
				number: record.number,
				job: record.raw,
				previous: { NumberOfCurrentOpenPositions: before.openPositions },
			});
		}
	}

	if (options.full && state) {
		// Spec 3.1: a job the full list no longer returns is closed.
		for (const number of previousEntries.numbers()) {
			if (seen.has(number)) continue;
			entries.delete(number);
			changes.push({ change: 'closed', number, last: previousEntries.get(number) });
		}
	}

	return {
		changes,
		next: {
			kind: 'jobs',
			watermark,
			pollsSinceFullList: options.full ? 0 : (state?.pollsSinceFullList ?? 0) + 1,
			entries,
		},
	};
}

export interface SubmissionChange {
	change: SubmissionChangeType;
	number: number;
	submission: IDataObject;
	previous?: IDataObject;
}

export interface SubmissionDiff {
	changes: SubmissionChange[];
	next: SubmissionState;
}

/** Submissions never leave the list; a change of Status or StatusCode is what counts. */
export function diffSubmissions(
	state: SubmissionState | undefined,
	listing: SubmissionRecord[],
	options: DiffOptions,
): SubmissionDiff {
	const previousEntries = state?.entries ?? emptyEntries('submissions');
	const entries = previousEntries.copy();
	const changes: SubmissionChange[] = [];
	let watermark = state?.watermark ?? null;

	for (const record of listing) {
		watermark = laterStamp(watermark, record.stamp);
		// Against what is known so far, so a record listed twice in one answer counts once.
		const before = entries.get(record.number);
		if (
			!before ||
			before.stamp !== record.stamp ||
			before.statusCode !== record.statusCode ||
			before.status !== record.status
		)
			entries.set(record.number, {
				stamp: record.stamp,
				statusCode: record.statusCode,
				status: record.status,
			});
		if (!state) {
			if (options.emitExisting && !before)
				changes.push({ change: 'created', number: record.number, submission: record.raw });
			continue;
		}
		if (!before) {
			changes.push({ change: 'created', number: record.number, submission: record.raw });
			continue;
		}
		if (record.statusCode !== before.statusCode || record.status !== before.status) {
			changes.push({
				change: 'statusChanged',
				number: record.number,
				submission: record.raw,
				previous: {
					Status: before.status,
					StatusCode: before.statusCode,
					ModifiedDateUTC: displayStamp(before.stamp),
				},
			});
		}
	}

	return {
		changes,
		next: {
			kind: 'submissions',
			watermark,
			pollsSinceFullList: options.full ? 0 : (state?.pollsSinceFullList ?? 0) + 1,
			entries,
		},
	};
}

// ---------------------------------------------------------------- items and filters

/** Sets a field under the name the record already uses for it, whatever its letter case. */
function setField(record: IDataObject, name: string, value: unknown): void {
	const wanted = name.toLowerCase();
	const key = Object.keys(record).find((existing) => existing.toLowerCase() === wanted) ?? name;
	record[key] = value as IDataObject[string];
}

/**
 * The item a job change becomes: `change` first, then the job as the service returned it.
 * A closed job is the one `GET /Job/{number}` returned (or what the state remembered when the
 * service no longer knows it), with `JobStatus: "Closed"` and `closedDetectedAt`.
 */
export function jobItem(change: JobChange, detectedAt: string): IDataObject {
	const item: IDataObject = { change: change.change, ...(change.job ?? {}) };
	if (change.change === 'closed') {
		if (!change.job) {
			item.Number = change.number;
			if (change.last) {
				item.ModifiedDateUtc = displayStamp(change.last.stamp);
				if (change.last.openPositions !== null)
					item.NumberOfCurrentOpenPositions = change.last.openPositions;
			}
		}
		if (change.last && change.last.status !== 'Closed')
			item.previous = { JobStatus: change.last.status };
		setField(item, 'JobStatus', 'Closed');
		item.closedDetectedAt = detectedAt;
	} else if (change.previous) {
		item.previous = change.previous;
	}
	return item;
}

export function submissionItem(change: SubmissionChange): IDataObject {
	const item: IDataObject = { change: change.change, ...change.submission };
	if (change.previous) item.previous = change.previous;
	return item;
}

export interface JobFilters {
	/** Empty: every status. */
	statuses: string[];
	/** State abbreviations (or names); empty: every state. */
	states: string[];
	/** Professions; empty: every profession. */
	professions: string[];
}

/** Splits a comma-separated list typed by a user into trimmed, non-empty values. */
export function listFilter(value: unknown): string[] {
	if (Array.isArray(value))
		return value
			.map(String)
			.map((v) => v.trim())
			.filter(Boolean);
	if (typeof value !== 'string') return [];
	return value
		.split(',')
		.map((part) => part.trim())
		.filter(Boolean);
}

function text(value: unknown): string {
	return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/** Whether a job item (after the change: a closed job is Closed) passes the filters. */
export function passesJobFilters(item: IDataObject, filters: JobFilters): boolean {
	if (filters.statuses.length && !filters.statuses.includes(String(field(item, 'JobStatus'))))
		return false;
	if (filters.states.length) {
		const abbreviation = text(field(item, 'StateAbbreviation'));
		const name = text(field(item, 'State'));
		if (!filters.states.some((state) => [abbreviation, name].includes(state.toLowerCase())))
			return false;
	}
	if (filters.professions.length) {
		const profession = text(field(item, 'Profession'));
		if (!filters.professions.some((wanted) => wanted.toLowerCase() === profession)) return false;
	}
	return true;
}
