/**
 * The memory of creates over the engine's duplicate store, which reads a row, lets other work run
 * and writes the whole row back, as n8n's database store does (issue 33 points 1, 6, 8). Clocks
 * are injected; "another worker" is a second CreateMemory after forgetUncertainCreates().
 */
import {
	CLOCK_TOLERANCE_MS,
	CreateMemory,
	forgetUncertainCreates,
	holdAdvice,
	refusedCreate,
	UNCERTAIN_CREATE_MS,
	type HoldState,
} from '../../../nodes/TrioVms/helpers/createMemory';
import { ProcessedDataStorage, useProcessedDataStorage } from '../../../harness/engine/engine';
import { startDeduplicationService, storeHelpersFor } from '../../../harness/engine/deduplication';
import { workflowNode } from '../../support/workflow-node';

const WORKFLOW = 'wf-memory';
const NODE = 'node-1';
const START = Date.UTC(2026, 10, 25, 12, 2, 0);
let storage: ProcessedDataStorage;

beforeAll(async () => await startDeduplicationService());
beforeEach(() => {
	forgetUncertainCreates();
	storage = new ProcessedDataStorage();
	useProcessedDataStorage(storage);
});
afterAll(() => useProcessedDataStorage(new ProcessedDataStorage()));

function memory(clock: () => number, helpers: unknown = storeHelpersFor(WORKFLOW, NODE)) {
	return new CreateMemory({ helpers, credential: 'c', workflowId: WORKFLOW, now: clock });
}

const what = (n: number) => `submission of candidate ${n} to job 7`;

describe('writes to the shared row', () => {
	it('a look when nothing is held writes nothing', async () => {
		const a = memory(() => START);
		expect(await a.state(what(1))).toEqual({ held: false });
		expect(storage.writes).toBe(0);
		expect(storage.rows.size).toBe(0);
	});

	it('a hold writes 27 values (a mark and a pair of codes in each of 9 windows) in 2 to 4 writes; a look at a row holding something else writes twice and leaves it as it was', async () => {
		await memory(() => START).hold(what(1));
		expect(storage.entryCount(WORKFLOW, NODE)).toBe(27);
		expect(storage.writes).toBeGreaterThanOrEqual(2);
		expect(storage.writes).toBeLessThanOrEqual(4);
		forgetUncertainCreates();
		const writes = storage.writes;
		expect(await memory(() => START).state(what(2))).toEqual({ held: false });
		expect(storage.writes - writes).toBe(2);
		expect(storage.entryCount(WORKFLOW, NODE)).toBe(27);
	});

	it('concurrent holds and looks of one process lose no hold', async () => {
		const a = memory(() => START);
		await a.hold(what(0)); // the row holds something, so the looks below read it
		await Promise.all(
			Array.from({ length: 10 }, async (_, n) =>
				n % 2 ? await a.hold(what(n)) : await a.state(what(100 + n)),
			),
		);
		forgetUncertainCreates();
		const b = memory(() => START + 60_000);
		for (const n of [1, 3, 5, 7, 9]) expect(await b.state(what(n))).toMatchObject({ held: true });
		for (const n of [100, 102]) expect(await b.state(what(n))).toEqual({ held: false });
	});

	it("a hold undone by another process's write is read back and written again", async () => {
		const helpers = storeHelpersFor(WORKFLOW, NODE);
		let undone = false;
		const racing = {
			...helpers,
			checkProcessedAndRecord: async (
				...args: Parameters<typeof helpers.checkProcessedAndRecord>
			) => {
				const before = [...storage.rows].map(
					([key, row]) =>
						[key, { mode: row.mode, entries: [...row.entries] }] as [
							string,
							{ mode: typeof row.mode; entries: string[] },
						],
				);
				const result = await helpers.checkProcessedAndRecord(...args);
				// Another worker read the row before this write and writes it back now.
				if (!undone) {
					undone = true;
					storage.rows.clear();
					for (const [key, row] of before) storage.rows.set(key, row);
				}
				return result;
			},
		};
		const a = memory(() => START, racing);
		expect((await a.hold(what(1))).notShared).toBeUndefined();
		expect(undone).toBe(true);
		forgetUncertainCreates();
		expect(await memory(() => START).state(what(1))).toMatchObject({ held: true });
	});

	it("a hold whose first write meets another process's insert of the row is written again", async () => {
		const otherProcess = storeHelpersFor(WORKFLOW, NODE);
		const [held] = await Promise.all([
			memory(() => START).hold(what(1)),
			otherProcess.checkProcessedAndRecord(['another hold'], 'node', {
				mode: 'entries',
				maxEntries: 10_000,
			}),
		]);
		expect(held.notShared).toBeUndefined();
		forgetUncertainCreates();
		expect(await memory(() => START).state(what(1))).toMatchObject({ held: true });
	});

	it('once every hold has ended, a look finds nothing held and takes away what it asked', async () => {
		const a = memory(() => START);
		await a.hold(what(1));
		forgetUncertainCreates();
		const before = storage.entryCount(WORKFLOW, NODE);
		const late = memory(() => START + UNCERTAIN_CREATE_MS + 2 * CLOCK_TOLERANCE_MS + 5 * 60_000);
		expect(await late.state(what(1))).toEqual({ held: false });
		expect(await late.state(what(2))).toEqual({ held: false });
		expect(storage.entryCount(WORKFLOW, NODE)).toBe(before);
	});
});

