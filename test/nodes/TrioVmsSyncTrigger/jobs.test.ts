/**
 * The Sync Trigger watching jobs, run inside n8n's engine (n8n-core's PollContext and
 * PollTriggerExecutor) against the sandbox over HTTP: a scripted history across 1,000 jobs in
 * which every change must be emitted exactly once, at the poll that can first see it, with the
 * right `change`, whatever the service's clock says and whichever poll fails midway.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RunningSandbox } from '../../../sandbox';
import { trioCredentials } from '../../../harness/engine/engine';
import { EVERY_JOB_CHANGE } from '../../support/listed-jobs';
import { pollTrigger, type PollTrigger } from '../../../harness/engine/poll';
import { emittedKeys, Ledger, scenario, useSyncSandbox } from '../../support/sync-history';

const EVERY = 3;
const HOUR = 3_600_000;

let sandbox: RunningSandbox;
useSyncSandbox(1000, (started) => (sandbox = started), { resetEach: false });

function isFullNext(poller: PollTrigger): boolean {
	const sync = poller.staticData().sync as { n: number } | undefined;
	return !sync || sync.n + 1 >= EVERY;
}

function status(number: number): string {
	return sandbox.store.jobs.get(number)?.job.JobStatus ?? 'missing';
}

function checkShape(item: IDataObject): void {
	expect(item).toMatchObject({ event: 'Job Update', receivedAt: expect.any(String) });
	// A closure whose details Trio refused carries what was remembered and says why.
	if (item.problem) expect(item.change).toBe('closed');
	else expect(typeof item.Title).toBe('string');
	switch (item.change) {
		case 'updated':
			expect(item.previous).toEqual(
				expect.objectContaining({ ModifiedDateUtc: expect.any(String) }),
			);
			break;
		case 'closed':
			expect(item).toMatchObject({ JobStatus: 'Closed', receivedAt: expect.any(String) });
			break;
		case 'openPositionsChanged':
			expect(item.previous).toEqual({ NumberOfCurrentOpenPositions: expect.any(Number) });
			break;
		default:
			expect(item.change).toBe('opened');
	}
}

/** One scripted history; returns how many changes were emitted. */
async function runHistory(offsetMs: number): Promise<Record<string, number>> {
	sandbox.reset({ jobs: 1000 });
	sandbox.store.clock.set({ offsetMs });
	const poller = pollTrigger({
		parameters: {
			watch: 'jobs',
			jobChanges: EVERY_JOB_CHANGE,
			output: 'raw',
			options: { fullListEvery: EVERY },
		},
		// A plain agency key: polling needs no administrator permission.
		credentials: trioCredentials(sandbox.url, sandbox.key),
	});
	const ledger = new Ledger();
	const emitted: Record<string, number> = {};
	/** Jobs the trigger has seen in its last successful poll (so it can see them change or close). */
	let known = new Set<number>();
	/** Jobs listed by the last full list: their open-position counts are known. */
	let inLastFull = new Set<number>();
	const closedSeen: number[] = [];
	let midwayFailed = false;

	/**
	 * One poll. `lookupsRefused`: Trio refuses some job lookups during it, so the closures it
	 * could not confirm are not emitted (never closed on a failed lookup) and come out at the
	 * next full list instead.
	 */
	async function poll(failure?: () => void, lookupsRefused = false): Promise<void> {
		const full = isFullNext(poller);
		const before = poller.staticData();
		if (failure) {
			failure();
			const result = await poller.poll();
			sandbox.clearFaults();
			expect(result.error).toBeDefined();
			expect(result.items).toEqual([]);
			expect(poller.staticData()).toEqual(before);
			return;
		}
		const result = await poller.poll();
		expect(result.error).toBeUndefined();
		const due = ledger.take(full);
		const got = emittedKeys(result.items);
		if (lookupsRefused) {
			const postponed = due.filter((key) => !got.includes(key));
			expect(postponed.length).toBeGreaterThan(0);
			for (const key of postponed) {
				expect(key).toMatch(/:closed$/);
				ledger.expect(Number(key.split(':')[0]), 'closed', true);
			}
			expect(got).toEqual(due.filter((key) => !postponed.includes(key)));
		} else expect(got).toEqual(due);
		result.items.forEach(checkShape);
		for (const item of result.items)
			if (item.change === 'closed') closedSeen.push(Number(item.Number));
		for (const item of result.items)
			emitted[String(item.change)] = (emitted[String(item.change)] ?? 0) + 1;
		known = new Set(sandbox.store.listJobs().map((job) => job.Number));
		if (full) inLastFull = new Set(known);
	}

	function pick(count: number, wanted: (number: number) => boolean): number[] {
		const chosen: number[] = [];
		for (const number of known) {
			if (chosen.length === count) break;
			if (!ledger.touched.has(number) && wanted(number)) chosen.push(number);
		}
		for (const number of chosen) ledger.touched.add(number);
		return chosen;
	}

	const update = async (number: number, title: string) => {
		await scenario(sandbox, 'PATCH', `/jobs/${number}`, { Title: title });
		ledger.expect(number, 'updated');
	};

	async function round(index: number): Promise<void> {
		for (const number of pick(8, (n) => status(n) !== 'Closed'))
			await update(number, `Round ${index} ${number}`);
		for (const number of pick(2, (n) => status(n) === 'Open')) {
			await scenario(sandbox, 'POST', `/jobs/${number}/hold`, { reason: 'Census low' });
			ledger.expect(number, 'updated');
		}
		for (const number of pick(1, (n) => status(n) === 'OnHold')) {
			await scenario(sandbox, 'POST', `/jobs/${number}/reopen`, {});
			ledger.expect(number, 'updated');
		}
		for (const number of pick(2, (n) => status(n) !== 'Closed')) {
			await scenario(sandbox, 'POST', `/jobs/${number}/close`, { reason: 'Filled' });
			// At the next full list, which misses it, and Trio's own lookup says Closed.
			ledger.expect(number, 'closed', true);
		}
		// A job whose closure was emitted comes back: it is opened again.
		const back = closedSeen.shift();
		if (back !== undefined && status(back) === 'Closed' && !ledger.touched.has(back)) {
			await scenario(sandbox, 'POST', `/jobs/${back}/reopen`, {});
			ledger.touched.add(back);
			ledger.expect(back, 'opened');
		}
		for (let i = 0; i < 2; i++) {
			const job = await scenario(sandbox, 'POST', '/jobs', { Title: `New ${index}.${i}` });
			ledger.touched.add(Number(job.Number));
			ledger.expect(Number(job.Number), 'opened');
		}
		for (const number of pick(3, (n) => inLastFull.has(n) && status(n) !== 'Closed')) {
			const record = sandbox.store.jobs.get(number)!;
			const count = (record.currentOpenPositions + 1) % (record.job.NumberOfPositions + 1);
			await scenario(sandbox, 'POST', `/jobs/${number}/open-positions`, { count });
			ledger.expect(number, 'openPositionsChanged', true);
			// Changing the count moves no ModifiedDateUtc: nothing else is emitted for it.
		}
	}

	// First run: the state is recorded, nothing is emitted.
	expect(isFullNext(poller)).toBe(true);
	await poll();
	expect(emitted).toEqual({});
	expect(Object.keys((poller.staticData().sync as { e: object }).e)).toHaveLength(known.size);

	for (let index = 1; index <= 9; index++) {
		await round(index);
		if (index === 3) {
			// The list itself fails (500 is not retried): nothing emitted, nothing lost.
			await poll(() =>
				sandbox.setFaults({ endpoints: { 'GET /api/v3/Job': { failNext: 1, failStatus: 500 } } }),
			);
		}
		if (index === 5) {
			// A broken connection on every attempt: the transport gives up, the state stays.
			await poll(() => sandbox.setFaults({ endpoints: { 'GET /api/v3/Job': { dropNext: 4 } } }));
		}
		if (index >= 6 && !midwayFailed && isFullNext(poller)) {
			midwayFailed = true;
			// Midway: the full list is read, then fetching a closed job is refused with 429 after
			// every retry. The poll does not stop there (it would stop every later poll too), nor
			// does it close a job Trio did not answer for: it asks again at the next full list.
			sandbox.setFaults({
				endpoints: {
					'GET /api/v3/Job/{number}': {
						rateLimit: { limit: 1, windowMs: 60_000, retryAfterSeconds: 0 },
					},
				},
			});
			await poll(undefined, true);
			sandbox.clearFaults();
		}
		if (index === 7) {
			// Two jobs stamped with the same instant, the second published after a poll saw the first.
			const frozenAt = new Date(Date.now() + offsetMs).toISOString().replace(/\.\d+Z$/, '.000Z');
			sandbox.store.clock.set({ frozenAt });
			const [first, second] = pick(2, (n) => status(n) === 'Open');
			await update(first, 'Same second A');
			await poll();
			await update(second, 'Same second B');
			expect(sandbox.store.jobs.get(second)?.job.ModifiedDateUtc).toBe(frozenAt);
			expect(sandbox.store.jobs.get(first)?.job.ModifiedDateUtc).toBe(frozenAt);
			sandbox.store.clock.set({ frozenAt: null });
		}
		await poll();
	}
	expect(midwayFailed).toBe(true);
	// Whatever is still waiting for a full list is emitted by the next two.
	for (let fullLists = 0; fullLists < 2; fullLists++) {
		while (isFullNext(poller) === false) await poll();
		await poll();
	}
	expect(ledger.size).toBe(0);
	return emitted;
}

describe('Sync Trigger, jobs: a scripted history across 1,000 jobs', () => {
	test.each([
		['the same as n8n', 0],
		['two hours ahead of n8n', 2 * HOUR],
		['two hours behind n8n', -2 * HOUR],
	])('every change exactly once, the service clock %s', async (_label, offsetMs) => {
		const emitted = await runHistory(offsetMs);
		// Every kind of change happened, many times: per round 8 updates, 2 holds and a reopen
		// from hold (all \`updated\`), 2 closes, 2 new jobs, a closed job reopened once its closure
		// was seen (a closure comes out at the first full list that misses the job, so 6 come
		// back within the 9 rounds; when it took two full lists, 3 did), and 3
		// count changes; plus the two same-instant updates.
		expect(emitted).toEqual({
			updated: 9 * 11 + 2,
			closed: 18,
			opened: 18 + 6,
			openPositionsChanged: 27,
		});
	});
});
