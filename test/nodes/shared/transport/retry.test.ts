/**
 * What the transport sends again and what it never does, counted by the server; and that it
 * waits as long as it should. Waits are checked only as lower bounds from the server's own
 * timestamps: "the next request did not arrive before ...". TIMER_SLACK_MS allows for timers
 * that fire a fraction of a millisecond early against performance.now().
 */
import { useDeadlineClock } from '../../../../nodes/shared/transport/body';
import { CallPacer, usePacerClock } from '../../../../nodes/shared/transport/pacing';
import { waitUntil } from '../../../../harness/wait';
import { FAST_RETRY, probe } from '../../../support/probe';
import { ScriptedServer, type ScriptedResponse } from '../../../support/scripted-server';
import type { ProbeRequest } from '../../../../harness/engine/engine';
import { parseMultipart } from '../../../support/parse-multipart';
import { steppedClock } from '../../../support/virtual-clock';

const TIMER_SLACK_MS = 2;

const server = ScriptedServer.forEachTest();

const GET: ProbeRequest = { method: 'GET', path: '/Job' };
const CREATE: ProbeRequest = {
	method: 'POST',
	path: '/Submission',
	body: { JobNumber: 5, Email: 'a@example.com' },
};
const WEBHOOK_UPDATE: ProbeRequest = {
	method: 'POST',
	path: '/Webhooks',
	body: { Id: 7, Url: 'https://n8n.example.com/webhook/x' },
	idempotent: true,
};

/** The idle timeout of the timing-out tests: far longer than they run, so only the stepped clock ends a wait. */
const IDLE_MS = 60_000;

/**
 * Runs `request` while the server holds its first answer past any deadline, with the transport's
 * deadlines on a stepped clock: once the server has the request, time moves past the deadline
 * for the answer's headers. Nothing else moves that clock, so a later attempt cannot time out
 * however busy the machine is.
 */
async function timingOut(request: ProbeRequest, ...later: ScriptedResponse[]) {
	const time = steppedClock();
	useDeadlineClock(time.clock);
	try {
		server.respond({ delayMs: 10 * IDLE_MS, status: 201, json: { id: 'late' } }, ...later);
		const run = probe(request, {
			baseUrl: server.baseUrl,
			clientOptions: { timeoutMs: IDLE_MS, retry: FAST_RETRY },
		});
		await waitUntil('the first request at the server', () => server.requests.length || undefined, {
			timeoutMs: 30_000,
			intervalMs: 5,
		});
		await time.advance(2 * IDLE_MS);
		return await run;
	} finally {
		useDeadlineClock(undefined);
	}
}

/** Time between the server answering request i and receiving request i + 1. */
function gapBefore(index: number): number {
	return server.requests[index].receivedAtMono - server.requests[index - 1].answeredAtMono;
}

describe('Retry-After', () => {
	it('waits the seconds a 429 asks for', async () => {
		server.respond(
			{ status: 429, headers: { 'retry-after': '1' }, json: { message: 'Too many' } },
			{ json: { ok: true } },
		);
		const { bodies, error } = await probe(GET, { baseUrl: server.baseUrl });
		expect(error).toBeUndefined();
		expect(bodies).toEqual([{ ok: true }]);
		expect(server.requests).toHaveLength(2);
		expect(gapBefore(1)).toBeGreaterThanOrEqual(1_000 - TIMER_SLACK_MS);
	});

	it('waits until the HTTP-date a 503 names', async () => {
		// HTTP-dates have whole seconds: the next whole second plus one is 1 to 2 seconds away.
		const retryAt = Math.ceil(Date.now() / 1_000) * 1_000 + 1_000;
		server.respond(
			{ status: 503, headers: { 'retry-after': new Date(retryAt).toUTCString() } },
			{ json: { ok: true } },
		);
		const { error } = await probe(GET, { baseUrl: server.baseUrl });
		expect(error).toBeUndefined();
		expect(server.requests).toHaveLength(2);
		expect(server.requests[1].receivedAt).toBeGreaterThanOrEqual(retryAt - TIMER_SLACK_MS);
	});

	it('waits no longer than maxRetryAfterMs', async () => {
		// An hour-long Retry-After would time the test out if the cap were not applied.
		server.respond({ status: 429, headers: { 'retry-after': '3600' } }, { json: { ok: true } });
		const { error } = await probe(GET, {
			baseUrl: server.baseUrl,
			clientOptions: { retry: { ...FAST_RETRY, maxRetryAfterMs: 50 } },
		});
		expect(error).toBeUndefined();
		expect(server.requests).toHaveLength(2);
		expect(gapBefore(1)).toBeGreaterThanOrEqual(50 - TIMER_SLACK_MS);
	});
});

