/**
 * Time formats the service uses, and a clock that never repeats a millisecond: a consumer that
 * keeps "the newest ModifiedDateUtc seen" as its watermark and asks for changes strictly after
 * it would silently miss a second change stamped with the same millisecond.
 *
 * Two test controls model a real service's clock: `offsetMs` puts the service's clock ahead of
 * (positive) or behind (negative) the machine's, as a client such as n8n sees it; `frozenAt`
 * stamps every change with that one instant, as a service that stores whole seconds stamps two
 * changes made within the same second (the never-repeat rule is then off, on purpose).
 */
export interface ClockSettings {
	offsetMs: number;
	frozenAt: string | null;
}

export class Clock {
	private last = 0;

	private settings: ClockSettings = { offsetMs: 0, frozenAt: null };

	now(): Date {
		if (this.settings.frozenAt !== null) return new Date(this.settings.frozenAt);
		this.last = Math.max(Date.now() + this.settings.offsetMs, this.last + 1);
		return new Date(this.last);
	}

	get(): ClockSettings {
		return { ...this.settings };
	}

	/** Changes the given settings. A new offset may move the clock back, as a real clock fix can. */
	set(settings: Partial<ClockSettings>): ClockSettings {
		if (settings.offsetMs !== undefined && settings.offsetMs !== this.settings.offsetMs)
			this.last = 0;
		this.settings = { ...this.settings, ...settings };
		return this.get();
	}
}

const DAY_MS = 86_400_000;

export function startOfUtcDay(date: Date): Date {
	return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

export function addDays(date: Date, days: number): Date {
	return new Date(date.getTime() + days * DAY_MS);
}

/** YYYY-MM-DD of the UTC calendar date. */
export function isoDateOnly(date: Date): string {
	return date.toISOString().slice(0, 10);
}

/**
 * .NET's seven fractional digits, as per diem `Timestamp` values come ("UTC datetimes with
 * fractional seconds"); `subMillisecond` fills the last four so values look like real ticks.
 */
export function ticksUtc(date: Date, subMillisecond = 0): string {
	const digits = String(Math.max(0, Math.min(9999, Math.floor(subMillisecond)))).padStart(4, '0');
	return date.toISOString().replace(/\.(\d{3})Z$/, `.$1${digits}Z`);
}

/**
 * Per diem Start/End: wall-clock time of the staffing pool without offset. The Date's UTC fields
 * carry the wall-clock values; nothing here converts between zones.
 */
export function poolLocal(date: Date): string {
	return date.toISOString().slice(0, 19);
}

const POOL_LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,7})?)?$/;

/** Reads a pool-local value into a Date whose UTC fields hold the wall clock (for arithmetic only). */
export function parsePoolLocal(value: string): Date | undefined {
	const match = POOL_LOCAL.exec(value);
	if (!match) return undefined;
	const [, y, mo, d, h, mi, s] = match;
	if (!isRealCalendarDay(value) || +h > 23 || +mi > 59 || (s !== undefined && +s > 59))
		return undefined;
	return new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, s ? +s : 0));
}

/** Whether the YYYY-MM-DD at the start of a value is a real calendar day (Date.UTC would roll it over). */
export function isRealCalendarDay(value: string): boolean {
	const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
	if (!match) return false;
	const [, y, m, d] = match;
	const date = new Date(Date.UTC(+y, +m - 1, +d));
	return date.getUTCFullYear() === +y && date.getUTCMonth() === +m - 1 && date.getUTCDate() === +d;
}
