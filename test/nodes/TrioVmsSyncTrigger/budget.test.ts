/**
 * The Sync Trigger within the time n8n gives one poll (`getPollBudgetMs()`, from n8n 2.38; under
 * the durable scheduler its poll timeout less a margin, and the scheduler abandons a poll that
 * runs past its timeout). Inside n8n's engine (a real PollContext handed the budget, as n8n's scheduler hands it), against a server
 * that holds the list or a job lookup until the test releases it. Nothing here measures time: a
 * poll "returns in time" when it returns while the server still holds its request, and the
 * budget running short mid-poll is a virtual clock moved by the server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { job, watchJobs } from '../../support/listed-jobs';

/** A request held by the server until released (or the test ends). */
class Gate {
	released = false;

	private open!: () => void;

	readonly opened = new Promise<void>((resolve) => (this.open = resolve));

	release(): void {
		this.released = true;
		this.open();
	}
}

/**
 * Jobs 1 to 20; the ones in `closed` are left out of the list and answered Closed when looked up.
 * `hold(path)` holds the next request for that path until the gate is released; `onRequest` runs
 * as each request arrives.
 */
class HoldingServer {
	readonly paths: string[] = [];

	readonly closed = new Set<number>();

	/** The next list answer sends its headers and `[` at once, then a space every 50 ms until released. */
	trickle: Gate | undefined;

	onRequest: (path: string) => void = () => {};

	private readonly holds = new Map<string, Gate>();

	private readonly gates: Gate[] = [];

	private readonly server: Server = createServer((request, response) => {
		const path = (request.url ?? '/').split('?')[0];
		this.paths.push(path);
		this.onRequest(path);
		if (path === '/api/v3/Job' && this.trickle) {
			const gate = this.trickle;
			this.trickle = undefined;
			response.writeHead(200, { 'content-type': 'application/json' });
			response.write('[');
			const drip = setInterval(() => response.write(' '), 50);
			void gate.opened.then(() => {
				clearInterval(drip);
				if (!response.socket?.destroyed) response.end(`${JSON.stringify(this.list()).slice(1)}`);
			});
			response.on('close', () => clearInterval(drip));
			return;
		}
		const gate = this.holds.get(path);
		this.holds.delete(path);
		void (gate?.opened ?? Promise.resolve()).then(() => {
			if (response.socket?.destroyed) return;
			const number = /^\/api\/v3\/Job\/(\d+)$/.exec(path)?.[1];
			const body =
				number === undefined
					? this.list()
					: job(Number(number), { JobStatus: this.closed.has(Number(number)) ? 'Closed' : 'Open' });
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(JSON.stringify(body));
		});
	});

	baseUrl = '';

	list() {
		return Array.from({ length: 20 }, (_, index) => index + 1)
			.filter((number) => !this.closed.has(number))
			.map((number) => job(number));
	}

	trickleList(): Gate {
		const gate = new Gate();
		this.trickle = gate;
		this.gates.push(gate);
		return gate;
	}

	hold(path: string): Gate {
		const gate = new Gate();
		this.holds.set(path, gate);
		this.gates.push(gate);
		return gate;
	}

	lookups(): number[] {
		return this.paths.flatMap((path) => {
			const number = /^\/api\/v3\/Job\/(\d+)$/.exec(path)?.[1];
			return number === undefined ? [] : [Number(number)];
		});
	}

