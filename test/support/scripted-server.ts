/**
 * A small HTTP server for transport tests: it answers each request with the next scripted
 * response and records what it received (raw URL, headers, body bytes, timestamps), so tests
 * can check what really went over the wire.
 */
import {
	createServer,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface ScriptedResponse {
	status?: number;
	headers?: Record<string, string>;
	/** Sent as application/json. */
	json?: unknown;
	/** Sent as is; give a content-type header for anything but text/plain. */
	body?: string | Buffer;
	/** Read the whole request, then destroy the socket without answering. */
	destroy?: boolean;
	/** Wait this long before answering (or destroying), e.g. to outlast a client timeout. */
	delayMs?: number;
}

export interface RecordedRequest {
	method: string;
	/** Exactly as sent, still percent-encoded: '/api/v3/Job/a%2Fb?x=1'. */
	url: string;
	/** The URL's path part, still percent-encoded. */
	path: string;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	body: Buffer;
	/** Wall clock when the request's headers arrived. */
	receivedAt: number;
	/** performance.now() when the request's headers arrived. */
	receivedAtMono: number;
	/** performance.now() just before the answer was written (or the socket destroyed). */
	answeredAtMono: number;
	text(): string;
	json(): unknown;
}

export class ScriptedServer {
	readonly requests: RecordedRequest[] = [];

	private readonly queue: ScriptedResponse[] = [];

	private readonly timers = new Set<NodeJS.Timeout>();

	private readonly server: Server;

	private address = '';

	private constructor() {
		this.server = createServer((request, response) => this.receive(request, response));
	}

	/**
	 * One server for the calling test file: listening before its first test, forgetting
	 * requests and queued answers after each test, closed after the last.
	 */
	static forEachTest(): ScriptedServer {
		const instance = new ScriptedServer();
		beforeAll(() => instance.listen());
		afterEach(() => instance.reset());
		afterAll(() => instance.close());
		return instance;
	}

	/** Listens on 127.0.0.1, on a free port. */
	private async listen(): Promise<void> {
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		const { port } = this.server.address() as AddressInfo;
		this.address = `http://127.0.0.1:${port}`;
	}

	/** http://127.0.0.1:<port>, without a trailing slash. */
	get baseUrl(): string {
		return this.address;
	}

	private receive(request: IncomingMessage, response: ServerResponse): void {
		const receivedAtMono = performance.now();
		const receivedAt = Date.now();
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const url = request.url ?? '/';
			const [path, search = ''] = url.split('?', 2);
			const body = Buffer.concat(chunks);
			const recorded: RecordedRequest = {
				method: request.method ?? 'GET',
				url,
				path,
				query: new URLSearchParams(search),
				headers: request.headers,
				body,
				receivedAt,
				receivedAtMono,
				answeredAtMono: Number.NaN,
				text: () => body.toString('utf8'),
				json: () => JSON.parse(body.toString('utf8')) as unknown,
			};
			this.requests.push(recorded);
			const scripted = this.queue.shift() ?? {
				status: 500,
				body: `Scripted server: nothing queued for ${recorded.method} ${url}`,
			};
			if (!scripted.delayMs) {
				this.answer(scripted, response, recorded);
				return;
			}
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				// The client may have given up and closed the connection meanwhile.
				if (!response.socket?.destroyed) this.answer(scripted, response, recorded);
			}, scripted.delayMs);
			this.timers.add(timer);
		});
	}

	/** Queues answers for the next requests, in order. */
	respond(...responses: ScriptedResponse[]): this {
		this.queue.push(...responses);
		return this;
	}

	/** Forgets recorded requests and queued answers (between tests). */
	reset(): void {
		this.requests.length = 0;
		this.queue.length = 0;
	}

	get pending(): number {
		return this.queue.length;
	}

	async close(): Promise<void> {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private answer(
		scripted: ScriptedResponse,
		response: ServerResponse,
		recorded: RecordedRequest,
	): void {
		if (scripted.destroy) {
			recorded.answeredAtMono = performance.now();
			response.socket?.destroy();
			return;
		}
		const headers: Record<string, string> = { ...scripted.headers };
		let payload: string | Buffer = '';
		if (scripted.json !== undefined) {
			payload = JSON.stringify(scripted.json);
			headers['content-type'] ??= 'application/json; charset=utf-8';
		} else if (scripted.body !== undefined) {
			payload = scripted.body;
			headers['content-type'] ??= 'text/plain; charset=utf-8';
		}
		// Taken before writing: the client cannot have seen the answer earlier than this.
		recorded.answeredAtMono = performance.now();
		response.writeHead(scripted.status ?? 200, headers);
		response.end(payload);
	}
}
