/**
 * Asking `GET /Job/{number}` about the known jobs a full list left out. Only the service's own
 * answer about that very job decides: its record with a status the specification names, or its
 * own "not found" (problem details). Anything else (a gateway's bare 404 while a backend
 * restarts, `{}`, a message, a status the specification does not name, another job's record)
 * is no answer, and no answer never closes a job.
 */
import type { IPollFunctions } from 'n8n-workflow';

import { answerOf } from '../shared/failureMarks';
import { isRecord } from '../shared/listAnswer';
import { fieldOf } from '../shared/fields';
import { PATHS } from '../shared/service';
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
			? { outcome: 'closed' }
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

async function lookUpJob(client: TrioClient, number: number): Promise<JobLookup> {
	let answer: { status: number; body: unknown } | undefined;
	try {
		const body = await client.request({
			method: 'GET',
			path: PATHS.job,
			pathParams: { number },
			context: { subject: `job ${number}` },
		});
		answer = { status: 200, body };
	} catch (error) {
		answer = answerOf(error);
	}
	return judgeLookup(number, answer);
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
	for (const { number } of diff.absent) {
		if (budget && slice && !budget.allows(slice.worstMs)) break;
		lookups.set(number, await lookUpJob(client, number));
	}
	return settleAbsentJobs(diff, lookups);
}
