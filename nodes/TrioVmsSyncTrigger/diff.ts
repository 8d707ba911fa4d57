/**
 * The Sync Trigger's decisions, as pure functions: what changed between the remembered state
 * and a list answer (diffJobs, diffSubmissions); how far polls reach is in watermark.ts. The item
 * shapes and filters are in items.ts, the steps of a poll in poll.ts; every rule here is tested
 * without HTTP.
 */
import type { IDataObject } from 'n8n-workflow';

import { displayStamp, type JobRecord, type SubmissionRecord } from './records';
import {
	emptyEntries,
	sameJobEntry,
	type JobEntry,
	type JobState,
	type SubmissionEntry,
	type SubmissionState,
} from './state';
import { DEFAULT_MAX_DROP_PERCENT, guardAgainstShortList } from './shortList';
import { isForgotten, isStaleCopy, nextState, nextWatermark, type DiffOptions } from './watermark';

type JobChangeType = 'opened' | 'updated' | 'closed' | 'openPositionsChanged';
export const SUBMISSION_CHANGES = ['created', 'statusChanged'] as const;
type SubmissionChangeType = (typeof SUBMISSION_CHANGES)[number];

export interface JobChange {
	change: JobChangeType;
	number: number;
	/** The job as the service returned it (for `closed` without a fetched job: undefined). */
	job?: IDataObject;
	/** The fields that changed, with their values before, where the state knows them. */
	previous?: IDataObject;
	/** For `closed`: what the state remembered about the job. */
	last?: JobEntry;
	/** Trio made the change without moving the job's stamp past what was seen (items.ts). */
	stampStood?: true;
}

/** `{ stampStood: true }` when Trio's stamp is none or not past `seen`, else nothing. */
function stood(stamp: string | null, seen: string | null): { stampStood?: true } {
	return stamp === null || (seen !== null && stamp <= seen) ? { stampStood: true } : {};
}

/** A known job a full list did not hold: `GET /Job/{number}` decides what it means. */
interface JobAbsence {
	number: number;
	last: JobEntry;
}

/** What `GET /Job/{number}` said about a job the full list did not hold. */
export type JobLookup =
	/**
	 * Its record says Closed, or the service's own 404/410 (`notFound`): the job is gone. A
	 * `notFound` counts only while Trio finds a job its list calls open (lookup.ts).
	 */
	| { outcome: 'closed'; job?: IDataObject; notFound?: true }
	/** Open or On Hold: the list left it out, the job is still there. */
	| { outcome: 'open' }
	/**
	 * No answer about this job: 5xx, 429 after retries, a broken connection, a 404 that is not
	 * the service's own, or a body that is not this job with a status the spec names.
	 */
	| { outcome: 'unanswered' };

export interface JobDiff {
	changes: JobChange[];
	next: JobState;
	/** Known jobs the full list did not hold, to be looked up one by one (settleAbsentJobs). */
	absent: JobAbsence[];
	/**
	 * A job this full list calls Open or On Hold, to ask Trio about when it answers "not found"
	 * for a job the list left out: if Trio does not find this one either, its 404s are not its
	 * word about any job.
	 */
	control?: number;
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
		if (before && isStaleCopy(record.stamp, before.stamp, options.notAfter)) continue;
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
		// Listed twice while taking a baseline: the first copy said all there is.
		if (!before) changes.push(...opening(state, record, options.emitExisting));
		else if (state) changes.push(...changesOfKnownJob(record, before, options.full));
	}

	const control = options.full
		? listing.find((record) => record.status !== 'Closed')?.number
		: undefined;
	const { absent, missing, omitted } = leftOut(state, previousEntries, entries, seen, options.full);
	return {
		changes,
		absent,
		...(control === undefined ? {} : { control }),
		next: nextState('jobs', state, { watermark, entries, missing, omitted }, listing, options),
	};
}

/**
 * A job the state does not know: opened, unless it was forgotten at the size limit; with no
 * state yet (a new baseline), only noted unless the user asked for the current jobs.
 */