describe('how long a hold lasts (point 6)', () => {
	it.each([-10, 0, 10])(
		'a worker whose clock is %i minutes off still refuses it for UNCERTAIN_CREATE_MS',
		async (skewMinutes) => {
			await memory(() => START).hold(what(1));
			forgetUncertainCreates();
			const skew = skewMinutes * 60_000;
			for (const after of [0, UNCERTAIN_CREATE_MS / 2, UNCERTAIN_CREATE_MS - 1]) {
				const other = memory(() => START + after + skew);
				expect(await other.state(what(1))).toMatchObject({ held: true });
			}
		},
	);

	it('the hold starts when the exchange ends, however long it took', async () => {
		let now = START;
		const a = memory(() => now);
		// The exchange trickled for twenty minutes: the hold is written at its end.
		now += 20 * 60_000;
		await a.hold(what(1));
		forgetUncertainCreates();
		now += UNCERTAIN_CREATE_MS - 1;
		expect(await memory(() => now).state(what(1))).toMatchObject({ held: true });
	});

	it('one process never runs the same create twice at once, however long the first takes', async () => {
		const a = memory(() => START);
		let release!: () => void;
		const order: string[] = [];
		const first = a.oneAtATime(what(1), async () => {
			order.push('first starts');
			await new Promise<void>((resolve) => (release = resolve));
			order.push('first ends');
		});
		const second = a.oneAtATime(what(1), async () => {
			order.push('second starts');
		});
		await new Promise((resolve) => setImmediate(resolve));
		expect(order).toEqual(['first starts']);
		release();
		await Promise.all([first, second]);
		expect(order).toEqual(['first starts', 'first ends', 'second starts']);
	});
});

describe('what the memory shares (points 7 and 8)', () => {
	it("lives in a row of its node: a Remove Duplicates node's workflow row neither evicts nor clears it", async () => {
		await memory(() => START).hold(what(1));
		forgetUncertainCreates();
		expect(storage.entryCount(WORKFLOW)).toBe(0);
		expect(storage.entryCount(WORKFLOW, NODE)).toBeGreaterThan(0);
		// Remove Duplicates (scope workflow) records 10,000 values, then clears its history.
		const removeDuplicates = storeHelpersFor(WORKFLOW, 'remove-duplicates');
		const values = Array.from({ length: 10_001 }, (_, n) => `value ${n}`);
		await removeDuplicates.checkProcessedAndRecord(values, 'workflow', {
			mode: 'entries',
			maxEntries: 10_000,
		});
		await removeDuplicates.clearAllProcessedItems('workflow');
		expect(await memory(() => START).state(what(1))).toMatchObject({ held: true });
	});

	it('another node, or a copy of the workflow, has a memory of its own', async () => {
		await memory(() => START).hold(what(1));
		forgetUncertainCreates();
		expect(await memory(() => START, storeHelpersFor(WORKFLOW, 'node-2')).state(what(1))).toEqual({
			held: false,
		});
		expect(await memory(() => START, storeHelpersFor('wf-copy', NODE)).state(what(1))).toEqual({
			held: false,
		});
	});

	it('without a store it is this process only', async () => {
		const a = memory(() => START, {});
		expect((await a.hold(what(1))).notShared).toEqual({ offered: false });
		expect(await a.state(what(1))).toMatchObject({ held: true });
		forgetUncertainCreates();
		expect(await memory(() => START, {}).state(what(1))).toEqual({ held: false });
	});
});

