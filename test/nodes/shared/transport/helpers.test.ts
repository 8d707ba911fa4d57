/** The transport's pure helpers: Retry-After, backoff, what is sent again, and path filling. */
import { fillPath } from '../../../../nodes/shared/transport/request';
import {
	backoffDelay,
	createOutcomeUnknown,
	DEFAULT_RETRY_POLICY,
	honouredRetryAfter,
	mayResendAfterAnswer,
	mayResendAfterNoAnswer,
	parseRetryAfter,
	type RetryPolicy,
} from '../../../../nodes/shared/transport/retry';

describe('parseRetryAfter', () => {
	const now = Date.UTC(2026, 0, 15, 12, 0, 0);

	it.each([
		['5', 5_000],
		[' 7 ', 7_000],
		['0', 0],
		['1.5', 1_500],
		[3, 3_000],
		[['2', '9'], 2_000],
	])('reads delay-seconds %j as %i ms', (value, expected) => {
		expect(parseRetryAfter(value, now)).toBe(expected);
	});

	it('reads an HTTP-date as the time left until then', () => {
		expect(parseRetryAfter(new Date(now + 4_000).toUTCString(), now)).toBe(4_000);
		// The obsolete RFC 850 form, which RFC 9110 still asks recipients to accept.
		expect(parseRetryAfter('Thursday, 15-Jan-26 12:00:10 GMT', now)).toBe(10_000);
	});

	it('treats a date in the past as "now"', () => {
		expect(parseRetryAfter(new Date(now - 60_000).toUTCString(), now)).toBe(0);
	});

	it.each([
		undefined,
		null,
		'',
		'   ',
		'soon',
		'5 minutes',
		'-1',
		'3.',
		'1 2',
		'0x10',
		{},
		[],
		[undefined],
	])('ignores %j (the caller then backs off instead)', (value) => {
		expect(parseRetryAfter(value, now)).toBeUndefined();
	});
});

describe('backoffDelay', () => {
	const policy: RetryPolicy = {
		maxRetries: 5,
		baseDelayMs: 100,
		maxDelayMs: 1_000,
		maxRetryAfterMs: 5_000,
	};

	it.each([
		[0, 50, 100],
		[1, 100, 200],
		[2, 200, 400],
		[3, 400, 800],
		[4, 500, 1_000],
		[10, 500, 1_000],
	])('attempt %i stays within [%i, %i] ms', (attempt, low, high) => {
		expect(backoffDelay(attempt, policy, () => 0)).toBe(low);
		expect(backoffDelay(attempt, policy, () => 0.999999)).toBe(high);
		for (let i = 0; i < 50; i++) {
			const delay = backoffDelay(attempt, policy);
			expect(delay).toBeGreaterThanOrEqual(low);
			expect(delay).toBeLessThanOrEqual(high);
		}
	});

	it('never exceeds maxDelayMs with the default policy, however many attempts', () => {
		expect(backoffDelay(60, DEFAULT_RETRY_POLICY, () => 1)).toBe(DEFAULT_RETRY_POLICY.maxDelayMs);
	});
});

describe('which request is sent again', () => {
	it.each([
		[429, true, true],
		[429, false, true],
		[502, true, true],
		[503, false, false],
		[504, true, true],
		[500, true, false],
		[404, true, false],
	])('after an answer %i (idempotent %s): %s', (status, idempotent, expected) => {
		expect(mayResendAfterAnswer(status, idempotent)).toBe(expected);
	});

	it.each([
		['ECONNREFUSED', false, true, false],
		['ENOTFOUND', true, true, false],
		['ECONNRESET', true, true, false],
		['ECONNRESET', false, false, true],
		['ETIMEDOUT', false, false, true],
		['ERESPONSETOOLARGE', true, false, false],
		['ERESPONSETOOLARGE', false, false, false],
	])(
		'after no answer (%s, idempotent %s): sent again %s, outcome unknown %s',
		(code, idempotent, resent, unknown) => {
			expect(mayResendAfterNoAnswer(code, idempotent)).toBe(resent);
			expect(createOutcomeUnknown(code, idempotent)).toBe(unknown);
		},
	);

	it('waits out a Retry-After no longer than the policy allows', () => {
		const policy = { ...DEFAULT_RETRY_POLICY, maxRetryAfterMs: 2_000 };
		expect(honouredRetryAfter(undefined, policy)).toBeUndefined();
		expect(honouredRetryAfter(1_500, policy)).toBe(1_500);
		expect(honouredRetryAfter(9_000, policy)).toBe(2_000);
	});
});

describe('fillPath', () => {
	it('fills and percent-encodes each placeholder', () => {
		expect(fillPath('/Job/{number}', { number: 123 })).toBe('/Job/123');
		expect(fillPath('/Job/{number}', { number: 0 })).toBe('/Job/0');
		expect(fillPath('/Job/{number}', { number: 'a/b c?#%' })).toBe('/Job/a%2Fb%20c%3F%23%25');
		expect(fillPath('/{a}/x/{b}', { a: 'ü', b: '..' })).toBe('/%C3%BC/x/..');
	});

	it('leaves a path without placeholders alone', () => {
		expect(fillPath('/Webhooks/Events')).toBe('/Webhooks/Events');
	});

	it.each([{}, { number: '' }, { other: 1 }])(
		'refuses a missing or empty parameter (%j)',
		(params) => {
			expect(() => fillPath('/Job/{number}', params as Record<string, string>)).toThrow(
				'Missing path parameter "number" for /Job/{number}',
			);
		},
	);
});
