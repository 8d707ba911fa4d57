/**
 * One poll of the Sync Trigger, the same steps for jobs and submissions; what differs between
 * them is the `Watched` description passed in:
 *
 *   1. skip when a poll of the same node is still running in this process (n8n does not wait)
 *   2. ask for the full list or only what changed since the watermark (planPoll)
 *   3. read the answer record by record: one that cannot be read is reported, not fatal
 *   4. compare with the remembered state (diff), refusing a job list cut short
 *   5. jobs: ask `GET /Job/{number}` about each known job the full list left out
 *   6. emit the wanted changes; remember the new state, unless this is Fetch Test Event
 *
 * Every request happens before the state is written: a failure loses nothing and the next poll
 * tries again.
 *
 * Where n8n gives a poll a time budget (`getPollBudgetMs()`, n8n 2.41: 36 s under the durable
 * scheduler, which abandons a poll that runs past its timeout), the budget is read once at the
 * start: the list request is cut off before the budget ends, and the lookups stop while there is
 * still time to emit and save. The jobs not looked up stay missing and are asked about at the next
 * full list, so a poll that ran short loses nothing and emits nothing twice.
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
import {
	createTrioClient,
	DEFAULT_RETRY_POLICY,
	type TrioClient,
	type TrioClientOptions,
} from '../shared/transport';
import {
	DEFAULT_FULL_LIST_EVERY,
	DEFAULT_MAX_DROP_PERCENT,
	DEFAULT_OVERLAP_SECONDS,
	diffJobs,
	diffSubmissions,
	ListShrankError,
	planPoll,
	settleAbsentJobs,
	type DiffOptions,
	type JobChange,
	type JobDiff,
	type JobLookup,
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
	readJob,
	readJobs,
	readStamp,
	readSubmissions,
	stampOf,
	UnreadableAnswerError,
	type JobRecord,
	type ListReading,
	type SubmissionRecord,
	type UnreadableRecord,
} from './records';
import {
	readState,
	writeState,
	type JobState,
	type SubmissionState,
	type SyncState,
	type WatchKind,
} from './state';
import { fieldOf } from '../shared/fields';

/** Said on the one existing record Fetch Test Event shows when nothing has changed. */
const SAMPLE_NOTE =
	'Example only: there is no new change to show, so this is an existing record showing what the trigger outputs';

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

/** Output: Simplified (the ten job fields) or Raw. */
function simplifyOf(context: IPollFunctions): boolean {
	return context.getNodeParameter('output', 'simple') === 'simple';
}

function settings(context: IPollFunctions): PollSettings {
	const watch = context.getNodeParameter('watch', 'jobs') as WatchKind;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const fullListEvery = Number(options.fullListEvery ?? DEFAULT_FULL_LIST_EVERY);
	const overlapSeconds = Number(options.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS);
	const maxDropPercent = Number(options.maxDropPercent ?? DEFAULT_MAX_DROP_PERCENT);
	const node = context.getNode();
	if (!Number.isInteger(fullListEvery) || fullListEvery < 1)
		throw new NodeOperationError(
			node,
			'"Whole List Every (Checks)" must be a whole number, 1 or more: set it under Options',
		);
	if (!Number.isFinite(overlapSeconds) || overlapSeconds < 0)
		throw new NodeOperationError(
			node,
			'"Overlap (Seconds)" must be 0 or more: set it under Options',
		);
	if (!Number.isFinite(maxDropPercent) || maxDropPercent < 0 || maxDropPercent > 100)
		throw new NodeOperationError(
			node,
			'"Most Jobs Closing at Once (%)" must be from 0 to 100: set it under Options',
		);
	return {
		watch,
		emitExisting: context.getNodeParameter('emitExisting', false) as boolean,
		changes: context.getNodeParameter(
			watch === 'jobs' ? 'jobChanges' : 'submissionChanges',
			[],
		) as string[],
		simplify: simplifyOf(context),
		fullListEvery,
		overlapSeconds,
		maxDropShare: maxDropPercent / 100,
	};
}

/** What a diff returns: the changes, the next state, and for jobs the ones to look up. */
interface Outcome<Change, State> {
	changes: Change[];
	next: State;
}

/**
 * What differs between watching jobs and watching submissions. `Entry` is a read list record,
 * `Change` an emitted change, `State` the remembered state and `Diff` what the diff returns.
 */
interface Watched<
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
	item(change: Change, receivedAt: string, simplify: boolean): IDataObject;
	/** Fetch Test Event's sample, when nothing changed. */
	sample(record: IDataObject): Change;
}

/** The fields of a read record the poll's steps use. */
interface ListedRecord {
	number: number;
	stamp: string | null;
	raw: IDataObject;
}

