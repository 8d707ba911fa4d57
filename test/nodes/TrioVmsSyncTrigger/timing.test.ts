/**
 * The pure rules behind the Sync Trigger's time and trust: the transport's worst case for a set of
 * options, the budget's sizing against it, and what a lookup's answer says about a job.
 */
import type { IPollFunctions } from 'n8n-workflow';

import {
	FIRST_CHECK_BUDGET_MS,
	pollBudget,
	sizedWithin,
} from '../../../nodes/TrioVmsSyncTrigger/budget';
import { isServiceNotFound, judgeLookup } from '../../../nodes/TrioVmsSyncTrigger/lookup';
import { worstCaseMs } from '../../../nodes/shared/transport';

describe("the transport's worst case", () => {
	it('counts every attempt at its exchange ceiling, every pause, and the wait for its turn', () => {
		const once = worstCaseMs({
			timeoutMs: 1_000,
			maxExchangeMs: 5_000,
			retry: { maxRetries: 0, maxDelayMs: 100, maxRetryAfterMs: 100 },
		});
		const twice = worstCaseMs({
			timeoutMs: 1_000,
			maxExchangeMs: 5_000,
			retry: { maxRetries: 1, maxDelayMs: 100, maxRetryAfterMs: 100 },
		});
		// The exchange ceiling, not twice the idle timeout, bounds an attempt whose body trickles.
		expect(once).toBeGreaterThanOrEqual(5_000);
		expect(twice).toBeGreaterThanOrEqual(2 * once + 100);
		// Without a ceiling of its own the transport's 20 minutes apply.
		expect(worstCaseMs({ timeoutMs: 1_000 })).toBeGreaterThan(20 * 60_000);
	});

	it('sizes requests that end within any window the budget gives, body included', () => {
		for (const windowMs of [3_000, 7_250, 12_000, 35_000, 60_000, 290_000]) {
			const sized = sizedWithin(windowMs, { max: 60_000, minWithRetries: 10_000 });
			expect(sized.worstMs).toBe(worstCaseMs(sized.options));
			expect(sized.worstMs).toBeLessThanOrEqual(windowMs);
			expect(sized.options.maxExchangeMs).toBeDefined();
		}
	});
});

describe("a first check's budget, while Publish waits", () => {
	/** Only what pollBudget reads of a poll's context: n8n's budget, if it gives one. */
	const given = (budgetMs?: number) =>
		(budgetMs === undefined ? {} : { getPollBudgetMs: () => budgetMs }) as IPollFunctions;

	it("holds a first check to 36 s whatever n8n gives at publishing (PollContext's 5 minutes, or none before n8n 2.38), and keeps n8n's when shorter", () => {
		expect(FIRST_CHECK_BUDGET_MS).toBe(36_000);
		expect(pollBudget(given(300_000), FIRST_CHECK_BUDGET_MS)?.budgetMs).toBe(36_000);
		expect(pollBudget(given(), FIRST_CHECK_BUDGET_MS)?.budgetMs).toBe(36_000);
		expect(pollBudget(given(5_000), FIRST_CHECK_BUDGET_MS)?.budgetMs).toBe(5_000);
		// A later check keeps n8n's budget, or none.
		expect(pollBudget(given(300_000))?.budgetMs).toBe(300_000);
		expect(pollBudget(given())).toBeUndefined();
	});

	it("sizes the first check's list request, retries and body included, to end within it", () => {
		const budget = pollBudget(given(300_000), FIRST_CHECK_BUDGET_MS);
		const list = budget?.listOptions();
		expect(list?.worstMs).toBe(worstCaseMs(list!.options));
		expect(list!.worstMs).toBeLessThanOrEqual(FIRST_CHECK_BUDGET_MS);
	});
});

describe('what a lookup says about job 7', () => {
	const job = (extra: Record<string, unknown>) => ({ Number: 7, Title: 'Job 7', ...extra });

	it.each([
		['its record, Closed', { status: 200, body: job({ JobStatus: 'Closed' }) }, 'closed'],
		[
			'its record, closed in lower case',
			{ status: 200, body: job({ jobStatus: 'closed' }) },
			'closed',
		],
		['its record, Open', { status: 200, body: job({ JobStatus: 'Open' }) }, 'open'],
		['its record, On Hold', { status: 200, body: job({ JobStatus: 'On Hold' }) }, 'open'],
		[
			'its number as text',
			{ status: 200, body: job({ Number: '7', JobStatus: 'OnHold' }) },
			'open',
		],
		['{}', { status: 200, body: {} }, 'unanswered'],
		['a message', { status: 200, body: { message: 'temporarily unavailable' } }, 'unanswered'],
		['On-Hold', { status: 200, body: job({ JobStatus: 'On-Hold' }) }, 'unanswered'],
		['Active', { status: 200, body: job({ JobStatus: 'Active' }) }, 'unanswered'],
		['no status', { status: 200, body: job({}) }, 'unanswered'],
		[
			'job 99 Closed',
			{ status: 200, body: job({ Number: 99, JobStatus: 'Closed' }) },
			'unanswered',
		],
		['no number', { status: 200, body: { JobStatus: 'Closed' } }, 'unanswered'],
		['a list', { status: 200, body: [job({ JobStatus: 'Closed' })] }, 'unanswered'],
		['a bare 404', { status: 404, body: '<html>Not Found</html>' }, 'unanswered'],
		['a 404 with a message', { status: 404, body: { message: 'Not Found' } }, 'unanswered'],
		[
			'a 404 whose details say 502',
			{ status: 404, body: { title: 'Bad Gateway', status: 502 } },
			'unanswered',
		],
		["Trio's own 404", { status: 404, body: { title: 'Not Found', status: 404 } }, 'closed'],
		["Trio's own 410", { status: 410, body: { type: 'about:blank', status: 410 } }, 'closed'],
		['a 500', { status: 500, body: { title: 'Error', status: 500 } }, 'unanswered'],
		['no answer at all', undefined, 'unanswered'],
	])('%s', (_name, answer, outcome) => {
		expect(judgeLookup(7, answer).outcome).toBe(outcome);
	});

	it('keeps the job Trio gave for a closure', () => {
		const closed = job({ JobStatus: 'Closed' });
		expect(judgeLookup(7, { status: 200, body: closed })).toEqual({
			outcome: 'closed',
			job: closed,
		});
		expect(isServiceNotFound(200, { status: 200, title: 'OK' })).toBe(false);
	});
});
