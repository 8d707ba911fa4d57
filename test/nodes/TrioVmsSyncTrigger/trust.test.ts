/**
 * The Sync Trigger against answers a real service could give on a bad day, scripted exactly:
 * a job list cut short, a job the list lost but Trio still calls open, records it cannot read,
 * and n8n starting the next poll while the last one still waits. Inside n8n's engine.
 */
import { trioCredentials } from '../../../harness/engine/engine';
import { pollTrigger } from '../../../harness/engine/poll';
import { job, STAMP, watchJobs } from '../../support/listed-jobs';
import { ScriptedServer } from '../../support/scripted-server';

const server = ScriptedServer.forEachTest();

const TWELVE = Array.from({ length: 12 }, (_, index) => job(index + 1));

function trigger(options: Record<string, unknown> = {}) {
	return watchJobs(server.baseUrl, { options: { fullListEvery: 1, ...options } });
}

describe('Sync Trigger against a hostile job list', () => {
	test('an empty list does not close every job: it is refused, and the state is kept', async () => {
		const poller = trigger();
		server.respond({ json: TWELVE });
		expect((await poller.poll()).error).toBeUndefined();
		const state = poller.staticData();
		server.respond({ json: [] });
		const refused = await poller.poll();
		expect(refused.error?.message).toContain('suddenly lacks 12 of the 12 jobs');
		expect(refused.items).toEqual([]);
		expect(poller.staticData()).toEqual(state);
		// No job was looked up one by one: the list alone was asked for.
		expect(server.requests.map((request) => request.path)).toEqual(['/api/v3/Job', '/api/v3/Job']);
	});

	test('a job the list lost but Trio still calls open is not closed, and stays known', async () => {
		const poller = trigger();
		const eleven = TWELVE.slice(1);
		server.respond({ json: TWELVE }, { json: eleven }, { json: job(1) });
		await poller.poll();
		// Asked about at the first full list that misses it.
		const first = await poller.poll();
		expect([first.error, first.items]).toEqual([undefined, []]);
		expect(server.requests.map((request) => request.path).at(-1)).toBe('/api/v3/Job/1');
		// Asked again at the next full list, in case it closes meanwhile.
		server.respond({ json: eleven }, { json: job(1, { JobStatus: 'OnHold' }) });
		const second = await poller.poll();
		expect(second.error).toBeUndefined();
		expect(second.items).toEqual([]);
		expect(server.requests.map((request) => request.path).at(-1)).toBe('/api/v3/Job/1');
		expect(Object.keys((poller.staticData().sync as { e: object }).e)).toContain('1');
		// Back in the list: nothing to say, it never went away.
		server.respond({ json: TWELVE });
		expect((await poller.poll()).items).toEqual([]);
	});

	test('records it cannot read are reported once each; the others go on and the state moves', async () => {
		const poller = trigger();
		server.respond({ json: TWELVE });
		await poller.poll();
		const bad = [
			...TWELVE,
			job(13, { ModifiedDateUtc: '/Date(1767225600000)/' }),
			{ Title: 'no number' },
			job(14, { ModifiedDateUtc: '2026-03-01T11:00:00Z' }),
		];
		server.respond({ json: bad }, { json: bad });
		const first = await poller.poll();
		expect(first.error).toBeUndefined();
		expect(first.items.map((item) => [item.change, item.Number])).toEqual([
			['unreadable', 13],
			['unreadable', undefined],
			['opened', 14],
		]);
		expect(first.items[0].problem).toContain('is not a date and time');
		expect((await poller.poll()).items).toEqual([]);
	});

	test('a poll that starts while the last one still waits returns nothing and asks nothing', async () => {
		const poller = trigger();
		server.respond({ json: TWELVE });
		await poller.poll();
		server.respond({ json: [...TWELVE, job(20)], delayMs: 1_500 });
		const slow = poller.poll();
		for (let tries = 0; tries < 200 && server.requests.length < 2; tries++)
			await new Promise((resolve) => setTimeout(resolve, 10));
		expect(server.requests).toHaveLength(2);
		const overlapping = await poller.poll();
		expect(overlapping.error).toBeUndefined();
		expect(overlapping.items).toEqual([]);
		expect(server.requests).toHaveLength(2);
		expect((await slow).items.map((item) => item.Number)).toEqual([20]);
	});
});