function opening(
	state: JobState | undefined,
	record: JobRecord,
	emitExisting: boolean,
): JobChange[] {
	if (!state)
		return emitExisting ? [{ change: 'opened', number: record.number, job: record.raw }] : [];
	if (isForgotten(state, record.stamp)) return [];
	// A job reopened under a stamp already seen is told apart by the check (items.ts).
	const change: JobChange = { change: 'opened', number: record.number, job: record.raw };
	return [{ ...change, ...stood(record.stamp, state.watermark) }];
}

/** What changed in a known job the list holds: its stamp or status, and its open positions. */
function changesOfKnownJob(record: JobRecord, before: JobEntry, full: boolean): JobChange[] {
	const changes: JobChange[] = [];
	const kept = stood(record.stamp, before.stamp);
	if (record.stamp !== before.stamp || record.status !== before.status) {
		const previous: IDataObject = {};
		if (record.stamp !== before.stamp) previous.ModifiedDateUtc = displayStamp(before.stamp);
		if (record.status !== before.status) previous.JobStatus = before.status;
		changes.push({ change: 'updated', number: record.number, job: record.raw, previous, ...kept });
	}
	// Counts are current only in the full list.
	if (
		full &&
		before.openPositions !== null &&
		record.openPositions !== null &&
		record.openPositions !== before.openPositions
	) {
		changes.push({
			change: 'openPositionsChanged',
			number: record.number,
			job: record.raw,
			previous: { NumberOfCurrentOpenPositions: before.openPositions },
			...kept,
		});
	}
	return changes;
}

/**
 * The known jobs a list did not hold: after a full list, every one is to be looked up (what each
 * means is settled by its own lookup, settleAbsentJobs); after a cheap poll, the jobs still
 * missing or left out stay so.
 */
function leftOut(
	state: JobState | undefined,
	previousEntries: JobState['entries'],
	entries: JobState['entries'],
	seen: Set<number>,
	full: boolean,
): { absent: JobAbsence[]; missing: number[]; omitted: number[] } {
	const absent: JobAbsence[] = [];
	if (!full || !state)
		return {
			absent,
			missing: (state?.missing ?? []).filter((number) => !seen.has(number)),
			omitted: (state?.omitted ?? []).filter((number) => !seen.has(number)),
		};
	for (const number of previousEntries.numbers()) {
		if (seen.has(number)) continue;
		const last = entries.get(number);
		if (last) absent.push({ number, last });
	}
	return { absent, missing: [], omitted: [] };
}

/**
 * What the lookups of the jobs a full list left out mean: closed (Closed, or the service's own
 * 404/410) is emitted now and forgotten; Open or On Hold stays known and is
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
	/** Trio changed the status without moving the stamp past what was seen (items.ts). */
	stampStood?: true;
}

export interface SubmissionDiff {
	changes: SubmissionChange[];
	next: SubmissionState;
}

/** What one listed submission says against what was remembered of it, if anything. */
function submissionChange(
	state: SubmissionState | undefined,
	record: SubmissionRecord,
	before: SubmissionEntry | undefined,
	emitExisting: boolean,
): SubmissionChange | undefined {
	const { number, raw: submission } = record;
	if (!state)
		return emitExisting && !before ? { change: 'created', number, submission } : undefined;
	if (!before) {
		// Taking a pending baseline: what changed before the trigger began watching is noted.
		if (state.baselinePending && isForgotten(state, record.stamp)) return undefined;
		const forgotten = state.forgottenNumber !== null && number <= state.forgottenNumber;
		return { change: forgotten ? 'statusChanged' : 'created', number, submission };
	}
	if (record.statusCode === before.statusCode && record.status === before.status) return undefined;
	return {
		change: 'statusChanged',
		number,
		submission,
		previous: {
			Status: before.status,
			StatusCode: before.statusCode,
			ModifiedDateUTC: displayStamp(before.stamp),
		},
		...stood(record.stamp, before.stamp),
	};
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
		if (before && isStaleCopy(record.stamp, before.stamp, options.notAfter)) continue;
		if (!before && state && !state.baselinePending && isForgotten(state, record.stamp)) continue;
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
		const change = submissionChange(state, record, before, options.emitExisting);
		if (change) changes.push(change);
	}

	return {
		changes,
		next: nextState(
			'submissions',
			state,
			{ watermark, entries, missing: [], omitted: [] },
			listing,
			options,
		),
	};
}
