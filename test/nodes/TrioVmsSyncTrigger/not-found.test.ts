/**
 * A "not found" Trio gives for jobs still in its list is not its word about any job. Inside
 * n8n's engine against the sandbox: every job lookup answers a problem-details 404 (what a
 * framework or gateway gives for a route it no longer matches) while nine jobs leave the list.
 * The trigger asks Trio about a job its list calls open (the control); Trio does not find that
 * one either, so the check closes none and fails saying so; once Trio answers again, each
 * closure comes out once. With no open job left in the list there is nothing to ask instead: the
 * check says so rather than keeping the jobs silently.
 */
import type { RunningSandbox } from '../../../sandbox';
import { watchJobs } from '../../support/listed-jobs';
import { scenario, useSyncSandbox } from '../../support/sync-history';

let sandbox: RunningSandbox;
useSyncSandbox(60, (started) => (sandbox = started));

function trigger() {
	return watchJobs(sandbox.url, {}, { apiKey: sandbox.key });
}

/** Every job lookup answers 404 in problem details, whichever job it asks about. */
const EVERY_LOOKUP_NOT_FOUND = {
	endpoints: { 'GET /api/v3/Job/{number}': { failRate: 1, failStatus: 404 } },
};

async function closeNine(): Promise<number[]> {
	const gone = sandbox.store
		.listJobs()
		.slice(0, 9)
		.map((job) => job.Number);
	for (const number of gone) await scenario(sandbox, 'POST', `/jobs/${number}/close`, {});
	return gone;
}

/** Once the faults are cleared, the next check reports each closure, and the one after none again. */
async function expectClosedOnceTrioAnswers(
	poller: ReturnType<typeof trigger>,
	closed: number[],
): Promise<void> {
	sandbox.clearFaults();
	const answered = await poller.poll();
	expect(answered.error).toBeUndefined();
	expect(answered.items.map((item) => [item.change, item.Number])).toEqual(
		closed.map((number) => ['closed', number]),
	);
	expect((await poller.poll()).items).toEqual([]);
}

describe('Sync Trigger: a 404 Trio gives for open jobs too', () => {
	test('every lookup answers 404 while nine jobs leave the list: none is reported closed, the check fails saying why, and each closure comes out once Trio answers', async () => {
		const poller = trigger();
		expect((await poller.poll()).error).toBeUndefined();
		const before = poller.staticData();
		const gone = await closeNine();

		sandbox.setFaults(EVERY_LOOKUP_NOT_FOUND);
		const refused = await poller.poll();
		expect(refused.items).toEqual([]);
		expect(refused.error?.message).toMatch(
			/answered "not found" even for job \d+, which its job list calls open, so its "not found" for the 9 jobs the list left out says nothing about them: none was reported closed/,
		);
		expect(poller.staticData()).toEqual(before);
		// The control was a job the list holds as open.
		const control = Number(/even for job (\d+)/.exec(refused.error?.message ?? '')?.[1]);
		expect(sandbox.store.listJobs().map((job) => job.Number)).toContain(control);
		expect(gone).not.toContain(control);

		await expectClosedOnceTrioAnswers(poller, gone);
	});

	test('a 404 Trio gives only for the jobs it no longer has still closes them: the control is found', async () => {
		const poller = trigger();
		await poller.poll();
		const [first] = await closeNine();
		sandbox.setFaults({
			endpoints: { [`GET /api/v3/Job/${first}`]: { failNext: 1, failStatus: 404 } },
		});
		const result = await poller.poll();
		expect(result.error).toBeUndefined();
		expect(result.items.filter((item) => item.change === 'closed')).toHaveLength(9);
		expect(result.items[0]).toMatchObject({ change: 'closed', Number: first, JobStatus: 'Closed' });
	});

	test('the list holds no open job and every lookup answers 404: nothing is believed, the check fails naming the jobs, and each closure comes out once Trio answers', async () => {
		sandbox.reset({ jobs: 4 });
		const poller = trigger();
		expect((await poller.poll()).error).toBeUndefined();
		const before = poller.staticData();
		const known = sandbox.store.listJobs().map((job) => job.Number);
		for (const number of known) await scenario(sandbox, 'POST', `/jobs/${number}/close`, {});
		expect(sandbox.store.listJobs()).toEqual([]);

		sandbox.setFaults(EVERY_LOOKUP_NOT_FOUND);
		const unchecked = await poller.poll();
		expect(unchecked.items).toEqual([]);
		expect(unchecked.error?.message).toBe(
			`Trio VMS answered "not found" for jobs ${known.join(', ')}, which its job list no longer holds, and the list holds no open job to check that answer against: none was reported closed`,
		);
		expect(unchecked.error).toMatchObject({ failure: { cause: 'temporarily-unavailable' } });
		expect(poller.staticData()).toEqual(before);

		await expectClosedOnceTrioAnswers(poller, known);
	});

	test('the list holds no open job, but Trio gives the other jobs their own records: its 404 for one is its word', async () => {
		sandbox.reset({ jobs: 4 });
		const poller = trigger();
		await poller.poll();
		const known = sandbox.store.listJobs().map((job) => job.Number);
		for (const number of known) await scenario(sandbox, 'POST', `/jobs/${number}/close`, {});
		sandbox.setFaults({
			endpoints: { [`GET /api/v3/Job/${known[0]}`]: { failNext: 1, failStatus: 404 } },
		});
		const result = await poller.poll();
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.change, item.Number])).toEqual(
			known.map((number) => ['closed', number]),
		);
	});
});
