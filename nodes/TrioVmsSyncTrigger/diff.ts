/**
 * The Sync Trigger's decisions, as pure functions: which list to ask for (planPoll), what
 * changed between the remembered state and a list answer (diffJobs, diffSubmissions). The item
 * shapes and filters are in items.ts, the steps of a poll in poll.ts; every rule here is tested
 * without HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	displayStamp,
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
	/** Why the job's details could not be read, in words (the change is still emitted). */
	problem?: string;
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
	/**
	 * Stamps after this (the service's own time plus a margin, normal form) do not move the
	 * watermark: one record stamped 2099 would otherwise blind every cheap poll until then.
	 */
	notAfter?: string | null;
	/** A full list missing more than this share of the known jobs is refused (0 to 1). */
	maxDropShare?: number;
}

/** Below this many known jobs the share rule does not apply: a few closures can be most of them. */
const MIN_JOBS_FOR_DROP_RULE = 10;
export const DEFAULT_MAX_DROP_PERCENT = 50;

/** A full list that lost too many known jobs at once: most likely cut short, not mass closure. */
export class ListShrankError extends Error {
	constructor(
		readonly missing: number,
		readonly known: number,
	) {
		super(`The full job list lacks ${missing} of the ${known} jobs known so far`);
	}
}

/** The watermark moves to `stamp` unless it lies beyond what the service itself calls now. */
function nextWatermark(
	watermark: string | null,
	stamp: string | null,
	notAfter: string | null | undefined,
): string | null {
	if (stamp !== null && notAfter && stamp > notAfter) return watermark;
	return laterStamp(watermark, stamp);
}

/** A record neither remembered nor newer than what was forgotten at the size limit is new. */
function isForgotten(state: SyncState<unknown> | undefined, stamp: string | null): boolean {
	const floor = state?.forgottenUpTo ?? null;
	return floor !== null && stamp !== null && stamp <= floor;
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
	for (const record of listing) seen.add(record.number);

	if (options.full && state) {
		let missing = 0;
		for (const number of previousEntries.numbers()) if (!seen.has(number)) missing++;
		const known = previousEntries.size;
		const share = options.maxDropShare ?? DEFAULT_MAX_DROP_PERCENT / 100;
		if (known >= MIN_JOBS_FOR_DROP_RULE && missing > share * known)
			throw new ListShrankError(missing, known);
	}

	for (const record of listing) {
		watermark = nextWatermark(watermark, record.stamp, options.notAfter);
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
			if (!isForgotten(state, record.stamp))
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

	let missing = (state?.missing ?? []).filter((number) => !seen.has(number));
	if (options.full && state) {
		// Spec 3.1: a job the full list no longer returns is closed. One list cut short must not
		// close it, so it is closed when the next full list misses it too.
		const missedBefore = new Set(state.missing);
		missing = [];
		for (const number of previousEntries.numbers()) {
			if (seen.has(number)) continue;
			if (!missedBefore.has(number)) {
				missing.push(number);
				continue;
			}
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
			missing,
			forgottenUpTo: state?.forgottenUpTo ?? null,
			reported: state?.reported ?? [],
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
		watermark = nextWatermark(watermark, record.stamp, options.notAfter);
		// Against what is known so far, so a record listed twice in one answer counts once.
		const before = entries.get(record.number);
		if (!before && state && isForgotten(state, record.stamp)) continue;
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
			missing: [],
			forgottenUpTo: state?.forgottenUpTo ?? null,
			reported: state?.reported ?? [],
		},
	};
}
