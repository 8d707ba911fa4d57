/**
 * Every way a check fails says why, for n8n's scheduler (from n8n 2.4x it backs a failing poll
 * trigger off and reads the node's declaration first): the error carries a plain `failure`
 * property, `{ cause, retryAfterMs? }`, with one of n8n's causes. Inside n8n's engine, against
 * answers scripted exactly; the error is the one n8n's poll executor reports.
 */
import { createServer } from 'node:net';

import { ACTIONABLE_CAUSES, TIMED_CAUSES, type IDataObject } from 'n8n-workflow';

import { job, watchJobs } from '../../support/listed-jobs';
import { ScriptedServer, type ScriptedResponse } from '../../support/scripted-server';

const server = ScriptedServer.forEachTest();

const TWENTY = Array.from({ length: 20 }, (_, index) => job(index + 1));

function trigger(parameters: IDataObject = {}, baseUrl = server.baseUrl) {
	return watchJobs(baseUrl, parameters);
}

/** The same answer to the first try and to each of the transport's three retries. */
function always(answer: ScriptedResponse): ScriptedResponse[] {
	return Array.from({ length: 4 }, () => answer);
}

/** The failure the poll's error declares, checked to be plain data n8n reads. */
function declaredBy(error: Error | undefined): unknown {
	expect(error).toBeDefined();
	expect(Object.prototype.hasOwnProperty.call(error, 'failure')).toBe(true);
	const { failure } = error as Error & { failure: { cause: string } };
	expect([...TIMED_CAUSES, ...ACTIONABLE_CAUSES]).toContain(failure.cause);
	// Plain data: it survives being copied as JSON, as n8n may do with errors.
	expect(JSON.parse(JSON.stringify(failure))).toEqual(failure);
	return failure;
}

/**
 * A check after the baseline (a first check that Trio refuses for now takes its baseline later
 * instead: first-check.test.ts) answered with `answers`.
 */
async function failedCheck(
	answers: ScriptedResponse[],
	parameters: IDataObject = {},
): Promise<unknown> {
	const poller = trigger(parameters);
	server.respond({ json: parameters.watch === 'submissions' ? [] : TWENTY });
	expect((await poller.poll()).error).toBeUndefined();
	server.respond(...answers);
	const result = await poller.poll();
	expect(result.items).toEqual([]);
	return declaredBy(result.error);
}

describe('Sync Trigger: every failed check says why', () => {
	test("Trio's 429 after the retries: rate-limited, with the whole wait its Retry-After asked for", async () => {
		const busy = { status: 429, headers: { 'retry-after': '120' }, json: { message: 'Slow down' } };
		// n8n's budget shortens the waits between retries; n8n is told the full 120 s.
		expect(await failedCheck(always(busy))).toEqual({
			cause: 'rate-limited',
			retryAfterMs: 120_000,
		});
	});

	test("Trio's 429 without a Retry-After: rate-limited, no wait named", async () => {
		expect(await failedCheck(always({ status: 429, json: { message: 'Slow down' } }))).toEqual({
			cause: 'rate-limited',
		});
	});

	test.each([500, 502, 503, 504])(
		'a %i after the retries: temporarily-unavailable',
		async (status) => {
			expect(await failedCheck(always({ status, json: { message: 'Down' } }))).toEqual({
				cause: 'temporarily-unavailable',
			});
		},
	);

	test('no answer at all (the connection refused): temporarily-unavailable', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as { port: number };
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		// Fetch Test Event: it reads the list whether or not a baseline was taken.
		const result = await trigger({}, `http://127.0.0.1:${port}`).poll({ mode: 'manual' });
		expect(declaredBy(result.error)).toEqual({ cause: 'temporarily-unavailable' });
	});

	test('a refused key: 403 on the job list is credential-invalid (only a working key mends it), 401 too', async () => {
		const refused = { status: 403, json: { title: 'Forbidden', status: 403 } };
		expect(await failedCheck([refused])).toEqual({ cause: 'credential-invalid' });
		expect(await failedCheck([{ status: 401, json: { message: 'No key' } }])).toEqual({
			cause: 'credential-invalid',
		});
	});

	test('403 on the submission list is configuration-invalid: the key may be fine, Trio does not give it that list', async () => {
		const refused = { status: 403, json: { title: 'Forbidden', status: 403 } };
		expect(await failedCheck([refused], { watch: 'submissions' })).toEqual({
			cause: 'configuration-invalid',
		});
		// Not offered at that address at all: the workflow must follow submissions another way.
		expect(
			await failedCheck([{ status: 404, json: { title: 'Not Found', status: 404 } }], {
				watch: 'submissions',
			}),
		).toEqual({ cause: 'configuration-invalid' });
	});

	test('a 403 with a Retry-After is a throttle: rate-limited', async () => {
		const throttled = { status: 403, headers: { 'retry-after': '60' }, json: {} };
		expect(await failedCheck([throttled])).toEqual({ cause: 'rate-limited', retryAfterMs: 60_000 });
	});

	test('a bad setting: configuration-invalid, before any request', async () => {
		const result = await trigger({ options: { fullListEvery: 0 } }).poll();
		expect(declaredBy(result.error)).toEqual({ cause: 'configuration-invalid' });
		expect(server.requests).toEqual([]);
	});

	test('an answer that is not a list: temporarily-unavailable', async () => {
		expect(await failedCheck([{ json: { message: 'Maintenance' } }])).toEqual({
			cause: 'temporarily-unavailable',
		});
	});

	test('the "suddenly lacks" guard: temporarily-unavailable (a list cut short is whole again later)', async () => {
		const poller = trigger();
		server.respond({ json: TWENTY }, { json: TWENTY.slice(0, 10) });
		expect((await poller.poll()).error).toBeUndefined();
		const cut = await poller.poll();
		expect(cut.error?.message).toContain('suddenly lacks 10 of the 20 jobs');
		expect(declaredBy(cut.error)).toEqual({ cause: 'temporarily-unavailable' });
	});

	test('Trio does not find a job its list calls open: temporarily-unavailable', async () => {
		const poller = trigger();
		const notFound = { status: 404, json: { title: 'Not Found', status: 404 } };
		server.respond({ json: TWENTY }, { json: TWENTY.slice(1) }, notFound, notFound);
		await poller.poll();
		const refuted = await poller.poll();
		expect(refuted.error?.message).toContain('even for job 2');
		expect(declaredBy(refuted.error)).toEqual({ cause: 'temporarily-unavailable' });
	});

	test('Fetch Test Event gets the same declaration', async () => {
		const poller = trigger();
		server.respond(...always({ status: 503, json: {} }));
		const manual = await poller.poll({ mode: 'manual' });
		expect(declaredBy(manual.error)).toEqual({ cause: 'temporarily-unavailable' });
	});
});
