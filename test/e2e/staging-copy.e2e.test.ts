/* eslint
	"@n8n/community-nodes/no-restricted-globals": "off",
	"@n8n/community-nodes/no-restricted-imports": "off"
	-- not in the package: n8n's rules for the code users install do not apply here */
/**
 * A staging copy of production's database never switches production's registrations off
 * (issue 27, point 1), in real n8n 2.x against the sandbox:
 *
 *   1. production n8n (behind a front proxy that is its public address, WEBHOOK_URL) activates
 *      a Trio VMS Trigger workflow: one registration per event at the sandbox;
 *   2. production stops, its user folder (SQLite database included) is copied, production
 *      starts again on its folder behind the same proxy;
 *   3. the copy starts as a second n8n at another address and switches the copied workflow
 *      off while production's address answers n8n's own "not registered" (production
 *      re-publishing), then on while it answers a bare 404 (the front proxy has no route for a
 *      moment, as an ingress during a restart);
 *   4. production's address answers again; the copy is deactivated.
 *
 * Production must still have its active registrations at the sandbox, and still receive.
 * Registrations are read through the sandbox's own API (GET /api/v3/Webhooks, admin key).
 *
 * Run `npm run build` first.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

import { isN8nWebhookNotRegistered } from '../../nodes/TrioVmsTrigger/ownership';
import { describeWithN8n } from '../../harness/availability';
import { startN8n, type N8nInstance } from '../../harness/n8n';
import { packPackage } from '../../harness/pack';
import type { RunningSandbox } from '../../sandbox';
import { callSandbox, startTestSandbox } from '../support/sandbox-client';

const NODE_TYPE = 'n8n-nodes-trio-vms.trioVmsTrigger';
const NODE_NAME = 'Trio VMS Trigger';
const EVENTS = ['Job Update', 'Submission Update'];

interface Registration {
	Id: string;
	Url: string;
	Events: string[];
	IsActive: boolean;
}

/** Every registration, through the sandbox's own API. */
const registrations = (sandbox: RunningSandbox) =>
	callSandbox<Registration[]>(sandbox, 'GET', '/api/v3/Webhooks', undefined, sandbox.adminKey);

type Route = 'forward' | 'no route';

/**
 * Production's public address: forwards to production's n8n, or, with 'no route', answers a
 * bare 404 as an ingress or load balancer does while it has no backend for a moment.
 */
