/**
 * Asking `GET /Job/{number}` about the known jobs a full list left out. Only the service's own
 * answer about that very job decides: its record with a status the specification names, or its
 * own "not found" (problem details). Anything else (a gateway's bare 404 while a backend
 * restarts, `{}`, a message, a status the specification does not name, another job's record)
 * is no answer, and no answer never closes a job.
 *
 * A "not found" in the service's own shape is still only believed while Trio finds the jobs it
 * has: a framework or gateway whose route no longer matches answers problem details too, for
 * every job. A lookup of this check that got a job's own record shows that it does; else Trio is
 * asked about a job its list calls open (the control). When the control is not found either, the
 * check fails and says so; when the control gives no clear answer, the jobs stay missing and are
 * asked about again. When the list holds no open job to ask about, nothing can show that Trio's
 * "not found" is its word: the check fails and says so, and the jobs come out as closed at the
 * first check that can tell.
 */
import { NodeApiError, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import { answerOf } from '../shared/failureMarks';
import { isRecord } from '../shared/listAnswer';
import { fieldOf } from '../shared/recordFields';
import { PATHS } from '../shared/serviceFacts';
import { TrioClient } from '../shared/transport';
import type { PollBudget } from './budget';
import { declared } from './failure';
import { settleAbsentJobs, type JobChange, type JobDiff, type JobLookup } from './diff';
import type { JobState } from './state';

/** Open and OnHold (spec 3.1), in any letter case, OnHold also with a space. */
const STILL_THERE = new Set(['open', 'onhold', 'on hold']);
const CLOSED = 'closed';

function wholeNumber(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
	if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
	return undefined;
}

/**
 * Whether a 404 or 410 is the service's own: problem details (the decided error shape) whose
 * `status` repeats the answer's. An ingress, a proxy or a gateway answers with an HTML page, a
 * line of text or its own JSON, which say nothing about the job.
 */
export function isServiceNotFound(status: number, body: unknown): boolean {
	if (status !== 404 && status !== 410) return false;
	if (!isRecord(body)) return false;
	const title = fieldOf(body, 'title');
	const type = fieldOf(body, 'type');
	return (
		wholeNumber(fieldOf(body, 'status')) === status &&
		(typeof title === 'string' || typeof type === 'string')
	);
}

/** What one lookup's answer says about job `number`; pure. */
export function judgeLookup(
	number: number,
	answer: { status: number; body: unknown } | undefined,
): JobLookup {
	if (!answer) return { outcome: 'unanswered' };
	if (answer.status < 200 || answer.status >= 300)
		return isServiceNotFound(answer.status, answer.body)
			? { outcome: 'closed', notFound: true }
			: { outcome: 'unanswered' };
	const job = answer.body;
	if (!isRecord(job)) return { outcome: 'unanswered' };
	// Another job's record says nothing about this one.
	if (wholeNumber(fieldOf(job, 'Number')) !== number) return { outcome: 'unanswered' };
	const status = fieldOf(job, 'JobStatus');
	const said = typeof status === 'string' ? status.trim().toLowerCase() : '';
	if (STILL_THERE.has(said)) return { outcome: 'open' };
	if (said === CLOSED) return { outcome: 'closed', job };
	return { outcome: 'unanswered' };
}

async function askAbout(
	client: TrioClient,
	number: number,
): Promise<{ status: number; body: unknown } | undefined> {
	try {
		const body = await client.request({
			method: 'GET',
			path: PATHS.job,
			pathParams: { number },
			context: { subject: `job ${number}` },
		});
		return { status: 200, body };
	} catch (error) {
		return answerOf(error);
	}
}

/**
 * What Trio's answer about the control (a job its list calls open) says about its "not found":
 * its record, Open or On Hold, confirms that Trio finds the jobs it has, so its 404s for the
 * others are its word; a 404 or 410 for the control refutes them (a route a gateway or framework
 * no longer matches answers so for every job); anything else leaves them in doubt.
 */
function judgeControl(
	control: number,
	answer: { status: number; body: unknown } | undefined,
): 'confirmed' | 'refuted' | 'doubtful' {
	if (answer && (answer.status === 404 || answer.status === 410)) return 'refuted';
	return judgeLookup(control, answer).outcome === 'open' ? 'confirmed' : 'doubtful';
}

/** A closure on Trio's "not found" that the control did not confirm: no answer after all. */
function withoutNotFound(lookups: Map<number, JobLookup>): void {
	for (const [number, lookup] of lookups)
		if (lookup.outcome === 'closed' && lookup.notFound)
			lookups.set(number, { outcome: 'unanswered' });
}

/** Whether a lookup of this check got a job's own record: Trio finds the jobs it has. */
function foundOne(lookups: Map<number, JobLookup>): boolean {
	for (const lookup of lookups.values())
		if (lookup.outcome === 'open' || (lookup.outcome === 'closed' && !lookup.notFound)) return true;
	return false;
}

/** Trio's "not found" cannot be believed: none of its 404s closes a job, and the check says why. */
export class NotFoundDoubtedError extends Error {
	constructor(
		/** The job of Trio's list it did not find either; undefined: its list holds no open job. */
		readonly control: number | undefined,
		/** The jobs the list left out that Trio answered "not found" for. */
		readonly notFound: number[],
	) {
		super(
			control === undefined
				? `Trio VMS answered "not found" for jobs its list left out, and its list holds no open job to check that answer against`
				: `Trio VMS answered "not found" for job ${control}, which its job list calls open`,
		);
	}
}

/** Up to this many job numbers are named in a failure's message. */
const NAMED_JOBS = 10;

function named(numbers: number[]): string {
	const listed = numbers.slice(0, NAMED_JOBS).join(', ');
	const more = numbers.length - NAMED_JOBS;
	if (numbers.length === 1) return `job ${listed}`;
	return more > 0 ? `jobs ${listed} and ${more} more` : `jobs ${listed}`;
}

/**
 * The check's failure when Trio's "not found" cannot be believed, in the user's words. Either
 * way Trio's lookups or its list say something they will not keep saying (a job opens, a route
 * is mended), so n8n tries again on its curve.
 */
export function notFoundDoubted(
	context: IPollFunctions,
	error: NotFoundDoubtedError,
): NodeApiError {
	const jobs = named(error.notFound);
	const failure =
		error.control === undefined
			? new NodeApiError(context.getNode(), {} as JsonObject, {
					message: `Trio VMS answered "not found" for ${jobs}, which its job list no longer holds, and the list holds no open job to check that answer against: none was reported closed`,
					description:
						'A gateway in front of Trio can answer "not found" for every job, so the Sync Trigger believes Trio\'s "not found" only while Trio finds a job its list calls open. Nothing was output and the trigger still remembers these jobs; its next check asks again. Once a job is open in Trio (or Trio answers with the jobs\' own records), each closed job comes out once.',
					httpCode: '404',
				})
			: new NodeApiError(context.getNode(), {} as JsonObject, {
					message: `Trio VMS answered "not found" even for job ${error.control}, which its job list calls open, so its "not found" for ${error.notFound.length === 1 ? 'the job' : `the ${error.notFound.length} jobs`} the list left out says nothing about them: none was reported closed`,
					description:
						'Nothing was output and the trigger still remembers what it had seen; its next check asks again. Trio, or a gateway in front of it, is answering job lookups (GET /api/v3/Job/{number}) with 404 for jobs it has: if this goes on, tell Trio support.',
					httpCode: '404',
				});
	return declared(failure, { cause: 'temporarily-unavailable' });
}

/**
 * Asks about each known job the full list left out, with one client whose timeout and retries
 * are sized so a lookup started in time ends in time; a lookup not started leaves its job
 * missing, asked about at the next full list.
 */
export async function lookUpAbsentJobs(
	context: IPollFunctions,
	diff: JobDiff,
	budget: PollBudget | undefined,
): Promise<{ changes: JobChange[]; next: JobState }> {
	const lookups = new Map<number, JobLookup>();
	if (diff.absent.length === 0) return settleAbsentJobs(diff, lookups);
	const slice = budget?.lookupSlice();
	if (budget && !slice) return settleAbsentJobs(diff, lookups);
	const client = new TrioClient(context, slice?.options);
	const allows = () => !budget || !slice || budget.allows(slice.worstMs);
	for (const { number } of diff.absent) {
		if (!allows()) break;
		lookups.set(number, judgeLookup(number, await askAbout(client, number)));
	}
	const notFound = [...lookups]
		.filter(([, lookup]) => lookup.outcome === 'closed' && lookup.notFound)
		.map(([number]) => number);
	if (notFound.length > 0 && !foundOne(lookups)) {
		const { control } = diff;
		if (control === undefined) throw new NotFoundDoubtedError(undefined, notFound);
		const verdict = allows() ? judgeControl(control, await askAbout(client, control)) : 'doubtful';
		if (verdict === 'refuted') throw new NotFoundDoubtedError(control, notFound);
		if (verdict === 'doubtful') withoutNotFound(lookups);
	}
	return settleAbsentJobs(diff, lookups);
}
