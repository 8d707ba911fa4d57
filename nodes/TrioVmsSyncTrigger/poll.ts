/**
 * One poll of the Sync Trigger, the same steps for jobs and submissions; what differs between
 * them is the `Watched` description passed in:
 *
 *   1. skip when a poll of the same node is still running in this process (n8n does not wait)
 *   2. ask for the full list or only what changed since the watermark (planPoll)
 *   3. read the answer record by record: one that cannot be read is reported, not fatal
 *   4. compare with the remembered state (diff), refusing a job list cut short
 *   5. jobs: confirm each closure with `GET /Job/{number}`
 *   6. emit the wanted changes; remember the new state, unless this is Fetch Test Event
 *
 * Every request happens before the state is written: a failure loses nothing and the next poll
 * tries again.
 */
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { PATHS } from '../shared/service';
import { submissionListNotOffered } from '../shared/submissionList';
import { createTrioClient, type TrioClient } from '../shared/transport';
import {
	DEFAULT_FULL_LIST_EVERY,
	DEFAULT_MAX_DROP_PERCENT,
	DEFAULT_OVERLAP_SECONDS,
	diffJobs,
	diffSubmissions,
	ListShrankError,
	planPoll,
	type DiffOptions,
	type JobChange,
	type PollPlan,
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
	unreadableItem,
} from './items';
import {
	field,
	readJob,
	readJobs,
	readStamp,
	readSubmissions,
	stampOf,
	UnreadableAnswerError,
	type ListReading,
	type UnreadableRecord,
} from './records';
import {
	readState,
	writeState,
	type JobState,
	type SubmissionState,
	type WatchKind,
} from './state';

/** Fetch Test Event shows a sample of what a poll emits, never the whole list. */
const TEST_EVENT_ITEMS = 3;

/** A stamp this far beyond the service's own clock does not move the watermark. */
const FUTURE_MARGIN_MS = 60 * 60_000;

interface PollSettings {
	watch: WatchKind;
	emitExisting: boolean;
	changes: string[];
	simplify: boolean;
	fullListEvery: number;
	overlapSeconds: number;
	maxDropShare: number;
}

function settings(context: IPollFunctions): PollSettings {
	const watch = context.getNodeParameter('watch', 'jobs') as WatchKind;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const fullListEvery = Number(options.fullListEvery ?? DEFAULT_FULL_LIST_EVERY);
	const overlapSeconds = Number(options.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS);
	const maxDropPercent = Number(options.maxDropPercent ?? DEFAULT_MAX_DROP_PERCENT);
	const node = context.getNode();
	if (!Number.isInteger(fullListEvery) || fullListEvery < 1)
		throw new NodeOperationError(node, '"Full List Every" must be a whole number, 1 or more');
	if (!Number.isFinite(overlapSeconds) || overlapSeconds < 0)
		throw new NodeOperationError(node, '"Overlap (Seconds)" must be 0 or more');
	if (!Number.isFinite(maxDropPercent) || maxDropPercent < 0 || maxDropPercent > 100)
		throw new NodeOperationError(node, '"Most Jobs Closing at Once (%)" must be from 0 to 100');
	return {
		watch,
		emitExisting: context.getNodeParameter('emitExisting', false) as boolean,
		changes: context.getNodeParameter(
			watch === 'jobs' ? 'jobChanges' : 'submissionChanges',
			[],
		) as string[],
		simplify: context.getNodeParameter('simplify', true) as boolean,
		fullListEvery,
		overlapSeconds,
		maxDropShare: maxDropPercent / 100,
	};
}

interface Watched {
	kind: WatchKind;
	event: string;
	path: string;
	/** The field holding a record's last-changed time. */
	stampField: string;
	read(body: unknown): ListReading<{ number: number; stamp: string | null; raw: IDataObject }>;
	/** The changes and the next state; may throw ListShrankError. */
	diff(
		state: JobState | SubmissionState | undefined,
		reading: ListReading<never>,
		options: DiffOptions,
	): { changes: Array<JobChange | SubmissionChange>; next: JobState | SubmissionState };
	/** What a listing failure means for this kind of record, when it needs saying. */
	listAdvice?: string;
	/** Completes the wanted changes with further requests (closed jobs); may drop some. */
	complete?(
		context: IPollFunctions,
		client: TrioClient,
		changes: Array<JobChange | SubmissionChange>,
		next: JobState | SubmissionState,
	): Promise<Array<JobChange | SubmissionChange>>;
	/** Whether a change passes the node's filters. */
	passes?(context: IPollFunctions, change: JobChange | SubmissionChange): boolean;
	item(change: JobChange | SubmissionChange, receivedAt: string, simplify: boolean): IDataObject;
}

