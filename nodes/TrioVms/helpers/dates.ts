/**
 * Dates as users give them (the date picker, a spreadsheet cell, an expression such as
 * {{ $now.minus({ days: 1 }) }}) turned into what the service expects. Pure: no n8n imports;
 * luxon is n8n's own date library, provided by n8n at run time like zod.
 *
 * - Modified After (query `modifiedDate`): an ISO 8601 UTC timestamp. A plain date means midnight
 *   UTC (service notes). A date-time without an offset, which is what n8n's date picker produces,
 *   is read in the workflow's time zone, the way n8n reads such values everywhere else.
 * - License expiration: a calendar date, YYYY-MM-DD, never shifted.
 * - Submission start date: an ISO 8601 date-time, never shifted: a plain date becomes that day at
 *   00:00 with no offset, a date-time is sent as written.
 * - Both calendar fields also take a spreadsheet's day number (an Excel date cell) as that day,
 *   when the day is within 20 years of today.
 */
import { DateTime, FixedOffsetZone, type Zone } from 'luxon';

import { ParameterError, isBlank, shown } from './validation';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
/** US spreadsheet style: 5/31/2027 or 05/31/2027 (month first, as everywhere in the US). */
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * Date-times as people type them in a sheet: month first with a slash, a one-digit hour, AM/PM
 * ("5/31/2027 8:00 AM", "2027-05-31 8:00"). Rewritten into the ISO form DATE_TIME reads.
 */
