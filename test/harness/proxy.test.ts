/**
 * The queue stack's balancer (harness/queue.ts) behaves as real ones do where a test can tell.
 * A backend that answers a large upload before reading it and drops the connection (n8n's 404
 * for a webhook it does not know yet, its socket closed with the body unread) leaves the client
 * with a complete answer, that 404 or the balancer's 502 as nginx gives, never a reset connection
 * (queue-mode.e2e's test 5 failed so once). An answer cut off halfway reaches the client cut off.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { startRoundRobinProxy } from '../../harness/queue';

type RoundRobinProxy = Awaited<ReturnType<typeof startRoundRobinProxy>>;

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

async function startBackend(handler: Handler): Promise<{ url: string; stop(): Promise<void> }> {
	const server = http.createServer(handler);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/`,
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

describe('the queue stack balancer', () => {
	let proxy: RoundRobinProxy | undefined;
	let backend: { url: string; stop(): Promise<void> } | undefined;

	afterEach(async () => {
		await proxy?.stop();
		await backend?.stop();
		proxy = backend = undefined;
	});

	// 3 MB: a 2.4 MB file as base64 in JSON, what queue-mode.e2e's test 5 sends.
	const upload = JSON.stringify({ content: 'A'.repeat(3_200_000) });

	test('answers a client whose upload the backend refused unread, instead of resetting it', async () => {
		// What n8n's server does for a webhook it does not know yet: answers at once with the body
		// unread and, the balancer having asked for a connection per request, closes the socket.
		backend = await startBackend((_request, response) => {
			response.writeHead(404, { 'content-type': 'application/json' });
			response.end('{"message":"The requested webhook is not registered."}');
		});
		proxy = await startRoundRobinProxy([backend.url]);
		const statuses: number[] = [];
		for (let attempt = 0; attempt < 10; attempt++) {
			const answer = await fetch(`${proxy.url}webhook/abc/trio`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: upload,
			});
			await answer.arrayBuffer();
			statuses.push(answer.status);
		}
		expect(statuses.filter((status) => status !== 404 && status !== 502)).toEqual([]);
	});

	test('passes a whole upload and its answer', async () => {
		backend = await startBackend((request, response) => {
			let length = 0;
			request.on('data', (chunk: Buffer) => (length += chunk.length));
			request.on('end', () => response.end(JSON.stringify({ length })));
		});
		proxy = await startRoundRobinProxy([backend.url]);
		const answer = await fetch(proxy.url, { method: 'POST', body: upload });
		expect(await answer.json()).toEqual({ length: Buffer.byteLength(upload) });
	});

	test('cuts off the answer of a backend that dropped the connection halfway through it', async () => {
		backend = await startBackend((request, response) => {
			request.resume();
			response.writeHead(200, { 'content-length': '1000' });
			response.write('x'.repeat(10));
			setTimeout(() => request.socket.destroy(), 50);
		});
		proxy = await startRoundRobinProxy([backend.url]);
		const answer = await fetch(proxy.url, { method: 'POST', body: 'small' });
		expect(answer.status).toBe(200);
		await expect(answer.text()).rejects.toThrow();
	});
});
