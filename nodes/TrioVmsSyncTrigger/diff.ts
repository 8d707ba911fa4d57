/**
 * The Sync Trigger's decisions, as pure functions: which list to ask for (planPoll), what
 * changed between the remembered state and a list answer (diffJobs, diffSubmissions). The item
 * shapes and filters are in items.ts, the steps of a poll in poll.ts; every rule here is tested
 * without HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	displayStamp,
	isOlder,
	laterStamp,
	stampMs,
	type JobRecord,
	type SubmissionRecord,
} from './records';
import {
	emptyEntries,
	sameJobEntry,
	type JobEntry,
	type JobState,
	type SubmissionState,
	type SyncState,
} from './state';

type JobChangeType = 'opened' | 'updated' | 'closed' | 'openPositionsChanged';
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

/** A known job a full list did not hold: `GET /Job/{number}` decides what it means. */
interface JobAbsence {
	number: number;
	last: JobEntry;
}

/** What `GET /Job/{number}` said about a job the full list did not hold. */
export type JobLookup =
	/** Closed (or another status that is not open), or 404/410: the job is gone. */
	| { outcome: 'closed'; job?: IDataObject }
	/** Open or On Hold: the list left it out, the job is still there. */
	| { outcome: 'open' }
	/** No answer (5xx, 429 after retries, a broken connection, an answer that is not a job). */
	| { outcome: 'unanswered' };

