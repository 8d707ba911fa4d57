/** The sandbox's clock controls: a service clock ahead of or behind n8n's, and changes in the same second. */
import type { RunningSandbox } from '../../sandbox';
import { api, scenario, start } from './helpers';
import type { Json } from './helpers';

let sandbox: RunningSandbox;

beforeAll(async () => {
	sandbox = await start({ jobs: 5 });
});

afterAll(async () => {
	await sandbox.stop();
});

afterEach(() => sandbox.reset({ jobs: 5 }));

test('an offset stamps changes that far ahead of or behind the machine clock', async () => {
	for (const offsetMs of [3_600_000, -3_600_000]) {
		const set = await scenario(sandbox, 'PUT', '/clock', { offsetMs });
		expect(set.body).toEqual({ offsetMs, frozenAt: null });
		const before = Date.now();
		const job = (await scenario(sandbox, 'PATCH', '/jobs/100001', { Title: `t${offsetMs}` })).body;
		const after = Date.now();
		const stamp = Date.parse(job.ModifiedDateUtc);
		expect(stamp).toBeGreaterThanOrEqual(before + offsetMs);
		expect(stamp).toBeLessThanOrEqual(after + offsetMs);
	}
});

test('a frozen clock stamps two changes alike, and strictly-after then misses the second', async () => {
	const frozenAt = '2026-03-01T10:00:00.000Z';
	expect((await scenario(sandbox, 'PUT', '/clock', { frozenAt })).body.frozenAt).toBe(frozenAt);
	const first = (await scenario(sandbox, 'PATCH', '/jobs/100001', { Title: 'a' })).body;
	const second = (await scenario(sandbox, 'PATCH', '/jobs/100002', { Title: 'b' })).body;
	expect([first.ModifiedDateUtc, second.ModifiedDateUtc]).toEqual([frozenAt, frozenAt]);
	const after = await api(sandbox, `/Job?modifiedDate=${encodeURIComponent(frozenAt)}`);
	expect(after.body.map((job: Json) => job.Number)).toEqual([]);
	await scenario(sandbox, 'PUT', '/clock', { frozenAt: null });
	const third = (await scenario(sandbox, 'PATCH', '/jobs/100003', { Title: 'c' })).body;
	expect(third.ModifiedDateUtc).not.toBe(frozenAt);
});

test('bad settings are 400 naming the field, and reset restores the clock', async () => {
	expect((await scenario(sandbox, 'PUT', '/clock', { offsetMs: 1.5 })).status).toBe(400);
	const bad = await scenario(sandbox, 'PUT', '/clock', { frozenAt: 'soon' });
	expect(bad.status).toBe(400);
	expect(Object.keys(bad.body.errors)).toEqual(['frozenAt']);
	await scenario(sandbox, 'PUT', '/clock', { offsetMs: 5000 });
	sandbox.reset({ jobs: 5 });
	expect((await scenario(sandbox, 'GET', '/clock')).body).toMatchObject({
		offsetMs: 0,
		frozenAt: null,
	});
});