const JOBS: Watched<JobRecord, JobChange, JobState, JobDiff> = {
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
	sample: (job) => ({ change: 'opened', number: 0, job }),
};

const SUBMISSIONS: Watched<SubmissionRecord, SubmissionChange, SubmissionState> = {
	kind: 'submissions',
	event: SUBMISSION_EVENT,
	path: PATHS.submissions,
	stampField: 'ModifiedDateUTC',
	state: (staticData) => readState(staticData, 'submissions'),
	read: readSubmissions,
	diff: (state, reading, options) => diffSubmissions(state, reading.records, options),
	// The spec does not show how submissions are listed: the service may not offer it at all.
	listAdvice:
		"Trio VMS may not offer the list of submissions to this API key: the way to list them is not part of Trio's published API. Nothing was emitted and what the trigger remembers was kept. To follow submissions, use the Trio VMS Trigger with the Submission Update event instead.",
	item: submissionItem,
	sample: (submission) => ({ change: 'created', number: 0, submission }),
};

/** Polls of each node under way in this process: n8n starts the next one on schedule regardless. */
const inFlight = new Set<string>();

export async function pollTrio(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const key = `${context.getWorkflow().id ?? ''}\u0000${context.getNode().id ?? context.getNode().name}`;
	if (inFlight.has(key)) return null;
	inFlight.add(key);
	try {
		const options = settings(context);
		const items =
			options.watch === 'submissions'
				? await pollOnce(context, options, SUBMISSIONS)
				: await pollOnce(context, options, JOBS);
		return items.length > 0 ? [context.helpers.returnJsonArray(items)] : null;
	} finally {
		inFlight.delete(key);
	}
}

async function pollOnce<
	Entry extends ListedRecord,
	Change extends { change: string },
	State extends JobState | SubmissionState,
	Diff extends Outcome<Change, State>,
>(
	context: IPollFunctions,
	options: PollSettings,
	watched: Watched<Entry, Change, State, Diff>,
): Promise<IDataObject[]> {
	const manual = context.getMode() === 'manual';
	const budget = pollBudget(context);
	const staticData = context.getWorkflowStaticData('node');
	const state = watched.state(staticData);
	const plan = planPoll(state, options);
	const listOptions = budget?.clientOptions();
	const client = createTrioClient(context, listOptions);
	// A list cut off by the budget rather than by the transport's own timeout says so.
	const cutByBudget = (listOptions?.timeoutMs ?? LIST_TIMEOUT_MS) < LIST_TIMEOUT_MS;
	const body = await listRecords(context, client, watched, plan, cutByBudget ? budget : undefined);
	const reading = readOrFail(context, () => watched.read(body));
	let diff: Diff;
	try {
		diff = watched.diff(state, reading, {
			full: plan.full,
			emitExisting: options.emitExisting,
			notAfter: serviceNowPlusMargin(client),
			localClock: client.serviceDateMs === undefined,
			maxDropShare: options.maxDropShare,
		});
	} catch (error) {
		if (error instanceof ListShrankError) throw listShrank(context, error);
		throw asNodeError(context, error);
	}
	const { changes, next } = watched.complete ? await watched.complete(context, diff, budget) : diff;
	let wanted = changes.filter((change) => options.changes.includes(change.change));
	const passes = watched.passes;
	if (passes) wanted = wanted.filter((change) => passes(context, change));

	const receivedAt = new Date().toISOString();
	const { unreadable, reported } = unreported(state, reading, plan.full);
	const items = [
		...unreadable.map((record) => unreadableItem(watched.event, record, receivedAt)),
		...wanted.map((change) => watched.item(change, receivedAt, options.simplify)),
	];
	if (!manual) {
		next.reported = reported;
		writeState(staticData, next);
		return items;
	}
	if (items.length === 0) {
		const sample = await sampleRecord(client, watched, plan, reading);
		// Marked, so that nobody takes an old record for a change.
		if (sample)
			items.push({
				...watched.item(watched.sample(sample), receivedAt, options.simplify),
				sample: SAMPLE_NOTE,
			});
	}
	return items.slice(0, TEST_EVENT_ITEMS);
}

/**
 * The unreadable records not reported yet (each once, even when listed twice), and what to
 * remember as reported: after a full list only the records still in it, so the memory never
 * outgrows the list and a record reported once is never reported again while Trio lists it.
 */
function unreported(
	state: SyncState<unknown> | undefined,
	reading: ListReading<unknown>,
	full: boolean,
): { unreadable: UnreadableRecord[]; reported: string[] } {
	const before = new Set(state?.reported ?? []);
	const remembered = new Set(full ? [] : before);
	const unreadable: UnreadableRecord[] = [];
	for (const record of reading.unreadable) {
		if (!before.has(record.fingerprint) && !remembered.has(record.fingerprint))
			unreadable.push(record);
		remembered.add(record.fingerprint);
	}
	return { unreadable, reported: [...remembered] };
}

