/**
 * The body's deadline (issue 27 point 13): an idle timeout that every arriving byte restarts,
 * under a ceiling for the whole exchange. A 17 MB job list that takes longer than twice the idle
 * timeout is read while its bytes still flow; a stall, or a trickle past the ceiling, is given up.
 * A virtual clock: nothing here depends on the machine's speed.
 */
import { EventEmitter } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { beforeDeadline, readBody } from '../../../../nodes/shared/transport/body';
import { steppedClock } from '../../../support/virtual-clock';

class FakeBody extends EventEmitter {
	destroyed = false;

	destroy() {
		this.destroyed = true;
		return this;
	}
}

const IDLE = 1_000;

/** Starts reading a fake body on a virtual clock; `settled()` is the text read, or the error's code. */
function reading(endBy: number) {
	const time = steppedClock(0);
	const body = new FakeBody();
	let settled: string | undefined;
	const read = readBody(body, { maxBytes: 1_000, idleMs: IDLE, endBy, clock: time.clock }).then(
		(buffer) => (settled = buffer.toString()),
		(error: Error & { code?: string }) => (settled = error.code),
	);
	return { time, body, read, settled: () => settled };
}

describe('reading a body against the deadline', () => {
	it('reads an answer that takes five times the idle timeout while bytes keep coming', async () => {
		const { time, body, read, settled } = reading(60_000);
		for (let chunk = 0; chunk < 10; chunk++) {
			await time.advance(IDLE / 2);
			body.emit('data', Buffer.from(String(chunk)));
		}
		body.emit('end');
		await read;
		expect(settled()).toBe('0123456789');
		expect(body.destroyed).toBe(false);
	});

	it('gives up when no byte comes for the idle timeout', async () => {
		const { time, body, read, settled } = reading(60_000);
		await time.advance(IDLE / 2);
		body.emit('data', Buffer.from('['));
		await time.advance(IDLE - 1);
		expect(settled()).toBeUndefined();
		await time.advance(1);
		await read;
		expect(settled()).toBe('ETIMEDOUT');
		expect(body.destroyed).toBe(true);
	});

	it('gives up at the ceiling for the whole exchange, however steadily bytes come', async () => {
		const { time, body, read, settled } = reading(3 * IDLE);
		for (let chunk = 0; chunk < 5 && settled() === undefined; chunk++) {
			await time.advance(IDLE / 2);
			body.emit('data', Buffer.from(' '));
		}
		expect(settled()).toBeUndefined();
		await time.advance(IDLE / 2);
		await read;
		expect(settled()).toBe('ETIMEDOUT');
	});
});

/** V8's full collection, which tests may call once the flag is set. */
function collectGarbage(): void {
	setFlagsFromString('--expose-gc');
	(runInNewContext('gc') as () => void)();
}

/** Whether what `make` returns can still be reached once the caller has let go of it. */
async function stillReachable(make: () => Promise<object>): Promise<boolean> {
	const weak = new WeakRef(await make());
	// A WeakRef keeps its target for the rest of the job that made or read it.
	await new Promise((resolve) => setImmediate(resolve));
	collectGarbage();
	await new Promise((resolve) => setImmediate(resolve));
	return weak.deref() !== undefined;
}

describe('what the deadline holds once the wait is over', () => {
	// The deadline's sleep outlives the read (here it is still pending on the virtual clock, as a
	// real timer would be for a minute). Before, it kept every answer it had raced reachable until
	// it woke: a node listing 17 MB of jobs every second carried dozens of them.
	it('lets go of a body it has read', async () => {
		const time = steppedClock(0);
		const read = async () => {
			const body = new FakeBody();
			const reading = readBody(body, {
				maxBytes: 1_000_000,
				idleMs: IDLE,
				endBy: 60_000,
				clock: time.clock,
			});
			body.emit('data', Buffer.alloc(100_000, 97));
			body.emit('end');
			return await reading;
		};
		expect(await stillReachable(read)).toBe(false);
		expect(time.sleeping()).toBeGreaterThan(0);
	});

	it('lets go of an answer that came before the deadline', async () => {
		const time = steppedClock(0);
		const answer = async () =>
			await beforeDeadline(
				Promise.resolve({ body: Buffer.alloc(100_000, 97) }),
				60_000,
				time.clock,
			);
		expect(await stillReachable(answer)).toBe(false);
		expect(time.sleeping()).toBeGreaterThan(0);
	});
});
