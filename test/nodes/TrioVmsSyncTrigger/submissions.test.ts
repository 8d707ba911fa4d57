/**
 * The Sync Trigger watching submissions, and what both watches share: first-run options,
 * filters, Fetch Test Event, and loud failures on answers it cannot read. Inside n8n's engine,
 * against the sandbox over HTTP.
 */
import type { INodeParameters } from 'n8n-workflow';

import {
	SANDBOX_WITHDRAW_REASONS,
	type EndpointFault,
	type RunningSandbox,
} from '../../../sandbox';
import { trioCredentials } from '../../../harness/engine/engine';
import { EVERY_JOB_CHANGE } from '../../support/listed-jobs';
import { pollTrigger, type PollTrigger } from '../../../harness/engine/poll';
import { submit } from '../../sandbox/helpers';
import { agency, emittedKeys, keys, scenario, useSyncSandbox } from '../../support/sync-history';

let sandbox: RunningSandbox;
useSyncSandbox(300, (started) => (sandbox = started));

function poller(parameters: INodeParameters): PollTrigger {
	return pollTrigger({
		parameters: { jobChanges: EVERY_JOB_CHANGE, ...parameters },
		credentials: trioCredentials(sandbox.url, sandbox.key),
	});
}

function statusOf(number: number): string {
	return sandbox.store.submissions.get(number)!.submission.Status;
}

function withStatus(statuses: string[], exclude: Set<number>): number[] {
	return [...sandbox.store.submissions.values()]
		.map((record) => record.submission)
		.filter((s) => statuses.includes(s.Status) && !exclude.has(s.Number))
		.map((s) => s.Number);
}

/** Closes the first job in `status` and gives Trio's own answer about that job the `fault`. */
async function closeWithLookupFault(status: string, fault: EndpointFault) {
	const job = sandbox.store.listJobs().find((each) => each.JobStatus === status)!;
	await scenario(sandbox, 'POST', `/jobs/${job.Number}/close`, {});
	sandbox.setFaults({ endpoints: { [`GET /api/v3/Job/${job.Number}`]: fault } });
	return job;
}

