/**
 * Dates as users give them (the date picker, a spreadsheet cell, an expression such as
 * {{ $now.minus({ days: 1 }) }}) turned into what the service expects. Pure: no n8n imports.
 *
 * - Modified After (query `modifiedDate`): an ISO 8601 UTC timestamp. A plain date means midnight
 *   UTC (service notes). A date-time without an offset, which is what n8n's date picker produces,
 *   is read in the workflow's time zone, the way n8n reads such values everywhere else.
 * - License expiration: a calendar date, YYYY-MM-DD, never shifted.
 * - Submission start date: an ISO 8601 date-time, never shifted: a plain date becomes that day at
 *   00:00 with no offset, a date-time is sent as written.
 */
import { FieldError, isBlank, shown } from './validation';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
/** US spreadsheet style: 5/31/2027 or 05/31/2027 (month first, as everywhere in the US). */
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

interface Parts {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
	second: number;
	millisecond: number;
}

function pad(value: number, length = 2): string {
	return String(value).padStart(length, '0');
}

export function isRealDate(year: number, month: number, day: number): boolean {
	if (month < 1 || month > 12 || day < 1) return false;
	const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
	return day <= days;
}

function isRealTime(hour: number, minute: number, second: number): boolean {
	return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59;
}

/** Luxon DateTime (from $now, $today, DateTime.fromISO ...) without depending on luxon. */
function isDateTimeLike(value: unknown): value is { toISO: () => string | null } {
	return (
		!!value &&
		typeof value === 'object' &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	);
}

function formatUtc(ms: number): string {
	const iso = new Date(ms).toISOString();
	return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

/** Offset of a time zone from UTC at a given instant, in milliseconds. */
export function timeZoneOffsetMs(instant: number, timeZone: string): number {
	const format = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	});
	const parts: Record<string, number> = {};
	for (const part of format.formatToParts(new Date(instant))) {
		if (part.type !== 'literal') parts[part.type] = Number(part.value);
	}
	const asUtc = Date.UTC(
		parts.year,
		parts.month - 1,
		parts.day,
		parts.hour % 24,
		parts.minute,
		parts.second,
	);
	return asUtc - (instant - (instant % 1000));
}

/** The UTC instant of a wall-clock time in a time zone (DST gaps resolve forward, as luxon does). */
export function zonedTimeToUtc(parts: Parts, timeZone: string): number {
	const wall = Date.UTC(
		parts.year,
		parts.month - 1,
		parts.day,
		parts.hour,
		parts.minute,
		parts.second,
		parts.millisecond,
	);
	const first = wall - timeZoneOffsetMs(wall, timeZone);
	const second = wall - timeZoneOffsetMs(first, timeZone);
	return second;
}

function validTimeZone(timeZone: string | undefined): string {
	if (!timeZone) return 'UTC';
	try {
		new Intl.DateTimeFormat('en-US', { timeZone });
		return timeZone;
	} catch {
		return 'UTC';
	}
}

function dateTimeParts(match: RegExpExecArray): Parts {
	return {
		year: Number(match[1]),
		month: Number(match[2]),
		day: Number(match[3]),
		hour: Number(match[4]),
		minute: Number(match[5]),
		second: Number(match[6] ?? 0),
		millisecond: Number((match[7] ?? '0').slice(0, 3).padEnd(3, '0')),
	};
}

const MODIFIED_AFTER_FORMATS =
	'a date (YYYY-MM-DD) or an ISO 8601 date-time such as 2026-03-01T07:00:00Z';

/**
 * The `modifiedDate` query value: an ISO 8601 UTC timestamp, or undefined when the field is empty.
 * @param timeZone the workflow's time zone, for date-times written without an offset
 */
export function toModifiedDateQuery(
	value: unknown,
	field: string,
	timeZone?: string,
): string | undefined {
	if (isBlank(value)) return undefined;
	if (value instanceof Date) {
		if (Number.isNaN(value.getTime()))
			throw new FieldError(field, `must be ${MODIFIED_AFTER_FORMATS}, got an invalid date`);
		return formatUtc(value.getTime());
	}
	if (isDateTimeLike(value)) {
		const iso = value.toISO();
		if (!iso) throw new FieldError(field, `must be ${MODIFIED_AFTER_FORMATS}, got an invalid date`);
		return toModifiedDateQuery(iso, field, timeZone);
	}
	if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
		// Unix time: seconds below 1e11 (until the year 5138), milliseconds above.
		return formatUtc(value < 1e11 ? value * 1000 : value);
	}
	if (typeof value !== 'string')
		throw new FieldError(field, `must be ${MODIFIED_AFTER_FORMATS}, got ${shown(value)}`);

	const text = value.trim();
	const dateOnly = DATE.exec(text);
	if (dateOnly) {
		const [year, month, day] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
		if (!isRealDate(year, month, day))
			throw new FieldError(field, `is not a real calendar date: ${shown(text)}`);
		return `${text}T00:00:00Z`;
	}
	const usDate = US_DATE.exec(text);
	if (usDate) {
		const [month, day, year] = [Number(usDate[1]), Number(usDate[2]), Number(usDate[3])];
		if (!isRealDate(year, month, day))
			throw new FieldError(field, `is not a real calendar date: ${shown(text)}`);
		return `${year}-${pad(month)}-${pad(day)}T00:00:00Z`;
	}
	const match = DATE_TIME.exec(text);
	if (!match) throw new FieldError(field, `must be ${MODIFIED_AFTER_FORMATS}, got ${shown(text)}`);
	const parts = dateTimeParts(match);
	if (
		!isRealDate(parts.year, parts.month, parts.day) ||
		!isRealTime(parts.hour, parts.minute, parts.second)
	) {
		throw new FieldError(field, `is not a real date and time: ${shown(text)}`);
	}
	const zone = match[8];
	if (zone) {
		let offsetMinutes = 0;
		if (zone.toUpperCase() !== 'Z') {
			const sign = zone.startsWith('-') ? -1 : 1;
			const digits = zone.slice(1).replace(':', '');
			offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0));
		}
		const wall = Date.UTC(
			parts.year,
			parts.month - 1,
			parts.day,
			parts.hour,
			parts.minute,
			parts.second,
			parts.millisecond,
		);
		return formatUtc(wall - offsetMinutes * 60_000);
	}
	return formatUtc(zonedTimeToUtc(parts, validTimeZone(timeZone)));
}

