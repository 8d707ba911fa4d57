/**
 * The agency's submissions by (job, candidate), read once per execution of the node, so that
 * Submission Create can tell a candidate already submitted to a job (by an earlier run, a retry
 * of the node, or an earlier row of this run) without reading the whole list for every row.
 *
 * The service filters its list by modification date only (service notes), so the whole list is
 * read and indexed here. The index lives as long as the execution's TrioClient (one per run of
 * the node, see router.ts): n8n's Retry On Fail and a re-run start a new client, so they read
 * the list afresh and see what the failed run created.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldOf } from '../../../shared/recordFields';
import { PATHS } from '../../../shared/serviceFacts';
import type { TrioClient } from '../../../shared/transport';
import { answerInWords, isRecord, readList } from '../../../shared/listAnswer';
import { CLOCK_TOLERANCE_MS } from '../../helpers/createMemory';

function wholeNumber(value: unknown): number | undefined {
	if (typeof value === 'string' && !value.trim()) return undefined;
	const number = Number(value);
	return Number.isInteger(number) && number > 0 ? number : undefined;
}

const pairKey = (jobNumber: number, candidateNumber: number) => `${jobNumber}/${candidateNumber}`;

/** The (job, candidate) key of a listed submission; undefined when it names no whole numbers. */
function pairKeyOf(submission: IDataObject): string | undefined {
	const jobNumber = wholeNumber(fieldOf(submission, 'JobNumber'));
	const candidateNumber = wholeNumber(fieldOf(submission, 'CandidateNumber'));
	return jobNumber === undefined || candidateNumber === undefined
		? undefined
		: pairKey(jobNumber, candidateNumber);
}

/** What an unreadable list leaves unknown, for Skip If Already Submitted's check. */
const CHECK_UNKNOWN =
	'so it is not known whether this candidate was already submitted to this job. Nothing was submitted; turn off "Skip If Already Submitted" to submit without this check.';

/**
 * The submissions of a list answer; throws when the answer is not a list of submissions, saying
 * what that leaves `unknown` ("so it is not known whether ...").
 */
export function readSubmissionList(response: unknown, unknown = CHECK_UNKNOWN): IDataObject[] {
	const list = readList(response, {
		names: ['submissions'],
		refused: (sent) =>
			`Trio VMS answered the list of submissions with ${answerInWords(sent)}, not a list, ${unknown}`,
	});
	const unreadable = list.findIndex(
		(entry) =>
			!isRecord(entry) ||
			wholeNumber(fieldOf(entry, 'JobNumber')) === undefined ||
			wholeNumber(fieldOf(entry, 'CandidateNumber')) === undefined,
	);
	if (unreadable !== -1) {
		throw new Error(
			`Trio VMS listed a submission without a JobNumber and CandidateNumber (entry ${unreadable + 1}), ${unknown}`,
		);
	}
	return list as IDataObject[];
}

const newestFirst = (a: IDataObject, b: IDataObject) =>
	(wholeNumber(fieldOf(b, 'Number')) ?? 0) - (wholeNumber(fieldOf(a, 'Number')) ?? 0);

/**
 * The submission of the candidate to the job that a create answered 429 may have stored, with
 * one request: the list of those modified after n8n's clock at the first send less
 * CLOCK_TOLERANCE_MS, wider than the MAX_CLOCK_SKEW_MS within which Trio's clock is believed
 * (serviceClock.ts); a 429's Date may be a gateway's and is never read. With the duplicate check
 * off the pair may have older submissions: one Trio stamped before its own clock at the send is
 * not this create. That clock is the list's own Date (a 2xx of Trio's) less the time since the
 * send on this process's monotonic clock: one clock for stamp and Date, and below Trio's time at
 * the send, since a Date counts whole seconds and Trio stamps after the request arrived. Without
 * a believable Date, any submission of the pair listed is taken for it: it errs towards never twice.
 */
export async function submittedSince(
	client: TrioClient,
	sent: { atMs: number; monotonicMs: number },
	pair: { jobNumber: number; candidateNumber: number },
	itemIndex: number,
): Promise<IDataObject | undefined> {
	const response = await client.request({
		method: 'GET',
		path: PATHS.submissions,
		query: { modifiedDate: new Date(sent.atMs - CLOCK_TOLERANCE_MS).toISOString() },
		itemIndex,
	});
	const serviceNow = client.serviceNow();
	const serviceAtSend =
		serviceNow === undefined ? undefined : serviceNow - (performance.now() - sent.monotonicMs);
	const stampedBefore = (each: IDataObject) =>
		serviceAtSend !== undefined &&
		Date.parse(String(fieldOf(each, 'ModifiedDateUTC'))) < serviceAtSend;
	const listed = readSubmissionList(
		response,
		'so it is not known whether Trio stored the submission before it answered 429.',
	);
	const key = pairKey(pair.jobNumber, pair.candidateNumber);
	return listed
		.filter((each) => pairKeyOf(each) === key && !stampedBefore(each))
		.sort(newestFirst)[0];
}

export class SubmissionIndex {
	private byPair: Map<string, IDataObject[]> | undefined;

	constructor(private readonly client: TrioClient) {}

	/** Reads the list (again) from the service and indexes it. */
	async load(itemIndex: number): Promise<void> {
		const response = await this.client.request({
			method: 'GET',
			path: PATHS.submissions,
			itemIndex,
		});
		this.byPair = new Map();
		for (const submission of readSubmissionList(response)) this.remember(submission);
	}

	/** The submissions of the candidate to the job, newest (highest number) first. */
	async find(
		jobNumber: number,
		candidateNumber: number,
		itemIndex: number,
	): Promise<IDataObject[]> {
		if (!this.byPair) await this.load(itemIndex);
		const found = this.byPair?.get(pairKey(jobNumber, candidateNumber)) ?? [];
		return [...found].sort(newestFirst);
	}

	/** Adds a submission this execution created, so a later row of the same pair finds it. */
	remember(submission: IDataObject): void {
		if (!this.byPair) return;
		const key = pairKeyOf(submission);
		if (key === undefined) return;
		const list = this.byPair.get(key) ?? [];
		list.push(submission);
		this.byPair.set(key, list);
	}
}

/** One index per TrioClient, that is per execution of the node. */
const indexes = new WeakMap<TrioClient, SubmissionIndex>();

export function submissionIndexFor(client: TrioClient): SubmissionIndex {
	let index = indexes.get(client);
	if (!index) {
		index = new SubmissionIndex(client);
		indexes.set(client, index);
	}
	return index;
}