describe('Sync Trigger, submissions', () => {
	test.each([
		['the same as n8n', 0],
		['an hour ahead of n8n', 3_600_000],
		['an hour behind n8n', -3_600_000],
	])(
		'every status change and creation exactly once, the service clock %s',
		async (_label, offsetMs) => {
			sandbox.store.clock.set({ offsetMs });
			const trigger = poller({
				watch: 'submissions',
				output: 'raw',
				options: { fullListEvery: 3 },
			});
			expect((await trigger.poll()).items).toEqual([]);
			const openJob = sandbox.store.listJobs().find((job) => job.JobStatus === 'Open')!;
			const reason = SANDBOX_WITHDRAW_REASONS[0];
			let total = 0;

			for (let round = 1; round <= 6; round++) {
				const expected: Array<{ number: number; change: string }> = [];
				const touched = new Set<number>();
				const act = async (number: number, action: () => Promise<unknown>) => {
					touched.add(number);
					await action();
					expected.push({ number, change: 'statusChanged' });
				};
				for (const n of withStatus(['Offered'], touched).slice(0, 1))
					await act(n, () => agency(sandbox, '/Submission/Accept', { submissionNumber: n }));
				for (const n of withStatus(['Offered'], touched).slice(0, 1))
					await act(n, () =>
						agency(sandbox, '/Submission/Decline', { submissionNumber: n, reason }),
					);
				for (const n of withStatus(['Submitted', 'Under Review'], touched).slice(0, 1))
					await act(n, () =>
						agency(sandbox, '/Submission/Withdraw', { submissionNumber: n, reason }),
					);
				// The facility moves submissions on through the scenario API.
				for (const n of withStatus(['Submitted'], touched).slice(0, 2))
					await act(n, () =>
						scenario(sandbox, 'POST', `/submissions/${n}/status`, { status: 'Under Review' }),
					);
				for (const n of withStatus(['Under Review'], touched).slice(0, 2))
					await act(n, () =>
						scenario(sandbox, 'POST', `/submissions/${n}/status`, { status: 'Offered' }),
					);
				for (const n of withStatus(['Submitted', 'Under Review', 'Offered'], touched).slice(0, 1))
					await act(n, () =>
						scenario(sandbox, 'POST', `/submissions/${n}/status`, { status: 'Rejected' }),
					);
				for (let i = 0; i < 2; i++) {
					const created = await submit(
						sandbox,
						{ JobNumber: openJob.Number, CandidateNumber: 5001 + i },
						undefined,
						sandbox.key,
					);
					expect(created.status).toBe(200);
					expected.push({ number: created.body.Number, change: 'created' });
				}
				if (round === 3) {
					const before = trigger.staticData();
					sandbox.setFaults({
						endpoints: { 'GET /api/v3/Submission': { failNext: 1, failStatus: 500 } },
					});
					const failed = await trigger.poll();
					expect(failed.error).toBeDefined();
					expect(failed.items).toEqual([]);
					expect(trigger.staticData()).toEqual(before);
				}
				const result = await trigger.poll();
				expect(result.error).toBeUndefined();
				expect(emittedKeys(result.items)).toEqual(keys(expected));
				for (const item of result.items) {
					if (item.change === 'statusChanged') {
						expect(item.Status).toBe(statusOf(Number(item.Number)));
						expect(item.previous).toEqual({
							Status: expect.any(String),
							StatusCode: expect.any(Number),
							ModifiedDateUTC: expect.any(String),
						});
						expect((item.previous as { Status: string }).Status).not.toBe(item.Status);
					}
				}
				total += result.items.length;
			}
			// Nothing left over: further polls, cheap and full, emit nothing.
			for (let i = 0; i < 3; i++) expect((await trigger.poll()).items).toEqual([]);
			expect(total).toBeGreaterThan(30);
		},
	);

	test('two submissions stamped with the same instant are both emitted', async () => {
		const trigger = poller({ watch: 'submissions' });
		await trigger.poll();
		const frozenAt = new Date().toISOString();
		sandbox.store.clock.set({ frozenAt });
		const [first, second] = withStatus(['Submitted'], new Set());
		await scenario(sandbox, 'POST', `/submissions/${first}/status`, { status: 'Under Review' });
		expect(emittedKeys((await trigger.poll()).items)).toEqual([`${first}:statusChanged`]);
		await scenario(sandbox, 'POST', `/submissions/${second}/status`, { status: 'Under Review' });
		expect(emittedKeys((await trigger.poll()).items)).toEqual([`${second}:statusChanged`]);
		sandbox.store.clock.set({ frozenAt: null });
	});
});