const DATE_FORMATS = 'a date such as 2027-05-31 (YYYY-MM-DD)';

/** A calendar date as YYYY-MM-DD, or undefined when empty. Date-times keep the date as written. */
export function toDateOnly(value: unknown, field: string): string | undefined {
	if (isBlank(value)) return undefined;
	if (value instanceof Date) {
		if (Number.isNaN(value.getTime()))
			throw new FieldError(field, `must be ${DATE_FORMATS}, got an invalid date`);
		return value.toISOString().slice(0, 10);
	}
	if (isDateTimeLike(value)) {
		const iso = value.toISO();
		if (!iso) throw new FieldError(field, `must be ${DATE_FORMATS}, got an invalid date`);
		return toDateOnly(iso, field);
	}
	if (typeof value !== 'string')
		throw new FieldError(field, `must be ${DATE_FORMATS}, got ${shown(value)}`);
	const text = value.trim();
	const usDate = US_DATE.exec(text);
	let year: number;
	let month: number;
	let day: number;
	const dateTime = DATE_TIME.exec(text);
	const dateOnly = DATE.exec(text);
	if (dateOnly || dateTime) {
		const match = (dateOnly ?? dateTime) as RegExpExecArray;
		[year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	} else if (usDate) {
		[month, day, year] = [Number(usDate[1]), Number(usDate[2]), Number(usDate[3])];
	} else {
		throw new FieldError(field, `must be ${DATE_FORMATS}, got ${shown(text)}`);
	}
	if (!isRealDate(year, month, day))
		throw new FieldError(field, `is not a real calendar date: ${shown(text)}`);
	return `${year}-${pad(month)}-${pad(day)}`;
}

const DATE_TIME_FORMATS =
	'a date (YYYY-MM-DD) or an ISO 8601 date-time such as 2026-04-06T07:00:00';

/**
 * An ISO 8601 date-time for the submission's StartDate, or undefined when empty. Never converted
 * between time zones: a plain date becomes YYYY-MM-DDT00:00:00, a date-time keeps its offset.
 */
export function toStartDateTime(value: unknown, field: string): string | undefined {
	if (isBlank(value)) return undefined;
	if (value instanceof Date) {
		if (Number.isNaN(value.getTime()))
			throw new FieldError(field, `must be ${DATE_TIME_FORMATS}, got an invalid date`);
		return formatUtc(value.getTime());
	}
	if (isDateTimeLike(value)) {
		const iso = value.toISO();
		if (!iso) throw new FieldError(field, `must be ${DATE_TIME_FORMATS}, got an invalid date`);
		return toStartDateTime(iso, field);
	}
	if (typeof value !== 'string')
		throw new FieldError(field, `must be ${DATE_TIME_FORMATS}, got ${shown(value)}`);
	const text = value.trim();
	if (DATE.test(text) || US_DATE.test(text)) return `${toDateOnly(text, field)}T00:00:00`;
	const match = DATE_TIME.exec(text);
	if (!match) throw new FieldError(field, `must be ${DATE_TIME_FORMATS}, got ${shown(text)}`);
	const parts = dateTimeParts(match);
	if (
		!isRealDate(parts.year, parts.month, parts.day) ||
		!isRealTime(parts.hour, parts.minute, parts.second)
	) {
		throw new FieldError(field, `is not a real date and time: ${shown(text)}`);
	}
	const seconds = match[6] ?? '00';
	const fraction = match[7] ? `.${match[7]}` : '';
	const zone = match[8] ? (match[8].toUpperCase() === 'Z' ? 'Z' : normaliseOffset(match[8])) : '';
	return `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${seconds}${fraction}${zone}`;
}

function normaliseOffset(offset: string): string {
	const sign = offset[0];
	const digits = offset.slice(1).replace(':', '');
	return `${sign}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
}