const JOBS: Watched = {
	kind: 'jobs',
	event: JOB_EVENT,
	path: PATHS.jobs,
	stampField: 'ModifiedDateUtc',
	read: readJobs,
	diff: (state, reading, options) =>
		diffJobs(state as JobState | undefined, reading.records, options),
	complete: confirmClosures,
	passes(context, change) {
		return passesJobFilters(changedJob(change as JobChange), {
			statuses: listFilter(context.getNodeParameter('filters.jobStatuses', [])),
			states: listFilter(context.getNodeParameter('filters.states', [])),
			professions: listFilter(context.getNodeParameter('filters.professions', '')),
		});
	},
	item: (change, receivedAt, simplify) => jobItem(change as JobChange, receivedAt, simplify),
};

const SUBMISSIONS: Watched = {
	kind: 'submissions',
	event: SUBMISSION_EVENT,
	path: PATHS.submissions,
	stampField: 'ModifiedDateUTC',
	read: readSubmissions,
	diff: (state, reading, options) =>
		diffSubmissions(state as SubmissionState | undefined, reading.records, options),
	// The spec does not show how submissions are listed: the service may not offer it at all.
	listAdvice:
		"Trio VMS may not offer the list of submissions to this API key: the way to list them is not part of Trio's published API. Nothing was emitted and what the trigger remembers was kept. To follow submissions, use the Trio VMS Trigger with the Submission Update event instead.",
	item: (change, receivedAt, simplify) =>
		submissionItem(change as SubmissionChange, receivedAt, simplify),
};

/** Polls of each node under way in this process: n8n starts the next one on schedule regardless. */
const inFlight = new Set<string>();

export async function pollTrio(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const key = `${context.getWorkflow().id ?? ''}\u0000${context.getNode().id ?? context.getNode().name}`;
	if (inFlight.has(key)) return null;
	inFlight.add(key);
	try {
		const items = await pollOnce(context);
		return items.length > 0 ? [context.helpers.returnJsonArray(items)] : null;
	} finally {
		inFlight.delete(key);
	}
}

async function pollOnce(context: IPollFunctions): Promise<IDataObject[]> {
	const options = settings(context);
	const manual = context.getMode() === 'manual';
	const watched = options.watch === 'submissions' ? SUBMISSIONS : JOBS;
	const client = createTrioClient(context);
	const staticData = context.getWorkflowStaticData('node');
	const state = readState(staticData, watched.kind as 'jobs') as
		JobState | SubmissionState | undefined;
	const plan = planPoll(state, options);
	const body = await listRecords(context, client, watched, plan);
	const reading = readOrFail(context, () => watched.read(body));
	const notAfter = serviceNowPlusMargin(client);
	let diff: ReturnType<Watched['diff']>;
	try {
		diff = watched.diff(state, reading as ListReading<never>, {
			full: plan.full,
			emitExisting: options.emitExisting,
			notAfter,
			maxDropShare: options.maxDropShare,
		});
	} catch (error) {
		if (error instanceof ListShrankError) throw listShrank(context, error);
		throw asNodeError(context, error);
	}
	let wanted = diff.changes.filter((change) => options.changes.includes(change.change));
	if (watched.complete) wanted = await watched.complete(context, client, wanted, diff.next);
	if (watched.passes) wanted = wanted.filter((change) => watched.passes!(context, change));

	const receivedAt = new Date().toISOString();
	const reported = new Set(state?.reported ?? []);
	const unreadable = reading.unreadable.filter((record) => !reported.has(record.fingerprint));
	const items = [
		...unreadable.map((record) => unreadableItem(watched.event, record, receivedAt)),
		...wanted.map((change) => watched.item(change, receivedAt, options.simplify)),
	];
	if (!manual) {
		diff.next.reported = [...diff.next.reported, ...unreadable.map(fingerprint)];
		writeState(staticData, diff.next);
		return items;
	}
	if (items.length === 0) {
		const sample = await sampleRecord(client, watched, plan, reading);
		if (sample) {
			const change = (
				watched.kind === 'jobs'
					? { change: 'opened', number: 0, job: sample }
					: { change: 'created', number: 0, submission: sample }
			) as JobChange | SubmissionChange;
			items.push(watched.item(change, receivedAt, options.simplify));
		}
	}
	return items.slice(0, TEST_EVENT_ITEMS);
}

function fingerprint(record: UnreadableRecord): string {
	return record.fingerprint;
}

/** The service's own time (its Date header) plus a margin, else n8n's, as a normal-form stamp. */
function serviceNowPlusMargin(client: TrioClient): string | null {
	const now = client.serviceDateMs ?? Date.now();
	return readStamp(new Date(now + FUTURE_MARGIN_MS).toISOString()) || null;
}

