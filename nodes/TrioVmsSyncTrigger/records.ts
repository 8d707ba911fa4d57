/**
 * Reading the service's list answers tolerantly (the list itself by the one rule of
 * shared/listAnswer.ts): the letter case of field names may differ (`ModifiedDateUtc` on jobs,
 * `ModifiedDateUTC` on submissions, or camelCase), extra fields are kept untouched, and what
 * cannot be read is reported loudly instead of being skipped.
 *
 * Timestamps are compared in one normal form, `YYYY-MM-DDTHH:MM:SS.fffffffZ` (seven fractional
 * digits, as .NET writes ticks), so that the same instant written two ways is one value and two
 * changes within the same millisecond are still told apart.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldOf } from '../shared/recordFields';
import { isRecord, readList } from '../shared/listAnswer';

/** A list item as the service sent it, with the few fields the sync reads pulled out. */
export interface JobRecord {
	number: number;
	/** Normal form (see stampOf), or null when the service sent none. */
	stamp: string | null;
	status: string;
	/** NumberOfCurrentOpenPositions, when present. */
	openPositions: number | null;
	/** StateAbbreviation, State and Profession as sent ('' when absent): what the filters read. */
	stateAbbreviation: string;
	stateName: string;
	profession: string;
	raw: IDataObject;
}

export interface SubmissionRecord {
	number: number;
	stamp: string | null;
	status: string;
	statusCode: number | null;
	raw: IDataObject;
}

const STAMP =
	/^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * The normal form of a service timestamp, null when absent, or false when it is not a
 * date-time. A value without an offset is UTC (service notes: time values are UTC), never the
 * local time of the n8n machine.
 */
export function readStamp(value: unknown): string | null | false {
	if (value === null || value === undefined || value === '') return null;
	if (typeof value !== 'string') return false;
	const match = STAMP.exec(value.trim());
	if (!match) return false;
	const [, day, hours = '00', minutes = '00', seconds = '00', fraction = '', offset = 'Z'] = match;
	const digits = fraction.padEnd(7, '0').slice(0, 7);
	const normalOffset =
		offset.toUpperCase() === 'Z' ? 'Z' : offset.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
	const ms = Date.parse(
		`${day}T${hours}:${minutes}:${seconds}.${digits.slice(0, 3)}${normalOffset}`,
	);
	if (Number.isNaN(ms)) return false;
	return `${new Date(ms).toISOString().slice(0, 23)}${digits.slice(3)}Z`;
}

/** As readStamp, with an unreadable value counted as absent (for samples only). */
export function stampOf(value: unknown): string | null {
	return readStamp(value) || null;
}

/**
 * A normal-form stamp as items show it: ISO 8601 UTC with milliseconds, and the digits below the
 * millisecond only when there are any (2026-03-01T10:00:00.123Z, 2026-03-01T10:00:00.1234567Z).
 */
export function displayStamp(stamp: string | null): string | null {
	return stamp === null ? null : stamp.replace(/(\.\d{3})0000Z$/, '$1Z');
}

/** Milliseconds since the epoch of a normal-form stamp. */
export function stampMs(stamp: string): number {
	return Date.parse(`${stamp.slice(0, 23)}Z`);
}

/** Whether a record's stamp is older than the remembered one: a stale copy, not a change. */
export function isOlder(stamp: string | null, remembered: string | null): boolean {
	return stamp !== null && remembered !== null && stamp < remembered;
}

/** The later of two normal-form stamps (they compare as strings). */
export function laterStamp(a: string | null, b: string | null): string | null {
	if (a === null) return b;
	if (b === null) return a;
	return b > a ? b : a;
}

function wholeNumber(value: unknown): number | null {
	if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
	if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
	return null;
}

/** What came instead of a list, in words: "an object", "a text", "nothing (null)". */
function sentWhat(body: unknown): string {
	if (body === null || body === undefined) return 'nothing (null)';
	if (typeof body === 'object') return 'an object';
	if (typeof body === 'string') return 'a text';
	return `a ${typeof body}`;
}

/**
 * The entries of a list answer, by the one rule of listAnswer.ts. An answer with no body is
 * refused: taken for an empty list, it would report every known job as closed. Throws
 * UnreadableAnswerError, which the node turns into a NodeApiError.
 */
