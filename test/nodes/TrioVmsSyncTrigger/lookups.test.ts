/**
 * Only Trio's own answer closes a job, and one stamp from the future silences nothing. Inside
 * n8n's engine, against answers scripted exactly: an ingress's bare 404 while a backend
 * restarts, lookups answering 200 with something that is not this job's status, a job stamped
 * 2099 and then corrected.
 */
import { job, watchJobs } from '../../support/listed-jobs';
import { ScriptedServer } from '../../support/scripted-server';

const server = ScriptedServer.forEachTest();

const TWENTY = Array.from({ length: 20 }, (_, index) => job(index + 1));

function trigger() {
	return watchJobs(server.baseUrl, { output: 'raw' });
}

type Item = Record<string, unknown>;
const missingOf = (poller: ReturnType<typeof trigger>) =>
	(poller.staticData().sync as { m?: number[] }).m ?? [];

/** ASP.NET's own 404 for an unknown job: problem details. */
const SERVICE_NOT_FOUND = {
	status: 404,
	headers: { 'content-type': 'application/problem+json; charset=utf-8' },
	json: {
		type: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
		title: 'Not Found',
		status: 404,
		detail: 'Job 3 was not found.',
	},
};

describe('Sync Trigger: only Trio closes a job', () => {
	test("an ingress's bare 404 for every lookup while the list misses 9 of 20 jobs closes none, and nothing is opened again when the list is whole", async () => {
		const poller = trigger();
		server.respond({ json: TWENTY });
		expect((await poller.poll()).error).toBeUndefined();

		const gone = [2, 4, 6, 8, 10, 12, 14, 16, 18];
		server.respond(
			{ json: TWENTY.filter((record) => !gone.includes(record.Number)) },
			...gone.map(() => ({
				status: 404,
				headers: { 'content-type': 'text/html' },
				body: '<html>Not Found</html>',
			})),
		);
		const doubt = await poller.poll();
		expect(doubt.error).toBeUndefined();
		expect(doubt.items).toEqual([]);
		expect(missingOf(poller)).toEqual(gone);

		server.respond({ json: TWENTY });
		const back = await poller.poll();
		expect([back.error, back.items]).toEqual([undefined, []]);
		expect(missingOf(poller)).toEqual([]);
	});

	test("Trio's own 404 (problem details) closes the job, and the item carries its number", async () => {
		const poller = trigger();
		server.respond({ json: TWENTY });
		await poller.poll();
		// Then the control: Trio finds job 1, which its list calls open.
		server.respond({ json: TWENTY.filter((record) => record.Number !== 3) }, SERVICE_NOT_FOUND, {
			json: job(1),
		});
		const closed = await poller.poll();
		expect(closed.error).toBeUndefined();
		expect(closed.items).toEqual([
			expect.objectContaining({ change: 'closed', Number: 3, JobStatus: 'Closed' }),
		]);
		expect(server.requests.at(-1)?.path).toBe('/api/v3/Job/1');
	});

	test("Trio's own 404 while the control gives no clear answer (503) closes nothing: the job stays missing and is asked about again", async () => {
		const poller = trigger();
		server.respond({ json: TWENTY });
		await poller.poll();
		const unavailable = { status: 503, json: { message: 'Service unavailable' } };
		server.respond(
			{ json: TWENTY.filter((record) => record.Number !== 3) },
			SERVICE_NOT_FOUND,
			...Array.from({ length: 4 }, () => unavailable),
		);
		const doubt = await poller.poll();
		expect([doubt.error, doubt.items]).toEqual([undefined, []]);
		expect(missingOf(poller)).toEqual([3]);
		expect(server.pending).toBe(0);
	});

	test('a lookup answering 200 without a usable status of this job closes nothing; the jobs are asked again and each closes once, with its number', async () => {
		const poller = trigger();
		server.respond({ json: TWENTY });
		await poller.poll();

		const answers: Array<[number, unknown]> = [
			[1, {}],
			[3, { message: 'temporarily unavailable' }],
			[5, job(5, { JobStatus: 'On-Hold' })],
			[7, job(7, { JobStatus: 'Active' })],
			[9, job(99, { JobStatus: 'Closed' })],
		];
		const absent = answers.map(([number]) => number);
		const listed = TWENTY.filter((record) => !absent.includes(record.Number));
		server.respond({ json: listed }, ...answers.map(([, json]) => ({ json })));
		const unsure = await poller.poll();
		expect(unsure.error).toBeUndefined();
		expect(unsure.items).toEqual([]);
		expect(missingOf(poller)).toEqual(absent);

		server.respond(
			{ json: listed },
			...absent.map((number) => ({ json: job(number, { JobStatus: 'closed' }) })),
		);
		const closed = await poller.poll();
		expect(closed.error).toBeUndefined();
		expect(closed.items.map((item: Item) => [item.change, item.Number])).toEqual(
			absent.map((number) => ['closed', number]),
		);
		server.respond({ json: listed });
		expect((await poller.poll()).items).toEqual([]);
	});
});

describe('Sync Trigger: a stamp from the future', () => {
	test('a job stamped 2099 once, then corrected, then put On Hold: each change is output, none silenced until 2099', async () => {
		const poller = trigger();
		server.respond({ json: TWENTY });
		await poller.poll();

		const future = TWENTY.map((record) =>
			record.Number === 1 ? job(1, { ModifiedDateUtc: '2099-01-01T00:00:00Z' }) : record,
		);
		const corrected = TWENTY.map((record) =>
			record.Number === 1 ? job(1, { ModifiedDateUtc: '2026-03-02T10:00:00Z' }) : record,
		);
		const onHold = TWENTY.map((record) =>
			record.Number === 1
				? job(1, { ModifiedDateUtc: '2026-03-03T10:00:00Z', JobStatus: 'OnHold' })
				: record,
		);
		server.respond({ json: future }, { json: corrected }, { json: onHold });
		const seen: Item[][] = [];
		for (let poll = 0; poll < 3; poll++) {
			const result = await poller.poll();
			expect(result.error).toBeUndefined();
			seen.push(result.items);
		}
		expect(seen.map((items) => items.map((item) => [item.change, item.ModifiedDateUtc]))).toEqual([
			[['updated', '2099-01-01T00:00:00Z']],
			[['updated', '2026-03-02T10:00:00Z']],
			[['updated', '2026-03-03T10:00:00Z']],
		]);
		expect(seen[2][0]).toMatchObject({ JobStatus: 'OnHold', previous: { JobStatus: 'Open' } });
	});
});
