/**
 * Limited concurrency that never leaves a task behind: `mapWithLimit` runs `work` for every
 * entry, at most `limit` at a time, and returns the results in the entries' order. After a failure
 * nothing new starts, but every task already started is waited for before the first failure is
 * thrown, so whoever cleans up (a rollback) sees everything that was done, including what
 * finished after the failure.
 */
export async function mapWithLimit<T, R>(
	entries: readonly T[],
	limit: number,
	work: (entry: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results = new Array<R>(entries.length);
	let next = 0;
	let failure: { error: unknown } | undefined;
	const lane = async () => {
		while (failure === undefined && next < entries.length) {
			const index = next++;
			try {
				results[index] = await work(entries[index], index);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), entries.length) }, lane));
	if (failure) throw failure.error;
	return results;
}
