/**
 * Webhook deliveries: the payload of an event is POSTed as JSON to every active registration
 * subscribed to it, exactly at the registered URL. Deliveries never hold up the API answer that
 * caused them; `idle()` lets tests wait for them.
 */
import http from 'node:http';
import https from 'node:https';

import { WEBHOOK_RESPONSE_LIMIT_MS } from './service-rules';
import type { Registration } from './types';
import { EVENT_PAYLOADS, type EventName } from './wire';

export interface DeliveryRecord {
	id: number;
	registrationId: string;
	registrationName: string;
	event: EventName;
	url: string;
	/** 1 for the delivery, 2.. for configured duplicates of it. */
	attempt: number;
	status: number | null;
	ok: boolean;
	error: string | null;
	durationMs: number;
	startedUtc: string;
	/** The payload as sent: every event's payload is a JSON object. */
	body: Record<string, unknown>;
}

export interface DeliveriesOptions {
	registrations: () => readonly Registration[];
	duplicates: () => number;
	timeoutMs?: number;
	log?: (line: string) => void;
}

/** Keeps a long CLI session from growing without bound; tests clear the log long before. */
const LOG_LIMIT = 10_000;
const USER_AGENT = 'Trio-VMS-Sandbox-Webhooks/1.0';

export class Deliveries {
	private readonly log: DeliveryRecord[] = [];
	private readonly pending = new Set<Promise<void>>();
	private readonly inFlight = new Set<http.ClientRequest>();
	private nextId = 1;
	private stopped = false;

	constructor(private readonly options: DeliveriesOptions) {}

	/**
	 * Checks the payload against the sandbox's own reading of the event (wire.ts) first: a
	 * payload that does not match is a sandbox bug and must fail loudly (the API answers 500)
	 * rather than teach clients a shape the service never sends. Returns how many registrations
	 * will receive it.
	 */
	dispatch(event: EventName, payload: unknown): number {
		const checked = EVENT_PAYLOADS[event].safeParse(payload);
		if (!checked.success) {
			throw new Error(
				`sandbox bug: the ${event} payload does not match its schema: ${checked.error.message}`,
			);
		}
		if (this.stopped) return 0;
		const body = payload as Record<string, unknown>;
		const targets = this.options
			.registrations()
			.filter((registration) => registration.IsActive && registration.Events.includes(event));
		for (const registration of targets) {
			// Snapshot the registration: a later update must not redirect a delivery already due.
			const task = this.deliver({ ...registration }, event, body).finally(() =>
				this.pending.delete(task),
			);
			this.pending.add(task);
		}
		return targets.length;
	}

	private async deliver(
		registration: Registration,
		event: EventName,
		payload: Record<string, unknown>,
	): Promise<void> {
		const attempts = 1 + this.options.duplicates();
		// Duplicates follow the first delivery one after another, as a redelivery would.
		for (let attempt = 1; attempt <= attempts && !this.stopped; attempt++) {
			await this.post(registration, event, payload, attempt);
		}
	}

	private post(
		registration: Registration,
		event: EventName,
		payload: Record<string, unknown>,
		attempt: number,
	): Promise<void> {
		const started = Date.now();
		const body = JSON.stringify(payload);
		const timeoutMs = this.options.timeoutMs ?? WEBHOOK_RESPONSE_LIMIT_MS;
		const finish = (status: number | null, error: string | null) =>
			this.record({
				id: this.nextId++,
				registrationId: registration.Id,
				registrationName: registration.Name,
				event,
				url: registration.Url,
				attempt,
				status,
				ok: status !== null && status >= 200 && status < 300,
				error,
				durationMs: Date.now() - started,
				startedUtc: new Date(started).toISOString(),
				body: payload,
			});
		let request: http.ClientRequest;
		try {
			const url = new URL(registration.Url);
			const client = url.protocol === 'https:' ? https : http;
			// agent: false closes each connection after use, so stop() leaves no sockets behind.
			request = client.request(url, {
				method: 'POST',
				agent: false,
				headers: {
					'Content-Type': 'application/json; charset=utf-8',
					'Content-Length': String(Buffer.byteLength(body)),
					'User-Agent': USER_AGENT,
				},
			});
		} catch (error) {
			finish(null, (error as Error).message);
			return Promise.resolve();
		}
		return new Promise<void>((resolve) => {
			let settled = false;
			const timer = setTimeout(
				() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)),
				timeoutMs,
			);
			const settle = (status: number | null, error: string | null) => {
				if (settled) return;
				settled = true;
				clearTimeout(timer);
				finish(status, error);
				resolve();
			};
			this.inFlight.add(request);
			request.on('response', (response) => {
				// The receiver's body is irrelevant; the answer counts once it has fully arrived.
				response.resume();
				response.on('end', () => settle(response.statusCode ?? null, null));
				response.on('error', (error) => settle(response.statusCode ?? null, error.message));
			});
			request.on('error', (error) => settle(null, error.message));
			request.on('close', () => {
				this.inFlight.delete(request);
				settle(null, 'connection closed without an answer');
			});
			request.end(body);
		});
	}

	private record(entry: DeliveryRecord): void {
		this.log.push(entry);
		if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
		this.options.log?.(
			`→ ${entry.event} #${entry.attempt} ${entry.url} ${entry.status ?? entry.error} ${entry.durationMs}ms`,
		);
	}

	records(): DeliveryRecord[] {
		return [...this.log];
	}

	clear(): void {
		this.log.length = 0;
	}

	/** Resolves once no delivery is under way, including ones started while waiting. */
	async idle(): Promise<void> {
		while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
	}

	async stop(): Promise<void> {
		this.stopped = true;
		for (const request of this.inFlight) request.destroy(new Error('sandbox stopped'));
		await this.idle();
	}
}
