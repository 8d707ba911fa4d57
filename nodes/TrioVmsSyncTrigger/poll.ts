/**
 * One poll of the Sync Trigger, the same steps for jobs and submissions; what differs between
 * them is the `Watched` description passed in:
 *
 *   1. skip when a poll of the same node is still running in this process (n8n does not wait)
 *   2. ask for the full list or only what changed since the watermark (planPoll); a first check
 *      (n8n runs it while Publish waits) is held to FIRST_CHECK_BUDGET_MS, and when Trio is
 *      busy or down just then it remembers only when it began watching and outputs nothing, so
 *      Publish goes through; the next check takes the baseline, outputting what changed since
 *   3. read the answer record by record: one that cannot be read is reported, not fatal
 *   4. compare with the remembered state (diff), refusing a job list cut short
 *   5. jobs: ask `GET /Job/{number}` about each known job the full list left out
 *   6. emit the wanted changes; remember the new state, unless this is Fetch Test Event
 *      (testEvent.ts: a sample when nothing changed)
 *
 * Every request happens before the state is written: a failure loses nothing and the next poll
 * tries again.
 *
 * Where n8n gives a poll a time budget (`getPollBudgetMs()`, from n8n 2.38; under the durable
 * scheduler, on by default from n8n 2.45, a poll still running at its timeout is abandoned), the
 * budget is read once at the start (budget.ts): the list request ends, body and retries
 * included, before the budget does, and the lookups stop while there is still time to emit and
 * save. The jobs not looked up stay missing and are asked about at the next
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

import { isTimedOut, submissionListNotOffered } from '../shared/failureMarks';
import { TrioClient } from '../shared/transport';
import { FIRST_CHECK_BUDGET_MS, pollBudget, type PollBudget } from './budget';
import { ListShrankError } from './shortList';
import { declared, withFailure } from './failure';
import { unreadableItem } from './items';
import { UnreadableAnswerError } from '../shared/listAnswer';
import { readStamp, type ListReading, type UnreadableRecord } from './records';
import { settings, type PollSettings } from './settings';
import {
	pendingBaseline,
	writeState,
	type JobState,
	type SubmissionState,
	type SyncState,
	type WatchKind,
} from './state';
import { NotFoundDoubtedError, notFoundDoubted } from './lookup';
import { planPoll, sinceOnServiceClock, type DiffOptions, type PollPlan } from './watermark';
import { testEventItems } from './testEvent';
import { JOBS, SUBMISSIONS, type ListedRecord, type Outcome, type Watched } from './watched';

/** A stamp this far beyond the service's own clock does not move the watermark. */
const FUTURE_MARGIN_MS = 60 * 60_000;

/** Polls of each node under way in this process: n8n starts the next one on schedule regardless. */
const inFlight = new Set<string>();

