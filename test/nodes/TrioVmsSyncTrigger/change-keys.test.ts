/**
 * `changeKey` inside n8n's engine, both halves of its promise: the same change gives the same
 * key in every run of one check (so a Remove Duplicates node keyed on it drops n8n's repeats),
 * and every other change gets a key of its own, including changes that undo each other while
 * Trio keeps the job's last-changed time (spec 2.3: open positions change without moving it; a
 * job closed and reopened may keep one stamp). And whatever state n8n restores: a key is made of
 * the change itself (the record's number, the change, its own stamp and what it changed to), so
 * a check run again from an older saved state gives a different change a key of its own and the
 * same change the same key.
 */
import type { IDataObject } from 'n8n-workflow';

import { job as listedJob, watchJobs } from '../../support/listed-jobs';
import { ScriptedServer } from '../../support/scripted-server';

const server = ScriptedServer.forEachTest();

/** One stamp for every answer below: Trio never moves it. */
function job(number: number, extra: Record<string, unknown> = {}) {
	return listedJob(number, { NumberOfCurrentOpenPositions: 2, ...extra });
}

const TWELVE = Array.from({ length: 12 }, (_, index) => job(index + 1));

function withJob1(extra: Record<string, unknown> | null): IDataObject[] {
	const others = TWELVE.filter((record) => record.Number !== 1);
	return extra === null ? others : [job(1, extra), ...others];
}

function trigger(staticData?: IDataObject) {
	return watchJobs(server.baseUrl, {}, { staticData });
}

/**
 * Runs one check twice from the same saved state, as n8n's durable scheduler may, and returns
 * both runs' keys; the second run's state is the one kept.
 */
async function checkTwice(
	saved: IDataObject,
	answers: Array<{ json: unknown; status?: number }>,
): Promise<{ first: unknown[]; second: unknown[]; changes: unknown[]; saved: IDataObject }> {
	const runs = [trigger(saved), trigger(saved)];
	const keys: unknown[][] = [];
	let changes: unknown[] = [];
	for (const run of runs) {
		server.respond(...answers);
		const result = await run.poll();
		expect(result.error).toBeUndefined();
		keys.push(result.items.map((item) => item.changeKey));
		changes = result.items.map((item) => `${String(item.Number)}:${String(item.change)}`);
	}
	return { first: keys[0], second: keys[1], changes, saved: runs[1].workflowStaticData() };
}

/**
 * Runs each step's check twice (checkTwice), each from the state the step before kept: every
 * step gives its one change, and its second run the first run's keys. Returns the keys given.
 */
async function checkEachTwice(
	saved: IDataObject,
	steps: Array<{ answers: Array<{ json: unknown; status?: number }>; change: string }>,
): Promise<unknown[]> {
	const seen: unknown[] = [];
	for (const step of steps) {
		const check = await checkTwice(saved, step.answers);
		expect(check.changes).toEqual([step.change]);
		expect(check.second).toEqual(check.first);
		seen.push(...check.first);
		saved = check.saved;
	}
	return seen;
}

describe('changeKey', () => {
	test('open positions 2 -> 1 -> 2 -> 1 under one stamp: three keys of their own, each repeated by a second run of its check', async () => {
		const first = trigger();
		server.respond({ json: TWELVE });
		expect((await first.poll()).items).toEqual([]);

		const seen = await checkEachTwice(
			first.workflowStaticData(),
			[1, 2, 1].map((positions) => ({
				answers: [{ json: withJob1({ NumberOfCurrentOpenPositions: positions }) }],
				change: '1:openPositionsChanged',
			})),
		);
		expect(new Set(seen).size).toBe(3);
	});

	test('closed -> reopened -> closed -> reopened under one stamp: four keys of their own, each repeated by a second run of its check', async () => {
		const first = trigger();
		server.respond({ json: TWELVE });
		expect((await first.poll()).items).toEqual([]);

		const closed = { json: job(1, { JobStatus: 'Closed' }) };
		const steps = [
			{ answers: [{ json: withJob1(null) }, closed], change: '1:closed' },
			{ answers: [{ json: withJob1({}) }], change: '1:opened' },
			{ answers: [{ json: withJob1(null) }, closed], change: '1:closed' },
			{ answers: [{ json: withJob1({}) }], change: '1:opened' },
		];
		const seen = await checkEachTwice(first.workflowStaticData(), steps);
		expect(new Set(seen).size).toBe(4);
	});

	test('a check that outputs nothing still counts, so the next change after it has a key no earlier check gave', async () => {
		const first = trigger();
		server.respond({ json: TWELVE });
		await first.poll();
		server.respond({ json: withJob1({ NumberOfCurrentOpenPositions: 1 }) });
		const down = await first.poll();
		server.respond({ json: withJob1({ NumberOfCurrentOpenPositions: 1 }) });
		expect((await first.poll()).items).toEqual([]);
		server.respond({ json: withJob1({ NumberOfCurrentOpenPositions: 2 }) });
		const up = await first.poll();
		server.respond({ json: withJob1({ NumberOfCurrentOpenPositions: 1 }) });
		const downAgain = await first.poll();
		const keys = [down, up, downAgain].map((result) => result.items[0]?.changeKey);
		expect(keys.every((key) => typeof key === 'string')).toBe(true);
		expect(new Set(keys).size).toBe(3);
	});

	test('a state restored from an older one: a different closure of the same job gets a key of its own', async () => {
		const first = trigger();
		server.respond({ json: TWELVE });
		await first.poll();
		const older = first.workflowStaticData();

		// Closed at 11:00, reopened at 12:00, closed again at 13:00.
		const closedAt = (time: string) => ({
			json: job(1, { JobStatus: 'Closed', ModifiedDateUtc: `2026-03-01T${time}:00Z` }),
		});
		const closure = await checkTwice(older, [{ json: withJob1(null) }, closedAt('11:00')]);
		expect(closure.changes).toEqual(['1:closed']);
		const reopened = await checkTwice(closure.saved, [
			{ json: withJob1({ ModifiedDateUtc: '2026-03-01T12:00:00Z' }) },
		]);
		expect(reopened.changes).toEqual(['1:opened']);

		// n8n restores the older state: its checks count from where they did then.
		const again = await checkTwice(older, [{ json: withJob1(null) }, closedAt('13:00')]);
		expect(again.changes).toEqual(['1:closed']);
		expect(again.second).toEqual(again.first);
		expect(again.first[0]).not.toEqual(closure.first[0]);
		expect(new Set([...closure.first, ...reopened.first, ...again.first]).size).toBe(3);
	});

	test('a state restored from an older one: the same change found again has the same key', async () => {
		const first = trigger();
		server.respond({ json: TWELVE });
		await first.poll();
		const older = first.workflowStaticData();
		const quiet = await checkTwice(older, [{ json: TWELVE }]);
		expect(quiet.changes).toEqual([]);

		const updated = { json: withJob1({ ModifiedDateUtc: '2026-03-01T11:00:00Z' }) };
		const found = await checkTwice(quiet.saved, [updated]);
		expect(found.changes).toEqual(['1:updated']);
		// n8n restores the state saved before the quiet check: the same update, found again.
		const refound = await checkTwice(older, [updated]);
		expect(refound.changes).toEqual(['1:updated']);
		expect(refound.first).toEqual(found.first);
	});
});