describe('what is sent again', () => {
	it.each([502, 503, 504])('retries a GET answered %i', async (status) => {
		server.respond({ status, body: 'busy' }, { status, body: 'busy' }, { json: { ok: true } });
		const { bodies, error } = await probe(GET, { baseUrl: server.baseUrl });
		expect(error).toBeUndefined();
		expect(bodies).toEqual([{ ok: true }]);
		expect(server.requests).toHaveLength(3);
	});

	it('backs off exponentially between attempts', async () => {
		server.respond({ status: 503 }, { status: 503 }, { json: {} });
		await probe(GET, {
			baseUrl: server.baseUrl,
			clientOptions: { retry: { baseDelayMs: 40, maxDelayMs: 1_000 } },
		});
		expect(server.requests).toHaveLength(3);
		// Equal jitter: attempt n waits at least half of base * 2^n.
		expect(gapBefore(1)).toBeGreaterThanOrEqual(20 - TIMER_SLACK_MS);
		expect(gapBefore(2)).toBeGreaterThanOrEqual(40 - TIMER_SLACK_MS);
	});

	it('gives up after maxRetries, having sent maxRetries + 1 requests', async () => {
		server.respond(
			{ status: 503 },
			{ status: 503 },
			{ status: 503 },
			{ json: { never: 'reached' } },
		);
		const { error, output } = await probe(GET, {
			baseUrl: server.baseUrl,
			clientOptions: { retry: { ...FAST_RETRY, maxRetries: 2 } },
		});
		expect(output).toEqual([]);
		expect(error).toMatchObject({
			httpCode: '503',
			message: 'Trio VMS failed (its error, not yours)',
		});
		expect(server.requests).toHaveLength(3);
		expect(server.pending).toBe(1);
	});

	it('does not retry a GET answered 500', async () => {
		server.respond({ status: 500, body: 'bug' }, { json: {} });
		const { error } = await probe(GET, { baseUrl: server.baseUrl });
		expect(error).toMatchObject({ httpCode: '500' });
		expect(server.requests).toHaveLength(1);
	});

	it('retries a GET whose connection broke', async () => {
		server.respond({ destroy: true }, { json: { ok: true } });
		const { bodies, error } = await probe(GET, { baseUrl: server.baseUrl });
		expect(error).toBeUndefined();
		expect(bodies).toEqual([{ ok: true }]);
		expect(server.requests).toHaveLength(2);
	});

	// Issue 46: the advice was to raise Pause Between Requests, which cannot shorten Trio's wait.
	it('when Trio asks for a longer wait than the node waits, says so with the seconds Trio gave', async () => {
		server.respond(
			{ status: 429, headers: { 'retry-after': '120' }, json: { title: 'Too Many Requests' } },
			{ status: 429, headers: { 'retry-after': '120' }, json: { title: 'Too Many Requests' } },
			{ json: { never: 'reached' } },
		);
		const { error } = await probe(CREATE, {
			baseUrl: server.baseUrl,
			clientOptions: { retry: { ...FAST_RETRY, maxRetries: 1, maxRetryAfterMs: 20 } },
		});
		expect(server.requests).toHaveLength(2);
		expect(error).toMatchObject({
			httpCode: '429',
			message: 'Trio VMS asked the node to slow down',
		});
		expect(error?.description).toBe(
			[
				'Trio VMS did not carry it out. Trio VMS asked to wait 120 s (2 min) before the next request: run again after that.',
				'Status: 429 Too Many Requests\nRequest: POST /Submission',
			].join('\n\n'),
		);
	});

	it('without a Retry-After, advises a longer pause between requests', async () => {
		server.respond({ status: 429 }, { status: 429 }, { json: { never: 'reached' } });
		const { error } = await probe(GET, {
			baseUrl: server.baseUrl,
			clientOptions: { retry: { ...FAST_RETRY, maxRetries: 1 } },
		});
		expect(error).toMatchObject({ httpCode: '429' });
		expect(error?.description).toMatch(/Raise "Pause Between Requests" under the node.s Options/);
		expect(error?.description).not.toMatch(/asked to wait/);
	});

	it('retries a GET that timed out', async () => {
		const { bodies, error } = await timingOut(GET, { json: { ok: true } });
		expect(error).toBeUndefined();
		expect(bodies).toEqual([{ ok: true }]);
		expect(server.requests).toHaveLength(2);
	});

	it('sends a create again after a 429, which is a refusal before any work', async () => {
		server.respond(
			{ status: 429, headers: { 'retry-after': '0' } },
			{ status: 201, json: { id: 1 } },
		);
		const { bodies, error } = await probe(CREATE, { baseUrl: server.baseUrl });
		expect(error).toBeUndefined();
		expect(bodies).toEqual([{ id: 1 }]);
		expect(server.requests.map((request) => request.json())).toEqual([CREATE.body, CREATE.body]);
	});

	it('sends a multipart create again after a 429 with the same bytes', async () => {
		server.respond({ status: 429 }, { status: 201, json: { id: 2 } });
		const file = Buffer.from([37, 80, 68, 70, 0, 255]);
		await probe(
			{
				method: 'POST',
				path: '/Submission',
				multipart: [
					{ name: 'JobNumber', value: '5' },
					{
						name: 'File',
						fileName: 'cv.pdf',
						contentType: 'application/pdf',
						base64: file.toString('base64'),
					},
				],
			},
			{ baseUrl: server.baseUrl },
		);
		expect(server.requests).toHaveLength(2);
		const [first, second] = await Promise.all(
			server.requests.map((request) =>
				parseMultipart(request.body, String(request.headers['content-type'])),
			),
		);
		expect(second).toEqual(first);
		expect(first.files[0].data).toEqual(file);
	});

	it('sends an idempotent POST (webhook update) again when the connection broke', async () => {
		server.respond({ destroy: true }, { json: { Id: 7 } });
		const { bodies, error } = await probe(WEBHOOK_UPDATE, { baseUrl: server.baseUrl });
		expect(error).toBeUndefined();
		expect(bodies).toEqual([{ Id: 7 }]);
		expect(server.requests).toHaveLength(2);
		expect(server.requests[1].json()).toEqual(WEBHOOK_UPDATE.body);
	});
});

