/**
 * The pace the transport learns from a 429 (nodes/shared/transport/pacing.ts): the pure rule, and the
 * node inside n8n's engine against the sandbox's rate limit, counted at the sandbox. What is
 * counted is refusals and accepted calls, never time.
 */
import type { INodeParameters } from 'n8n-workflow';

import {
	CallPacer,
	learnedPause,
	PACE_MARGIN,
	paceKey,
} from '../../../../nodes/shared/transport/pacing';
import { TRIO_CREDENTIAL_TYPE } from '../../../../nodes/shared/credentials';
import { runWorkflow } from '../../../../harness/engine/engine';
import { byNumber, useSandbox } from '../../../support/sandbox-harness';
import { useVirtualClock } from '../../../support/virtual-clock';

describe('learnedPause', () => {
	it('spreads the calls accepted within the Retry-After interval over it, with the margin', () => {
		const starts = Array.from({ length: 20 }, (_, index) => 10_000 + index * 7);
		expect(learnedPause(starts, 10_150, 1_000)).toBe(Math.ceil((1_000 * PACE_MARGIN) / 20));
	});

	it('counts only the calls inside the interval before the refusal', () => {
		const starts = [1_000, 1_500, 8_100, 8_500, 8_900];
		expect(learnedPause(starts, 9_000, 1_000)).toBe(Math.ceil((1_000 * PACE_MARGIN) / 3));
	});

	it('learns nothing when no call was accepted in the interval, or no interval was given', () => {
		expect(learnedPause([1_000], 9_000, 1_000)).toBeUndefined();
		expect(learnedPause([], 9_000, 1_000)).toBeUndefined();
		expect(learnedPause([8_900], 9_000, 0)).toBeUndefined();
	});
});

describe('CallPacer', () => {
	const refusedAfterBurst = (pacer: CallPacer, count: number, refusedAt: number) => {
		for (let index = 0; index < count; index++) pacer.accepted(refusedAt - 100 + index);
		pacer.refused(refusedAt, 1_000);
	};

	it('learns from a refusal, and a later refusal can only slow the pace', () => {
		const pacer = new CallPacer(200);
		refusedAfterBurst(pacer, 20, 50_000);
		expect(pacer.stats.learnedPauseMs).toBe(53);
		refusedAfterBurst(pacer, 40, 60_000);
		expect(pacer.stats.learnedPauseMs).toBe(53);
		refusedAfterBurst(pacer, 10, 70_000);
		expect(pacer.stats.learnedPauseMs).toBe(105);
	});

	it('hands a learned pace to the next pacer of the same execution, service and key only', () => {
		const key = paceKey(`execution-${Math.random()}`, 'credential-1');
		const first = new CallPacer();
		first.share(key);
		refusedAfterBurst(first, 20, 50_000);

		const next = new CallPacer();
		next.share(key);
		expect(next.stats.learnedPauseMs).toBe(53);

		const otherKey = new CallPacer();
		otherKey.share(paceKey('another execution', 'credential-1'));
		expect(otherKey.stats.learnedPauseMs).toBe(0);
	});
});

describe('inside n8n against a rate limit', () => {
	const t = useSandbox({ jobs: 40 });
	const LIMIT = 15;

	/** Two Job Get nodes in a row, one call per item each: 2 x items calls in one execution. */
	async function twoNodeRun(jobs: number[]) {
		const getJob = (name: string, number: string) => ({
			name,
			type: 'trioVms',
			parameters: { resource: 'job', operation: 'get', job: byNumber(number) },
		});
		return await runWorkflow({
			nodes: [
				{
					name: 'Source',
					type: 'test.start',
					parameters: { items: jobs.map((job) => ({ job })) as unknown as INodeParameters[] },
				},
				getJob('First', '={{ $json.job }}'),
				getJob('Second', '={{ $json.Number }}'),
			],
			connections: {
				Source: { main: [[{ node: 'First', type: 'main', index: 0 }]] },
				First: { main: [[{ node: 'Second', type: 'main', index: 0 }]] },
			},
			credentials: { [TRIO_CREDENTIAL_TYPE]: t.admin },
		});
	}

	// Issue 22 point 12: this ran on wall time and tolerated a second refusal for arrival jitter.
	// The pacer and the sandbox's rate limit now share one virtual clock that moves only when the
	// pacer or a retry waits, so the count is exact: one refusal, the one the pace is learned from.
	it('after the first refusal the node keeps the pace the service allowed, and the next node starts at it', async () => {
		const jobs = t.sandbox.store
			.listJobs()
			.map((job) => job.Number)
			.slice(0, 3 * LIMIT);
		const clock = useVirtualClock(t.sandbox);
		const { waits } = clock;
		t.sandbox.setFaults({ endpoints: { '*': { rateLimit: { limit: LIMIT, windowMs: 1_000 } } } });
		const run = await twoNodeRun(jobs).finally(() => clock.restore());

		expect(run.error).toBeUndefined();
		expect(run.json('Second').map((job) => job.Number)).toEqual(jobs);
		const statuses = t.apiRequests().map((request) => request.status);
		expect(statuses.filter((status) => status === 200)).toHaveLength(2 * jobs.length);
		// Sending as fast as it can, each node would be refused once per window: 6 times for these
		// 90 calls. Paced, the first node is refused once (that is how it learns) and the second
		// not at all.
		const refusals = statuses.filter((status) => status === 429).length;
		expect(refusals).toBe(1);
		expect(statuses[LIMIT]).toBe(429);
		// The one wait of the Retry-After (1 s), then a paced wait before every later call of both
		// nodes: 15 calls a second spread with the margin.
		const pause = Math.ceil((1_000 * PACE_MARGIN) / LIMIT);
		expect(waits[0]).toBe(1_000);
		expect(waits.slice(1)).toEqual(waits.slice(1).map(() => pause));
		expect(waits.length - 1).toBe(2 * jobs.length - LIMIT - 1);
	});
});
