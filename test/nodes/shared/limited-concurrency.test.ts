import { mapWithLimit } from '../../../nodes/shared/limitedConcurrency';

/** A task per entry that the test finishes by hand, in any order. */
function controlled<T>() {
	const started: T[] = [];
	const pending = new Map<
		T,
		{ resolve: (value: string) => void; reject: (error: Error) => void }
	>();
	const work = (entry: T) =>
		new Promise<string>((resolve, reject) => {
			started.push(entry);
			pending.set(entry, { resolve, reject });
		});
	return { started, pending, work };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('mapWithLimit', () => {
	it('returns the results in the entries’ order, whatever order they finish in', async () => {
		const delays = [30, 5, 20, 0, 10];
		const results = await mapWithLimit(delays, 2, async (delay, index) => {
			await new Promise((resolve) => setTimeout(resolve, delay));
			return `${index}:${delay}`;
		});
		expect(results).toEqual(['0:30', '1:5', '2:20', '3:0', '4:10']);
	});

	it('runs at most `limit` at once and starts the next as one finishes', async () => {
		const { started, pending, work } = controlled<number>();
		const run = mapWithLimit([1, 2, 3, 4, 5], 2, work);
		await settle();
		expect(started).toEqual([1, 2]);
		pending.get(2)!.resolve('two');
		await settle();
		expect(started).toEqual([1, 2, 3]);
		for (const entry of [1, 3, 4, 5]) {
			pending.get(entry)?.resolve(String(entry));
			await settle();
		}
		expect(await run).toEqual(['1', 'two', '3', '4', '5']);
	});

	it('after a failure starts nothing new, waits for every task it started, then throws the first failure', async () => {
		const { started, pending, work } = controlled<number>();
		let done = false;
		const run = mapWithLimit([1, 2, 3, 4, 5], 3, work).finally(() => {
			done = true;
		});
		await settle();
		expect(started).toEqual([1, 2, 3]);
		pending.get(2)!.reject(new Error('first'));
		await settle();
		pending.get(3)!.reject(new Error('second'));
		await settle();
		// Task 1 is still under way: nothing is reported yet, and 4 and 5 never start.
		expect(done).toBe(false);
		expect(started).toEqual([1, 2, 3]);
		pending.get(1)!.resolve('late');
		await expect(run).rejects.toThrow('first');
		expect(started).toEqual([1, 2, 3]);
	});

	it('does nothing for no entries, and runs one at a time for a limit below one', async () => {
		expect(await mapWithLimit([], 4, async () => 'never')).toEqual([]);
		const { started, pending, work } = controlled<string>();
		const run = mapWithLimit(['a', 'b'], 0, work);
		await settle();
		expect(started).toEqual(['a']);
		pending.get('a')!.resolve('A');
		await settle();
		pending.get('b')!.resolve('B');
		expect(await run).toEqual(['A', 'B']);
	});
});
