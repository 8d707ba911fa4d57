/**
 * Asking `GET /Job/{number}` about the known jobs a full list left out. Only the service's own
 * answer about that very job decides: its record with a status the specification names, or its
 * own "not found" (problem details). Anything else (a gateway's bare 404 while a backend
 * restarts, `{}`, a message, a status the specification does not name, another job's record)
 * is no answer, and no answer never closes a job.
 *
 * A "not found" in the service's own shape is still only believed while Trio finds a job its
 * list calls open (the control, asked once when a lookup answered 404): a framework or gateway
 * whose route no longer matches answers problem details too, for every job. When the control is
 * not found either, the check fails and says so; when the control gives no clear answer, the
 * jobs stay missing and are asked about again.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { answerOf } from '../shared/failureMarks';
import { isRecord } from '../shared/listAnswer';
import { fieldOf } from '../shared/recordFields';
import { PATHS } from '../shared/serviceFacts';
import { TrioClient } from '../shared/transport';
import type { PollBudget } from './budget';
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

/** Trio did not find a job its own list calls open: none of its 404s closes a job. */
export class NotFoundRefutedError extends Error {
	constructor(
		readonly control: number,
		readonly notFound: number,
	) {
		super(`Trio VMS answered "not found" for job ${control}, which its job list calls open`);
	}
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
	const notFound = [...lookups.values()].filter(
		(lookup) => lookup.outcome === 'closed' && lookup.notFound,
	).length;
	if (notFound > 0) {
		const verdict =
			diff.control === undefined || !allows()
				? 'doubtful'
				: judgeControl(diff.control, await askAbout(client, diff.control));
		if (verdict === 'refuted') throw new NotFoundRefutedError(diff.control as number, notFound);
		if (verdict === 'doubtful') withoutNotFound(lookups);
	}
	return settleAbsentJobs(diff, lookups);
}