export function listOf(body: unknown, what: string): unknown[] {
	return readList(body, {
		refused: (sent) =>
			`Trio VMS sent the ${what} list in a form the trigger cannot read (a list was expected, it sent ${sentWhat(sent)})`,
	});
}

/** A list item the sync cannot read: reported once, never allowed to stop the others. */
export interface UnreadableRecord {
	/** The record's number when that much could be read. */
	number: number | null;
	/** What is wrong, in words. */
	problem: string;
	raw: unknown;
	/** Identifies the record as sent, so it is reported once and not at every poll. */
	fingerprint: string;
}

export interface ListReading<R> {
	records: R[];
	unreadable: UnreadableRecord[];
}

/** A short, stable digest of a record as sent (FNV-1a over its JSON): no crypto needed here. */
function fingerprintOf(raw: unknown): string {
	let text: string;
	try {
		text = JSON.stringify(raw) ?? String(raw);
	} catch {
		text = String(raw);
	}
	let hash = 0x811c9dc5;
	for (let index = 0; index < text.length; index++) {
		hash ^= text.charCodeAt(index);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return `${hash.toString(36)}.${text.length.toString(36)}`;
}

class RecordProblem extends Error {
	constructor(
		message: string,
		readonly number: number | null,
	) {
		super(message);
	}
}

function numberOf(raw: IDataObject, what: string): number {
	const number = wholeNumber(fieldOf(raw, 'Number'));
	if (number === null)
		throw new RecordProblem(
			`This ${what} has no number Trio VMS could be asked about (Number: ${JSON.stringify(fieldOf(raw, 'Number')) ?? 'missing'})`,
			null,
		);
	return number;
}

function stampAt(raw: IDataObject, name: string, number: number, what: string): string | null {
	const value = fieldOf(raw, name);
	const stamp = readStamp(value);
	if (stamp === false)
		throw new RecordProblem(
			`The last-changed time of ${what} ${number} is not a date and time: ${JSON.stringify(value)}`,
			number,
		);
	return stamp;
}

/** Each item read on its own: one that cannot be read is set aside, the others go on. */
function readEach<R>(body: unknown, what: string, read: (raw: IDataObject) => R): ListReading<R> {
	const reading: ListReading<R> = { records: [], unreadable: [] };
	for (const raw of listOf(body, what)) {
		let problem: RecordProblem | undefined;
		try {
			if (!isRecord(raw))
				throw new RecordProblem(`An entry of the ${what} list is not a ${what}`, null);
			reading.records.push(read(raw));
		} catch (error) {
			problem = error instanceof RecordProblem ? error : new RecordProblem(String(error), null);
		}
		if (problem)
			reading.unreadable.push({
				number: problem.number,
				problem: problem.message,
				raw,
				fingerprint: fingerprintOf(raw),
			});
	}
	return reading;
}

function textOf(value: unknown): string {
	return typeof value === 'string' ? value.trim() : '';
}

export function readJobs(body: unknown): ListReading<JobRecord> {
	return readEach(body, 'job', (raw) => {
		const number = numberOf(raw, 'job');
		const status = fieldOf(raw, 'JobStatus');
		return {
			number,
			stamp: stampAt(raw, 'ModifiedDateUtc', number, 'job'),
			status: typeof status === 'string' && status ? status : 'Open',
			openPositions: wholeNumber(fieldOf(raw, 'NumberOfCurrentOpenPositions')),
			stateAbbreviation: textOf(fieldOf(raw, 'StateAbbreviation')),
			stateName: textOf(fieldOf(raw, 'State')),
			profession: textOf(fieldOf(raw, 'Profession')),
			raw,
		};
	});
}

export function readSubmissions(body: unknown): ListReading<SubmissionRecord> {
	return readEach(body, 'submission', (raw) => {
		const number = numberOf(raw, 'submission');
		const status = fieldOf(raw, 'Status');
		return {
			number,
			stamp: stampAt(raw, 'ModifiedDateUTC', number, 'submission'),
			status: typeof status === 'string' ? status : '',
			statusCode: wholeNumber(fieldOf(raw, 'StatusCode')),
			raw,
		};
	});
}