async function startFrontProxy(): Promise<{
	url: string;
	setTarget(baseUrl: string): void;
	setRoute(route: Route): void;
	stop(): Promise<void>;
}> {
	let target = '';
	let route: Route = 'forward';
	const agent = new http.Agent({ keepAlive: false });
	const server = http.createServer((request, response) => {
		if (route === 'no route' || !target) {
			request.resume();
			response.writeHead(404, { 'content-type': 'text/html' });
			response.end(
				'<html><head><title>404 Not Found</title></head><body>404 Not Found</body></html>',
			);
			return;
		}
		const upstreamUrl = new URL(request.url ?? '/', target);
		const upstream = http.request(
			upstreamUrl,
			{ method: request.method, agent, headers: { ...request.headers, host: upstreamUrl.host } },
			(answer) => {
				response.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(response);
			},
		);
		upstream.setTimeout(60_000, () => upstream.destroy(new Error('backend timed out')));
		upstream.on('error', (error) => {
			if (!response.headersSent)
				response.writeHead(502, { 'content-type': 'text/plain' }).end(error.message);
			else response.destroy(error);
		});
		request.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}/`,
		setTarget: (baseUrl) => {
			target = baseUrl;
		},
		setRoute: (next) => {
			route = next;
		},
		stop: async () => {
			agent.destroy();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

async function activate(n8n: N8nInstance, workflowId: string): Promise<void> {
	await n8n.activate(workflowId);
	const status = await n8n.settlePublication(workflowId);
	if (status && status.status !== 'published') {
		throw new Error(
			`activation ${status.status}: ${status.triggers.map((t) => t.errorMessage).join('; ')}`,
		);
	}
}

async function deactivate(n8n: N8nInstance, workflowId: string): Promise<void> {
	await n8n.deactivate(workflowId);
	await n8n.settlePublication(workflowId);
}

describeWithN8n('2.x', 'a staging copy of production in real n8n 2.x', () => {
	let sandbox: RunningSandbox;
	let proxy: Awaited<ReturnType<typeof startFrontProxy>>;
	let production: N8nInstance | undefined;
	let staging: N8nInstance | undefined;
	const folders: string[] = [];

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		proxy = await startFrontProxy();
	});

	afterAll(async () => {
		await staging?.stop();
		await production?.stop();
		await proxy?.stop();
		await sandbox?.stop();
		for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
	});

	test("a copy switched off and on while production's address answered 'not registered' and a bare 404, then deactivated, leaves production's registrations active", async () => {
		const tarball = await packPackage();
		const productionFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-staging-e2e-production-'));
		folders.push(productionFolder);
		const productionEnv = { WEBHOOK_URL: proxy.url, N8N_WEBHOOK_URL: proxy.url };
		production = await startN8n({
			line: '2.x',
			tarball,
			userFolder: productionFolder,
			env: productionEnv,
		});
		proxy.setTarget(production.baseUrl);

		// n8n's own answer for a webhook path no active workflow holds: the one 404 the trigger
		// takes as "nobody there" (checked here against the real n8n, not only in the unit tests).
		const unknownUrl = `${proxy.url}webhook/${randomUUID()}/webhook?event=Job%20Update&probe=x`;
		const unknown = await fetch(unknownUrl, {
			method: 'POST',
			body: '{}',
			headers: { 'content-type': 'application/json' },
		});
		const unknownBody = (await unknown.json()) as unknown;
		expect(isN8nWebhookNotRegistered(unknown.status, unknownBody, unknownUrl)).toBe(true);

		const credential = await production.createCredential('Trio sandbox (admin)', 'trioVmsApi', {
			apiKey: sandbox.adminKey,
			environment: 'custom',
			baseUrl: sandbox.url,
		});
		const webhookId = randomUUID();
		const workflow = await production.createWorkflow({
			name: 'Shifts to Slack',
			nodes: [
				{
					id: randomUUID(),
					name: NODE_NAME,
					type: NODE_TYPE,
					typeVersion: 1,
					position: [0, 0],
					webhookId,
					parameters: { events: EVENTS },
					credentials: { trioVmsApi: { id: credential.id, name: credential.name } },
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		await activate(production, workflow.id);
		const productionUrl = `${proxy.url}webhook/${webhookId}/webhook`;
		const atProduction = async () =>
			(await registrations(sandbox)).filter(
				(r) => r.IsActive && r.Url.startsWith(`${productionUrl}?`),
			);
		const before = await atProduction();
		expect(before.map((r) => r.Events[0]).sort()).toEqual([...EVENTS].sort());

		// The database copy: production stops, its folder is copied, production comes back on it.
		await production.stop();
		const stagingFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-staging-e2e-copy-'));
		folders.push(stagingFolder);
		fs.cpSync(productionFolder, stagingFolder, { recursive: true });
		production = await startN8n({
			line: '2.x',
			tarball: [],
			userFolder: productionFolder,
			env: productionEnv,
		});
		proxy.setTarget(production.baseUrl);
		staging = await startN8n({ line: '2.x', tarball: [], userFolder: stagingFolder });
		const stagingUrl = staging.productionWebhookUrl(webhookId, 'webhook');
		expect(stagingUrl.startsWith(proxy.url)).toBe(false);

		// Staging switches the copied workflow off while production re-publishes: for that moment
		// production's address answers n8n's own "not registered" (here from an n8n that does not
		// hold the workflow, standing in for production between unpublishing and publishing).
		const republishing = await startN8n({ line: '2.x', tarball: [] });
		try {
			proxy.setTarget(republishing.baseUrl);
			await deactivate(staging, workflow.id);
		} finally {
			proxy.setTarget(production.baseUrl);
			await republishing.stop();
		}
		expect(await atProduction()).toEqual(before);

		// Staging switches it on again while production's address has no route (a bare 404).
		proxy.setRoute('no route');
		try {
			await activate(staging, workflow.id);
		} finally {
			proxy.setRoute('forward');
		}
		const atStaging = (await registrations(sandbox)).filter(
			(r) => r.IsActive && r.Url.startsWith(`${stagingUrl}?`),
		);
		expect(atStaging.map((r) => r.Events[0]).sort()).toEqual([...EVENTS].sort());
		expect(await atProduction()).toEqual(before);

		// Staging is switched off: only its own registrations go.
		await deactivate(staging, workflow.id);
		const after = await atProduction();
		const allActive = (await registrations(sandbox)).filter((r) => r.IsActive);
		process.stdout.write(
			`[staging-copy] registrations active at production's address at the end: ${after.length} of ${before.length}; active anywhere: ${allActive.length}\n`,
		);
		expect(after).toEqual(before);
		expect(allActive).toEqual(before);

		// And production still receives: a new job reaches its workflow.
		await callSandbox(sandbox, 'POST', '/_sandbox/jobs', {});
		await sandbox.idle();
		const executions = await production.waitForExecutions(workflow.id, 1, 60_000);
		expect(executions.length).toBeGreaterThanOrEqual(1);
		// Four n8n starts on a shared 2-core machine: a bound, not a speed claim.
	}, 900_000);
});
