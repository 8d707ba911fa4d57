/**
 * Trio's clock as the transport keeps it (serviceClock.ts): only a successful answer's Date sets
 * it (client.ts calls `answered` for 2xx answers alone: gateway-clock.test.ts shows a 502's Date
 * is never read), and a Date further than MAX_CLOCK_SKEW_MS from this process's clock is none.
 */
import {
	believableDate,
	MAX_CLOCK_SKEW_MS,
	ServiceClock,
} from '../../../../nodes/shared/transport/serviceClock';

const NOW = Date.parse('2026-11-20T10:00:00Z');

describe("Trio's clock, from its answers' Date", () => {
	it('believes a Date within the bound of n8n clock, either side', () => {
		for (const offset of [0, 90_000, -90_000, MAX_CLOCK_SKEW_MS, -MAX_CLOCK_SKEW_MS])
			expect(believableDate(new Date(NOW + offset).toUTCString(), NOW)).toBe(
				Math.floor((NOW + offset) / 1000) * 1000,
			);
	});

	it('reads no Date beyond the bound (an hour ahead, a time zone off, 1970), nor a missing or broken one', () => {
		for (const header of [
			new Date(NOW + MAX_CLOCK_SKEW_MS + 1_000).toUTCString(),
			new Date(NOW - MAX_CLOCK_SKEW_MS - 1_000).toUTCString(),
			new Date(NOW + 3_600_000).toUTCString(),
			new Date(0).toUTCString(),
			'',
			'yesterday',
			undefined,
			['Thu, 20 Nov 2026 10:00:00 GMT'],
		])
			expect(believableDate(header, NOW)).toBeUndefined();
	});

	it('keeps the last believable Date and carries it on; one beyond the bound leaves it as it was', () => {
		const clock = new ServiceClock();
		expect([clock.lastDateMs, clock.now()]).toEqual([undefined, undefined]);
		clock.answered(new Date(0).toUTCString());
		expect(clock.now()).toBeUndefined();
		const trio = new Date(Date.now() + 60_000).toUTCString();
		clock.answered(trio);
		expect(clock.lastDateMs).toBe(Date.parse(trio));
		clock.answered(new Date(Date.now() + 3_600_000).toUTCString());
		expect(clock.lastDateMs).toBe(Date.parse(trio));
		expect(clock.now()).toBeGreaterThanOrEqual(Date.parse(trio));
	});
});