const TYPED_DATE_TIME =
	/^(?:(\d{4})-(\d{1,2})-(\d{1,2})|(\d{1,2})\/(\d{1,2})\/(\d{4}))(?:T|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(?:([ap])\.?m\.?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** The typed date-time in ISO form, or undefined when it is not one (or its hour is not). */
function typedToIso(text: string): string | undefined {
	const typed = TYPED_DATE_TIME.exec(text);
	if (!typed) return undefined;
	const [year, month, day] = typed[1]
		? [typed[1], typed[2], typed[3]]
		: [typed[6], typed[4], typed[5]];
	let hour = Number(typed[7]);
	const half = typed[11]?.toLowerCase();
	if (half) {
		// A 12-hour clock runs 1 to 12: "13:00 PM" means nothing.
		if (hour < 1 || hour > 12) return undefined;
		hour = (hour % 12) + (half === 'p' ? 12 : 0);
	}
	const seconds = typed[9] === undefined ? '' : `:${typed[9]}`;
	const fraction = typed[10] === undefined ? '' : `.${typed[10]}`;
	return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}T${pad(hour)}:${typed[8]}${seconds}${fraction}${typed[12] ?? ''}`;
}

/** Spreadsheet day numbers count from 1899-12-30; 2,958,465 is 9999-12-31. */
const SPREADSHEET_EPOCH = DateTime.fromObject({ year: 1899, month: 12, day: 30 }, { zone: 'utc' });
const LAST_SPREADSHEET_DAY = 2_958_465;
/** Real UTC offsets run from -12:00 (Baker Island) to +14:00 (Line Islands): the rule and its message agree. */
const MIN_OFFSET_MINUTES = -12 * 60;
const MAX_OFFSET_MINUTES = 14 * 60;

/** What a user gave, sorted once: an instant (Date, luxon DateTime, epoch number) or text. */
type DateInput =
	{ kind: 'instant'; value: DateTime; fromNumber: boolean } | { kind: 'text'; value: string };

function isDateTimeLike(value: unknown): value is { toISO: () => string | null } {
	return (
		!!value &&
		typeof value === 'object' &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	);
}

function readInput(value: unknown, label: string, formats: string): DateInput | undefined {
	if (isBlank(value)) return undefined;
	if (typeof value === 'string') {
		const text = value.trim();
		// A day number that reached the node as text (a sheet's cell read as a string) gets the
		// same hint as the number itself.
		if (/^\d+(\.\d+)?$/.test(text) && Number(text) > 0 && Number(text) <= LAST_SPREADSHEET_DAY)
			throw spreadsheetDayError(Number(text), label, formats);
		return { kind: 'text', value: text };
	}
	let instant: DateTime | undefined;
	let fromNumber = false;
	if (value instanceof Date) instant = DateTime.fromJSDate(value, { zone: 'utc' });
	else if (DateTime.isDateTime(value)) instant = value;
	else if (isDateTimeLike(value)) {
		// A DateTime from another copy of luxon (the expression's): read it by its ISO text.
		const iso = value.toISO();
		instant = iso ? DateTime.fromISO(iso, { setZone: true }) : undefined;
	} else if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
		if (value <= LAST_SPREADSHEET_DAY) throw spreadsheetDayError(value, label, formats);
		// Unix time: seconds below 1e11 (until the year 5138), milliseconds above.
		instant = DateTime.fromMillis(value < 1e11 ? value * 1000 : value, { zone: 'utc' });
		fromNumber = true;
	} else {
		throw new ParameterError(label, `must be ${formats}, got ${shown(value)}`);
	}
	if (!instant?.isValid) throw new ParameterError(label, `must be ${formats}, got an invalid date`);
	return { kind: 'instant', value: instant, fromNumber };
}

/**
 * A spreadsheet's day number (Excel, Google Sheets) read as Unix time would be a day in 1970 and
 * would silently return everything; it is refused, with the date it probably means.
 */
function spreadsheetDayError(value: number, label: string, formats: string): ParameterError {
	const day = SPREADSHEET_EPOCH.plus({ days: Math.floor(value) }).toISODate();
	return new ParameterError(
		label,
		`must be ${formats}, got ${value}, which looks like a spreadsheet day number (${day})`,
		`Give the date as text, e.g. ${day}: format the spreadsheet column as plain text, or convert the value in an expression.`,
	);
}

interface CalendarDay {
	year: number;
	month: number;
	day: number;
}

function realDay(day: CalendarDay): boolean {
	return DateTime.fromObject(day, { zone: 'utc' }).isValid;
}

function pad(value: number): string {
	return String(value).padStart(2, '0');
}

/** A date written alone, ISO or US style, or undefined when the text is not one. */
function readDay(text: string, label: string): CalendarDay | undefined {
	const iso = DATE.exec(text);
	const us = US_DATE.exec(text);
	let day: CalendarDay;
	if (iso) day = { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
	else if (us) day = { year: Number(us[3]), month: Number(us[1]), day: Number(us[2]) };
	else return undefined;
	if (!realDay(day)) throw new ParameterError(label, `is not a real calendar date: ${shown(text)}`);
	return day;
}

function isoDay({ year, month, day }: CalendarDay): string {
	return `${year}-${pad(month)}-${pad(day)}`;
}

interface WrittenDateTime {
	match: RegExpExecArray;
	/** The written offset, or undefined when the text has none. */
	zone: Zone | undefined;
	/** The wall-clock time as written, in `zone` or in the zone given for texts without one. */
	at: (fallbackZone: Zone | string) => DateTime;
}

function offsetMinutes(written: string): number {
	if (written.toUpperCase() === 'Z') return 0;
	const sign = written.startsWith('-') ? -1 : 1;
	const digits = written.slice(1).replace(':', '');
	const hours = Number(digits.slice(0, 2));
	const minutes = Number(digits.slice(2, 4) || 0);
	return minutes > 59 ? Number.NaN : sign * (hours * 60 + minutes);
}

/** A date-time as written, checked to be a real date, time and offset. */
function readDateTime(text: string, label: string, formats: string): WrittenDateTime {
	const match = DATE_TIME.exec(text) ?? DATE_TIME.exec(typedToIso(text) ?? '');
	if (!match) throw new ParameterError(label, `must be ${formats}, got ${shown(text)}`);
	let zone: Zone | undefined;
	if (match[8]) {
		const minutes = offsetMinutes(match[8]);
		if (!(minutes >= MIN_OFFSET_MINUTES && minutes <= MAX_OFFSET_MINUTES)) {
			throw new ParameterError(
				label,
				`has an offset that no place on earth uses (${match[8]}); offsets run from -12:00 to +14:00: ${shown(text)}`,
			);
		}
		zone = FixedOffsetZone.instance(minutes);
	}
	const wall = {
		year: Number(match[1]),
		month: Number(match[2]),
		day: Number(match[3]),
		hour: Number(match[4]),
		minute: Number(match[5]),
		second: Number(match[6] ?? 0),
		millisecond: Number((match[7] ?? '0').slice(0, 3).padEnd(3, '0')),
	};
	// luxon takes hour 24 as the next midnight; nobody writes it meaning that.
	if (wall.hour > 23 || !DateTime.fromObject(wall, { zone: 'utc' }).isValid) {
		throw new ParameterError(label, `is not a real date and time: ${shown(text)}`);
	}
	return {
		match,
		zone,
		at: (fallbackZone) => DateTime.fromObject(wall, { zone: zone ?? fallbackZone }),
	};
}

function formatUtc(instant: DateTime): string {
	const utc = instant.toUTC();
	return utc.toISO({ suppressMilliseconds: utc.millisecond === 0 }) ?? '';
}

function workflowZone(timeZone: string | undefined): string {
	if (!timeZone) return 'UTC';
	return DateTime.now().setZone(timeZone).isValid ? timeZone : 'UTC';
}

const MODIFIED_AFTER_FORMATS =
	'a date (YYYY-MM-DD) or an ISO 8601 date-time such as 2026-03-01T07:00:00Z';

/**
 * The `modifiedDate` query value: an ISO 8601 UTC timestamp, or undefined when the field is empty.
 * @param timeZone the workflow's time zone, for date-times written without an offset
 */
export function toModifiedDateQuery(
	value: unknown,
	label: string,
	timeZone?: string,
): string | undefined {
	const input = readInput(value, label, MODIFIED_AFTER_FORMATS);
	if (input === undefined) return undefined;
	if (input.kind === 'instant') return formatUtc(input.value);
	const day = readDay(input.value, label);
	if (day) return `${isoDay(day)}T00:00:00Z`;
	return formatUtc(
		readDateTime(input.value, label, MODIFIED_AFTER_FORMATS).at(workflowZone(timeZone)),
	);
}

/**
 * How far from today a spreadsheet day number may fall to be read as a date. Start dates and
 * license expirations are within a few years of now; a number further away is something else
 * (2027 is a year, not 19 July 1905) and is refused rather than sent as a day nobody meant.
 */
const DAY_NUMBER_YEARS_FROM_TODAY = 20;

/**
 * A spreadsheet's day number (46391, "46391", 46391.5 for noon) as the moment it names, or
 * undefined when the value is no such number. Excel date cells reach n8n so (Extract from File,
 * Google Sheets with unformatted values). Taken only for calendar fields (start date, license
 * expiry), and only for a day within DAY_NUMBER_YEARS_FROM_TODAY years of today: there the same
 * number as Unix time would be a moment in January 1970, which no one means. Modified After keeps
 * refusing them, with the date they probably mean.
 */
function spreadsheetDay(value: unknown, label: string, formats: string): DateTime | undefined {
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)
				? Number(value)
				: undefined;
	if (number === undefined || !(number >= 1) || number > LAST_SPREADSHEET_DAY) return undefined;
	// Whole seconds: a fraction of a day is the time of day Excel stores.
	const day = SPREADSHEET_EPOCH.plus({ seconds: Math.round(number * 86_400) });
	const today = DateTime.utc().startOf('day');
	if (
		day < today.minus({ years: DAY_NUMBER_YEARS_FROM_TODAY }) ||
		day > today.plus({ years: DAY_NUMBER_YEARS_FROM_TODAY })
	) {
		throw new ParameterError(
			label,
			`must be ${formats}, got ${number}: a number is read as a spreadsheet's day number only for a day within ${DAY_NUMBER_YEARS_FROM_TODAY} years of today, and ${number} would be ${day.toISODate()}`,
			'Give the date as text, e.g. 2027-01-04 or 1/4/2027: format the spreadsheet column as a date or as plain text, or convert the value in an expression.',
		);
	}
	return day;
}