export async function pollTrio(context: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const key = `${context.getWorkflow().id ?? ''}\u0000${context.getNode().id ?? context.getNode().name}`;
	if (inFlight.has(key)) return null;
	inFlight.add(key);
	let watch: WatchKind = 'jobs';
	try {
		const options = settings(context);
		watch = options.watch;
		const items =
			options.watch === 'submissions'
				? await pollOnce(context, options, SUBMISSIONS)
				: await pollOnce(context, options, JOBS);
		return items.length > 0 ? [context.helpers.returnJsonArray(items)] : null;
	} catch (error) {
		// Every way a check fails says why, for n8n's scheduler to back off by (failure.ts).
		throw withFailure(error, watch);
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
	const staticData = context.getWorkflowStaticData('node');
	const state = watched.state(staticData);
	// A first check may be the one n8n runs while Publish waits (budget.ts).
	const firstCheck = !state && !manual;
	const budget = pollBudget(context, firstCheck ? FIRST_CHECK_BUDGET_MS : undefined);
	const plan = planPoll(state, options);
	const client = new TrioClient(context, budget?.listOptions().options);
	let body: unknown;
	try {
		body = await listRecords(context, client, watched, plan, budget);
	} catch (error) {
		if (!firstCheck || !isForNow(withFailure(error, watched.kind)))
			throw asNodeError(context, error);
		writeState(staticData, pendingBaseline(watched.kind, watchingSince(options)));
		return [];
	}
	const reading = readOrFail(context, () => watched.read(body));
	const diff = diffWith(context, client, { state, reading, plan, options }, watched.diff);
	const { changes, next } = await complete(context, watched, diff, budget);
	const passes = watched.passes;
	const wanted = changes.filter(
		(change) => options.changes.includes(change.change) && (!passes || passes(context, change)),
	);

	const receivedAt = new Date().toISOString();
	const check = state?.checks ?? 0;
	const { unreadable, reported } = unreported(state, reading, plan.full);
	// A new baseline (a first check, a trigger copied or deleted and added again) only notes what
	// exists, unreadable records included, unless the user asked for the current records.
	const shown = (state && !state.baselinePending) || options.emitExisting ? unreadable : [];
	const items = [
		...shown.map((record) => unreadableItem(watched.event, record, receivedAt)),
		...wanted.map((change) => watched.item(change, receivedAt, options.simplify, check)),
	];
	if (!manual) {
		next.reported = reported;
		writeState(staticData, next);
		return items;
	}
	return await testEventItems(
		client,
		watched,
		{ plan, reading, options, receivedAt, check },
		items,
	);
}

/**
 * The diff of this answer against the state, on one clock: Trio's own (its successful answer's
 * Date) where the transport believes it, else n8n's.
 */
function diffWith<State extends SyncState<unknown>, Reading, Diff>(
	context: IPollFunctions,
	client: TrioClient,
	input: { state: State | undefined; reading: Reading; plan: PollPlan; options: PollSettings },
	diff: (state: State | undefined, reading: Reading, options: DiffOptions) => Diff,
): Diff {
	const { state, reading, plan, options } = input;
	const serviceNow = client.serviceNow();
	try {
		return diff(sinceOnServiceClock(state, serviceNow && serviceNow - Date.now()), reading, {
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

/**
 * When a first check that Trio turned away for now began watching: the next check takes the
 * baseline, outputting what changed after this moment (everything, with Output Current … on).
 * The moment is n8n's: a failed answer's Date may be a gateway's, on a clock of its own.
 */
function watchingSince(options: PollSettings): string | null {
	return options.emitExisting ? null : readStamp(new Date().toISOString()) || null;
}

/** Whether a failure passes on its own (n8n's timed causes: Trio busy, down or slow for now). */
function isForNow(error: Error): boolean {
	const cause = (error as { failure?: { cause?: unknown } }).failure?.cause;
	return cause === 'rate-limited' || cause === 'temporarily-unavailable';
}

/**
 * The service's own time (the Date of its successful answer, when within the transport's bound of
 * n8n's clock) plus a margin, else n8n's, as a normal-form stamp.
 */
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
		if (budget && (budget.spent() || isTimedOut(error))) throw budget.ranOut(context, subject);
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
		throw declared(
			new NodeApiError(context.getNode(), { message: error.message } as JsonObject, {
				message: `Trio VMS sent an answer the Sync Trigger cannot read: ${error.message}`,
				description:
					'Nothing was output and the trigger still remembers what it had seen, so its next check tries again.',
			}),
			// Most likely a gateway's page or a list cut off in transit: the next check reads again.
			{ cause: 'temporarily-unavailable' },
		);
	}
}

/** The transport's failures are node errors already, with Trio's message; anything else becomes one. */
function asNodeError(context: IPollFunctions, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(context.getNode(), error instanceof Error ? error : String(error));
}

function listShrank(context: IPollFunctions, error: ListShrankError): NodeApiError {
	return declared(
		new NodeApiError(context.getNode(), {} as JsonObject, {
			message: `Trio VMS's job list suddenly lacks ${error.missing} of the ${error.known} jobs the Sync Trigger knows, so it did not report them as closed`,
			description:
				'A list cut short (Trio busy or changing something) looks like many jobs closing at once. Nothing was output and the trigger still remembers what it had seen; its next check looks again. If that many jobs really did close, raise "Most Jobs Closing at Once (%)" under Options.',
		}),
		// Most often Trio's list is whole again at a later check: n8n tries again on its curve.
		{ cause: 'temporarily-unavailable' },
	);
}

/** The diff completed by further requests (the jobs a full list left out), or as it is. */
async function complete<Change, State, Diff extends Outcome<Change, State>>(
	context: IPollFunctions,
	watched: {
		complete?(
			context: IPollFunctions,
			diff: Diff,
			budget: PollBudget | undefined,
		): Promise<Outcome<Change, State>>;
	},
	diff: Diff,
	budget: PollBudget | undefined,
): Promise<Outcome<Change, State>> {
	if (!watched.complete) return diff;
	try {
		return await watched.complete(context, diff, budget);
	} catch (error) {
		if (error instanceof NotFoundDoubtedError) throw notFoundDoubted(context, error);
		throw asNodeError(context, error);
	}
}
