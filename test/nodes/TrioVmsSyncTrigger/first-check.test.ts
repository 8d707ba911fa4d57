/**
 * The first check, which n8n runs inline while Publish waits (n8n-io/n8n#34733; 2.41 too): it
 * reads the whole list for its baseline, so Trio busy (429) or down for the moment must not fail
 * Publish, and what opens meanwhile must not be lost. Inside n8n's engine ('activation' is the
 * poll n8n runs on publishing: a failure there fails Publish), against answers scripted exactly.
 */
import type { IDataObject } from 'n8n-workflow';

import { job, watchJobs } from '../../support/listed-jobs';
import { ScriptedServer, type ScriptedResponse } from '../../support/scripted-server';

const server = ScriptedServer.forEachTest();

const LATER = '2026-03-01T11:00:00Z';
const TWELVE = Array.from({ length: 12 }, (_, index) => job(index + 1));

function trigger(parameters: IDataObject = {}) {
	return watchJobs(server.baseUrl, parameters);
}

/** Trio busy: 429 with a Retry-After, to the first try and to each retry there may be. */
const BUSY: ScriptedResponse[] = Array.from({ length: 4 }, () => ({
	status: 429,
	headers: { 'retry-after': '60', date: 'Sun, 01 Mar 2026 10:30:00 GMT' },
	json: { message: 'Too many requests' },
}));

/** One check while Trio is busy; the answers it did not ask for are dropped. */
async function whileBusy<T>(check: () => Promise<T>): Promise<T> {
	server.respond(...BUSY);
	const result = await check();
	expect(server.requests.length).toBeGreaterThan(0);
	server.reset();
	return result;
}

describe('Sync Trigger: the first check, while Publish waits', () => {
	test('Trio busy (429) when the workflow is published: Publish goes through, nothing is output, and the first scheduled check takes the baseline', async () => {
		const poller = trigger();
		const published = await whileBusy(() => poller.poll({ mode: 'activation' }));
		expect([published.error, published.items]).toEqual([undefined, []]);

		// n8n's durable scheduler keeps nothing of that check (it output nothing): the first
		// scheduled check is a first check again, and notes what exists.
		server.respond({ json: TWELVE });
		const first = await poller.poll();
		expect([first.error, first.items, first.saved]).toEqual([undefined, [], true]);
		server.respond({ json: [...TWELVE, job(13, { ModifiedDateUtc: LATER })] });
		expect((await poller.poll()).items.map((item) => [item.change, item.Number])).toEqual([
			['opened', 13],
		]);
	});

	test("the same on a scheduled first check: it notes when it began watching (on n8n's clock: a failed answer's Date is never read), and the check that takes the baseline outputs what opened after that, and only that", async () => {
		const poller = trigger();
		const before = Date.now();
		const busy = await whileBusy(() => poller.poll());
		expect([busy.error, busy.items, busy.saved]).toEqual([undefined, [], true]);
		// Not the 429's Date (10:30 on 1 March): n8n's clock, while the check ran.
		const since = Date.parse((poller.staticData().sync as { f: string }).f.slice(0, 23) + 'Z');
		expect(poller.staticData().sync).toMatchObject({ b: 1 });
		expect(since).toBeGreaterThanOrEqual(before);
		expect(since).toBeLessThanOrEqual(Date.now());

		// Job 13 opened meanwhile (after the failed check); the twelve are older.
		const opened = new Date(Date.now() + 1_000).toISOString();
		server.respond({ json: [...TWELVE, job(13, { ModifiedDateUtc: opened })] });
		const baseline = await poller.poll();
		expect(baseline.error).toBeUndefined();
		expect(baseline.items.map((item) => [item.change, item.Number])).toEqual([['opened', 13]]);
		expect(poller.staticData().sync).not.toHaveProperty('b');
		expect(poller.staticData().sync).not.toHaveProperty('f');

		// From then on as ever: a job reopened under an old stamp is opened again.
		const thirteen = job(13, { ModifiedDateUtc: opened });
		server.respond(
			{ json: [...TWELVE.slice(1), thirteen] },
			{ json: job(1, { JobStatus: 'Closed' }) },
			{ json: [...TWELVE, thirteen] },
		);
		expect((await poller.poll()).items.map((item) => item.change)).toEqual(['closed']);
		expect((await poller.poll()).items.map((item) => [item.change, item.Number])).toEqual([
			['opened', 1],
		]);
	});

	test('Trio still busy at the check that takes the baseline: that check fails, saying why', async () => {
		const poller = trigger();
		await whileBusy(() => poller.poll());
		const state = poller.staticData();
		const again = await whileBusy(() => poller.poll());
		expect(again.error?.message).toMatch(/^Trio VMS asked the node to slow down/);
		expect(again.error).toMatchObject({
			httpCode: '429',
			failure: { cause: 'rate-limited', retryAfterMs: 60_000 },
		});
		expect(poller.staticData()).toEqual(state);
	});

	test('with Output Current Jobs on First Check on, the check that takes the baseline outputs every job', async () => {
		const poller = trigger({ options: { fullListEvery: 1, emitExisting: true } });
		await whileBusy(() => poller.poll());
		server.respond({ json: TWELVE });
		const baseline = await poller.poll();
		expect(baseline.items.filter((item) => item.change === 'opened')).toHaveLength(12);
	});

	test('a refused key is no moment of Trio: Publish fails, saying so', async () => {
		const poller = trigger();
		server.respond({ status: 403, json: { title: 'Forbidden', status: 403 } });
		const published = await poller.poll({ mode: 'activation' });
		expect(published.error?.message).toBe('Trio VMS refused the API key');
		expect(published.error).toMatchObject({ httpCode: '403' });
		expect(poller.staticData()).toEqual({});
	});

	test('Fetch Test Event on a trigger with no state still shows the failure', async () => {
		const poller = trigger();
		const manual = await whileBusy(() => poller.poll({ mode: 'manual' }));
		expect(manual.error?.message).toMatch(/^Trio VMS asked the node to slow down/);
		expect(manual.error).toMatchObject({ httpCode: '429' });
	});
});
