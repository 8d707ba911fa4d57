/**
 * What the transport refuses to do whatever the other side sends: follow a redirect (it would
 * carry the API key elsewhere), wait for ever on an answer that trickles in, or read an answer of
 * any size into memory. Through the real engine, against local servers.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { useDeadlineClock } from '../../../../nodes/shared/transport/body';
import { waitUntil } from '../../../../harness/wait';
import { ScriptedServer } from '../../../support/scripted-server';
import { API_KEY, FAST_RETRY, probe } from '../../../support/probe';
import { steppedClock } from '../../../support/virtual-clock';

const server = ScriptedServer.forEachTest();

async function listen(
	handler: Parameters<typeof createServer>[1],
): Promise<{ url: string; server: Server }> {
	const other = createServer(handler);
	await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(other.address() as AddressInfo).port}`, server: other };
}

async function close(other: Server): Promise<void> {
	other.closeAllConnections();
	await new Promise<void>((resolve) => other.close(() => resolve()));
}

describe('transport limits', () => {
	it('does not follow a redirect, so the API key never reaches the other origin', async () => {
		const seen: Array<string | undefined> = [];
		const elsewhere = await listen((request, response) => {
			seen.push(request.headers['x-api-key'] as string | undefined);
			response.end('[]');
		});
		try {
			server.respond({ status: 302, headers: { Location: `${elsewhere.url}/steal` } });
			const { error } = await probe({ method: 'GET', path: '/Job' }, { baseUrl: server.baseUrl });
			expect(server.requests).toHaveLength(1);
			expect(seen).toEqual([]);
			expect(error?.message).toBe(
				'The Trio VMS address sent the request elsewhere, which the node does not follow',
			);
			expect(error).toMatchObject({ httpCode: '302' });
			expect((error as { description?: string }).description).toMatch(/redirect/);
			expect((error as { description?: string }).description).toContain(
				'Status: 302 Found\nRequest: GET /Job',
			);
		} finally {
			await close(elsewhere.server);
		}
	});

	// Issue 27 point 13 changed this test: the deadline was twice the idle timeout, which cut off a
	// large list while its bytes still flowed. A trickle now runs into the exchange's ceiling.
	// On a stepped clock: a byte comes every half idle period of the transport's deadline clock,
	// whose time moves only when the test moves it, and the HTTP library's own timeout is far longer
	// than the test runs. So the ceiling ends each answer at the step it falls on, however busy the
	// machine is.
	it('gives up on an answer that keeps trickling in, at the ceiling for the whole exchange, without retrying forever', async () => {
		const idleMs = 60_000;
		const answers: ServerResponse[] = [];
		const trickle = await listen((_request, response) => {
			answers.push(response);
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.write('[');
		});
		const time = steppedClock();
		useDeadlineClock(time.clock);
		try {
			const run = probe(
				{ method: 'GET', path: '/Job' },
				{
					baseUrl: trickle.url,
					clientOptions: {
						timeoutMs: idleMs,
						maxExchangeMs: 3 * idleMs,
						retry: { ...FAST_RETRY, maxRetries: 1 },
					},
				},
			);
			/** For each answer: whether a deadline still watched it after each half idle period. */
			const watched: boolean[][] = [];
			for (let attempt = 0; attempt < 2; attempt++) {
				const answer = await waitUntil(`answer ${attempt + 1}`, () => answers[attempt], {
					timeoutMs: 30_000,
					intervalMs: 5,
				});
				let closed = false;
				answer.on('close', () => (closed = true));
				// The ceiling is three idle periods: six half periods, each with a byte.
				const steps: boolean[] = [];
				for (let step = 0; step < 6; step++) {
					answer.write(' ');
					await time.advance(idleMs / 2);
					steps.push(time.sleeping() > 0);
				}
				watched.push(steps);
				await waitUntil(`answer ${attempt + 1} cut off`, () => closed || undefined, {
					timeoutMs: 30_000,
					intervalMs: 5,
				});
			}
			const { error } = await run;
			expect(error?.message).toMatch(/did not answer GET \/Job in time \(ETIMEDOUT\)/);
			// The first try and one retry, each still read past twice the idle timeout while bytes
			// kept coming, and cut off at the ceiling; no third try.
			const readToTheCeiling = [true, true, true, true, true, false];
			expect(watched).toEqual([readToTheCeiling, readToTheCeiling]);
			expect(answers).toHaveLength(2);
		} finally {
			useDeadlineClock(undefined);
			await close(trickle.server);
		}
	});

	it('stops reading an answer larger than the bound and says so, without retrying', async () => {
		let requests = 0;
		const big = await listen((_request, response) => {
			requests++;
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(`[${'1,'.repeat(50_000)}1]`);
		});
		try {
			const { error } = await probe(
				{ method: 'GET', path: '/Job' },
				{
					baseUrl: big.url,
					apiKey: API_KEY,
					clientOptions: { maxResponseBytes: 10_000, retry: FAST_RETRY },
				},
			);
			expect(error?.message).toMatch(/with more than the node reads/);
			expect(requests).toBe(1);
		} finally {
			await close(big.server);
		}
	});
	it('refuses an answer that declares a length beyond the bound before reading its body', async () => {
		let requests = 0;
		// Declares 20,000 bytes, sends ten and holds the rest: only the declared length can tell.
		const declared = await listen((_request, response) => {
			requests++;
			response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '20000' });
			response.write('[1,1,1,1,1');
		});
		try {
			const { error } = await probe(
				{ method: 'GET', path: '/Job' },
				{
					baseUrl: declared.url,
					apiKey: API_KEY,
					clientOptions: { maxResponseBytes: 10_000, retry: FAST_RETRY, timeoutMs: 600_000 },
				},
			);
			expect(error?.message).toMatch(/with more than the node reads/);
			expect(requests).toBe(1);
		} finally {
			await close(declared.server);
		}
	});

	it('reads a chunked answer without a declared length whole, and still bounds it', async () => {
		const chunked = await listen((request, response) => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			const count = request.url?.includes('big') ? 5_000 : 500;
			response.write('[');
			for (let index = 0; index < count; index++) response.write(`${index},`);
			response.end(`${count}]`);
		});
		try {
			const small = await probe(
				{ method: 'GET', path: '/Job' },
				{ baseUrl: chunked.url, apiKey: API_KEY, clientOptions: { retry: FAST_RETRY } },
			);
			expect(small.error).toBeUndefined();
			expect(small.bodies[0]).toHaveLength(501);
			const big = await probe(
				{ method: 'GET', path: '/Job', query: { big: 1 } },
				{
					baseUrl: chunked.url,
					apiKey: API_KEY,
					clientOptions: { maxResponseBytes: 10_000, retry: FAST_RETRY },
				},
			);
			expect(big.error?.message).toMatch(/with more than the node reads/);
		} finally {
			await close(chunked.server);
		}
	});
});
