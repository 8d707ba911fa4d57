/**
 * Reading the service's list answers tolerantly: the letter case of field names may differ
 * (`ModifiedDateUtc` on jobs, `ModifiedDateUTC` on submissions, or camelCase), extra fields are
 * kept untouched, and what cannot be read is reported loudly instead of being skipped.
 *
 * Timestamps are compared in one normal form, `YYYY-MM-DDTHH:MM:SS.fffffffZ` (seven fractional
 * digits, as .NET writes ticks), so that the same instant written two ways is one value and two
 * changes within the same millisecond are still told apart.
 */
import type { IDataObject } from 'n8n-workflow';

/** A list item as the service sent it, with the few fields the sync reads pulled out. */
export interface JobRecord {
	number: number;
	/** Normal form (see stampOf), or null when the service sent none. */
	stamp: string | null;
	status: string;
	/** NumberOfCurrentOpenPositions, when present. */
	openPositions: number | null;
	raw: IDataObject;
}

export interface SubmissionRecord {
	number: number;
	stamp: string | null;
	status: string;
	statusCode: number | null;
	raw: IDataObject;
}

/** Thrown for an answer the sync cannot read; the node turns it into a NodeApiError. */
export class UnreadableAnswerError extends Error {}

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

/** The later of two normal-form stamps (they compare as strings). */
export function laterStamp(a: string | null, b: string | null): string | null {
	if (a === null) return b;
	if (b === null) return a;
	return b > a ? b : a;
}

/** The value of a field whatever the letter case of its name (exact name first). */
export function field(record: IDataObject, name: string): unknown {
	if (name in record) return record[name];
	const wanted = name.toLowerCase();
	for (const key of Object.keys(record)) if (key.toLowerCase() === wanted) return record[key];
	return undefined;
}

function wholeNumber(value: unknown): number | null {
	if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
	if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
	return null;
}

function listOf(body: unknown, what: string): IDataObject[] {
	if (!Array.isArray(body))
		throw new UnreadableAnswerError(
			`The ${what} list answer is not a JSON array (got ${body === null ? 'null' : typeof body})`,
		);
	return body.map((item, index) => {
		if (!item || typeof item !== 'object' || Array.isArray(item))
			throw new UnreadableAnswerError(`Item ${index} of the ${what} list is not an object`);
		return item as IDataObject;
	});
}

function numberOf(raw: IDataObject, index: number, what: string): number {
	const number = wholeNumber(field(raw, 'Number'));
	if (number === null)
		throw new UnreadableAnswerError(`Item ${index} of the ${what} list has no whole Number`);
	return number;
}

function stampAt(raw: IDataObject, name: string, index: number, what: string): string | null {
	const value = field(raw, name);
	const stamp = readStamp(value);
	if (stamp === false)
		throw new UnreadableAnswerError(
			`${name} of item ${index} of the ${what} list is not a date-time: ${JSON.stringify(value)}`,
		);
	return stamp;
}

export function readJobs(body: unknown): JobRecord[] {
	return listOf(body, 'job').map((raw, index) => {
		const status = field(raw, 'JobStatus');
		return {
			number: numberOf(raw, index, 'job'),
			stamp: stampAt(raw, 'ModifiedDateUtc', index, 'job'),
			status: typeof status === 'string' && status ? status : 'Open',
			openPositions: wholeNumber(field(raw, 'NumberOfCurrentOpenPositions')),
			raw,
		};
	});
}

export function readSubmissions(body: unknown): SubmissionRecord[] {
	return listOf(body, 'submission').map((raw, index) => {
		const status = field(raw, 'Status');
		return {
			number: numberOf(raw, index, 'submission'),
			stamp: stampAt(raw, 'ModifiedDateUTC', index, 'submission'),
			status: typeof status === 'string' ? status : '',
			statusCode: wholeNumber(field(raw, 'StatusCode')),
			raw,
		};
	});
}

/** One job as `GET /Job/{number}` answered it, or an error when it is not a job. */
export function readJob(body: unknown, number: number): IDataObject {
	if (!body || typeof body !== 'object' || Array.isArray(body))
		throw new UnreadableAnswerError(`The answer for job ${number} is not a JSON object`);
	return body as IDataObject;
}