describe('what is never sent twice', () => {
	it.each([500, 502, 503])(
		'a create answered %i: one request, and the error says it may exist',
		async (status) => {
			server.respond(
				{ status, body: 'Service trouble' },
				{ status: 201, json: { id: 'duplicate' } },
			);
			const { error } = await probe(CREATE, { baseUrl: server.baseUrl });
			expect(server.requests).toHaveLength(1);
			expect(error).toMatchObject({ httpCode: String(status) });
			expect(error?.description).toContain(
				'Trio VMS may or may not have created it: check in Trio (for example with Get Many) before running this item again.',
			);
		},
	);

	it('a create whose connection broke after the service read it: one request, outcome unknown', async () => {
		server.respond({ destroy: true }, { status: 201, json: { id: 'duplicate' } });
		const { error } = await probe(CREATE, { baseUrl: server.baseUrl });
		expect(server.requests).toHaveLength(1);
		// The service did receive the whole create before the connection broke.
		expect(server.requests[0].json()).toEqual(CREATE.body);
		expect(error?.message).toBe('Could not reach Trio VMS (ECONNRESET) for POST /Submission');
		expect(error?.description).toContain(
			'it is unknown whether the service carried it out. It was not sent again',
		);
	});

	it('a create that timed out: one request, outcome unknown', async () => {
		const { error } = await timingOut(CREATE, { status: 201, json: { id: 'duplicate' } });
		expect(server.requests).toHaveLength(1);
		expect(error?.message).toBe('Trio VMS did not answer POST /Submission in time (ETIMEDOUT)');
		expect(error?.description).toContain(
			'No answer came in time after the request was sent, so it is unknown whether the service carried it out',
		);
	});
});

describe('pause between calls', () => {
	it('never makes a call wait when no pause is set', async () => {
		server.respond({ json: 1 }, { json: 2 }, { json: 3 });
		const { output, error } = await probe([GET, GET, GET], {
			baseUrl: server.baseUrl,
			clientOptions: { retry: FAST_RETRY },
		});
		expect(error).toBeUndefined();
		expect(output.map((item) => (item.json.pacing as { waits: number }).waits)).toEqual([0, 0, 0]);
	});

	it('spaces the start of successive requests, retries included', async () => {
		server.respond({ json: 1 }, { status: 503 }, { json: 2 }, { json: 3 });
		const pause = 80;
		// The pacer's own clock, virtual: the starts it hands out are exact, whatever the machine's
		// speed (arrival times at the server vary with the requests' travel time).
		let virtualNow = 1_000_000;
		usePacerClock({
			now: () => virtualNow,
			sleep: async (ms) => {
				virtualNow += ms;
			},
		});
		const nextCall = CallPacer.prototype.nextCall;
		const starts: number[] = [];
		const spy = jest.spyOn(CallPacer.prototype, 'nextCall').mockImplementation(async function (
			this: CallPacer,
		) {
			const startedAt = await nextCall.call(this);
			starts.push(startedAt);
			return startedAt;
		});
		const { bodies, error, output } = await probe([GET, GET, GET], {
			baseUrl: server.baseUrl,
			clientOptions: { pauseBetweenCallsMs: pause, retry: FAST_RETRY },
		}).finally(() => {
			spy.mockRestore();
			usePacerClock(undefined);
		});
		expect(error).toBeUndefined();
		expect(bodies).toEqual([1, 2, 3]);
		expect(server.requests).toHaveLength(4);
		// Every call after the first waited for its turn.
		expect(output[2].json.pacing).toEqual({ waits: 3, learnedPauseMs: 0 });
		expect(starts).toHaveLength(4);
		for (let index = 1; index < starts.length; index++) {
			expect(starts[index] - starts[index - 1]).toBeGreaterThanOrEqual(pause);
		}
	});
});