/** Trio's answer about one job: the job, or a refusal. */
const closedJob = (number: number) => ({ json: job(number, { JobStatus: 'Closed' }) });
/** Trio's own "not found": problem details, the decided error shape (a bare 404 is doubt). */
const notFound = {
	status: 404,
	json: { title: 'Not Found', status: 404, detail: 'The job was not found.' },
};

describe('Sync Trigger when records are stale, left out, unreadable by hundreds, or the clocks differ', () => {
	test('a stale copy of a job, listed twice or by a replica lagging behind, is not a change and never rewinds', async () => {
		const poller = trigger();
		server.respond({ json: TWELVE });
		await poller.poll();
		const v2 = job(1, { Title: 'Version 2', ModifiedDateUtc: '2026-03-01T11:00:00Z' });
		// One answer lists job 1 twice: the new version first, then the old one (TWELVE's).
		server.respond({ json: [v2, ...TWELVE] });
		const twice = await poller.poll();
		expect(twice.items.map((item) => [item.change, item.Number, item.Title])).toEqual([
			['updated', 1, 'Version 2'],
		]);
		// A replica lagging behind answers the old version, then the new one again.
		server.respond({ json: TWELVE }, { json: [v2, ...TWELVE.slice(1)] });
		expect((await poller.poll()).items).toEqual([]);
		expect((await poller.poll()).items).toEqual([]);

		const submissions = pollTrigger({
			parameters: { watch: 'submissions', options: { fullListEvery: 1 } },
			credentials: trioCredentials(server.baseUrl, 'key'),
		});
		const submission = (status: string, code: number, modified: string) => ({
			Number: 90001,
			Status: status,
			StatusCode: code,
			ModifiedDateUTC: modified,
		});
		const submitted = submission('Submitted', 1, STAMP);
		const offered = submission('Offered', 3, '2026-03-01T11:00:00Z');
		server.respond({ json: [submitted] }, { json: [offered, submitted] });
		await submissions.poll();
		expect((await submissions.poll()).items.map((item) => item.Status)).toEqual(['Offered']);
		server.respond({ json: [submitted] }, { json: [offered] });
		expect((await submissions.poll()).items).toEqual([]);
		expect((await submissions.poll()).items).toEqual([]);
	});

	test('a closure under the State and Profession filters comes out though Trio no longer knows the job', async () => {
		const poller = pollTrigger({
			parameters: {
				watch: 'jobs',
				jobChanges: ['closed'],
				filters: { states: ['TX'], professions: 'RN' },
				options: { fullListEvery: 1 },
			},
			credentials: trioCredentials(server.baseUrl, 'key'),
		});
		const placed = TWELVE.map((each) => ({
			...each,
			StateAbbreviation: each.Number <= 6 ? 'TX' : 'CA',
			Profession: 'RN',
		}));
		const without = placed.filter((each) => each.Number !== 1 && each.Number !== 7);
		// After Trio's two "not found", it is asked about job 2, which its list calls open (the
		// control): it finds it, so its "not found" is its word.
		server.respond({ json: placed }, { json: without }, notFound, notFound, { json: without[0] });
		await poller.poll();
		const result = await poller.poll();
		expect(result.error).toBeUndefined();
		// Job 7 is in California: filtered out. Job 1 is in Texas: its closure passes.
		expect(result.items).toEqual([
			expect.objectContaining({
				change: 'closed',
				Number: 1,
				JobStatus: 'Closed',
				StateAbbreviation: 'TX',
			}),
		]);
		expect(server.requests.map((request) => request.path).slice(-3)).toEqual([
			'/api/v3/Job/1',
			'/api/v3/Job/7',
			'/api/v3/Job/2',
		]);
	});

	test('a closure comes out at the first full list that misses the job, once Trio says Closed', async () => {
		const poller = trigger();
		server.respond({ json: TWELVE }, { json: TWELVE.slice(0, 11) }, closedJob(12));
		await poller.poll();
		const result = await poller.poll();
		expect(result.items).toEqual([
			expect.objectContaining({ change: 'closed', Number: 12, JobStatus: 'Closed' }),
		]);
		expect(server.requests.map((request) => request.path).at(-1)).toBe('/api/v3/Job/12');
	});

	test('a list cut to exactly the share is refused, and a job whose lookup fails is not closed', async () => {
		const twenty = Array.from({ length: 20 }, (_, index) => job(index + 1));
		const poller = trigger();
		server.respond({ json: twenty }, { json: twenty.slice(0, 10) });
		await poller.poll();
		const state = poller.staticData();
		const half = await poller.poll();
		expect(half.error?.message).toContain('suddenly lacks 10 of the 20 jobs');
		expect(poller.staticData()).toEqual(state);

		// One job left out while Trio answers its lookup with 503 (each retry too).
		const unavailable = { status: 503, json: { message: 'Service unavailable' } };
		server.respond({ json: twenty.slice(1) }, unavailable, unavailable, unavailable, unavailable);
		const unanswered = await poller.poll();
		expect([unanswered.error, unanswered.items]).toEqual([undefined, []]);
		expect(server.pending).toBe(0);
		expect((poller.staticData().sync as { m?: number[] }).m).toEqual([1]);
		// The list comes back whole: the job never went away, so nothing is said about it.
		server.respond({ json: twenty });
		expect((await poller.poll()).items).toEqual([]);
		expect((poller.staticData().sync as { m?: number[] }).m).toBeUndefined();
	});

	test('jobs the list leaves out but Trio calls open do not count as missing, so full lists go on', async () => {
		const poller = trigger();
		const open = (number: number) => ({ json: job(number) });
		const leftOut = [1, 2, 3, 4, 5].map(open);
		server.respond({ json: TWELVE }, { json: TWELVE.slice(5) }, ...leftOut);
		await poller.poll();
		expect((await poller.poll()).items).toEqual([]);
		// Two more go (6 and 7 closed) and one is new: 7 of 12 left out, but only 2 of the 7 still
		// listed before, so the list is not taken for one cut short.
		// After Trio's "not found" for job 6, job 8 (listed open) is the control: Trio finds it.
		server.respond(
			{ json: [...TWELVE.slice(7), job(20)] },
			...leftOut,
			notFound,
			closedJob(7),
			open(8),
		);
		const result = await poller.poll();
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.change, item.Number])).toEqual([
			['opened', 20],
			['closed', 6],
			['closed', 7],
		]);
	});

	test('hundreds of unreadable records are each reported once, not again at every poll', async () => {
		const poller = trigger({ fullListEvery: 2 });
		const unreadable = Array.from({ length: 600 }, (_, index) =>
			job(1000 + index, { ModifiedDateUtc: 'not a date' }),
		);
		const list = { json: [...TWELVE, ...unreadable] };
		// A first check only notes what exists: the unreadable records arrive after it.
		server.respond({ json: TWELVE }, list, list, list, list);
		expect((await poller.poll()).items).toEqual([]);
		const first = await poller.poll();
		expect(first.items).toHaveLength(600);
		expect(new Set(first.items.map((item) => item.change))).toEqual(new Set(['unreadable']));
		// A cheap poll, a full list, a cheap poll: nothing more to say.
		for (let poll = 0; poll < 3; poll++) expect((await poller.poll()).items).toEqual([]);
		// What it remembers as reported is what Trio still lists, no more.
		expect((poller.staticData().sync as { r: string[] }).r).toHaveLength(600);
		server.respond({ json: TWELVE }, { json: TWELVE });
		await poller.poll();
		await poller.poll();
		expect((poller.staticData().sync as { r?: string[] }).r).toBeUndefined();
	});

	test("without a Date header and n8n's clock two hours behind, the watermark is still set", async () => {
		const poller = trigger({ fullListEvery: 10 });
		const ahead = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
		const jobs = TWELVE.map((each, index) => ({
			...each,
			ModifiedDateUtc: ahead(2 - index / 100),
		}));
		// Node's server adds a Date header unless the answer names one: an empty one is none.
		const noDate = { date: '' };
		server.respond({ json: [], headers: noDate });
		expect((await fetch(server.baseUrl)).headers.get('date')).toBe('');
		server.reset();
		server.respond({ json: jobs, headers: noDate }, { json: [], headers: noDate });
		await poller.poll();
		const watermark = (poller.staticData().sync as { wm: string | null }).wm;
		expect(watermark).not.toBeNull();
		await poller.poll();
		// The second poll asks only for what changed, from the oldest stamp minus the overlap.
		expect(server.requests[1].query.get('modifiedDate')).toBe(
			new Date(Date.parse(jobs[11].ModifiedDateUtc) - 300_000).toISOString(),
		);
	});
});