	async listen(): Promise<void> {
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	async close(): Promise<void> {
		for (const gate of this.gates) gate.release();
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}

let server: HoldingServer;

beforeEach(async () => {
	server = new HoldingServer();
	await server.listen();
});

afterEach(async () => {
	jest.useRealTimers();
	await server.close();
});

function trigger() {
	return watchJobs(server.baseUrl);
}

type Item = Record<string, unknown>;
const closures = (items: Item[]) => items.filter((item) => item.change === 'closed');
const numbers = (items: Item[]) => items.map((item) => Number(item.Number)).sort((a, b) => a - b);

/** Only Date is virtual: sockets, timeouts and the engine run on real timers. */
function virtualClock(): void {
	jest.useFakeTimers({
		doNotFake: [
			'hrtime',
			'nextTick',
			'performance',
			'queueMicrotask',
			'requestAnimationFrame',
			'cancelAnimationFrame',
			'requestIdleCallback',
			'cancelIdleCallback',
			'setImmediate',
			'clearImmediate',
			'setInterval',
			'clearInterval',
			'setTimeout',
			'clearTimeout',
		],
	});
}

/**
 * Polls with `budgetMs` while `gate` holds the list or a lookup (or trickles the list), and says
 * whether the poll returned with the request still held. Should the poll wait for the request,
 * the gate opens after 20 s so the poll ends and the test fails on `stillHeld`, not on its timeout.
 */
async function pollWhileHeld(poller: ReturnType<typeof trigger>, gate: Gate, budgetMs: number) {
	const fallback = setTimeout(() => gate.release(), 20_000);
	const cut = await poller.poll({ pollBudgetMs: budgetMs });
	const stillHeld = !gate.released;
	clearTimeout(fallback);
	gate.release();
	return { cut, stillHeld };
}

describe('Sync Trigger within the poll budget n8n gives it', () => {
	test('a job list held past the budget: the poll gives up while it is still held, emits nothing, keeps the state, and the next poll emits the change once', async () => {
		const poller = trigger();
		expect((await poller.poll({ pollBudgetMs: 30_000 })).error).toBeUndefined();
		const state = poller.staticData();
		server.closed.add(7);
		const { cut, stillHeld } = await pollWhileHeld(poller, server.hold('/api/v3/Job'), 2_000);

		expect(stillHeld).toBe(true);
		expect(cut.error?.message).toBe(
			'Trio VMS did not send the job list within the 2 s n8n gives one check',
		);
		// n8n's scheduler waits briefly before the next poll, as for a service down for now.
		expect(cut.error).toMatchObject({ failure: { cause: 'temporarily-unavailable' } });
		expect(cut.items).toEqual([]);
		expect(cut.saved).toBe(false);
		expect(poller.staticData()).toEqual(state);

		const next = await poller.poll({ pollBudgetMs: 30_000 });
		expect(next.error).toBeUndefined();
		expect(numbers(closures(next.items))).toEqual([7]);
		expect((await poller.poll({ pollBudgetMs: 30_000 })).items).toEqual([]);
	}, 30_000);

	test('a job list that keeps trickling: the poll gives up within the budget while bytes still arrive (the transport bounds the whole exchange, not only the pauses), emits nothing and keeps the state', async () => {
		const poller = trigger();
		expect((await poller.poll({ pollBudgetMs: 30_000 })).error).toBeUndefined();
		const state = poller.staticData();
		server.closed.add(7);
		const { cut, stillHeld: stillTrickling } = await pollWhileHeld(
			poller,
			server.trickleList(),
			4_000,
		);

		expect(stillTrickling).toBe(true);
		expect(cut.error?.message).toBe(
			'Trio VMS did not send the job list within the 4 s n8n gives one check',
		);
		expect(cut.items).toEqual([]);
		expect(poller.staticData()).toEqual(state);
		const next = await poller.poll({ pollBudgetMs: 30_000 });
		expect(numbers(closures(next.items))).toEqual([7]);
	}, 30_000);

	test('the lookups stop when the budget runs short: the jobs not asked about stay missing and are closed once each at the next full list', async () => {
		virtualClock();
		const poller = trigger();
		expect((await poller.poll({ pollBudgetMs: 30_000 })).error).toBeUndefined();
		for (const number of [3, 5, 8, 13, 17]) server.closed.add(number);
		server.paths.length = 0;
		// The second lookup arrives as the budget is nearly spent: it was started in time and ends,
		// no other is started.
		let seen = 0;
		server.onRequest = (path) => {
			if (path.startsWith('/api/v3/Job/') && ++seen === 2) jest.setSystemTime(Date.now() + 29_000);
		};
		const short = await poller.poll({ pollBudgetMs: 30_000 });
		server.onRequest = () => {};

		expect(short.error).toBeUndefined();
		expect(server.lookups()).toEqual([3, 5]);
		expect(numbers(closures(short.items))).toEqual([3, 5]);
		expect(short.saved).toBe(true);
		// Not looked up: still known, and missing.
		const sync = poller.staticData().sync as { e: object; m?: number[] };
		expect(sync.m).toEqual([8, 13, 17]);
		expect(Object.keys(sync.e)).toEqual(expect.arrayContaining(['8', '13', '17']));

		server.paths.length = 0;
		const next = await poller.poll({ pollBudgetMs: 30_000 });
		expect(next.error).toBeUndefined();
		expect(server.lookups()).toEqual([8, 13, 17]);
		expect(numbers(closures(next.items))).toEqual([8, 13, 17]);
		expect(next.items).toHaveLength(3);
		// Each of the five closures came out once.
		expect((await poller.poll({ pollBudgetMs: 30_000 })).items).toEqual([]);
	});

	test('no time left for lookups after the list: none is started, every closure waits for the next full list', async () => {
		virtualClock();
		const poller = trigger();
		await poller.poll({ pollBudgetMs: 30_000 });
		server.closed.add(4);
		server.closed.add(9);
		server.paths.length = 0;
		server.onRequest = (path) => {
			if (path === '/api/v3/Job') jest.setSystemTime(Date.now() + 29_500);
		};
		const short = await poller.poll({ pollBudgetMs: 30_000 });
		server.onRequest = () => {};
		expect([short.error, short.items, server.lookups()]).toEqual([undefined, [], []]);
		expect((poller.staticData().sync as { m?: number[] }).m).toEqual([4, 9]);

		const next = await poller.poll({ pollBudgetMs: 30_000 });
		expect(numbers(closures(next.items))).toEqual([4, 9]);
	});

	test('a lookup held past its share of the budget: the poll returns while it is still held, the job stays missing and is closed once later', async () => {
		const poller = trigger();
		await poller.poll({ pollBudgetMs: 30_000 });
		for (const number of [2, 6, 11]) server.closed.add(number);
		const { cut, stillHeld } = await pollWhileHeld(poller, server.hold('/api/v3/Job/6'), 6_000);

		expect(stillHeld).toBe(true);
		expect(cut.error).toBeUndefined();
		// Job 6 had no answer: never a closure on no answer.
		// How many of the others were asked before the budget ran short depends on the machine;
		// each is either closed now or still missing, never both, never neither.
		const first = numbers(closures(cut.items));
		expect(first).not.toContain(6);
		const missing = (poller.staticData().sync as { m?: number[] }).m ?? [];
		expect([...first, ...missing].sort((a, b) => a - b)).toEqual([2, 6, 11]);

		const next = await poller.poll({ pollBudgetMs: 30_000 });
		expect(numbers(closures(next.items))).toEqual(missing);
		expect((await poller.poll({ pollBudgetMs: 30_000 })).items).toEqual([]);
	}, 30_000);

	test('without a budget (n8n before 2.38 has no getPollBudgetMs) the poll runs as before', async () => {
		const poller = trigger();
		await poller.poll({ pollBudgetMs: null });
		server.closed.add(12);
		const next = await poller.poll({ pollBudgetMs: null });
		expect(numbers(closures(next.items))).toEqual([12]);
	});
});