async function listRecords(
	context: IPollFunctions,
	client: TrioClient,
	watched: Watched,
	plan: PollPlan,
): Promise<unknown> {
	try {
		return await client.request({
			method: 'GET',
			path: watched.path,
			query: plan.full ? undefined : { modifiedDate: plan.modifiedDate },
			context: { subject: `the ${watched.kind === 'jobs' ? 'job' : 'submission'} list` },
		});
	} catch (error) {
		if (!watched.listAdvice || !submissionListNotOffered(error)) throw asNodeError(context, error);
		throw new NodeApiError(context.getNode(), {} as JsonObject, {
			message: `The Sync Trigger could not read the submission list from Trio VMS (${error.httpCode}): ${error.message}`,
			description: watched.listAdvice,
			httpCode: error.httpCode ?? undefined,
		});
	}
}

/** Reads a list answer, or fails loudly: the state must not move on an answer it cannot read. */
function readOrFail<T>(context: IPollFunctions, read: () => T): T {
	try {
		return read();
	} catch (error) {
		if (!(error instanceof UnreadableAnswerError))
			throw new NodeOperationError(context.getNode(), error as Error);
		throw new NodeApiError(context.getNode(), { message: error.message } as JsonObject, {
			message: `Trio VMS sent an answer the Sync Trigger cannot read: ${error.message}`,
			description:
				'Nothing was emitted and the remembered state was kept, so the next poll tries again.',
		});
	}
}

/** The transport's failures are node errors already, with Trio's message; anything else becomes one. */
function asNodeError(context: IPollFunctions, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(context.getNode(), error instanceof Error ? error : String(error));
}

function listShrank(context: IPollFunctions, error: ListShrankError): NodeApiError {
	return new NodeApiError(context.getNode(), {} as JsonObject, {
		message: `Trio VMS's job list suddenly lacks ${error.missing} of the ${error.known} jobs the Sync Trigger knows, so it did not report them as closed`,
		description:
			'A list cut short (Trio busy or changing something) looks like many jobs closing at once. Nothing was emitted and what the trigger remembers was kept; the next poll looks again. If that many jobs really did close, raise "Most Jobs Closing at Once (%)" under Options.',
	});
}

/**
 * A job gone from two full lists is closed (spec 3.1), but `GET /Job/{number}` has the last
 * word: Open or On Hold means it is still there (no change, and it stays remembered); Closed or
 * 404 confirms the closure. Any other failure does not hold the poll up: the closure is emitted
 * with what was remembered and a `problem` that says why the details are missing.
 */
async function confirmClosures(
	_context: IPollFunctions,
	client: TrioClient,
	changes: Array<JobChange | SubmissionChange>,
	next: JobState | SubmissionState,
): Promise<Array<JobChange | SubmissionChange>> {
	const confirmed: Array<JobChange | SubmissionChange> = [];
	for (const change of changes) {
		if (change.change !== 'closed' || (change as JobChange).job) {
			confirmed.push(change);
			continue;
		}
		const closed = change as JobChange;
		const lookup = await lookUpJob(client, closed.number);
		if (lookup.job) {
			const status = String(field(lookup.job, 'JobStatus') ?? '');
			if (status && status.toLowerCase() !== 'closed') {
				if (closed.last) (next as JobState).entries.set(closed.number, closed.last);
				continue;
			}
		}
		confirmed.push({ ...closed, job: lookup.job, problem: lookup.problem });
	}
	return confirmed;
}

async function lookUpJob(
	client: TrioClient,
	number: number,
): Promise<{ job?: IDataObject; problem?: string }> {
	try {
		const body = await client.request({
			method: 'GET',
			path: PATHS.job,
			pathParams: { number },
			context: { subject: `job ${number}` },
		});
		return { job: readJob(body, number) };
	} catch (error) {
		if (error instanceof NodeApiError && String(error.httpCode) === '404') return {};
		const message = error instanceof Error ? error.message : String(error);
		return {
			problem: `Trio VMS did not give this job's details (${message}); the job is shown as last seen`,
		};
	}
}

/** The most recently modified record, from this poll's answer or, when it was empty, the full list. */
async function sampleRecord(
	client: TrioClient,
	watched: Watched,
	plan: PollPlan,
	reading: ListReading<{ stamp: string | null; raw: IDataObject }>,
): Promise<IDataObject | undefined> {
	let candidates = reading.records;
	if (candidates.length === 0 && !plan.full) {
		const body = await client.request({ method: 'GET', path: watched.path });
		candidates = (Array.isArray(body) ? body : [])
			.filter((raw): raw is IDataObject => !!raw && typeof raw === 'object')
			.map((raw) => ({ stamp: stampOf(field(raw, watched.stampField)), raw }));
	}
	let best: { stamp: string | null; raw: IDataObject } | undefined;
	for (const record of candidates)
		if (!best || (record.stamp ?? '') > (best.stamp ?? '')) best = record;
	return best?.raw;
}
