/**
 * A hold written while two other workers keep looking (issue 47 item 6). n8n's duplicate store
 * reads a row and writes it back whole without a lock, so a look whose read came before the hold's
 * write and whose write comes after it puts back the row without the hold. This counts, over many
 * seeded trials, how often a hold is lost that way in the project's model of the store
 * (harness/engine/deduplication.ts, round trips of 20-30 ms), with three "processes" (engine
 * workers, each with its own process memory and its own queue of store calls) calling the memory
 * as the node does: one holds a create after its unknown outcome, two look before their creates.
 *
 * Time is jest's fake clock: the store's round trips and the hold's pauses are timers, so a seed
 * repeats one interleaving exactly, whatever the machine's speed.
 */
import { CreateMemory, READ_BACKS } from '../../../nodes/TrioVms/helpers/createMemory';
import {
	forgetProcessMemory,
	onWorker,
	ProcessedDataStorage,
	useProcessedDataStorage,
} from '../../../harness/engine/engine';
import { startDeduplicationService, storeHelpersFor } from '../../../harness/engine/deduplication';

const WORKFLOW = 'wf-hold-under-looks';
const NODE = 'node-1';
const START = Date.UTC(2026, 10, 25, 12, 2, 0);
const TRIALS = 200;

const what = (n: number) => `submission of candidate ${n} to job 7`;

/** xorshift32: the test's own draws (when the writer starts, how long a looker pauses). */
function draws(seed: number): () => number {
	let state = seed >>> 0 || 1;
	return () => {
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		return (state >>> 0) / 0x1_0000_0000;
	};
}

/** Lets fake time pass until `work` settles. */
async function settle<T>(work: Promise<T>): Promise<T> {
	let done = false;
	void work.then(
		() => (done = true),
		() => (done = true),
	);
	while (!done) await jest.advanceTimersByTimeAsync(1);
	return await work;
}

/**
 * A memory of this node on a worker of its own: what an execution there constructs. `calls`
 * counts the memory's calls that ask and record (a hold's write and each read-back).
 */
async function processMemory(): Promise<{ memory: CreateMemory; calls: () => number }> {
	const worker = onWorker();
	const store = storeHelpersFor(WORKFLOW, NODE);
	let calls = 0;
	const helpers = {
		...store,
		checkProcessedAndRecord: async (...args: Parameters<typeof store.checkProcessedAndRecord>) => {
			calls++;
			return await store.checkProcessedAndRecord(...args);
		},
	};
	const memory = await worker(
		async () =>
			new CreateMemory({ helpers, credential: 'c', workflowId: WORKFLOW, now: () => Date.now() }),
	);
	return { memory, calls: () => calls };
}

type Outcome = 'kept' | 'lost' | 'refused without a start';

/**
 * One trial: the row already holds an ended create's hold (so looks ask it); two lookers look
 * at other creates back to back, with a pause of up to `pauseMs` (their exchange with Trio);
 * the writer holds create 1 after a seeded delay; once it is done and the lookers have stopped,
 * a fresh worker looks for create 1. Returns what it found, and how many read-backs the hold made.
 */
async function trial(seed: number, pauseMs: number): Promise<[Outcome, number]> {
	const storage = new ProcessedDataStorage(seed);
	storage.roundTripMs = [20, 30];
	useProcessedDataStorage(storage);
	forgetProcessMemory();
	const draw = draws(seed ^ 0x5bd1_e995);
	await settle(
		storeHelpersFor(WORKFLOW, NODE).checkProcessedAndRecord(['an earlier hold'], 'node', {
			mode: 'entries',
			maxEntries: 10_000,
		}),
	);
	const [writer, ...lookers] = await Promise.all([1, 2, 3].map(processMemory));
	let writing = true;
	let looked = 0;
	let readBacks = 0;
	const look = async ({ memory }: { memory: CreateMemory }) => {
		while (writing) {
			await memory.state(what(100 + looked++));
			await new Promise((resolve) => setTimeout(resolve, Math.floor(draw() * pauseMs)));
		}
	};
	const write = async () => {
		await new Promise((resolve) => setTimeout(resolve, Math.floor(draw() * 200)));
		expect(await writer.memory.state(what(1))).toEqual({ held: false });
		const before = writer.calls();
		expect((await writer.memory.hold(what(1))).notShared).toBeUndefined();
		readBacks = writer.calls() - before - 1;
		writing = false;
	};
	await settle(Promise.all([write(), ...lookers.map(look)]));
	const found = await settle((await processMemory()).memory.state(what(1)));
	if (!('held' in found)) throw new Error(`unreadable: ${found.unreadable}`);
	const outcome = !found.held
		? 'lost'
		: found.since === undefined
			? 'refused without a start'
			: 'kept';
	return [outcome, readBacks];
}

async function measure(
	pauseMs: number,
): Promise<{ counts: Record<Outcome, number>; readBacks: number[] }> {
	const counts: Record<Outcome, number> = { kept: 0, lost: 0, 'refused without a start': 0 };
	/** How many holds made each number of read-backs. */
	const readBacks: number[] = [];
	for (let n = 0; n < TRIALS; n++) {
		const [outcome, made] = await trial((0x2f6e_1d3b ^ (n * 0x9e37_79b9)) >>> 0, pauseMs);
		counts[outcome]++;
		readBacks[made] = (readBacks[made] ?? 0) + 1;
	}
	process.stderr.write(
		`[hold-under-looks] lookers pausing 0-${pauseMs} ms between looks: ${JSON.stringify(counts)} of ${TRIALS}; holds by read-backs made ${JSON.stringify(readBacks)}\n`,
	);
	return { counts, readBacks };
}

beforeAll(async () => await startDeduplicationService());
beforeEach(() => jest.useFakeTimers({ now: START }));
afterEach(() => jest.useRealTimers());
afterAll(() => useProcessedDataStorage(new ProcessedDataStorage()));

describe('a hold written while two other workers keep looking (issue 47 item 6)', () => {
	// With three read-backs at most, 2 and 4 of these 200 were lost (26 and 29 of 1,000); with
	// reading back until found, none (none of 1,000 either: the most read-backs needed, 9).
	it.each([0, 100])(
		'no hold is lost in 200 seeded trials, with looks 0-%i ms apart: a read-back finds each before the last',
		async (pauseMs) => {
			const { counts, readBacks } = await measure(pauseMs);
			expect(counts).toEqual({ kept: TRIALS, lost: 0, 'refused without a start': 0 });
			expect(readBacks.length - 1).toBeLessThan(READ_BACKS);
		},
	);
});
