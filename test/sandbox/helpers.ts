import http from 'node:http';
import type { AddressInfo } from 'node:net';

import FormData from 'form-data';

import { startSandbox } from '../../sandbox';
import type { RunningSandbox, SandboxOptions } from '../../sandbox';

/** Response bodies are untyped JSON that the tests read field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A fixed day so seeded data is byte-identical on every run. */
export const REFERENCE_DATE = '2026-03-02T00:00:00Z';

export function start(options: SandboxOptions = {}): Promise<RunningSandbox> {
	return startSandbox({ quiet: true, referenceDate: REFERENCE_DATE, ...options });
}

export interface Answer<T = Json> {
	status: number;
	headers: Headers;
	body: T;
	text: string;
}

async function answer<T>(response: Response): Promise<Answer<T>> {
	const text = await response.text();
	let body: Json = text;
	try {
		body = text ? JSON.parse(text) : undefined;
	} catch {
		// plain-text answers stay text
	}
	return { status: response.status, headers: response.headers, body, text };
}

export interface ApiInit {
	method?: string;
	/** JSON body; a string is sent as is. */
	json?: unknown;
	body?: Buffer | string;
	headers?: Record<string, string>;
	/** The X-API-KEY value; defaults to the admin key, null sends none. */
	key?: string | null;
}

export async function api<T = Json>(
	sandbox: RunningSandbox,
	path: string,
	init: ApiInit = {},
): Promise<Answer<T>> {
	const headers: Record<string, string> = { ...init.headers };
	const key = init.key === undefined ? sandbox.adminKey : init.key;
	if (key !== null) headers['X-API-KEY'] = key;
	let body: Buffer | string | undefined = init.body;
	if (init.json !== undefined) {
		body = typeof init.json === 'string' ? init.json : JSON.stringify(init.json);
		headers['Content-Type'] ??= 'application/json';
	}
	const response = await fetch(`${sandbox.apiUrl}${path}`, {
		method: init.method ?? (body === undefined ? 'GET' : 'POST'),
		headers,
		body,
	});
	return answer<T>(response);
}

export async function scenario<T = Json>(
	sandbox: RunningSandbox,
	method: string,
	path: string,
	json?: unknown,
): Promise<Answer<T>> {
	const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
		method,
		headers: json === undefined ? {} : { 'Content-Type': 'application/json' },
		body: json === undefined ? undefined : JSON.stringify(json),
	});
	return answer<T>(response);
}

export interface FilePart {
	name?: string;
	content: Buffer | string;
	filename?: string;
	contentType?: string;
}

/** A multipart submission form; fields are sent as text parts, the file as CandidateProfileFile. */
export async function submit(
	sandbox: RunningSandbox,
	fields: Record<string, string | number>,
	file?: FilePart | null,
	key?: string,
): Promise<Answer> {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
	if (file !== null) {
		const part = file ?? {
			content: '%PDF-1.4 profile',
			filename: 'profile.pdf',
			contentType: 'application/pdf',
		};
		form.append(part.name ?? 'CandidateProfileFile', Buffer.from(part.content), {
			filename: part.filename ?? 'profile.pdf',
			contentType: part.contentType ?? 'application/pdf',
		});
	}
	return api(sandbox, '/Submission', {
		method: 'POST',
		body: form.getBuffer(),
		headers: form.getHeaders(),
		key,
	});
}

export interface Received {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: Json;
}

/** A local webhook receiver on 127.0.0.1 that records every POST. */
export class Receiver {
	readonly received: Received[] = [];
	status = 200;
	delayMs = 0;
	private server?: http.Server;
	private readonly timers = new Set<NodeJS.Timeout>();
	url = '';

	async start(): Promise<string> {
		this.server = http.createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk: Buffer) => chunks.push(chunk));
			req.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				let body: unknown = text;
				try {
					body = JSON.parse(text);
				} catch {
					// keep text
				}
				this.received.push({
					method: req.method ?? '',
					url: req.url ?? '',
					headers: req.headers,
					body,
				});
				const reply = () => {
					if (!res.destroyed) res.writeHead(this.status).end();
				};
				if (this.delayMs > 0) {
					const timer = setTimeout(() => {
						this.timers.delete(timer);
						reply();
					}, this.delayMs);
					this.timers.add(timer);
				} else reply();
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this.url;
	}

	/** Bodies received on a path whose query names the event (the trigger's URL scheme). */
	forEvent(event: string): Received[] {
		return this.received.filter(
			(r) => new URL(r.url, 'http://x').searchParams.get('event') === event,
		);
	}

	clear(): void {
		this.received.length = 0;
	}

	async stop(): Promise<void> {
		for (const timer of this.timers) clearTimeout(timer);
		if (!this.server) return;
		const server = this.server;
		await new Promise<void>((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	}
}

/** Registers one registration per event, each URL naming its event and a token, as the trigger does. */
export async function registerAll(
	sandbox: RunningSandbox,
	receiverUrl: string,
	events: readonly string[],
): Promise<Record<string, string>> {
	const ids: Record<string, string> = {};
	for (const event of events) {
		const result = await api(sandbox, '/Webhooks', {
			json: {
				Name: `n8n ${event}`,
				Url: `${receiverUrl}/hook?event=${encodeURIComponent(event)}&token=t0k%2Fen`,
				Events: [event],
				IsActive: true,
			},
		});
		if (result.status !== 200) throw new Error(`registration failed: ${result.text}`);
		ids[event] = result.body.Id;
	}
	return ids;
}
