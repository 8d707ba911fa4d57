/**
 * What the Sync Trigger emits: one item per change, with the same metadata names the webhook
 * trigger uses (`event`, `receivedAt`) followed by `change`, then the record, simplified or as
 * Trio sent it, and `changeKey` last. Pure.
 *
 * n8n's durable scheduler may run a poll twice; both runs start from the same saved state and
 * emit the same changes. `changeKey` is the same for the same change in every run and in every
 * process, and differs for every other change, so a Remove Duplicates node keyed on it drops
 * only the repeats, as the webhook trigger's `deliveryKey` does for deliveries. It is made of the
 * change itself: the record's number, the change, the record's own stamp (`ModifiedDateUtc`)
 * and what it changed to (status, open positions), so it stays the same whatever state n8n
 * restores, and a different change with a stamp of its own never shares it.
 *
 * Trio changes open positions without moving the stamp, and a job closed and reopened may keep
 * one, so two changes can carry the very same content (2 -> 1 -> 2 -> 1 open positions). A
 * change whose stamp did not move past the one the trigger had seen (`stampStood`), or a
 * closure Trio only answered "not found" for, adds, after `#`, the number of the check that
 * found it (the count of checks saved before it, kept in the state): every run of one check
 * starts from the same saved state, so it gives the same number. Where it stops: n8n restoring a
 * state older than the last one saved sets that number back, so such a change (and only such a
 * change) can then repeat the key of an earlier one with the very same content.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldOf, hasField } from '../shared/recordFields';
import { simplifyJob } from '../shared/jobOutput';
import { simplifySubmission } from '../shared/submissionOutput';
import type { JobChange, SubmissionChange } from './diff';
import { displayStamp, stampOf, type UnreadableRecord } from './records';

export const JOB_EVENT = 'Job Update';
export const SUBMISSION_EVENT = 'Submission Update';

/** Sets a field under the name the record already uses for it, whatever its letter case. */
function setField(record: IDataObject, name: string, value: unknown): void {
	const wanted = name.toLowerCase();
	const key = Object.keys(record).find((existing) => existing.toLowerCase() === wanted) ?? name;
	record[key] = value as IDataObject[string];
}

/** Simplified items carry what was before as flat fields named in words. */
const FLAT_PREVIOUS: Record<string, string> = {
	JobStatus: 'previousJobStatus',
	NumberOfCurrentOpenPositions: 'previousOpenPositions',
	Status: 'previousStatus',
	StatusCode: 'previousStatusCode',
};

function withPrevious(item: IDataObject, previous: IDataObject | undefined, simplify: boolean) {
	if (!previous) return item;
	if (!simplify) {
		item.previous = previous;
		return item;
	}
	for (const [name, flat] of Object.entries(FLAT_PREVIOUS))
		if (name in previous) item[flat] = previous[name];
	return item;
}

/**
 * The job a change is about. A closed job is the one `GET /Job/{number}` returned, or what the
 * state remembered when Trio no longer gives it; its status is the one Trio gave, else Closed.
 */
export function changedJob(change: JobChange): IDataObject {
	if (change.change !== 'closed') return change.job ?? { Number: change.number };
	const job: IDataObject = change.job ? { ...change.job } : { Number: change.number };
	if (!change.job && change.last) {
		const { last } = change;
		job.ModifiedDateUtc = displayStamp(last.stamp);
		if (last.openPositions !== null) job.NumberOfCurrentOpenPositions = last.openPositions;
		if (last.stateAbbreviation) job.StateAbbreviation = last.stateAbbreviation;
		if (last.stateName) job.State = last.stateName;
		if (last.profession) job.Profession = last.profession;
	}
	if (!change.job || !fieldOf(job, 'JobStatus')) setField(job, 'JobStatus', 'Closed');
	// Whatever Trio's record held, the item says which job closed.
	if (!hasField(job, 'Number')) job.Number = change.number;
	return job;
}

function stampText(value: unknown): string {
	return stampOf(value) ?? '';
}

/** The key's parts joined, and the check's number when the content alone may repeat. */
function keyOf(parts: unknown[], stampStood: boolean, check: number): string {
	const key = parts.join(':');
	return stampStood ? `${key}#${check}` : key;
}

