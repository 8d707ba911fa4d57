/**
 * Trio's clock, as the transport hears it: the `Date` header of Trio's successful (2xx) answers
 * only. A 4xx or 5xx may be written by a gateway, a proxy or an ingress in front of Trio, on its
 * own clock, so its `Date` is never read. Nor is a `Date` more than MAX_CLOCK_SKEW_MS away from
 * this process's own clock (a clock in another time zone, a machine back in 1970): then no
 * caller gets a service time, and each falls back to n8n's clock.
 */

/**
 * How far Trio's `Date` may lie from n8n's clock and still be believed. Clocks kept by NTP agree
 * within seconds; a wrong time zone or a reset clock is off by half an hour or more.
 */
export const MAX_CLOCK_SKEW_MS = 10 * 60_000;

/** The time an answer's `Date` header names, when it is one to believe next to `localMs`. */
export function believableDate(header: unknown, localMs: number): number | undefined {
	const dateMs = Date.parse(typeof header === 'string' ? header : '');
	if (!Number.isFinite(dateMs)) return undefined;
	return Math.abs(dateMs - localMs) > MAX_CLOCK_SKEW_MS ? undefined : dateMs;
}

/** Trio's clock, set by its successful answers and carried on by this process's monotonic clock. */
export class ServiceClock {
	private heard: { dateMs: number; at: number } | undefined;

	/** Notes a successful answer's `Date` header, if it is one to believe. */
	answered(header: unknown): void {
		const dateMs = believableDate(header, Date.now());
		if (dateMs !== undefined) this.heard = { dateMs, at: performance.now() };
	}

	/** The `Date` of the last successful answer with a believable one; undefined without one. */
	get lastDateMs(): number | undefined {
		return this.heard?.dateMs;
	}

	/** Trio's clock now: its last believable `Date` plus the time since; undefined without one. */
	now(): number | undefined {
		const heard = this.heard;
		return heard && heard.dateMs + (performance.now() - heard.at);
	}
}
