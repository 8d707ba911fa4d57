/**
 * One clock: no decision reads the `Date` of an answer Trio did not give successfully, nor one far
 * from n8n's own clock (the transport's bound, serviceClock.ts). Inside n8n's engine against the
 * sandbox, whose fault `dateOffsetMs` dates its answers as a gateway or proxy with a wrong clock
 * would: an hour ahead, or 1970.
 */
import type { RunningSandbox } from '../../../sandbox';
import { watchJobs } from '../../support/listed-jobs';
import { scenario, useSyncSandbox } from '../../support/sync-history';

let sandbox: RunningSandbox;
useSyncSandbox(20, (started) => (sandbox = started));

const HOUR_AHEAD = 3_600_000;
/** Dates every answer 1 January 1970 (the sandbox stops at the epoch). */
const NINETEEN_SEVENTY = -Date.now();

/** The list answered by a gateway's 502, the first try and every retry, dated `dateOffsetMs`. */
function gateway502(dateOffsetMs: number) {
	return {
		dateOffsetMs,
		endpoints: { 'GET /api/v3/Job': { failNext: 10, failStatus: 502, failBody: 'text' as const } },
	};
}

async function openJob(): Promise<number> {
	return Number((await scenario(sandbox, 'POST', '/jobs', { Title: 'Opened meanwhile' })).Number);
}

describe('Sync Trigger: a gateway clock is never Trio clock', () => {
	test.each([
		['an hour ahead', HOUR_AHEAD],
		['1970', NINETEEN_SEVENTY],
	])(
		'a first check failed by a gateway 502 dated %s: the job opened right after comes out once, and no old job',
		async (_, dateOffsetMs) => {
			const poller = watchJobs(sandbox.url, {}, { apiKey: sandbox.key });
			sandbox.setFaults(gateway502(dateOffsetMs));
			const failed = await poller.poll();
			expect([failed.error, failed.items, failed.saved]).toEqual([undefined, [], true]);
			expect(sandbox.requests().some((request) => request.status === 502)).toBe(true);
			expect(poller.staticData().sync).toMatchObject({ b: 1 });

			sandbox.clearFaults();
			const opened = await openJob();
			const baseline = await poller.poll();
			expect(baseline.error).toBeUndefined();
			expect(baseline.items.map((item) => [item.change, item.Number])).toEqual([
				['opened', opened],
			]);
			expect((await poller.poll()).items).toEqual([]);
		},
	);

	test("Trio's successful answers dated an hour ahead (a proxy's clock) are not read either: the job opened after the failed first check comes out once", async () => {
		const poller = watchJobs(sandbox.url, {}, { apiKey: sandbox.key });
		sandbox.setFaults(gateway502(HOUR_AHEAD));
		expect((await poller.poll()).error).toBeUndefined();
		// Every answer stays dated an hour ahead, the successful ones too.
		sandbox.setFaults({ dateOffsetMs: HOUR_AHEAD });
		const opened = await openJob();
		const baseline = await poller.poll();
		expect(baseline.items.map((item) => [item.change, item.Number])).toEqual([['opened', opened]]);
		expect((await poller.poll()).items).toEqual([]);
	});

	test('successful answers dated 1970 do not hold the watermark back: the next check asks only for what changed', async () => {
		const poller = watchJobs(
			sandbox.url,
			{ options: { fullListEvery: 10 } },
			{ apiKey: sandbox.key },
		);
		sandbox.setFaults({ dateOffsetMs: NINETEEN_SEVENTY });
		expect((await poller.poll()).error).toBeUndefined();
		expect((poller.staticData().sync as { wm: string | null }).wm).not.toBeNull();
		sandbox.clearRequests();
		const opened = await openJob();
		const cheap = await poller.poll();
		expect(cheap.items.map((item) => [item.change, item.Number])).toEqual([['opened', opened]]);
		expect(sandbox.requests()[0].query).toHaveProperty('modifiedDate');
	});
});