/** A job change's key: its own content, and the check when Trio's stamp stood still. */
function jobChangeKey(change: JobChange, check: number): string {
	const job = change.job ?? {};
	const own = stampText(fieldOf(job, 'ModifiedDateUtc'));
	if (change.change === 'closed') {
		// Trio's record of the closure has a stamp of its own, unless the closure kept the last one.
		const last = change.last?.stamp ?? '';
		return keyOf(['job', change.number, 'closed', own || last], !own || own === last, check);
	}
	const parts = ['job', change.number, change.change, own];
	if (change.change === 'updated' || change.change === 'opened')
		parts.push(String(fieldOf(job, 'JobStatus') ?? ''));
	if (change.change === 'openPositionsChanged')
		parts.push(String(fieldOf(job, 'NumberOfCurrentOpenPositions') ?? ''));
	return keyOf(parts, change.stampStood === true || !own, check);
}

function submissionChangeKey(change: SubmissionChange, check: number): string {
	const { submission } = change;
	const own = stampText(fieldOf(submission, 'ModifiedDateUTC'));
	const parts = ['submission', change.number, change.change, own];
	if (change.change === 'statusChanged')
		parts.push(
			String(fieldOf(submission, 'StatusCode') ?? ''),
			String(fieldOf(submission, 'Status') ?? ''),
		);
	return keyOf(parts, change.stampStood === true || !own, check);
}

/** `check`: the number of the check that found the change (its state's count of saved checks). */
export function jobItem(
	change: JobChange,
	receivedAt: string,
	simplify: boolean,
	check: number,
): IDataObject {
	const job = changedJob(change);
	const item: IDataObject = {
		event: JOB_EVENT,
		change: change.change,
		receivedAt,
		...(simplify ? simplifyJob(job) : job),
	};
	let previous = change.previous;
	if (change.change === 'closed' && change.last && change.last.status !== 'Closed')
		previous = { JobStatus: change.last.status };
	withPrevious(item, previous, simplify);
	item.changeKey = jobChangeKey(change, check);
	return item;
}

export function submissionItem(
	change: SubmissionChange,
	receivedAt: string,
	simplify: boolean,
	check: number,
): IDataObject {
	const item: IDataObject = {
		event: SUBMISSION_EVENT,
		change: change.change,
		receivedAt,
		...(simplify ? simplifySubmission(change.submission) : change.submission),
	};
	withPrevious(item, change.previous, simplify);
	item.changeKey = submissionChangeKey(change, check);
	return item;
}

/** A record Trio sent that cannot be read: said once, in words, so it is never silently lost. */
export function unreadableItem(
	event: string,
	record: UnreadableRecord,
	receivedAt: string,
): IDataObject {
	const item: IDataObject = { event, change: 'unreadable', receivedAt };
	if (record.number !== null) item.Number = record.number;
	item.problem = `${record.problem}. The Sync Trigger skipped it and carries on with the others; it reports it once.`;
	item.record = record.raw as IDataObject;
	item.changeKey = `unreadable:${record.fingerprint}`;
	return item;
}

export interface JobFilters {
	/** Empty: every status. */
	statuses: string[];
	/** State abbreviations; empty: every state. */
	states: string[];
	/** Professions; empty: every profession. */
	professions: string[];
}

/** Splits a comma-separated list typed by a user into trimmed, non-empty values. */
export function listFilter(value: unknown): string[] {
	const parts = Array.isArray(value)
		? value.map(String)
		: typeof value === 'string'
			? value.split(',')
			: [];
	return parts.map((part) => part.trim()).filter(Boolean);
}

function text(value: unknown): string {
	return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/** Whether a changed job passes the node's filters (read before the item is simplified). */
export function passesJobFilters(job: IDataObject, filters: JobFilters): boolean {
	if (filters.statuses.length && !filters.statuses.includes(String(fieldOf(job, 'JobStatus'))))
		return false;
	if (filters.states.length) {
		const abbreviation = text(fieldOf(job, 'StateAbbreviation'));
		const name = text(fieldOf(job, 'State'));
		if (!filters.states.some((state) => [abbreviation, name].includes(state.toLowerCase())))
			return false;
	}
	if (filters.professions.length) {
		const profession = text(fieldOf(job, 'Profession'));
		if (!filters.professions.some((wanted) => wanted.toLowerCase() === profession)) return false;
	}
	return true;
}