describe('Sync Trigger, first run, filters and Fetch Test Event', () => {
	test('Emit Existing on First Run emits every current record once, then only changes', async () => {
		const trigger = poller({ watch: 'jobs', options: { emitExisting: true } });
		const first = await trigger.poll();
		const listed = sandbox.store.listJobs();
		expect(first.items).toHaveLength(listed.length);
		expect(new Set(first.items.map((item) => item.change))).toEqual(new Set(['opened']));
		expect((await trigger.poll()).items).toEqual([]);

		const submissions = poller({ watch: 'submissions', options: { emitExisting: true } });
		const created = await submissions.poll();
		expect(created.items).toHaveLength(sandbox.store.submissions.size);
		expect(new Set(created.items.map((item) => item.change))).toEqual(new Set(['created']));
	});

	test('filters and change types decide what is emitted; the state still records everything', async () => {
		const trigger = poller({
			watch: 'jobs',
			jobChanges: ['updated', 'closed'],
			filters: { states: 'TX, california', jobStatuses: ['Open', 'Closed'] },
			options: { fullListEvery: 1 },
		});
		await trigger.poll();
		const open = sandbox.store.listJobs().filter((job) => job.JobStatus === 'Open');
		const inTexas = open.filter((job) => job.StateAbbreviation === 'TX');
		const elsewhere = open.find((job) => !['TX', 'CA'].includes(job.StateAbbreviation))!;
		await scenario(sandbox, 'PATCH', `/jobs/${inTexas[0].Number}`, { Title: 'TX update' });
		await scenario(sandbox, 'PATCH', `/jobs/${elsewhere.Number}`, { Title: 'elsewhere' });
		await scenario(sandbox, 'POST', `/jobs/${inTexas[1].Number}/hold`, {});
		await scenario(sandbox, 'POST', `/jobs/${inTexas[2].Number}/close`, {});
		await scenario(sandbox, 'POST', `/jobs/${inTexas[3].Number}/open-positions`, { count: 0 });
		await scenario(sandbox, 'POST', '/jobs', { State: 'Texas', StateAbbreviation: 'TX' });
		const result = await trigger.poll();
		// The hold is an update to OnHold (filtered out by status), the count change and the new
		// job are change types not asked for; the closure comes out at the first full list that
		// misses the job, once Trio's own answer about it says Closed.
		expect(emittedKeys(result.items)).toEqual(
			[`${inTexas[2].Number}:closed`, `${inTexas[0].Number}:updated`].sort(),
		);
		expect((await trigger.poll()).items).toEqual([]);
	});

	test('Fetch Test Event shows a real sample or the pending changes and never moves the state', async () => {
		const trigger = poller({ watch: 'jobs' });
		const sample = await trigger.poll({ mode: 'manual' });
		expect(sample.error).toBeUndefined();
		expect(sample.items).toHaveLength(1);
		expect(sample.items[0]).toMatchObject({ change: 'opened', Number: expect.any(Number) });
		expect(trigger.staticData()).toEqual({});

		await trigger.poll();
		const state = trigger.staticData();
		const job = sandbox.store.listJobs()[0];
		await scenario(sandbox, 'PATCH', `/jobs/${job.Number}`, { Title: 'Pending change' });
		const pending = await trigger.poll({ mode: 'manual' });
		expect(emittedKeys(pending.items)).toEqual([`${job.Number}:updated`]);
		expect(trigger.staticData()).toEqual(state);
		// The active poll still emits it: the test event took nothing away.
		expect(emittedKeys((await trigger.poll()).items)).toEqual([`${job.Number}:updated`]);
		const quiet = await trigger.poll({ mode: 'manual' });
		expect(quiet.items).toHaveLength(1);

		// Many pending changes: the test event shows a few, never the whole list.
		for (const each of sandbox.store.listJobs().slice(0, 8))
			await scenario(sandbox, 'PATCH', `/jobs/${each.Number}`, { Title: 'Many pending' });
		const few = await trigger.poll({ mode: 'manual' });
		expect(few.items).toHaveLength(3);
		const everything = await trigger.poll({ mode: 'manual' });
		expect(everything.items).toHaveLength(3);
		expect((await trigger.poll()).items.length).toBeGreaterThanOrEqual(8);

		const submissions = poller({ watch: 'submissions' });
		const submissionSample = await submissions.poll({ mode: 'manual' });
		expect(submissionSample.items[0]).toMatchObject({
			change: 'created',
			Status: expect.any(String),
		});
		expect(submissions.staticData()).toEqual({});
	});

	test('Fetch Test Event with Changes = only Status Changed shows a status change, of an offer where Trio lists one (issue 46)', async () => {
		const offers = withStatus(['Offered'], new Set());
		expect(offers.length).toBeGreaterThan(0);
		const onlyStatus = poller({ watch: 'submissions', submissionChanges: ['statusChanged'] });
		const sample = await onlyStatus.poll({ mode: 'manual' });
		expect(sample.error).toBeUndefined();
		expect(sample.items).toHaveLength(1);
		expect(sample.items[0]).toMatchObject({ change: 'statusChanged', Status: 'Offered' });
		expect(offers).toContain(sample.items[0].Number);
		expect(onlyStatus.staticData()).toEqual({});
		// Where Trio lists no offer, the newest submission as it is: nothing is made up.
		for (const number of offers) sandbox.store.submissions.delete(number);
		const noOffer = await onlyStatus.poll({ mode: 'manual' });
		expect(noOffer.items[0]).toMatchObject({ change: 'statusChanged' });
		expect(noOffer.items[0].Status).not.toBe('Offered');
	});

	test('a refused poll and a wrong option fail loudly and keep the state', async () => {
		const trigger = poller({ watch: 'jobs' });
		await trigger.poll();
		const state = trigger.staticData();
		sandbox.setFaults({
			endpoints: { 'GET /api/v3/Job': { failNext: 1, failStatus: 403 } },
		});
		const refused = await trigger.poll();
		expect(refused.error?.message).toMatch(/^Trio VMS refused the API key/);
		expect(refused.error).toMatchObject({ httpCode: '403' });
		expect(trigger.staticData()).toEqual(state);
		sandbox.clearFaults();

		const bad = pollTrigger({
			parameters: { watch: 'jobs', jobChanges: EVERY_JOB_CHANGE, options: { fullListEvery: 0 } },
			credentials: trioCredentials(sandbox.url, sandbox.key),
		});
		expect((await bad.poll()).error?.message).toMatch(
			/Whole List Every \(Checks\)".*under Options/,
		);
	});

	test('Changes left empty is refused before Trio is asked, naming the field', async () => {
		for (const parameters of [
			{ watch: 'jobs', jobChanges: [] },
			{ watch: 'submissions', submissionChanges: [] },
		]) {
			const empty = poller(parameters);
			const before = sandbox.requests().length;
			expect((await empty.poll()).error?.message).toBe(
				'"Changes" must name at least one change to output',
			);
			expect(sandbox.requests().length).toBe(before);
			expect(empty.staticData()).toEqual({});
		}
	});
});

