/**
 * The create memory over a store shaped like n8n's duplicate store (issue 27 point 2), with an
 * injected clock: how long a hold lasts, what ends it, and what two processes sharing the store
 * see. The engine tests (never-twice.test.ts) run it through n8n-core's own service.
 */
import type { DeduplicationItemTypes } from 'n8n-workflow';

import {
	CreateMemory,
	forgetUncertainCreates,
	UNCERTAIN_CREATE_MS,
} from '../../../nodes/shared/transport/createMemory';

/** One workflow's entries, as n8n keeps them (but not hashed). */
function sharedStore() {
	const entries = new Set<string>();
	return {
		entries,
		helpers: {
			async checkProcessedAndRecord(items: DeduplicationItemTypes[]) {
				const seen = {
					new: [] as DeduplicationItemTypes[],
					processed: [] as DeduplicationItemTypes[],
				};
				for (const item of items) {
					if (entries.has(String(item))) seen.processed.push(item);
					else {
						seen.new.push(item);
						entries.add(String(item));
					}
				}
				return seen;
			},
			async removeProcessed(items: DeduplicationItemTypes[]) {
				for (const item of items) entries.delete(String(item));
			},
		},
	};
}

const WHAT = 'submission of candidate 5 to job 7';
let now = Date.UTC(2026, 10, 25, 12, 0, 0);
const clock = () => now;

beforeEach(() => {
	forgetUncertainCreates();
	now = Date.UTC(2026, 10, 25, 12, 0, 0);
});

describe('CreateMemory over a shared store', () => {
	it('holds a create while it is sent: a second process refuses it until it is settled', async () => {
		const store = sharedStore();
		const a = new CreateMemory(store.helpers, 'scope', clock);
		const b = new CreateMemory(store.helpers, 'scope', clock);
		const held = await a.claim(WHAT);
		expect(held).toMatchObject({ refused: false });
		expect(await b.claim(WHAT)).toMatchObject({ refused: true });
		if (!('claim' in held)) throw new Error('not held');
		await a.settle(held.claim, 'notCreated');
		expect(store.entries.size).toBe(0);
		expect(await b.claim(WHAT)).toMatchObject({ refused: false });
	});

	it('an unknown outcome refuses the same create in another process for at least UNCERTAIN_CREATE_MS, then lets it go', async () => {
		const store = sharedStore();
		const a = new CreateMemory(store.helpers, 'scope', clock);
		const held = await a.claim(WHAT);
		if (!('claim' in held)) throw new Error('not held');
		const until = await a.settle(held.claim, 'unknown');
		expect(until).toBeGreaterThanOrEqual(now + UNCERTAIN_CREATE_MS);
		forgetUncertainCreates(); // the other process has none of a's own memory
		const b = new CreateMemory(store.helpers, 'scope', clock);
		now += UNCERTAIN_CREATE_MS - 1;
		const refused = await b.claim(WHAT);
		expect(refused).toEqual({ refused: true, until });
		// Looking did not extend the hold.
		now = until as number;
		expect(await b.claim(WHAT)).toMatchObject({ refused: false });
	});

	it('a create that was made is remembered as made; another scope (key or service) knows nothing of it', async () => {
		const store = sharedStore();
		const a = new CreateMemory(store.helpers, 'scope', clock);
		const held = await a.claim(WHAT);
		if (!('claim' in held)) throw new Error('not held');
		await a.settle(held.claim, 'created');
		expect(await new CreateMemory(store.helpers, 'scope', clock).createdBefore(WHAT)).toBe(true);
		expect(await new CreateMemory(store.helpers, 'other', clock).createdBefore(WHAT)).toBe(false);
		// Asking left nothing behind for the other scope.
		expect(await new CreateMemory(store.helpers, 'other', clock).createdBefore(WHAT)).toBe(false);
	});

	it('found() ends a hold left by an unknown outcome', async () => {
		const store = sharedStore();
		const a = new CreateMemory(store.helpers, 'scope', clock);
		const held = await a.claim(WHAT);
		if (!('claim' in held)) throw new Error('not held');
		await a.settle(held.claim, 'unknown');
		now += 60_000;
		await a.found(WHAT);
		expect(await a.claim(WHAT)).toMatchObject({ refused: false });
		expect(await a.createdBefore(WHAT)).toBe(true);
	});

	it('without a store it is this process only, and says so', async () => {
		const a = new CreateMemory({}, 'scope', clock);
		expect(a.shared).toBe(false);
		const held = await a.claim(WHAT);
		if (!('claim' in held)) throw new Error('not held');
		await a.settle(held.claim, 'unknown');
		expect(await a.claim(WHAT)).toMatchObject({ refused: true });
		forgetUncertainCreates();
		expect(await a.claim(WHAT)).toMatchObject({ refused: false });
		expect(await a.createdBefore(WHAT)).toBeUndefined();
	});
});

describe('a slow create', () => {
	it('holds an unknown outcome for UNCERTAIN_CREATE_MS from the failure, not from the send', async () => {
		const store = sharedStore();
		const a = new CreateMemory(store.helpers, 'scope', clock);
		now += 4 * 60_000 + 59_000; // sent late in a window of the store's clock
		const held = await a.claim(WHAT);
		if (!('claim' in held)) throw new Error('not held');
		now += 4 * 60_000; // the answer took four minutes
		const failedAt = now;
		const until = await a.settle(held.claim, 'unknown');
		expect(until).toBeGreaterThanOrEqual(failedAt + UNCERTAIN_CREATE_MS);
		forgetUncertainCreates();
		now = failedAt + UNCERTAIN_CREATE_MS - 1;
		expect(await new CreateMemory(store.helpers, 'scope', clock).claim(WHAT)).toMatchObject({
			refused: true,
		});
	});
});
