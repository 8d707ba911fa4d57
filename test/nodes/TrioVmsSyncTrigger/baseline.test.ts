/**
 * Two things n8n's durable scheduler (on by default from n8n 2.45) and its editor do to a poll
 * trigger, inside n8n's engine: a poll that runs twice (both runs start from the same saved
 * state, so both emit the same changes, and each item carries a `changeKey` to drop the repeats
 * on), and a new baseline (a trigger deleted and added again, or copied, gets a new node and no
 * state: its first check only notes what exists, unless the user asked for the current records).
 */
import type { IDataObject } from 'n8n-workflow';

import { job as listedJob, watchJobs } from '../../support/listed-jobs';
import { ScriptedServer } from '../../support/scripted-server';

const server = ScriptedServer.forEachTest();

const LATER = '2026-03-01T11:00:00Z';

/** A listed job with two open positions. */
function job(number: number, extra: Record<string, unknown> = {}) {
	return listedJob(number, { NumberOfCurrentOpenPositions: 2, ...extra });
}

const TWELVE = Array.from({ length: 12 }, (_, index) => job(index + 1));

function trigger(parameters: IDataObject = {}, staticData?: IDataObject) {
	return watchJobs(server.baseUrl, parameters, { staticData });
}

describe('a poll that runs twice', () => {
	test('both runs emit the same changes with the same changeKey, one per change, so a workflow drops the repeats on it', async () => {
		const first = trigger();
		server.respond({ json: TWELVE });
		expect((await first.poll()).items).toEqual([]);

		// Job 13 opened, job 2 put on hold, job 3 lost a position, job 4 closed (Trio says so).
		const changed = [
			...TWELVE.filter((record) => record.Number !== 4).map((record) =>
				record.Number === 2
					? job(2, { JobStatus: 'OnHold', ModifiedDateUtc: LATER })
					: record.Number === 3
						? job(3, { NumberOfCurrentOpenPositions: 1 })
						: record,
			),
			job(13, { ModifiedDateUtc: LATER }),
		];
		const closed = job(4, { JobStatus: 'Closed', ModifiedDateUtc: LATER });
		// The scheduler runs the same poll twice, each from the state saved before it.
		const saved = first.workflowStaticData();
		const runs = [trigger({}, saved), trigger({}, saved)];
		const results = [];
		for (const run of runs) {
			server.respond({ json: changed }, { json: closed });
			results.push(await run.poll());
		}
		for (const result of results) expect(result.error).toBeUndefined();
		const keys = results.map((result) => result.items.map((item) => item.changeKey));
		expect(keys[0]).toEqual(keys[1]);
		expect(results[0].items.map((item) => [item.change, item.Number])).toEqual([
			['updated', 2],
			['openPositionsChanged', 3],
			['opened', 13],
			['closed', 4],
		]);
		// One key per change: none shared by two changes.
		expect(new Set(keys[0]).size).toBe(4);
		for (const key of keys[0]) expect(typeof key).toBe('string');

		// A later change of the same job has a key of its own.
		server.respond({
			json: changed.map((record) =>
				record.Number === 2 ? job(2, { ModifiedDateUtc: '2026-03-01T12:00:00Z' }) : record,
			),
		});
		const again = await runs[0].poll();
		expect(again.items.map((item) => item.change)).toEqual(['updated']);
		expect(keys[0]).not.toContain(again.items[0].changeKey);
	});
});

describe('a new baseline', () => {
	const unreadable = { Number: 'twelve', JobStatus: 'Open' };

	test('a trigger copied, or deleted and added again, starts with no state: its first check notes what exists (unreadable records included) and outputs nothing; the next outputs only what changed', async () => {
		const original = trigger();
		server.respond({ json: [...TWELVE, unreadable] });
		const firstOfOriginal = await original.poll();
		// The original's first check, as every first check: nothing output.
		expect(firstOfOriginal.items).toEqual([]);

		// The copy: a node of its own, no state of its own.
		const copy = trigger();
		server.respond({ json: [...TWELVE, unreadable] });
		const first = await copy.poll();
		expect([first.error, first.items, first.saved]).toEqual([undefined, [], true]);

		server.respond({ json: [...TWELVE, unreadable, job(13, { ModifiedDateUtc: LATER })] });
		const next = await copy.poll();
		expect(next.items.map((item) => [item.change, item.Number])).toEqual([['opened', 13]]);
	});

	test('with Output Current Jobs on First Check on, the first check outputs every job and each unreadable record, as asked', async () => {
		const copy = trigger({ options: { fullListEvery: 1, emitExisting: true } });
		server.respond({ json: [...TWELVE, unreadable] });
		const first = await copy.poll();
		expect(first.items.filter((item) => item.change === 'opened')).toHaveLength(12);
		expect(first.items.filter((item) => item.change === 'unreadable')).toHaveLength(1);
	});
});
