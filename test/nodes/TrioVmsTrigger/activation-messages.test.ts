/**
 * Issue 26 point 5: when publishing fails, n8n 2.x shows only the error's message, so every
 * activation error whose fix is known carries that fix in the message itself. A small fake Trio
 * (127.0.0.1) answers what the sandbox never does: an event list without some events, and a
 * registration saved without an Id.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { TRIO_EVENT_NAMES } from '../../../nodes/shared/events';
import { PUBLIC_ADDRESS_FIX } from '../../../nodes/shared/publicAddress';
import { trioCredentials } from '../../../harness/engine/engine';
import { triggerHooks } from '../../../harness/engine/trigger-hooks';

let offered: string[] = [...TRIO_EVENT_NAMES];
let server: Server;
let baseUrl = '';

beforeAll(async () => {
	server = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			const path = (request.url ?? '').split('?')[0];
			let body: unknown = [];
			if (request.method === 'GET' && path.endsWith('/Webhooks/Events')) body = offered;
			else if (request.method === 'POST' && path.endsWith('/Webhooks')) body = {}; // no Id
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(JSON.stringify(body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
	offered = [...TRIO_EVENT_NAMES];
});

async function activationError(events: string[]): Promise<Error> {
	const hooks = triggerHooks({
		parameters: { events },
		credentials: trioCredentials(baseUrl, 'admin-key'),
	});
	const error = await hooks.activate().then(
		() => undefined,
		(failure: Error) => failure,
	);
	expect(error).toBeInstanceOf(Error);
	return error as Error;
}

describe('activation errors carry their fix in the message', () => {
	it('an event Trio does not offer: remove it from Events or ask the MSP', async () => {
		offered = TRIO_EVENT_NAMES.filter((event) => event !== 'Submission Update');
		const error = await activationError(['Job Update', 'Submission Update']);
		expect(error.message).toBe(
			'Trio VMS does not offer "Submission Update" to your agency. Remove it from Events, or ask your MSP contact to turn it on.',
		);
	});

	it('a registration the service did not confirm: publish again, then check the registrations', async () => {
		const error = await activationError(['Job Update']);
		expect(error.message).toMatch(/did not confirm it\. Publish the workflow again/);
		expect(error.message).toMatch(/Webhook, Get Many/);
	});

	it('the one-line fix for an unreachable address names WEBHOOK_URL and the Sync Trigger', () => {
		expect(PUBLIC_ADDRESS_FIX).toMatch(/WEBHOOK_URL/);
		expect(PUBLIC_ADDRESS_FIX).toMatch(/Sync Trigger, which needs no public address/);
		expect(PUBLIC_ADDRESS_FIX).not.toMatch(/\n/);
	});
});