const DATE_FORMATS = 'a date such as 2027-05-31 (YYYY-MM-DD) or 5/31/2027 (month first)';

/** A calendar date as YYYY-MM-DD, or undefined when empty. Date-times keep the date as written. */
export function toDateOnly(value: unknown, label: string): string | undefined {
	const fromSheet = spreadsheetDay(value, label, DATE_FORMATS);
	if (fromSheet) return fromSheet.toISODate() ?? undefined;
	const input = readInput(value, label, DATE_FORMATS);
	if (input === undefined) return undefined;
	if (input.kind === 'instant') {
		if (input.fromNumber)
			throw new ParameterError(label, `must be ${DATE_FORMATS}, got ${shown(value)}`);
		return input.value.toISODate() ?? '';
	}
	const day = readDay(input.value, label);
	if (day) return isoDay(day);
	const { match } = readDateTime(input.value, label, DATE_FORMATS);
	return `${match[1]}-${match[2]}-${match[3]}`;
}

const DATE_TIME_FORMATS =
	'a date such as 2027-01-04 or 1/4/2027 (month first), or a date and time such as 2027-01-04 8:00 AM';

/**
 * An ISO 8601 date-time for the submission's StartDate, or undefined when empty. Never converted
 * between time zones: a plain date becomes YYYY-MM-DDT00:00:00, a date-time keeps its offset.
 */
export function toStartDateTime(value: unknown, label: string): string | undefined {
	const fromSheet = spreadsheetDay(value, label, DATE_TIME_FORMATS);
	if (fromSheet) return fromSheet.toFormat("yyyy-MM-dd'T'HH:mm:ss");
	const input = readInput(value, label, DATE_TIME_FORMATS);
	if (input === undefined) return undefined;
	if (input.kind === 'instant') {
		if (input.fromNumber) {
			throw new ParameterError(label, `must be ${DATE_TIME_FORMATS}, got ${shown(value)}`);
		}
		if (value instanceof Date) return formatUtc(input.value);
		return toStartDateTime(input.value.toISO(), label);
	}
	const day = readDay(input.value, label);
	if (day) return `${isoDay(day)}T00:00:00`;
	const { match, zone } = readDateTime(input.value, label, DATE_TIME_FORMATS);
	const seconds = match[6] ?? '00';
	const fraction = match[7] ? `.${match[7]}` : '';
	const offset = zone === undefined ? '' : writtenOffset(match[8]);
	return `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${seconds}${fraction}${offset}`;
}

/** "Z" stays "Z"; "+0530" and "-05" become "+05:30" and "-05:00". */
function writtenOffset(written: string): string {
	if (written.toUpperCase() === 'Z') return 'Z';
	const digits = written.slice(1).replace(':', '');
	return `${written[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}`;
}