describe('one clock, and looks that never make or unmake a hold (issue 39 points 1-3)', () => {
	const HOUR = 3_600_000;

	it.each([
		['an hour ahead', START + HOUR],
		['an hour behind', START - HOUR],
		['1970', 0],
	])(
		'a look by a process whose clock reads %s erases no hold of another create',
		async (_clock, elsewhere) => {
			await memory(() => START).hold(what(1));
			forgetUncertainCreates();
			const entries = storage.entryCount(WORKFLOW, NODE);
			expect(await memory(() => elsewhere).state(what(2))).toEqual({ held: false });
			expect(storage.entryCount(WORKFLOW, NODE)).toBe(entries);
			expect(storage.calls.clearAllProcessedItems).toBe(0);
			expect(await memory(() => START + 60_000).state(what(1))).toMatchObject({ held: true });
		},
	);

	it('what one look leaves behind when its clean-up is undone is never read as a hold: the next look of the same create is free', async () => {
		await memory(() => START).hold(what(0)); // the row holds something, so looks ask it
		forgetUncertainCreates();
		const helpers = storeHelpersFor(WORKFLOW, NODE);
		// Another process's write puts back the row as it was before every removal.
		const undone = { ...helpers, removeProcessed: async () => undefined };
		for (let look = 0; look < 2; look++) {
			forgetUncertainCreates();
			expect(await memory(() => START, undone).state(what(1))).toEqual({ held: false });
		}
	});

	it('a hold found in the store says since when', async () => {
		const at = START + 7 * 60_000 + 15_000;
		await memory(() => at).hold(what(1));
		forgetUncertainCreates();
		const found = await memory(() => at + 3 * 60_000).state(what(1));
		expect(found).toMatchObject({ held: true, since: START + 7 * 60_000 });
		if (!('held' in found) || !found.held) throw new Error('not held');
		expect(found.until).toBeGreaterThanOrEqual(at + UNCERTAIN_CREATE_MS);
	});

	it("a hold n8n's database fails to write says so: other workers and restarts will not hold it back", async () => {
		storage.writeFailure = new Error('Connection terminated unexpectedly');
		const hold = await memory(() => START).hold(what(1));
		expect(hold.notShared).toEqual({ failed: 'Connection terminated unexpectedly' });
		const advice = holdAdvice(what(1), hold.until, hold.notShared);
		expect(advice).toContain(
			"n8n's database failed while this node wrote its memory of it (Connection terminated unexpectedly), so only this n8n remembers it while it runs: other workers and a restart of n8n will not hold it back.",
		);
		expect(advice).not.toMatch(/older n8n/);
	});
});

describe('looks left behind by undone clean-ups (issue 47 item 5)', () => {
	/** 12:02:30, the moment of the report: the window 12:00-12:05. */
	const AT = START + 30_000;
	const baseline = async () => {
		await memory(() => START).hold(what(0)); // the row holds something, so looks ask it
		forgetUncertainCreates();
		return storage.entryCount(WORKFLOW, NODE);
	};
	/** Another process's write puts back the row as it was before every removal. */
	const undone = () => ({ ...storeHelpersFor(WORKFLOW, NODE), removeProcessed: async () => {} });
	const lookAt = async (at: number, helpers: unknown = storeHelpersFor(WORKFLOW, NODE)) => {
		forgetUncertainCreates();
		return await memory(() => at, helpers).state(what(1));
	};
	const node = workflowNode('Trio VMS', 'n8n-nodes-trio-vms.trioVms');
	const endsBy = (state: HoldState) =>
		/ends by (\d\d:\d\d) UTC/.exec(
			String(refusedCreate(node, what(1), state as never, 0).description),
		)?.[1];

	it('never say a start or an end they do not know, and never an end already past', async () => {
		await baseline();
		const helpers = undone();
		let refusals = 0;
		for (let look = 0; look < 10; look++) {
			const state = await lookAt(AT, helpers);
			if (!('held' in state) || !state.held) continue;
			refusals++;
			// Nothing was ever held for this create: no start is known.
			expect(state.since).toBeUndefined();
			expect(state.until).toBeGreaterThan(AT);
			const refusal = refusedCreate(node, what(1), state, 0);
			expect(refusal.message).not.toMatch(/since/);
			expect(endsBy(state)! >= '12:05').toBe(true);
		}
		// Once the windows around are littered too, a look cannot tell and refuses, as above.
		expect(refusals).toBeGreaterThan(0);
	});

	it('leave the next six looks free', async () => {
		await baseline();
		const helpers = undone();
		for (let look = 0; look < 6; look++) expect(await lookAt(AT, helpers)).toEqual({ held: false });
	});

	it('are taken away by the next look whose clean-up holds, which finds nothing held', async () => {
		const entries = await baseline();
		const helpers = undone();
		for (let look = 0; look < 2; look++) await lookAt(AT, helpers);
		expect(storage.entryCount(WORKFLOW, NODE)).toBeGreaterThan(entries);
		expect(await lookAt(AT + 60_000)).toEqual({ held: false });
		expect(storage.entryCount(WORKFLOW, NODE)).toBe(entries);
		expect(await lookAt(AT + 90_000)).toEqual({ held: false });
		expect(storage.entryCount(WORKFLOW, NODE)).toBe(entries);
	});

	it('do not hide a hold, nor change the start and end it says', async () => {
		await baseline();
		const began = START + 60_000 + 15_000; // 12:03:15
		await memory(() => began).hold(what(1));
		forgetUncertainCreates();
		const exact = await lookAt(AT + 60_000);
		expect(exact).toMatchObject({ held: true, since: START + 60_000 });
		// Looks at 12:03:30 whose clean-ups are undone, then one whose clean-up holds.
		const helpers = undone();
		for (let look = 0; look < 3; look++) await lookAt(AT + 60_000, helpers);
		const entries = storage.entryCount(WORKFLOW, NODE);
		const found = await lookAt(AT + 90_000);
		expect(found).toEqual(exact);
		// What this look asked, it took away.
		expect(storage.entryCount(WORKFLOW, NODE)).toBeLessThanOrEqual(entries);
	});
});
