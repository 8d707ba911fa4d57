/* eslint
	"@n8n/community-nodes/no-restricted-globals": "off"
	-- not in the package: n8n's rules for the code users install do not apply here */
/**
 * The Sync Trigger against answers a real service could give on a bad day, scripted exactly:
 * a job list cut short, a job the list lost but Trio still calls open, records it cannot read,
 * and n8n starting the next poll while the last one still waits. Inside n8n's engine.
 */
import { trioCredentials } from '../../support/engine/engine';
import { pollTrigger } from '../../support/engine/poll';
import { ScriptedServer } from '../../support/scripted-server';

const server = ScriptedServer.forEachTest();

const STAMP = '2026-03-01T10:00:00Z';

function job(number: number, extra: Record<string, unknown> = {}) {
	return {
		Number: number,
		Title: `Job ${number}`,
		JobStatus: 'Open',
		ModifiedDateUtc: STAMP,
		NumberOfCurrentOpenPositions: 1,
		...extra,
	};
}

const TWELVE = Array.from({ length: 12 }, (_, index) => job(index + 1));

function trigger(options: Record<string, unknown> = {}) {
	return pollTrigger({
		// Version 1's defaults (every change type, the Simplify switch): what saved workflows keep.
		typeVersion: 1,
		parameters: { watch: 'jobs', options: { fullListEvery: 1, ...options } },
		credentials: trioCredentials(server.baseUrl, 'key'),
	});
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
		server.respond({ json: TWELVE }, { json: eleven }, { json: eleven }, { json: job(1) });
		await poller.poll();
		expect((await poller.poll()).items).toEqual([]);
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
