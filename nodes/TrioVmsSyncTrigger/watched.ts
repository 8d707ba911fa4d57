/**
 * What differs between watching jobs and watching submissions, as data the poll's steps
 * (poll.ts) read: the list to ask for, how to read and compare it, what to look up after, how
 * an item looks.
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { fieldOf } from '../shared/recordFields';
import { PATHS } from '../shared/serviceFacts';
import type { PollBudget } from './budget';
import {
	diffJobs,
	diffSubmissions,
	type JobChange,
	type JobDiff,
	type SubmissionChange,
} from './diff';
import {
	changedJob,
	JOB_EVENT,
	jobItem,
	listFilter,
	passesJobFilters,
	SUBMISSION_EVENT,
	submissionItem,
} from './items';
import { lookUpAbsentJobs } from './lookup';
import {
	readJobs,
	readSubmissions,
	type JobRecord,
	type ListReading,
	type SubmissionRecord,
} from './records';
import type { DiffOptions } from './watermark';
import { readState, type JobState, type SubmissionState, type WatchKind } from './state';

/** What a diff returns: the changes, the next state, and for jobs the ones to look up. */
export interface Outcome<Change, State> {
	changes: Change[];
	next: State;
}

/**
 * What differs between watching jobs and watching submissions. `Entry` is a read list record,
 * `Change` an emitted change, `State` the remembered state and `Diff` what the diff returns.
 */
export interface Watched<
	Entry extends ListedRecord,
	Change extends { change: string },
	State extends JobState | SubmissionState,
	Diff extends Outcome<Change, State> = Outcome<Change, State>,
> {
	kind: WatchKind;
	event: string;
	path: string;
	/** The field holding a record's last-changed time. */
	stampField: string;
	state(staticData: IDataObject): State | undefined;
	read(body: unknown): ListReading<Entry>;
	/** The changes and the next state; may throw ListShrankError. */
	diff(state: State | undefined, reading: ListReading<Entry>, options: DiffOptions): Diff;
	/** What a listing failure means for this kind of record, when it needs saying. */
	listAdvice?: string;
	/** Completes the diff with further requests (the jobs a full list left out), within the budget. */
	complete?(
		context: IPollFunctions,
		diff: Diff,
		budget: PollBudget | undefined,
	): Promise<Outcome<Change, State>>;
	/** Whether a change passes the node's filters. */
	passes?(context: IPollFunctions, change: Change): boolean;
	/** `check`: the count of saved checks the state held when this check started (see items.ts). */
	item(change: Change, receivedAt: string, simplify: boolean, check: number): IDataObject;
	/**
	 * Fetch Test Event's sample, when nothing changed: a change of a kind the node is set to
	 * output, of the newest record, or of the newest `preferred` one where Trio lists one.
	 */
	sample(record: IDataObject, changes: readonly string[]): Change;
	samplePreferred?(record: IDataObject, changes: readonly string[]): boolean;
}

/** A sample's number, so its changeKey names the record shown (0 when it has none). */
function numberOf(record: IDataObject): number {
	const number = Number(fieldOf(record, 'Number'));
	return Number.isSafeInteger(number) ? number : 0;
}

/** The fields of a read record the poll's steps use. */
export interface ListedRecord {
	number: number;
	stamp: string | null;
	raw: IDataObject;
}

export const JOBS: Watched<JobRecord, JobChange, JobState, JobDiff> = {
	kind: 'jobs',
	event: JOB_EVENT,
	path: PATHS.jobs,
	stampField: 'ModifiedDateUtc',
	state: (staticData) => readState(staticData, 'jobs'),
	read: readJobs,
	diff: (state, reading, options) =>
		diffJobs(state, reading.records, {
			...options,
			alsoListed: reading.unreadable.flatMap((record) =>
				record.number === null ? [] : [record.number],
			),
		}),
	complete: lookUpAbsentJobs,
	passes(context, change) {
		const filters = {
			statuses: listFilter(context.getNodeParameter('filters.jobStatuses', [])),
			states: listFilter(context.getNodeParameter('filters.states', [])),
			professions: listFilter(context.getNodeParameter('filters.professions', '')),
		};
		return passesJobFilters(changedJob(change), filters);
	},
	item: jobItem,
	sample: (job) => ({ change: 'opened', number: numberOf(job), job }),
};

export const SUBMISSIONS: Watched<SubmissionRecord, SubmissionChange, SubmissionState> = {
	kind: 'submissions',
	event: SUBMISSION_EVENT,
	path: PATHS.submissions,
	stampField: 'ModifiedDateUTC',
	state: (staticData) => readState(staticData, 'submissions'),
	read: readSubmissions,
	diff: (state, reading, options) => diffSubmissions(state, reading.records, options),
	// The spec does not show how submissions are listed: the service may not offer it at all.
	listAdvice:
		"Trio VMS may not offer the list of submissions to this API key: the way to list them is not part of Trio's published API. Nothing was output and the trigger still remembers what it had seen. To follow submissions, use the Trio VMS Trigger with the Submission Update event instead.",
	item: submissionItem,
	// With Changes = only Status Changed (the offer-approval recipe), the sample is a status
	// change, of an offer where Trio lists one: what the workflow after it is built for.
	sample: (submission, changes) => ({
		change: changes.includes('created') ? 'created' : 'statusChanged',
		number: numberOf(submission),
		submission,
	}),
	samplePreferred: (submission, changes) =>
		!changes.includes('created') && fieldOf(submission, 'Status') === 'Offered',
};