describe('Sync Trigger, what n8n and the service can do to it', () => {
	test('the poll n8n runs on publishing keeps its record only when it emits', async () => {
		const quiet = poller({ watch: 'jobs' });
		const checked = await quiet.poll({ mode: 'activation' });
		expect([checked.error, checked.items, checked.saved]).toEqual([undefined, [], false]);
		expect(quiet.staticData()).toEqual({});
		// So the first scheduled poll records the jobs (and a change in between is not emitted).
		expect((await quiet.poll()).saved).toBe(true);
		expect(quiet.staticData().sync).toBeDefined();

		const emitting = poller({ watch: 'jobs', options: { emitExisting: true } });
		const first = await emitting.poll({ mode: 'activation' });
		expect(first.saved).toBe(true);
		const job = sandbox.store.listJobs()[0];
		await scenario(sandbox, 'PATCH', `/jobs/${job.Number}`, { Title: 'After publishing' });
		expect(emittedKeys((await emitting.poll()).items)).toEqual([`${job.Number}:updated`]);
	});

	test('a closed job the service no longer knows is emitted from what the trigger remembered', async () => {
		const trigger = poller({ watch: 'jobs', output: 'raw', options: { fullListEvery: 1 } });
		await trigger.poll();
		const job = await closeWithLookupFault('OnHold', { failNext: 1, failStatus: 404 });
		const result = await trigger.poll();
		expect(result.error).toBeUndefined();
		expect(result.items).toEqual([
			{
				event: 'Job Update',
				change: 'closed',
				receivedAt: expect.any(String),
				Number: job.Number,
				ModifiedDateUtc: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
				NumberOfCurrentOpenPositions: job.NumberOfCurrentOpenPositions,
				// What the State and Profession filters read, remembered with the job.
				StateAbbreviation: job.StateAbbreviation,
				Profession: job.Profession,
				JobStatus: 'Closed',
				previous: { JobStatus: 'OnHold' },
				changeKey: expect.stringMatching(new RegExp(`^job:${job.Number}:closed:\\d{4}-`)),
			},
		]);
	});

	test("a 404 that is not Trio's own (a gateway's text while a backend restarts) closes nothing: the job stays missing and closes once Trio answers", async () => {
		const trigger = poller({ watch: 'jobs', options: { fullListEvery: 1 } });
		await trigger.poll();
		const job = await closeWithLookupFault('Open', {
			failNext: 1,
			failStatus: 404,
			failBody: 'text',
		});
		const doubt = await trigger.poll();
		expect([doubt.error, doubt.items]).toEqual([undefined, []]);
		expect((trigger.staticData().sync as { m?: number[] }).m).toEqual([job.Number]);
		const closed = await trigger.poll();
		expect(closed.items).toEqual([
			expect.objectContaining({ change: 'closed', Number: job.Number, JobStatus: 'Closed' }),
		]);
	});

	test('a job whose lookup fails is never closed on it: it stays known and is asked about again, and the trigger goes on', async () => {
		const trigger = poller({ watch: 'jobs', options: { fullListEvery: 1 } });
		await trigger.poll();
		const job = await closeWithLookupFault('Open', { failNext: 8, failStatus: 500 });
		const unanswered = await trigger.poll();
		expect([unanswered.error, unanswered.items]).toEqual([undefined, []]);
		expect((trigger.staticData().sync as { m?: number[] }).m).toEqual([job.Number]);
		const added = await scenario(sandbox, 'POST', '/jobs', { Title: 'After the refusal' });
		expect(emittedKeys((await trigger.poll()).items)).toEqual([`${added.Number}:opened`]);
		sandbox.clearFaults();
		// Trio answers again: the closure comes out, with the job as Trio gives it.
		const closed = await trigger.poll();
		expect(closed.items).toEqual([
			expect.objectContaining({ change: 'closed', Number: job.Number, JobStatus: 'Closed' }),
		]);
		expect(closed.items[0].problem).toBeUndefined();
		expect((trigger.staticData().sync as { m?: number[] }).m).toBeUndefined();
	});

	test('a submission list Trio does not offer says so, and what to use instead', async () => {
		const trigger = poller({ watch: 'submissions' });
		sandbox.setFaults({
			endpoints: { 'GET /api/v3/Submission': { failNext: 1, failStatus: 404 } },
		});
		const result = await trigger.poll();
		sandbox.clearFaults();
		expect(result.error?.message).toContain(
			'The Sync Trigger could not read the submission list from Trio VMS (404)',
		);
		expect((result.error as { description?: string }).description).toContain(
			'Trio VMS Trigger with the Submission Update event',
		);
		expect(trigger.staticData()).toEqual({});
	});

	test('a service clock that jumps back further than the overlap: the next full list still emits the change', async () => {
		const trigger = poller({ watch: 'jobs', options: { fullListEvery: 3, overlapSeconds: 60 } });
		await trigger.poll();
		const [first, second] = sandbox.store.listJobs().filter((job) => job.JobStatus === 'Open');
		await scenario(sandbox, 'PATCH', `/jobs/${first.Number}`, { Title: 'Before the jump' });
		expect(emittedKeys((await trigger.poll()).items)).toEqual([`${first.Number}:updated`]);
		sandbox.store.clock.set({ offsetMs: -3_600_000 });
		await scenario(sandbox, 'PATCH', `/jobs/${second.Number}`, { Title: 'After the jump' });
		// Cheap poll: stamped an hour before the watermark, outside the overlap.
		expect((await trigger.poll()).items).toEqual([]);
		// Full list: the stamp differs from the remembered one.
		expect(emittedKeys((await trigger.poll()).items)).toEqual([`${second.Number}:updated`]);
	});
});

