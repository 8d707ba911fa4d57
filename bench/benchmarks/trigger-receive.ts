/**
 * The trigger's receive pipeline for one Per Diem Shift Opened delivery of 200 shifts, as the
 * Trio VMS Trigger's webhook() runs it: judge the delivery (token, event, JSON body), fingerprint
 * it for duplicates, then check it against the event's schema and split it into one item per
 * shift. Pure functions, no engine. The delivery is the sandbox's own: its exact bytes are
 * captured once by a local receiver registered for the event.
 * Baseline: JSON.parse of the same body.
 */
import { hashToken } from '../../nodes/TrioVmsTrigger/deliveryToken';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDataObject } from 'n8n-workflow';

import {
	DEFAULT_WINDOW,
	DeliveryMemory,
	deliveryFingerprint,
} from '../../nodes/TrioVmsTrigger/dedup';
import { buildItems, judgeDelivery } from '../../nodes/TrioVmsTrigger/judge';
import { benchmarkCase, type BenchContext, type BenchmarkDefinition } from '../runner';
import { callJson } from '../support';

const SHIFTS = 200;
const EVENT = 'Per Diem Shift Opened';
const TOKEN = 'bench-token-0123456789abcdef';
const TOKEN_HASH = hashToken(TOKEN);

interface Delivery {
	query: Record<string, string>;
	contentType: string | undefined;
	rawBody: Buffer;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks)));
		request.on('error', reject);
	});
}

/** Opens SHIFTS shifts in the sandbox and returns the delivery it sends, as received (at most 30 s). */
async function captureDelivery(context: BenchContext): Promise<Delivery> {
	let received: (delivery: Delivery) => void = () => undefined;
	const delivery = new Promise<Delivery>((resolve) => (received = resolve));
	const server = createServer((request, response) => {
		void readBody(request).then((rawBody) => {
			const url = new URL(request.url ?? '/', 'http://127.0.0.1');
			response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
			received({
				query: Object.fromEntries(url.searchParams),
				contentType: request.headers['content-type'],
				rawBody,
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const query = new URLSearchParams({ event: EVENT, token: TOKEN });
	const registration = await callJson<IDataObject>(`${context.apiUrl}/Webhooks`, {
		method: 'POST',
		key: context.adminKey,
		body: {
			Name: 'bench receiver',
			Url: `http://127.0.0.1:${port}/webhook/bench?${query}`,
			Events: [EVENT],
			IsActive: true,
		},
	});
	try {
		await callJson(`${context.url}/_sandbox/per-diem/shifts`, {
			method: 'POST',
			body: { count: SHIFTS },
		});
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error('No delivery arrived within 30 s')), 30_000);
		});
		return await Promise.race([delivery, timeout]).finally(() => clearTimeout(timer));
	} finally {
		await callJson(`${context.apiUrl}/Webhooks`, {
			method: 'POST',
			key: context.adminKey,
			body: { ...registration, IsActive: false },
		});
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}
}

export const benchmarks: BenchmarkDefinition[] = [
	{
		id: 'trigger-receive-shifts',
		title: `Trigger receive, Per Diem Shift Opened, ${SHIFTS} shifts`,
		node: 'judgeDelivery + deliveryFingerprint (duplicate memory) + buildItems with split, on the raw bytes',
		baseline: 'JSON.parse of the same body',
		async prepare(context) {
			const delivery = await captureDelivery(context);
			// A fresh memory per operation: the same delivery must not be dropped as a duplicate.
			const receive = () => {
				const verdict = judgeDelivery({
					expectedTokenHash: TOKEN_HASH,
					query: delivery.query,
					contentType: delivery.contentType,
					parsedBody: undefined,
					rawBody: delivery.rawBody,
					selectedEvents: [EVENT],
				});
				if (verdict.kind !== 'accept')
					throw new Error(`The delivery was not accepted: ${verdict.kind}`);
				if (
					new DeliveryMemory().seen(
						'bench',
						deliveryFingerprint(verdict.event, verdict.payload),
						DEFAULT_WINDOW,
					)
				) {
					throw new Error('A first delivery was taken for a duplicate');
				}
				return buildItems({
					event: verdict.event,
					payload: verdict.payload,
					receivedAt: new Date().toISOString(),
					split: true,
				});
			};
			return benchmarkCase({
				node: async () => receive(),
				baseline: async () => JSON.parse(delivery.rawBody.toString('utf8')) as IDataObject,
				check(items, payload) {
					if (items.length !== SHIFTS) throw new Error(`The pipeline made ${items.length} items`);
					const invalid = items.find((item) => item._validation);
					if (invalid)
						throw new Error(
							`The sandbox's delivery failed the schema: ${JSON.stringify(invalid._validation)}`,
						);
					if ((payload.Items as unknown[]).length !== SHIFTS)
						throw new Error('The baseline parsed the wrong body');
				},
				operationsPerRun: 20,
			});
		},
	},
];
