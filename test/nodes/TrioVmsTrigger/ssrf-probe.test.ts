/**
 * The copy probe under n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED, n8n 2.41): the
 * address the remembered registrations were made for is often private or loopback, so n8n
 * refuses to send the probe. A refused probe is doubt, never "nobody there": the copy registers
 * its own and leaves the original's alone. Runs n8n-core's real OutboundHttp and
 * SsrfProtectionService in-process (harness/engine), configured from the environment as
 * n8n configures them; a file of its own because @n8n/config reads the environment once.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import type { WebhookRegistration } from '../../../nodes/shared/schemas';
import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { trioCredentials } from '../../../harness/engine/engine';
import { triggerHooks } from '../../../harness/engine/trigger-hooks';

const SSRF_ENV = {
	N8N_SSRF_PROTECTION_ENABLED: 'true',
	// Trio (the sandbox) is allowed by name, as docs/production.md tells administrators to do;
	// every other loopback or private address stays blocked (n8n's default ranges).
	N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost',
};
const saved: Record<string, string | undefined> = {};
for (const [name, value] of Object.entries(SSRF_ENV)) {
	saved[name] = process.env[name];
	process.env[name] = value;
}

let sandbox: RunningSandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
	await sandbox.stop();
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

/** The sandbox by name (allowed), where the trigger's credential points. */
function trioByName(): string {
	return sandbox.url.replace('127.0.0.1', 'localhost');
}

async function active(): Promise<WebhookRegistration[]> {
	const response = await fetch(`${sandbox.apiUrl}/Webhooks`, {
		headers: { 'X-API-KEY': sandbox.adminKey },
	});
	return ((await response.json()) as WebhookRegistration[]).filter((r) => r.IsActive);
}

it("counts a probe n8n's SSRF protection refuses as doubt: the copy leaves the original's registrations alone", async () => {
	// Production's old address answers n8n's own "not registered" (it is restarting): reached,
	// that would read as "nobody there". Its address is loopback, which n8n refuses to reach.
	let probes = 0;
	const door = createServer((request, response) => {
		probes++;
		const path = new URL(request.url ?? '/', 'http://x').pathname.replace(/^\/webhook\//, '');
		response.writeHead(404, { 'Content-Type': 'application/json' });
		response.end(
			JSON.stringify({
				code: 404,
				message: `The requested webhook "POST ${path}" is not registered.`,
			}),
		);
	});
	await new Promise<void>((resolve) => door.listen(0, '127.0.0.1', resolve));
	const { port } = door.address() as AddressInfo;
	const warn = jest.spyOn(Container.get(Logger), 'warn');
	try {
		const original = triggerHooks({
			parameters: { events: ['Job Update'] },
			credentials: trioCredentials(trioByName(), sandbox.adminKey),
			workflowName: 'Shifts to Slack',
			instanceUrl: `http://127.0.0.1:${port}`,
		});
		await original.activate();
		const production = await active();
		expect(production).toHaveLength(1);

		const copy = triggerHooks({
			parameters: { events: ['Job Update'] },
			credentials: trioCredentials(trioByName(), sandbox.adminKey),
			workflowName: 'Shifts to Slack',
			instanceUrl: 'http://localhost:5679',
			workflowId: original.workflowId,
			nodeId: original.node.id,
			webhookId: original.node.webhookId,
			staticData: { 'node:Trio VMS Trigger': original.staticData() },
		});
		await copy.activate();
		expect(probes).toBe(0);
		const said = warn.mock.calls.map(([message]) => String(message)).join('\n');
		expect(said).toMatch(/could not be told \(The request was blocked/);
		expect(said).toContain(
			"n8n's SSRF protection does not let this n8n reach 127.0.0.1; to let it tell, allow that address with N8N_SSRF_ALLOWED_HOSTNAMES or N8N_SSRF_ALLOWED_IP_RANGES",
		);
		expect((await active()).filter((r) => r.Id === production[0].Id)).toEqual(production);
		await copy.deactivate();
		expect(await active()).toEqual(production);
	} finally {
		warn.mockRestore();
		await new Promise<void>((resolve) => door.close(() => resolve()));
	}
});