describe('Sync Trigger, modifiedDate as the spec states it (strictly after; ISO 8601 UTC)', () => {
	test('cheap polls send the newest service stamp minus the overlap; full lists send none', async () => {
		const trigger = poller({ watch: 'jobs', options: { fullListEvery: 2, overlapSeconds: 120 } });
		sandbox.clearRequests();
		await trigger.poll();
		const newest = sandbox.store
			.listJobs()
			.map((job) => job.ModifiedDateUtc as string)
			.sort()
			.pop() as string;
		await trigger.poll();
		const lists = sandbox
			.requests()
			.filter((request) => request.route === 'GET /api/v3/Job')
			.map((request) => request.query);
		expect(lists).toEqual([
			{},
			{ modifiedDate: new Date(Date.parse(newest) - 120_000).toISOString() },
		]);
	});

	test('with no overlap, strictly-after misses a change stamped like the watermark: why the overlap exists', async () => {
		const frozenAt = new Date().toISOString();
		const [first, second] = sandbox.store.listJobs().filter((job) => job.JobStatus === 'Open');
		for (const overlapSeconds of [0, 1]) {
			sandbox.reset({ jobs: 300 });
			const trigger = poller({ watch: 'jobs', options: { overlapSeconds } });
			await trigger.poll();
			sandbox.store.clock.set({ frozenAt });
			await scenario(sandbox, 'PATCH', `/jobs/${first.Number}`, { Title: 'A' });
			expect(emittedKeys((await trigger.poll()).items)).toEqual([`${first.Number}:updated`]);
			await scenario(sandbox, 'PATCH', `/jobs/${second.Number}`, { Title: 'B' });
			const seen = emittedKeys((await trigger.poll()).items);
			expect(seen).toEqual(overlapSeconds === 0 ? [] : [`${second.Number}:updated`]);
		}
	});
});