/** The service's own time (its Date header) plus a margin, else n8n's, as a normal-form stamp. */
function serviceNowPlusMargin(client: TrioClient): string | null {
	const now = client.serviceDateMs ?? Date.now();
	return readStamp(new Date(now + FUTURE_MARGIN_MS).toISOString()) || null;
}

async function listRecords(
	context: IPollFunctions,
	client: TrioClient,
	watched: { kind: WatchKind; path: string; listAdvice?: string },
	plan: PollPlan,
	budget: PollBudget | undefined,
): Promise<unknown> {
	const subject = `the ${watched.kind === 'jobs' ? 'job' : 'submission'} list`;
	try {
		return await client.request({
			method: 'GET',
			path: watched.path,
			query: plan.full ? undefined : { modifiedDate: plan.modifiedDate },
			context: { subject },
		});
	} catch (error) {
		if (budget && (budget.spent() || timedOut(error))) throw budget.ranOut(context, subject);
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
 * Asks `GET /Job/{number}` about each known job the full list left out, the first time it is
 * missed: the service's own answer about the job decides (settleAbsentJobs).
 */
async function lookUpAbsentJobs(
	context: IPollFunctions,
	diff: JobDiff,
	budget: PollBudget | undefined,
): Promise<Outcome<JobChange, JobState>> {
	const lookups = new Map<number, JobLookup>();
	if (diff.absent.length === 0) return settleAbsentJobs(diff, lookups);
	// One client for every lookup, its timeout and retries sized so a lookup started in time ends
	// in time; a lookup not started leaves its job missing, asked about at the next full list.
	const slice = budget?.lookupSlice();
	if (budget && !slice) return settleAbsentJobs(diff, lookups);
	const client = createTrioClient(context, slice?.options);
	for (const { number } of diff.absent) {
		if (budget && slice && !budget.allows(slice.worstMs)) break;
		lookups.set(number, await lookUpJob(client, number));
	}
	return settleAbsentJobs(diff, lookups);
}

/** Open and On Hold, as Trio writes them or with a space: the statuses of a job still there. */
const STILL_THERE = new Set(['open', 'onhold', 'on hold']);

async function lookUpJob(client: TrioClient, number: number): Promise<JobLookup> {
	let job: IDataObject;
	try {
		const body = await client.request({
			method: 'GET',
			path: PATHS.job,
			pathParams: { number },
			context: { subject: `job ${number}` },
		});
		job = readJob(body, number);
	} catch (error) {
		const status = error instanceof NodeApiError ? String(error.httpCode) : '';
		// Not found, or gone: Trio no longer knows the job.
		if (status === '404' || status === '410') return { outcome: 'closed' };
		return { outcome: 'unanswered' };
	}
	const status = String(fieldOf(job, 'JobStatus') ?? '')
		.trim()
		.toLowerCase();
	return STILL_THERE.has(status) ? { outcome: 'open' } : { outcome: 'closed', job };
}

/** The most recently modified record, from this poll's answer or, when it was empty, the full list. */
async function sampleRecord(
	client: TrioClient,
	watched: { path: string; stampField: string },
	plan: PollPlan,
	reading: ListReading<ListedRecord>,
): Promise<IDataObject | undefined> {
	let candidates: Array<{ stamp: string | null; raw: IDataObject }> = reading.records;
	if (candidates.length === 0 && !plan.full) {
		const body = await client.request({ method: 'GET', path: watched.path });
		candidates = (Array.isArray(body) ? body : [])
			.filter((raw): raw is IDataObject => !!raw && typeof raw === 'object')
			.map((raw) => ({ stamp: stampOf(fieldOf(raw, watched.stampField)), raw }));
	}
	let best: { stamp: string | null; raw: IDataObject } | undefined;
	for (const record of candidates)
		if (!best || (record.stamp ?? '') > (best.stamp ?? '')) best = record;
	return best?.raw;
}

/** Without a budget from n8n, the transport's own idle timeout (its default). */
const LIST_TIMEOUT_MS = 60_000;
/** Under a budget, the longest pause before a retry (the transport's default is up to 20 s). */
const BUDGET_RETRY_PAUSE_MS = 2_000;
/** Kept for diffing, emitting and saving after the last request. */
const BUDGET_RESERVE_MS = 1_000;
/** A lookup gets at most this share of the time left when the lookups start. */
const LOOKUP_SHARE = 1 / 4;
/** Idle timeouts under a budget: the longest, and the shortest worth a retry. */
const LIST_TIMEOUT = { max: LIST_TIMEOUT_MS, minWithRetries: 10_000 };
const LOOKUP_TIMEOUT = { max: 15_000, minWithRetries: 2_000, min: 250 };

/** What the transport's options let one request take at most: every attempt and every pause. */
function worstCaseMs(timeoutMs: number, retries: number): number {
	return (retries + 1) * 2 * timeoutMs + retries * BUDGET_RETRY_PAUSE_MS;
}

/**
 * Client options for requests that must end within `windowMs` (the transport allows one attempt
 * twice its idle timeout): the transport's retries while each attempt still gets a useful idle
 * timeout, fewer when not, none at the last.
 */
function sizedWithin(
	windowMs: number,
	limits: { max: number; minWithRetries: number },
): { options: TrioClientOptions; worstMs: number } {
	let retries = DEFAULT_RETRY_POLICY.maxRetries;
	let timeoutMs = 1;
	for (; retries >= 0; retries--) {
		const room = windowMs - retries * BUDGET_RETRY_PAUSE_MS;
		timeoutMs = Math.max(1, Math.min(limits.max, Math.floor(room / (2 * (retries + 1)))));
		if (retries === 0 || timeoutMs >= limits.minWithRetries) break;
	}
	retries = Math.max(0, retries);
	return {
		options: {
			timeoutMs,
			retry: {
				maxRetries: retries,
				maxDelayMs: BUDGET_RETRY_PAUSE_MS,
				maxRetryAfterMs: BUDGET_RETRY_PAUSE_MS,
			},
		},
		worstMs: worstCaseMs(timeoutMs, retries),
	};
}

const TIMEOUT_CODES = new Set([
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** Whether a request failed for want of an answer in time (not for an answer or a refusal). */
function timedOut(error: unknown): boolean {
	const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
	if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return true;
	if (error instanceof NodeApiError && TIMEOUT_CODES.has(String(error.httpCode))) return true;
	// An HTTP status is an answer, whatever its text says.
	if (error instanceof NodeApiError && /^\d+$/.test(String(error.httpCode ?? ''))) return false;
	return error instanceof Error && /\bin time\b|timed out|timeout/i.test(error.message);
}

/** The time n8n gives this poll, read once at its start (n8n 2.41's `getPollBudgetMs()`). */
interface PollBudget {
	readonly budgetMs: number;
	/** Time left for requests, the reserve for saving taken off (0 when spent). */
	remainingMs(): number;
	spent(): boolean;
	/** Whether a request that may take `worstMs` still ends in time. */
	allows(worstMs: number): boolean;
	/** Options for the list request: cut off before the budget ends. */
	clientOptions(): TrioClientOptions;
	/**
	 * Options for the job lookups and how long one may take, sized from the time left now;
	 * undefined when too little is left for any.
	 */
	lookupSlice(): { options: TrioClientOptions; worstMs: number } | undefined;
	/** The error of a list that did not arrive within the budget. */
	ranOut(context: IPollFunctions, subject: string): NodeApiError;
}

function pollBudget(context: IPollFunctions): PollBudget | undefined {
	// n8n before 2.41 has no budget: the transport's own timeouts apply, as before.
	const read = (context as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	if (typeof read !== 'function') return undefined;
	let budgetMs: number;
	try {
		budgetMs = Number(read.call(context));
	} catch {
		return undefined;
	}
	if (!Number.isFinite(budgetMs) || budgetMs <= 0) return undefined;
	const deadline = Date.now() + budgetMs;
	const remainingMs = () => Math.max(0, deadline - BUDGET_RESERVE_MS - Date.now());
	return {
		budgetMs,
		remainingMs,
		spent: () => remainingMs() <= 0,
		allows: (worstMs) => worstMs <= remainingMs(),
		clientOptions: () => sizedWithin(remainingMs(), LIST_TIMEOUT).options,
		lookupSlice() {
			const slice = sizedWithin(remainingMs() * LOOKUP_SHARE, LOOKUP_TIMEOUT);
			return (slice.options.timeoutMs ?? 0) < LOOKUP_TIMEOUT.min ? undefined : slice;
		},
		ranOut(context, subject) {
			const seconds = Math.round(budgetMs / 100) / 10;
			return new NodeApiError(context.getNode(), {} as JsonObject, {
				message: `Trio VMS did not send ${subject} within the ${seconds} s n8n gives one poll`,
				description:
					'Nothing was emitted and what the trigger remembers was kept; the next poll asks again. If Trio is often this slow and n8n runs polls with its durable scheduler, your n8n administrator can give polls more time with N8N_SCHEDULER_POLL_TIMEOUT (and N8N_SCHEDULER_LEASE_DURATION when the timeout is longer than the lease).',
				// n8n's scheduler then waits a little before the next poll, as for a service that is
				// down for now, instead of giving up on the trigger.
				failure: { cause: 'temporarily-unavailable' },
			});
		},
	};
}