export interface JobDiff {
	changes: JobChange[];
	next: JobState;
	/** Known jobs the full list did not hold, to be looked up one by one (settleAbsentJobs). */
	absent: JobAbsence[];
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
	/**
	 * Whether `notAfter` comes from n8n's clock because the service sent no Date header. Then a
	 * watermark that no stamp may move (n8n's clock far behind the service's) is set to the
	 * oldest stamp of the answer instead of staying unset.
	 */
	localClock?: boolean;
	/** A full list missing this share of the known jobs or more is refused (0 to 1). */
	maxDropShare?: number;
	/** Numbers of records listed but unreadable: they are listed, so not missing. */
	alsoListed?: Iterable<number>;
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

/**
 * With no trustworthy clock (no Date header) and no stamp near n8n's, the oldest stamp of the
 * answer: lower than the ideal watermark, so nothing is missed (what is seen again is dropped),
 * and never an outlier beyond every other record.
 */
function fallbackWatermark(
	watermark: string | null,
	listing: Array<{ stamp: string | null }>,
	options: DiffOptions,
): string | null {
	if (watermark !== null || !options.localClock) return watermark;
	let oldest: string | null = null;
	for (const record of listing)
		if (record.stamp !== null && (oldest === null || record.stamp < oldest)) oldest = record.stamp;
	return oldest;
}

/** A record neither remembered nor newer than what was forgotten at the size limit is new. */
function isForgotten(state: SyncState<unknown> | undefined, stamp: string | null): boolean {
	const floor = state?.forgottenUpTo ?? null;
	return floor !== null && stamp !== null && stamp <= floor;
}

/**
 * Refuses a full list that lacks `share` of the known jobs or more (10 of 20 at 50%): most
 * likely cut short. Jobs already known to be left out of the list while Trio calls them open
 * do not count, or they would refuse every full list once there are enough of them.
 */
function guardAgainstShortList(state: JobState, seen: Set<number>, share: number): void {
	if (share >= 1) return;
	const omitted = new Set(state.omitted);
	let known = 0;
	let missing = 0;
	for (const number of state.entries.numbers()) {
		if (omitted.has(number)) continue;
		known++;
		if (!seen.has(number)) missing++;
	}
	if (known >= MIN_JOBS_FOR_DROP_RULE && missing > 0 && missing >= share * known)
		throw new ListShrankError(missing, known);
}

function jobEntry(record: JobRecord, openPositions: number | null): JobEntry {
	const entry: JobEntry = {
		stamp: record.stamp,
		status: record.status,
		openPositions,
		stateAbbreviation: record.stateAbbreviation,
		profession: record.profession,
	};
	if (!record.stateAbbreviation && record.stateName) entry.stateName = record.stateName;
	return entry;
}

/**
 * Compares a list answer with the state. A record whose stamp equals the remembered one is the
 * same change seen again (the overlap window repeats records on purpose) and yields nothing; a
 * record older than the remembered one (listed twice, or from a replica lagging behind) is a
 * stale copy and yields nothing either, nor moves the state back.
 *
 * A full list also returns the known jobs it did not hold (`absent`): spec 3.1 calls them
 * closed, but `GET /Job/{number}` has the last word (settleAbsentJobs).
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
	const seen = new Set<number>(options.alsoListed ?? []);
	for (const record of listing) seen.add(record.number);

	if (options.full && state)
		guardAgainstShortList(state, seen, options.maxDropShare ?? DEFAULT_MAX_DROP_PERCENT / 100);

	for (const record of listing) {
		watermark = nextWatermark(watermark, record.stamp, options.notAfter);
		// Against what is known so far, so a record listed twice in one answer counts once.
		const before = entries.get(record.number);
		if (before && isOlder(record.stamp, before.stamp)) continue;
		if (record.status === 'Closed') {
			// The list should not hold closed jobs (spec 3.1); if it does, believe it.
			if (before)
				changes.push({ change: 'closed', number: record.number, job: record.raw, last: before });
			entries.delete(record.number);
			continue;
		}
		// Counts are current only in the full list; a cheap poll keeps the last full one.
		const entry = jobEntry(
			record,
			options.full ? record.openPositions : (before?.openPositions ?? null),
		);
		// Unchanged entries keep their stored string (nothing to encode again).
		if (!before || !sameJobEntry(before, entry)) entries.set(record.number, entry);
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

	const absent: JobAbsence[] = [];
	let missing = (state?.missing ?? []).filter((number) => !seen.has(number));
	let omitted = (state?.omitted ?? []).filter((number) => !seen.has(number));
	if (options.full && state) {
		// What each job left out means is settled by its own lookup (settleAbsentJobs).
		missing = [];
		omitted = [];
		for (const number of previousEntries.numbers()) {
			if (seen.has(number)) continue;
			const last = entries.get(number);
			if (last) absent.push({ number, last });
		}
	}

	return {
		changes,
		absent,
		next: {
			kind: 'jobs',
			watermark: fallbackWatermark(watermark, listing, options),
			pollsSinceFullList: options.full ? 0 : (state?.pollsSinceFullList ?? 0) + 1,
			entries,
			missing,
			omitted,
			forgottenUpTo: state?.forgottenUpTo ?? null,
			forgottenNumber: state?.forgottenNumber ?? null,
			reported: state?.reported ?? [],
		},
	};
}

/**
 * What the lookups of the jobs a full list left out mean: closed (Closed, another status that
 * is not open, or 404/410) is emitted now and forgotten; Open or On Hold stays known and is
 * asked about again at the next full list, without counting as missing; no answer is never a
 * closure: the job stays known and missing, and is asked about again at the next full list.
 */
export function settleAbsentJobs(diff: JobDiff, lookups: ReadonlyMap<number, JobLookup>): JobDiff {
	const entries = diff.next.entries.copy();
	const changes = [...diff.changes];
	const missing = [...diff.next.missing];
	const omitted = [...diff.next.omitted];
	for (const { number, last } of diff.absent) {
		const lookup = lookups.get(number) ?? { outcome: 'unanswered' };
		if (lookup.outcome === 'open') omitted.push(number);
		else if (lookup.outcome === 'unanswered') missing.push(number);
		else {
			entries.delete(number);
			changes.push({ change: 'closed', number, job: lookup.job, last });
		}
	}
	return { changes, absent: [], next: { ...diff.next, entries, missing, omitted } };
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

/**
 * Submissions never leave the list; a change of Status or StatusCode is what counts. A record
 * older than the remembered one is a stale copy and yields nothing. A submission forgotten at
 * the size limit that changes again is numbered at or below the highest forgotten number: it
 * is a status change (what it was before is no longer known), not a new submission.
 */
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
		if (before && isOlder(record.stamp, before.stamp)) continue;
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
			const forgotten = state.forgottenNumber !== null && record.number <= state.forgottenNumber;
			changes.push({
				change: forgotten ? 'statusChanged' : 'created',
				number: record.number,
				submission: record.raw,
			});
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
			watermark: fallbackWatermark(watermark, listing, options),
			pollsSinceFullList: options.full ? 0 : (state?.pollsSinceFullList ?? 0) + 1,
			entries,
			missing: [],
			omitted: [],
			forgottenUpTo: state?.forgottenUpTo ?? null,
			forgottenNumber: state?.forgottenNumber ?? null,
			reported: state?.reported ?? [],
		},
	};
}
