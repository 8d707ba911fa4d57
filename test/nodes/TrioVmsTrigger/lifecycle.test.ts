/**
 * The trigger's webhook methods (checkExists, create, delete) inside n8n-core's real
 * HookContext and its webhook() inside n8n-core's real WebhookContext (test/engine/trigger-hooks.ts),
 * against the local Trio VMS sandbox over real HTTP: registrations are read back from the
 * sandbox, changed through its API and failed with its faults. Only the HTTP request and
 * response objects of a delivery are stand-ins (see trigger-hooks.ts). Fast and in-process; the
 * same behaviour is checked through a real n8n in test/e2e/trigger.e2e.test.ts.
 */
import { createServer } from 'node:http';
import { Readable } from 'node:stream';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { WebhookRegistration } from '../../../nodes/shared/schemas';
import { startSandbox, type RunningSandbox } from '../../../sandbox';
import { SIMPLIFIED_JOB_FIELDS } from '../../../nodes/shared/jobOutput';
import { SIMPLE_SHIFT_FIELDS } from '../../../nodes/shared/shiftOutput';
import {
	SIMPLE_SUBMISSION_FIELDS,
	simplifySubmission,
} from '../../../nodes/shared/submissionOutput';
import { deliveryMemory, memoryKey } from '../../../nodes/TrioVmsTrigger/dedup';
import {
	CLOCK_SKEW_SECONDS,
	FRESH_SECONDS,
	hashToken,
	tokenIssuedAt,
} from '../../../nodes/TrioVmsTrigger/deliveryToken';
import { BODY_WAIT } from '../../../nodes/TrioVmsTrigger/deliveryRequest';
import { ABSENCE_CONFIRMATION } from '../../../nodes/TrioVmsTrigger/ownership';
import { TestCredentialsHelper } from '../../../harness/engine/credentials-helper';
import { trioCredentials } from '../../../harness/engine/engine';
import {
	triggerHooks,
	type TriggerHooks,
	type WebhookTarget,
} from '../../../harness/engine/trigger-hooks';
import type { TrioEventName } from '../../../nodes/shared/events';
import { PAYLOADS } from '../../support/trigger-payloads';

let sandbox: RunningSandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, quiet: true });
});
afterAll(async () => {
	await sandbox.stop();
});
beforeEach(() => {
	// No registrations, faults or logged requests from an earlier test.
	sandbox.reset();
});

const INSTANCE = 'https://n8n.agency.test';

/** GET /api/v3/Webhooks with the admin key: every registration, active or not. */
async function registrations(): Promise<WebhookRegistration[]> {
	const response = await fetch(`${sandbox.apiUrl}/Webhooks`, {
		headers: { 'X-API-KEY': sandbox.adminKey },
	});
	expect(response.status).toBe(200);
	return (await response.json()) as WebhookRegistration[];
}

async function active(): Promise<WebhookRegistration[]> {
	return (await registrations()).filter((registration) => registration.IsActive);
}

/** Changes a registration at the service (POST /api/v3/Webhooks with its Id), as an admin could. */
async function changeAtService(
	registration: WebhookRegistration,
	changes: Partial<WebhookRegistration>,
): Promise<void> {
	const response = await fetch(`${sandbox.apiUrl}/Webhooks`, {
		method: 'POST',
		headers: { 'X-API-KEY': sandbox.adminKey, 'Content-Type': 'application/json' },
		body: JSON.stringify({ ...registration, ...changes }),
	});
	expect(response.status).toBe(200);
}

/** The API requests the sandbox received since the last reset, as "METHOD path status key". */
function requestLog(): string[] {
	return sandbox
		.requests()
		.map((request) => `${request.method} ${request.path} ${request.status} ${request.key}`);
}

function hooksFor(
	events: string[],
	extra: INodeParameters = {},
	apiKey = sandbox.adminKey,
	instanceUrl = INSTANCE,
): TriggerHooks {
	return triggerHooks({
		parameters: { events, ...extra },
		credentials: trioCredentials(sandbox.url, apiKey),
		workflowName: 'Shifts to Slack',
		instanceUrl,
	});
}

/** The trigger of a workflow in the n8n at `instanceUrl`, with the admin key. */
function hooksAt(instanceUrl: string, events = ['Job Update']): TriggerHooks {
	return hooksFor(events, {}, sandbox.adminKey, instanceUrl);
}

/** The same workflow (ids, static data) in another n8n at `instanceUrl`: a copy of the database. */
function sameWorkflowAt(
	original: TriggerHooks,
	instanceUrl: string,
	events = ['Job Update'],
): TriggerHooks {
	return triggerHooks({
		parameters: { events },
		credentials: trioCredentials(sandbox.url, sandbox.adminKey),
		workflowName: 'Shifts to Slack',
		instanceUrl,
		workflowId: original.workflowId,
		nodeId: original.node.id,
		webhookId: original.node.webhookId,
		staticData: { 'node:Trio VMS Trigger': original.staticData() },
	});
}

function scopeOf(
	hooks: TriggerHooks,
	target: WebhookTarget = 'production',
): { webhookUrl: string; tokenHash: string; ids: Record<string, string> } {
	const scope = target === 'production' ? 'production' : 'test';
	return hooks.staticData(target)[scope] as {
		webhookUrl: string;
		tokenHash: string;
		ids: Record<string, string>;
	};
}

/**
 * The token in the URLs of the node's active registrations at the service: n8n keeps only its
 * hash, so this is where a sender (and a test) finds it.
 */
async function tokenOf(hooks: TriggerHooks, target: WebhookTarget = 'production'): Promise<string> {
	const base = await hooks.webhookUrl(target);
	const tokens = new Set(
		(await active())
			.filter((registration) => registration.Url?.startsWith(`${base}?`))
			.map((registration) => new URL(registration.Url ?? '').searchParams.get('token')),
	);
	expect(tokens.size).toBe(1);
	return [...tokens][0] ?? '';
}

/** Activates expecting a refused registration; the event named in the failure. */
async function refusedRegistration(hooks: TriggerHooks): Promise<string | undefined> {
	const failure = await hooks.activate().then(
		() => undefined,
		(error: Error) => error,
	);
	return /Registering the Trio VMS webhook for "([^"]+)" failed/.exec(
		String(failure?.message),
	)?.[1];
}

describe('activation lifecycle', () => {
	it('creates one active registration per event, with the event and token in its URL', async () => {
		const hooks = hooksFor(['Job Update', 'Per Diem Shift Opened']);
		const url = await hooks.webhookUrl();
		// n8n's production URL: instance URL, /webhook/, the node's webhookId and the webhook's path.
		expect(url).toBe(`${INSTANCE}/webhook/${hooks.node.webhookId}/webhook`);

		expect(await hooks.activate()).toBe(false);
		// Registrations are saved a few at a time, so the service may store them in any order.
		const registered = (await active()).sort((a, b) =>
			String(a.Events?.[0]).localeCompare(String(b.Events?.[0])),
		);
		expect(registered).toHaveLength(2);
		const token = await tokenOf(hooks);
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		expect(registered.map((r) => [r.Name, r.Events, r.Url])).toEqual([
			[
				'n8n: Shifts to Slack (Job Update)',
				['Job Update'],
				`${url}?event=Job%20Update&token=${token}`,
			],
			[
				'n8n: Shifts to Slack (Per Diem Shift Opened)',
				['Per Diem Shift Opened'],
				`${url}?event=Per%20Diem%20Shift%20Opened&token=${token}`,
			],
		]);
		// What n8n saved (create changed the static data, so n8n's Workflow marked it for saving).
		// Only the token's hash is saved: static data is readable through n8n's API and backups.
		expect(scopeOf(hooks)).toEqual({
			webhookUrl: url,
			tokenHash: hashToken(token),
			ids: { 'Job Update': registered[0].Id, 'Per Diem Shift Opened': registered[1].Id },
			tokenIssuedAt: tokenIssuedAt(token),
		});
		// Every request carried the admin key from the credential, through its authenticate.
		expect(new Set(sandbox.requests().map((request) => request.key))).toEqual(new Set(['admin']));

		// Once in place, checkExists is true and nothing is sent again.
		sandbox.clearRequests();
		expect(await hooks.activate()).toBe(true);
		expect(requestLog()).toEqual(['GET /api/v3/Webhooks 200 admin']);
	});

	it('deactivates on delete, clears static data, and reuses the registrations on the next activation', async () => {
		const hooks = hooksFor(['Job Update', 'Submission Update']);
		for (let cycle = 0; cycle < 3; cycle++) {
			await hooks.activate();
			expect(await active()).toHaveLength(2);
			await hooks.deactivate();
			expect(await active()).toHaveLength(0);
			expect(hooks.staticData()).toEqual({});
		}
		// Reused by URL + event rather than piled up.
		expect(await registrations()).toHaveLength(2);
	});

	it('switches off events that are no longer selected', async () => {
		const hooks = hooksFor(['Job Update', 'Submission Update']);
		await hooks.activate();
		hooks.edit({ events: ['Job Update'] });
		expect(await hooks.activate()).toBe(false);
		expect((await active()).map((r) => r.Events?.[0])).toEqual(['Job Update']);
		expect(Object.keys(scopeOf(hooks).ids)).toEqual(['Job Update']);
	});

	it('registers again, and leaves alone, a registration whose URL was changed at the service to another address', async () => {
		// Whoever pointed it elsewhere (an admin, or another n8n with a copy of this workflow)
		// relies on it: a remembered Id is no licence to repoint it (issue 27, point 1).
		const hooks = hooksFor(['Job Update']);
		await hooks.activate();
		const [registration] = await registrations();
		await changeAtService(registration, { Url: 'https://elsewhere.example.com/hook' });
		const [changed] = await registrations();
		expect(changed.Url).toBe('https://elsewhere.example.com/hook');

		expect(await hooks.activate()).toBe(false);
		const after = await active();
		expect(after).toHaveLength(2);
		expect(after.find((r) => r.Id === registration.Id)).toEqual(changed);
		const own = after.find((r) => r.Id !== registration.Id);
		expect(own).toMatchObject({
			IsActive: true,
			Url: `${await hooks.webhookUrl()}?event=Job%20Update&token=${await tokenOf(hooks)}`,
		});
		expect(scopeOf(hooks).ids).toEqual({ 'Job Update': own?.Id });
		await hooks.deactivate();
		expect(await active()).toEqual([changed]);
	});

	it("moves the registrations when n8n's webhook address changes and the old address still reaches this n8n", async () => {
		await withFrontDoor(async (door) => {
			const hooks = await activeBehind(door);
			// n8n restarts with another WEBHOOK_URL and re-activates the workflow ('init'); the old
			// address still routes to it, so its own probe reaches itself.
			hooks.instanceUrl = 'https://new-host.agency.test';
			const moved = await hooks.webhookUrl();
			expect(moved).toBe(`https://new-host.agency.test/webhook/${hooks.node.webhookId}/webhook`);
			expect(await hooks.activate({ activation: 'init' })).toBe(false);
			const after = await registrations();
			expect(after).toHaveLength(1);
			expect(after[0].IsActive).toBe(true);
			expect(after[0].Url?.startsWith(`${moved}?`)).toBe(true);
			expect(scopeOf(hooks).webhookUrl).toBe(moved);
		});
	});

	it("leaves the old registrations alone when n8n's address changed and the old one cannot be reached", async () => {
		const hooks = hooksFor(['Job Update']);
		await hooks.activate();
		const [before] = await registrations();
		// The old address does not resolve (or this n8n has no way out): doubt, so act as a copy.
		hooks.instanceUrl = 'https://new-host.agency.test';
		await hooks.activate({ activation: 'init' });
		const after = await active();
		expect(after).toHaveLength(2);
		expect(after.find((registration) => registration.Id === before.Id)).toEqual(before);
		await hooks.deactivate();
		expect(await active()).toEqual([before]);
	});

	it('keeps test registrations apart from production ones', async () => {
		const hooks = hooksFor(['Job Update']);
		await hooks.activate();
		const [production] = await registrations();
		// "Listen for test event": n8n registers the editor's test URL in mode "manual".
		await hooks.activate({ target: 'test' });
		const testUrl = await hooks.webhookUrl('test');
		expect(testUrl).toBe(`${INSTANCE}/webhook-test/${hooks.node.webhookId}/webhook`);
		const all = await active();
		expect(all).toHaveLength(2);
		expect(all[0]).toEqual(production);
		expect(all[1].Name).toBe('n8n test: Shifts to Slack (Job Update)');
		expect(all[1].Url).toBe(`${testUrl}?event=Job%20Update&token=${await tokenOf(hooks, 'test')}`);
		expect(await tokenOf(hooks, 'test')).not.toBe(await tokenOf(hooks));
		// The test registration's state is not written into the workflow's saved static data.
		expect(hooks.staticData()).not.toHaveProperty('test');

		// n8n removes the test webhook with mode "internal" and the test URL.
		await hooks.deactivate({ target: 'test' });
		expect(await active()).toEqual([production]);
		expect(hooks.staticData()).toHaveProperty('production');
		expect(hooks.staticData()).not.toHaveProperty('test');
		expect(hooks.staticData('test')).not.toHaveProperty('test');
	});

	it('refuses, before any request, an address the real service cannot reach, saying what to set', async () => {
		for (const environment of ['production', 'uat']) {
			for (const instanceUrl of [
				'http://localhost:5678',
				'https://192.168.1.20',
				'https://n8n.local',
			]) {
				const hooks = triggerHooks({
					parameters: { events: ['Job Update'] },
					credentials: { environment, tenant: 'ahsa', apiKey: 'any-key' },
					workflowName: 'Shifts to Slack',
					instanceUrl,
				});
				const failure = await hooks.activate().then(
					() => undefined,
					(error: Error & { description?: string }) => error,
				);
				expect(failure?.message).toMatch(/Trio VMS cannot send events to this workflow's address/);
				// n8n 2.x shows only the message when publishing fails: the fix is in it (issue 26 point 5).
				expect(failure?.message).toMatch(/Set n8n's WEBHOOK_URL .*restart n8n/);
				expect(failure?.message).toMatch(/Sync Trigger, which needs no public address/);
				expect(failure?.description).toMatch(/WEBHOOK_URL/);
				expect(failure?.description).toMatch(/Sync Trigger .*needs no public address/);
				expect(hooks.staticData()).toEqual({});
			}
		}
		// A Custom URL credential (the sandbox here) accepts any address, plain http included.
		const custom = triggerHooks({
			parameters: { events: ['Job Update'] },
			credentials: trioCredentials(sandbox.url, sandbox.adminKey),
			instanceUrl: 'http://localhost:5678',
		});
		await custom.activate();
		expect(await active()).toHaveLength(1);
		expect(requestLog().every((line) => line.endsWith('admin'))).toBe(true);
	});

	it('fails with the agency-admin message for a key without permission', async () => {
		const hooks = hooksFor(['Job Update'], {}, sandbox.key);
		await expect(hooks.activate()).rejects.toThrow(
			/agency administrator permission.*Trio VMS Sync Trigger: it works with any API key/,
		);
		// Stopped at the two reads (sent together): nothing was sent to be created.
		expect(requestLog().sort()).toEqual([
			'GET /api/v3/Webhooks 403 agency',
			'GET /api/v3/Webhooks/Events 403 agency',
		]);
		expect(await registrations()).toHaveLength(0);
		expect(hooks.staticData()).toEqual({});
	});

	it('leaves nothing active when activation fails part-way', async () => {
		const hooks = hooksFor(['Job Update', 'Submission Update', 'Per Diem Shift Opened']);
		// Two registrations are created, the third to arrive is refused (they are sent together,
		// so which one is up to the network).
		sandbox.setFaults({
			endpoints: { 'POST /api/v3/Webhooks': { failAfter: 2, failStatus: 500 } },
		});
		const refused = await refusedRegistration(hooks);
		expect(['Job Update', 'Submission Update', 'Per Diem Shift Opened']).toContain(refused);
		const left = await registrations();
		expect(left).toHaveLength(2);
		expect(left.every((r) => r.IsActive === false && r.Events?.[0] !== refused)).toBe(true);
		const posts = sandbox
			.requests()
			.filter((request) => request.method === 'POST')
			.map((request) => `${request.status}${request.fault ? ` ${request.fault}` : ''}`);
		expect(posts.slice(0, 3).sort()).toEqual(['200', '200', '500 fail 500']);
		// the rollback, after all three answered: both created registrations switched off
		expect(posts.slice(3)).toEqual(['200', '200']);
		// n8n does not save the static data of a failed activation.
		expect(hooks.staticData()).toEqual({});
	});

	it('leaves nothing active after a failed re-activation once n8n has run delete, as it does after every failed activation', async () => {
		const hooks = hooksFor(['Job Update', 'Submission Update']);
		await hooks.activate();
		await hooks.deactivate();
		hooks.edit({ events: ['Job Update', 'Submission Update', 'Per Diem Shift Opened'] });
		// The two existing registrations are switched back on and a new third one is created, all
		// at once; the third save to arrive is refused. Create rolls back only what it created; the
		// re-activated ones are found by delete, which n8n runs next
		// (ActiveWorkflowManager.clearWebhooks, TestWebhooks.deactivateWebhooks).
		sandbox.setFaults({
			endpoints: { 'POST /api/v3/Webhooks': { failAfter: 2, failStatus: 500 } },
		});
		const refused = await refusedRegistration(hooks);
		expect(['Job Update', 'Submission Update', 'Per Diem Shift Opened']).toContain(refused);
		await hooks.deactivate();
		expect(await active()).toEqual([]);
		// The new registration exists (switched off) unless its own save was the refused one.
		expect(await registrations()).toHaveLength(refused === 'Per Diem Shift Opened' ? 2 : 3);
		expect(hooks.staticData()).toEqual({});
	});

	it('refuses to activate without events', async () => {
		const hooks = hooksFor([]);
		await expect(hooks.activate()).rejects.toThrow(/Select at least one event/);
		expect(requestLog()).toEqual([]);
	});

	it('counts a registration removed at the service as done on delete', async () => {
		const hooks = hooksFor(['Job Update']);
		await hooks.activate();
		// The service forgot every registration (the sandbox has no DELETE; a reset clears them).
		sandbox.reset();
		await hooks.deactivate();
		expect(hooks.staticData()).toEqual({});
		expect(requestLog()).toEqual(['GET /api/v3/Webhooks 200 admin']);
	});
});

describe('the delivery secret', () => {
	it('rotates when registrations are rewritten: the old token is refused afterwards', async () => {
		const hooks = hooksFor(['Job Update']);
		await hooks.activate();
		const before = await tokenOf(hooks);
		hooks.edit({ events: ['Job Update', 'Submission Update'] });
		await hooks.activate();
		const after = await tokenOf(hooks);
		expect(after).not.toBe(before);
		const refused = await hooks.deliver({
			query: { event: 'Job Update', token: before },
			body: PAYLOADS['Job Update'],
		});
		expect(refused.status).toBe(403);
	});
});

/** What stands behind a front door: a trigger, n8n with no workflow holding the webhook, or no route. */
type Behind = TriggerHooks | undefined | 'no route';

/**
 * n8n's front door for one trigger: an HTTP server on 127.0.0.1 that hands every POST to the
 * node's webhook(), so another n8n can reach this one at its address. Without a trigger it
 * answers what n8n answers for a webhook no active workflow holds; with 'no route', the bare
 * 404 of an ingress or proxy that has no route to n8n for a moment.
 */
async function frontDoor(hooks: () => Behind): Promise<{ url: string; close(): Promise<void> }> {
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			const { searchParams, pathname } = new URL(request.url ?? '/', 'http://x');
			const query = Object.fromEntries(searchParams);
			const behind = hooks();
			if (behind === 'no route') {
				response.writeHead(404, { 'Content-Type': 'text/html' });
				response.end('<html><body><h1>404 Not Found</h1></body></html>');
				return;
			}
			if (!behind) {
				// n8n's answer (1.x and 2.x) for a production webhook no active workflow holds.
				const path = pathname.replace(/^\/webhook\//, '');
				response.writeHead(404, { 'Content-Type': 'application/json' });
				response.end(
					JSON.stringify({
						code: 404,
						message: `The requested webhook "POST ${path}" is not registered.`,
						hint: 'The workflow must be active for a production URL to run successfully.',
					}),
				);
				return;
			}
			behind
				.deliver({ query, body: text ? (JSON.parse(text) as unknown) : {} })
				.then((delivery) => {
					response.writeHead(delivery.status ?? 200, { 'Content-Type': 'application/json' });
					response.end(JSON.stringify(delivery.body ?? {}));
				})
				.catch(() => response.writeHead(500).end());
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** A Job Update sent with the token of the node's active registrations starts one run. */
async function expectStartsARun(hooks: TriggerHooks): Promise<void> {
	const delivery = await hooks.deliver({
		query: { event: 'Job Update', token: await tokenOf(hooks) },
		body: PAYLOADS['Job Update'],
	});
	expect(delivery.workflowData).toHaveLength(1);
}

interface FrontDoor {
	url: string;
	/** What is behind the door now: nothing at first. */
	behind: Behind;
}

/**
 * Runs `test` with a front door (closed afterwards, pass or fail) that hands deliveries to
 * `door.behind`, or to what `answer` picks when given.
 */
async function withFrontDoor(
	test: (door: FrontDoor) => Promise<void>,
	answer?: () => Behind,
): Promise<void> {
	const door: FrontDoor = { url: '', behind: undefined };
	const server = await frontDoor(answer ?? (() => door.behind));
	door.url = server.url;
	try {
		await test(door);
	} finally {
		await server.close();
	}
}

/** The workflow's trigger in the n8n behind `door`, activated there. */
async function activeBehind(door: FrontDoor, events?: string[]): Promise<TriggerHooks> {
	const hooks = hooksAt(door.url, events);
	door.behind = hooks;
	await hooks.activate();
	return hooks;
}

/**
 * The workflow active behind `door` (`original`, its registrations `production`), then the same
 * workflow in another n8n at `instanceUrl` (`copy`) while the door answers n8n's 'not registered'.
 */
async function copyWhileAway(
	door: FrontDoor,
	instanceUrl: string,
): Promise<{ original: TriggerHooks; production: WebhookRegistration[]; copy: TriggerHooks }> {
	const original = await activeBehind(door);
	const production = await active();
	door.behind = undefined;
	return { original, production, copy: sameWorkflowAt(original, instanceUrl) };
}

/** The workflow's one registration (`before`), and the workflow in an n8n moved to a new address. */
async function movedAway(
	door: FrontDoor,
): Promise<{ before: WebhookRegistration; moved: TriggerHooks }> {
	const { production, copy } = await copyWhileAway(door, 'https://n8n.new-address.test');
	return { before: production[0], moved: copy };
}

/** The one active registration is the one from `before`, now sending to the moved n8n. */
async function expectMoved(before: WebhookRegistration): Promise<void> {
	const after = await active();
	expect(after).toHaveLength(1);
	expect(after[0].Id).toBe(before.Id);
	expect(after[0].Url).toMatch(/^https:\/\/n8n\.new-address\.test\/webhook\//);
}

describe("another n8n with this workflow's data", () => {
	// The time between two "not registered" answers that proves nobody is there: real n8n waits
	// 30 s; here the door decides what each probe hears, so the time only has to pass.
	const confirmationTime = ABSENCE_CONFIRMATION.afterMs;
	beforeAll(() => {
		ABSENCE_CONFIRMATION.afterMs = 20;
	});
	afterAll(() => {
		ABSENCE_CONFIRMATION.afterMs = confirmationTime;
	});

	it('a copy of the database (the original still answers) never takes over or switches off the original registrations', async () => {
		await withFrontDoor(async (door) => {
			const original = await activeBehind(door);
			const [production] = await active();
			const copy = sameWorkflowAt(original, 'https://staging.agency.test');
			await copy.activate();
			// The original's registration is untouched; the copy has its own.
			expect(await active()).toHaveLength(2);
			expect((await active()).find((r) => r.Id === production.Id)).toEqual(production);
			await copy.deactivate();
			expect(await active()).toEqual([production]);
			// The original still receives.
			await expectStartsARun(original);
		});
	});

	it('a moved n8n (the old address answers that the webhook is unknown) moves its registrations and leaves none active there', async () => {
		await withFrontDoor(async (door) => {
			// Whatever now runs at the old address answers as n8n does for an unknown webhook.
			const { before, moved } = await movedAway(door);
			await moved.activate();
			await expectMoved(before);
		});
	});

	it('a moved n8n repaired as the docs say (deactivate, then activate) moves its registrations: the deactivation, which n8n runs once the webhook is gone, leaves them and what it remembers for the activation', async () => {
		await withFrontDoor(async (door) => {
			// WEBHOOK_URL changed and n8n restarted (n8n runs no trigger method then). The old name
			// still reaches this n8n, which no longer holds the webhook there while it deactivates.
			const { before, moved } = await movedAway(door);
			await moved.deactivate();
			expect(await active()).toEqual([before]);
			await moved.activate();
			await expectMoved(before);
		});
	});

	it('a copy whose probe fails (production restarting: connection refused) neither switches off nor repoints the original registrations', async () => {
		const behindDoor: { hooks?: TriggerHooks } = {};
		const door = await frontDoor(() => behindDoor.hooks);
		const original = hooksAt(door.url, ['Job Update', 'Submission Update']);
		behindDoor.hooks = original;
		await original.activate();
		const production = await active();
		expect(production).toHaveLength(2);
		await door.close();
		const copy = sameWorkflowAt(original, 'https://staging.agency.test', [
			'Job Update',
			'Submission Update',
		]);
		// Staging switches the copied workflow off, then on.
		await copy.deactivate();
		expect(await active()).toEqual(production);
		await copy.activate();
		const afterActivation = await active();
		expect(afterActivation).toHaveLength(4);
		expect(afterActivation.filter((r) => production.some((p) => p.Id === r.Id))).toEqual(
			production,
		);
		await copy.deactivate();
		expect(await active()).toEqual(production);
	});

	it("a copy that activates while production's address answers a bare 404 (an ingress without a route) neither repoints nor switches off production's registrations", async () => {
		await withFrontDoor(async (door) => {
			const original = await activeBehind(door);
			const production = await active();
			expect(production).toHaveLength(1);
			// Production re-publishes, or its ingress has no route for a moment: a bare 404.
			door.behind = 'no route';
			const copy = sameWorkflowAt(original, 'https://staging.agency.test');
			await copy.activate();
			door.behind = original;
			expect((await active()).filter((r) => r.Id === production[0].Id)).toEqual(production);
			expect(await active()).toHaveLength(2);
			await copy.deactivate();
			expect(await active()).toEqual(production);
			await expectStartsARun(original);
		});
	});

	it("a copy that activates while production restarts (its n8n answers 'not registered' until it has published) leaves production its registrations", async () => {
		let probes = 0;
		let original: TriggerHooks | undefined;
		// Production's n8n answers HTTP again but has not published the workflow yet: the first
		// probe hears n8n's own "not registered"; by the next one production has published.
		await withFrontDoor(
			async (door) => {
				original = hooksAt(door.url, ['Job Update', 'Submission Update']);
				const started = original;
				original = undefined;
				await started.activate();
				original = started;
				const production = await active();
				expect(production).toHaveLength(2);
				probes = 0;
				const copy = sameWorkflowAt(started, 'https://staging.agency.test', [
					'Job Update',
					'Submission Update',
				]);
				await copy.activate();
				// Asked twice: "not registered", then production's own answer.
				expect(probes).toBe(2);
				expect((await active()).filter((r) => production.some((p) => p.Id === r.Id))).toEqual(
					production,
				);
				await copy.deactivate();
				expect(await active()).toEqual(production);
				await expectStartsARun(started);
			},
			() => (probes++ === 0 ? undefined : original),
		);
	});

	it("production keeps an active registration after a copy took its registrations over (n8n answered 'not registered' while restarting), production re-activated, and the copy was deactivated", async () => {
		await withFrontDoor(async (door) => {
			const original = await activeBehind(door, ['Job Update', 'Submission Update']);
			const productionUrl = await original.webhookUrl();
			// Production's n8n is starting again and has not re-added its webhooks yet: it answers
			// its own "not registered", which reads as "moved away", so the copy takes over.
			door.behind = undefined;
			const copy = sameWorkflowAt(original, 'https://staging.agency.test', [
				'Job Update',
				'Submission Update',
			]);
			await copy.activate();
			door.behind = original;
			const copyUrl = await copy.webhookUrl();
			expect((await active()).every((r) => r.Url?.startsWith(`${copyUrl}?`))).toBe(true);
			// Production is activated again (its user saw deliveries stop): it registers its own,
			// and says where the old ones went.
			const warn = jest.spyOn(Container.get(Logger), 'warn');
			try {
				expect(await original.activate()).toBe(false);
				const told = warn.mock.calls.map((call) => String(call[0]));
				for (const event of ['Job Update', 'Submission Update']) {
					expect(told).toContainEqual(
						expect.stringMatching(
							new RegExp(
								`the registration for "${event}" \\(\\S+\\) that this workflow made now sends to ${copyUrl.replace(/[.?]/g, '\\$&')}`,
							),
						),
					);
				}
			} finally {
				warn.mockRestore();
			}
			const production = (await active()).filter((r) => r.Url?.startsWith(`${productionUrl}?`));
			expect(production).toHaveLength(2);
			// Staging is switched off: only its own registrations go.
			await copy.deactivate();
			expect(await active()).toEqual(production);
			await expectStartsARun(original);
		});
	});

	it("a copy deactivated while production re-publishes (its n8n answers 'not registered' for a moment) leaves production's registrations on", async () => {
		await withFrontDoor(async (door) => {
			// Switching something off at another address takes this n8n's own answer there: n8n's
			// "not registered" is also what production says while it re-publishes.
			const { original, production, copy } = await copyWhileAway(
				door,
				'https://staging.agency.test',
			);
			await copy.deactivate();
			door.behind = original;
			expect(await active()).toEqual(production);
		});
	});

	it("a copy deactivated while the service's list cannot be read never switches off registrations it remembers for another address", async () => {
		await withFrontDoor(async (door) => {
			// Production is restarting (n8n's own "not registered"), and the list fails: nothing
			// shows where the remembered registration points now, so it is left alone.
			const { production, copy } = await copyWhileAway(door, 'https://staging.agency.test');
			sandbox.setFaults({
				endpoints: { 'GET /api/v3/Webhooks': { failRate: 1, failStatus: 500 } },
			});
			await copy.deactivate();
			sandbox.clearFaults();
			expect(await active()).toEqual(production);
		});
	});

	it('a copy taken before production rotated its token is still recognised as a copy', async () => {
		await withFrontDoor(async (door) => {
			const original = await activeBehind(door);
			const tokenAtCopy = await tokenOf(original);
			const copy = sameWorkflowAt(original, 'https://staging.agency.test');
			// Production rewrites its registrations after the copy was taken: its token rotates.
			original.edit({ events: ['Job Update', 'Submission Update'] });
			await original.activate();
			expect(await tokenOf(original)).not.toBe(tokenAtCopy);
			const production = await active();
			expect(production).toHaveLength(2);
			await copy.activate();
			expect((await active()).filter((r) => production.some((p) => p.Id === r.Id))).toEqual(
				production,
			);
			await copy.deactivate();
			expect(await active()).toEqual(production);
		});
	});

	it('switches off its own registrations at an old address that still reaches this same n8n', async () => {
		await withFrontDoor(async (door) => {
			const hooks = await activeBehind(door);
			expect(await active()).toHaveLength(1);
			// Deactivated after n8n's address changed, before any re-activation.
			hooks.instanceUrl = 'https://new-host.agency.test';
			await hooks.deactivate();
			expect(await active()).toEqual([]);
		});
	});
});

describe('deactivation while the service is failing', () => {
	it('resolves, forgets the state and the token, and logs what failed when the service is down', async () => {
		const hooks = hooksFor(['Job Update', 'Submission Update']);
		await hooks.activate();
		const token = await tokenOf(hooks);
		sandbox.setFaults({ endpoints: { '*': { failRate: 1, failStatus: 503 } } });
		// n8n's own cleanup has no guard: a throw here would strand its webhook rows.
		await expect(hooks.deactivate()).resolves.not.toThrow();
		expect(hooks.staticData()).toEqual({});
		sandbox.clearFaults();
		// The token is forgotten in this process too: a delivery with it is refused.
		const delivery = await hooks.deliver({
			query: { event: 'Job Update', token },
			body: PAYLOADS['Job Update'],
		});
		expect(delivery.status).toBe(403);
		// What could not be switched off is reused, not piled up, at the next activation.
		await hooks.activate();
		expect(await active()).toHaveLength(2);
		expect(await registrations()).toHaveLength(2);
	});

	it('gives up quickly while the service is down: one retry, not the default backoff', async () => {
		const hooks = hooksFor(['Job Update']);
		sandbox.setFaults({ endpoints: { '*': { failRate: 1, failStatus: 503 } } });
		await expect(hooks.activate()).rejects.toThrow(/503/);
		// checkExists has nothing stored, so create reads the list and the event list together:
		// each the first try and one retry.
		expect(requestLog().sort()).toEqual([
			'GET /api/v3/Webhooks 503 not checked',
			'GET /api/v3/Webhooks 503 not checked',
			'GET /api/v3/Webhooks/Events 503 not checked',
			'GET /api/v3/Webhooks/Events 503 not checked',
		]);
	});

	it('switches off the remembered registrations when only the listing fails', async () => {
		const hooks = hooksFor(['Job Update', 'Submission Update']);
		await hooks.activate();
		sandbox.setFaults({ endpoints: { 'GET /api/v3/Webhooks': { failRate: 1, failStatus: 500 } } });
		await hooks.deactivate();
		sandbox.clearFaults();
		expect(await active()).toHaveLength(0);
		expect(hooks.staticData()).toEqual({});
	});

	it('tries every registration when one of them fails', async () => {
		const hooks = hooksFor(['Job Update', 'Submission Update', 'Per Diem Shift Opened']);
		await hooks.activate();
		sandbox.setFaults({ endpoints: { 'POST /api/v3/Webhooks': { failNext: 1, failStatus: 500 } } });
		await hooks.deactivate();
		expect(await active()).toHaveLength(1);
		expect(hooks.staticData()).toEqual({});
	});
});

describe('receiving deliveries', () => {
	async function activeHooks(events: string[], extra: INodeParameters = {}): Promise<TriggerHooks> {
		const hooks = hooksFor(events, extra);
		await hooks.activate();
		return hooks;
	}

	/** Sends `body` (the event's sample payload) to `hooks` with its registrations' token. */
	async function senderTo(
		hooks: TriggerHooks,
		event: TrioEventName,
		body: Record<string, unknown> = PAYLOADS[event],
	) {
		const token = await tokenOf(hooks);
		return () => hooks.deliver({ query: { event, token }, body });
	}

	it('outputs the simplified submission with event and receivedAt, the payload whole with Raw', async () => {
		const hooks = await activeHooks(['Submission Update']);
		const delivery = await hooks.deliver({
			query: { event: 'Submission Update', token: await tokenOf(hooks) },
			body: PAYLOADS['Submission Update'],
		});
		// The trigger leaves the answer to n8n (responseMode onReceived) when it starts the workflow.
		expect(delivery.status).toBeUndefined();
		expect(delivery.workflowData).toHaveLength(1);
		const [item] = delivery.workflowData![0];
		expect(Object.keys(item.json)).toEqual([
			'event',
			'receivedAt',
			...SIMPLE_SUBMISSION_FIELDS,
			'deliveryKey',
		]);
		expect(item.json).toMatchObject({
			event: 'Submission Update',
			...simplifySubmission(PAYLOADS['Submission Update'] as IDataObject),
		});
		expect(new Date(String(item.json.receivedAt)).toISOString()).toBe(item.json.receivedAt);

		const raw = await activeHooks(['Submission Update'], { output: 'raw' });
		const whole = await raw.deliver({
			query: { event: 'Submission Update', token: await tokenOf(raw) },
			body: PAYLOADS['Submission Update'],
		});
		expect(whole.workflowData![0][0].json).toMatchObject({
			event: 'Submission Update',
			...PAYLOADS['Submission Update'],
		});
	});

	it('outputs each opened per diem shift flat by default, as Trio sends it with Raw', async () => {
		const hooks = await activeHooks(['Per Diem Shift Opened']);
		const delivery = await hooks.deliver({
			query: { event: 'Per Diem Shift Opened', token: await tokenOf(hooks) },
			body: PAYLOADS['Per Diem Shift Opened'],
		});
		const items = delivery.workflowData![0];
		expect(items.length).toBe((PAYLOADS['Per Diem Shift Opened'].Items as unknown[]).length);
		for (const { json } of items) {
			expect(Object.keys(json)).toEqual([
				'event',
				'receivedAt',
				...SIMPLE_SHIFT_FIELDS.filter((name) => name !== 'CandidateName'),
				'deliveryKey',
			]);
			// Flat: names and plain values only (an opened shift's Facility may come empty: null).
			for (const value of Object.values(json))
				expect(value === null || typeof value !== 'object').toBe(true);
		}

		const raw = await activeHooks(['Per Diem Shift Opened'], { output: 'raw' });
		const whole = await raw.deliver({
			query: { event: 'Per Diem Shift Opened', token: await tokenOf(raw) },
			body: PAYLOADS['Per Diem Shift Opened'],
		});
		expect(whole.workflowData![0][0].json).toMatchObject({
			Action: 'Per Diem Shift Opened',
			StaffingPool: expect.objectContaining({ Name: expect.any(String) }),
		});
	});

	it('accepts the new token before n8n has saved the static data that create wrote', async () => {
		const hooks = await activeHooks(['Submission Update']);
		const token = await tokenOf(hooks);
		// What a delivery sees in the moment after activation: n8n builds the delivery's Workflow
		// from the database, where the static data is still as it was before create.
		const unsaved: IDataObject = {};
		const payload = { ...PAYLOADS['Submission Update'], ModifiedDateUTC: '2031-01-01T00:00:00Z' };
		const accepted = await hooks.deliver({
			query: { event: 'Submission Update', token },
			body: payload,
			staticData: unsaved,
		});
		expect(accepted.status).toBeUndefined();
		expect(accepted.workflowData?.[0]).toHaveLength(1);

		const refused = await hooks.deliver({
			query: { event: 'Submission Update', token: 'wrong' },
			body: PAYLOADS['Submission Update'],
			staticData: unsaved,
		});
		expect(refused.status).toBe(403);
		expect(refused.workflowData).toBeUndefined();
	});

	it('accepts a freshly rotated token before n8n has saved its hash, and the stored one meanwhile', async () => {
		const hooks = await activeHooks(['Job Update']);
		const before = await tokenOf(hooks);
		// What n8n saved before the rotation, still all a delivery reads right after it.
		const beforeRotation = { 'node:Trio VMS Trigger': hooks.staticData() };
		hooks.edit({ events: ['Job Update', 'Submission Update'] });
		await hooks.activate();
		const after = await tokenOf(hooks);
		expect(after).not.toBe(before);
		for (const token of [after, before]) {
			const delivery = await hooks.deliver({
				query: { event: 'Job Update', token },
				body: { ...PAYLOADS['Job Update'], Number: token === after ? 1 : 2 },
				staticData: beforeRotation,
			});
			expect(delivery.status).toBeUndefined();
			expect(delivery.workflowData?.[0]).toHaveLength(1);
		}
		// Once n8n has saved the new hash, the token it replaced is refused although still fresh.
		const refused = await hooks.deliver({
			query: { event: 'Job Update', token: before },
			body: PAYLOADS['Job Update'],
		});
		expect(refused.status).toBe(403);
	});

	it('checks the token before reading a body n8n did not read', async () => {
		const hooks = await activeHooks(['Job Update']);
		const bodyOf = (text: string) => {
			let read = false;
			const stream = new Readable({
				read() {
					read = true;
					this.push(Buffer.from(text));
					this.push(null);
				},
			});
			return { stream, wasRead: () => read };
		};
		const unauthenticated = bodyOf('x'.repeat(1024));
		const refused = await hooks.deliver({
			query: { event: 'Job Update', token: 'wrong' },
			contentType: 'application/octet-stream',
			unreadBody: unauthenticated.stream,
		});
		expect(refused.status).toBe(403);
		expect(unauthenticated.wasRead()).toBe(false);

		const authenticated = bodyOf(JSON.stringify(PAYLOADS['Job Update']));
		const accepted = await hooks.deliver({
			query: { event: 'Job Update', token: await tokenOf(hooks) },
			contentType: 'application/octet-stream',
			unreadBody: authenticated.stream,
		});
		expect(accepted.workflowData?.[0]).toHaveLength(1);
		expect(authenticated.wasRead()).toBe(true);
	});

	it('forgets the issued token on deactivation', async () => {
		const hooks = await activeHooks(['Submission Update']);
		const token = await tokenOf(hooks);
		await hooks.deactivate();
		const delivery = await hooks.deliver({
			query: { event: 'Submission Update', token },
			body: PAYLOADS['Submission Update'],
		});
		expect(delivery.status).toBe(403);
		expect(delivery.workflowData).toBeUndefined();
		// Nor is it still accepted from the memory of issued tokens (the case of static data not
		// saved yet): with empty static data the old token is refused too.
		const fromMemory = await hooks.deliver({
			query: { event: 'Submission Update', token },
			body: PAYLOADS['Submission Update'],
			staticData: {},
		});
		expect(fromMemory.status).toBe(403);
	});

	it('answers 403 for a wrong token and 400 for an unknown event or a body that is not JSON, starting nothing', async () => {
		const hooks = await activeHooks(['Job Update']);
		const cases: Array<[IDataObject, unknown, string, number]> = [
			[{ event: 'Job Update', token: 'wrong' }, PAYLOADS['Job Update'], 'application/json', 403],
			[{ event: 'Job Update' }, PAYLOADS['Job Update'], 'application/json', 403],
			[
				{ event: 'Job Closed', token: await tokenOf(hooks) },
				PAYLOADS['Job Update'],
				'application/json',
				400,
			],
			[{ event: 'Job Update', token: await tokenOf(hooks) }, 'not json', 'text/plain', 400],
		];
		for (const [query, body, contentType, status] of cases) {
			const delivery = await hooks.deliver({ query, body, contentType });
			expect(delivery.result).toEqual({ noWebhookResponse: true });
			expect(delivery.status).toBe(status);
			expect(delivery.body).toEqual({ message: expect.any(String) });
		}
	});

	it('refuses a made-up token by its issue time before reading the credential', async () => {
		const hooks = await activeHooks(['Job Update']);
		const reads = jest.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');
		try {
			// Well formed, but issued in 1970: no key is needed to refuse it.
			const stale = await hooks.deliver({
				query: { event: 'Job Update', token: '0'.repeat(64) },
				body: PAYLOADS['Job Update'],
				staticData: {},
			});
			expect(stale.status).toBe(403);
			expect(reads).not.toHaveBeenCalled();
			// Issued just now with a wrong signature: only the key can tell, so it is read.
			const now = Date.now().toString(16).padStart(11, '0');
			const forged = await hooks.deliver({
				query: { event: 'Job Update', token: `${now}${'0'.repeat(53)}` },
				body: PAYLOADS['Job Update'],
				staticData: {},
			});
			expect(forged.status).toBe(403);
			expect(reads).toHaveBeenCalled();
		} finally {
			reads.mockRestore();
		}
	});

	/** Activates as a process whose clock is `aheadMs` ahead of this one would (queue mode). */
	async function activatedOnClockAhead(aheadMs: number): Promise<TriggerHooks> {
		const realNow = Date.now.bind(Date);
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + aheadMs);
		try {
			return await activeHooks(['Job Update']);
		} finally {
			clock.mockRestore();
		}
	}

	it('accepts a fresh token issued by a process whose clock is 6 s or 2 min ahead, before its hash is saved', async () => {
		for (const aheadMs of [6_000, 120_000]) {
			const hooks = await activatedOnClockAhead(aheadMs);
			const delivery = await hooks.deliver({
				query: { event: 'Job Update', token: await tokenOf(hooks) },
				body: PAYLOADS['Job Update'],
				staticData: {},
			});
			expect(delivery.status).toBeUndefined();
			expect(delivery.workflowData?.[0]).toHaveLength(1);
			await hooks.deactivate();
		}
	});

	it('refuses a real token issued far outside the window by its issue time, without reading the credential', async () => {
		const skewMs = CLOCK_SKEW_SECONDS * 1000;
		const oldestMs = (FRESH_SECONDS + CLOCK_SKEW_SECONDS) * 1000;
		for (const aheadMs of [skewMs + 60_000, -oldestMs - 60_000]) {
			const hooks = await activatedOnClockAhead(aheadMs);
			const token = await tokenOf(hooks);
			const reads = jest.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');
			try {
				const delivery = await hooks.deliver({
					query: { event: 'Job Update', token },
					body: PAYLOADS['Job Update'],
					staticData: {},
				});
				expect(delivery.status).toBe(403);
				expect(delivery.workflowData).toBeUndefined();
				expect(reads).not.toHaveBeenCalled();
			} finally {
				reads.mockRestore();
			}
			await hooks.deactivate();
		}
	});

	it("does not accept production's token on the test URL or the other way round", async () => {
		const hooks = await activeHooks(['Job Update']);
		await hooks.activate({ target: 'test' });
		const onTest = await hooks.deliver({
			target: 'test',
			query: { event: 'Job Update', token: await tokenOf(hooks) },
			body: PAYLOADS['Job Update'],
		});
		expect(onTest.status).toBe(403);
		const onProduction = await hooks.deliver({
			query: { event: 'Job Update', token: await tokenOf(hooks, 'test') },
			body: PAYLOADS['Job Update'],
		});
		expect(onProduction.status).toBe(403);
		const test = await hooks.deliver({
			target: 'test',
			query: { event: 'Job Update', token: await tokenOf(hooks, 'test') },
			body: PAYLOADS['Job Update'],
		});
		expect(test.workflowData).toBeDefined();
		expect(test.status).toBeUndefined();
	});

	describe('output and options', () => {
		async function outputHooks(
			extra: INodeParameters = {},
			events = ['Job Update'],
		): Promise<TriggerHooks> {
			const hooks = triggerHooks({
				parameters: { events, ...extra },
				credentials: trioCredentials(sandbox.url, sandbox.adminKey),
				workflowName: 'Shifts to Slack',
				instanceUrl: INSTANCE,
			});
			await hooks.activate();
			return hooks;
		}

		async function jobItem(hooks: TriggerHooks, number: number): Promise<IDataObject> {
			const delivery = await hooks.deliver({
				query: { event: 'Job Update', token: await tokenOf(hooks) },
				body: { ...PAYLOADS['Job Update'], Number: number },
			});
			expect(delivery.workflowData?.[0]).toHaveLength(1);
			return delivery.workflowData?.[0][0].json as IDataObject;
		}

		// Issue 26 point 8: the same ten fields as the action node and the Sync Trigger.
		it('gives the ten-field job under Output, metadata first and deliveryKey kept, and every field with Raw', async () => {
			const json = await jobItem(await outputHooks(), 7003);
			expect(json.deliveryKey).toMatch(/^[0-9a-f]{16}$/);
			expect(Object.keys(json)).toEqual([
				'event',
				'receivedAt',
				...SIMPLIFIED_JOB_FIELDS,
				'deliveryKey',
			]);
			const raw = await jobItem(await outputHooks({ output: 'raw' }), 7004);
			expect(raw).toHaveProperty('Shift');
			expect(raw).toHaveProperty('ModifiedDateUtc');
			expect(Object.keys(raw).slice(0, 2)).toEqual(['event', 'receivedAt']);
		});

		it('reads Deliveries to Remember under Options', async () => {
			for (const [index, { parameters, remembers }] of [
				{ parameters: { options: { duplicateWindow: 1 } }, remembers: 1 },
				{ parameters: {}, remembers: 100 },
			].entries()) {
				const hooks = await outputHooks(parameters, ['Per Diem Shift Removed']);
				const token = await tokenOf(hooks);
				const run = `${index}-${Date.now()}`;
				const send = (id: string) =>
					hooks.deliver({
						query: { event: 'Per Diem Shift Removed', token },
						body: { ...PAYLOADS['Per Diem Shift Removed'], Id: `${id}-${run}` },
					});
				const first = 'first';
				expect((await send(first)).workflowData).toHaveLength(1);
				expect((await send('second')).workflowData).toHaveLength(1);
				const again = await send(first);
				// A window of 1: the second delivery pushed the first out of the memory.
				if (remembers === 1) expect(again.workflowData).toHaveLength(1);
				else expect(again.body).toEqual({ received: true, duplicate: true });
			}
		});
	});

	it('refuses a body of null or a list (400), starting nothing', async () => {
		const hooks = await activeHooks(['Job Update']);
		const token = await tokenOf(hooks);
		for (const body of ['null', JSON.stringify([PAYLOADS['Job Update']])]) {
			const delivery = await hooks.deliver({ query: { event: 'Job Update', token }, body });
			expect(delivery.workflowData).toBeUndefined();
			expect(delivery.status).toBe(400);
			expect(delivery.body).toEqual({
				message: expect.stringMatching(
					/^The body is (null|a list); a Trio VMS delivery is a JSON object$/,
				),
			});
		}
	});

	it('refuses a 15 MB Job Update (413), whether n8n read it or not, and stops reading an unread one at the bound', async () => {
		const hooks = await activeHooks(['Job Update']);
		const query = { event: 'Job Update', token: await tokenOf(hooks) };
		const huge = JSON.stringify({ ...PAYLOADS['Job Update'], Description: 'x'.repeat(15_000_000) });
		const read = await hooks.deliver({ query, body: huge });
		expect(read.workflowData).toBeUndefined();
		expect(read.status).toBe(413);
		expect(read.body).toEqual({ message: expect.stringContaining('more than 2 MB') });

		// Sent as another content type, n8n leaves the reading to the trigger: it stops at 2 MiB.
		let pushed = 0;
		const endless = new Readable({
			read() {
				pushed += 64 * 1024;
				this.push(Buffer.alloc(64 * 1024, 0x20));
			},
		});
		const unread = await hooks.deliver({
			query,
			contentType: 'application/octet-stream',
			unreadBody: endless,
		});
		endless.destroy();
		expect(unread.workflowData).toBeUndefined();
		expect(unread.status).toBe(413);
		expect(pushed).toBeLessThan(15_000_000);
	});

	it('waits for a stalled body with a bound (408), starting nothing', async () => {
		const wait = BODY_WAIT.ms;
		BODY_WAIT.ms = 20;
		try {
			const hooks = await activeHooks(['Job Update']);
			// Half a payload, then nothing: the sender stalls with the connection open.
			const stalled = new Readable({ read() {} });
			stalled.push(Buffer.from('{"Number": 10'));
			const delivery = await hooks.deliver({
				query: { event: 'Job Update', token: await tokenOf(hooks) },
				contentType: 'application/octet-stream',
				unreadBody: stalled,
			});
			stalled.destroy();
			expect(delivery.workflowData).toBeUndefined();
			expect(delivery.status).toBe(408);
			expect(delivery.body).toEqual({
				message: expect.stringContaining('The body did not arrive within'),
			});
		} finally {
			BODY_WAIT.ms = wait;
		}
	});

	it('starts the workflow for a legitimate repeat (Open, On Hold, Open again with the same stamp), dropping only a copy of the latest', async () => {
		const hooks = await activeHooks(['Job Update']);
		const token = await tokenOf(hooks);
		const open = { ...PAYLOADS['Job Update'], Number: 424242, JobStatus: 'Open' };
		const deliver = (body: IDataObject) =>
			hooks.deliver({ query: { event: 'Job Update', token }, body });
		const outcomes: string[] = [];
		for (const body of [open, open, { ...open, JobStatus: 'On Hold' }, open]) {
			const delivery = await deliver(body);
			outcomes.push(delivery.workflowData ? 'started' : JSON.stringify(delivery.body));
		}
		expect(outcomes).toEqual([
			'started',
			JSON.stringify({ received: true, duplicate: true }),
			'started',
			'started',
		]);
	});

	it('drops duplicates (200, no workflow) when asked to, and only then', async () => {
		const hooks = await activeHooks(['Per Diem Shift Removed']);
		const payload = { ...PAYLOADS['Per Diem Shift Removed'], Id: `dup-${Date.now()}` };
		const deliver = await senderTo(hooks, 'Per Diem Shift Removed', payload);
		expect((await deliver()).workflowData).toHaveLength(1);
		const second = await deliver();
		expect(second.result).toEqual({ noWebhookResponse: true });
		expect([second.status, second.body]).toEqual([200, { received: true, duplicate: true }]);

		hooks.edit({ options: { ignoreDuplicates: false } });
		expect((await deliver()).workflowData).toHaveLength(1);
	});

	it('gives a copy that reaches another n8n process the same deliveryKey, and never writes static data while receiving', async () => {
		const hooks = await activeHooks(['Per Diem Shift Removed']);
		const payload = { ...PAYLOADS['Per Diem Shift Removed'], Id: `shared-${Date.now()}` };
		const deliver = await senderTo(hooks, 'Per Diem Shift Removed', payload);
		const saved = JSON.stringify(hooks.staticData());
		const first = await deliver();
		const key = first.workflowData?.[0][0].json.deliveryKey;
		expect(key).toMatch(/^[0-9a-f]{16}$/);
		// Another process, or this one after a restart: an empty duplicate memory.
		deliveryMemory.forget(
			memoryKey(hooks.workflowId, hooks.node.id, hooks.node.name, 'production'),
		);
		const copy = await deliver();
		expect(copy.workflowData?.[0][0].json.deliveryKey).toBe(key);
		// n8n saves a webhook call's static data whole, after answering, last writer winning: a
		// write here could put back a state older than the one activation saved.
		expect(JSON.stringify(hooks.staticData())).toBe(saved);
	});

	it("says once, in words that tell what to do, when deliveries still come to n8n's previous address", async () => {
		const hooks = await activeHooks(['Per Diem Shift Removed'], {
			options: { ignoreDuplicates: false },
		});
		const token = await tokenOf(hooks);
		const registeredFor = await hooks.webhookUrl();
		// WEBHOOK_URL changed and n8n restarted: n8n 2.x runs no webhook method, the old address still routes here.
		hooks.instanceUrl = 'https://n8n.renamed.test';
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		try {
			for (let i = 0; i < 2; i++) {
				const delivery = await hooks.deliver({
					query: { event: 'Per Diem Shift Removed', token },
					body: PAYLOADS['Per Diem Shift Removed'],
				});
				expect(delivery.workflowData).toHaveLength(1);
			}
			const warnings = warn.mock.calls
				.map(([message]) => String(message))
				.filter((m) => m.includes('address changed'));
			expect(warnings).toHaveLength(1);
			expect(warnings[0]).toContain(registeredFor);
			expect(warnings[0]).toContain(await hooks.webhookUrl());
			expect(warnings[0]).toContain('and publish it again once to move its Trio registrations');
		} finally {
			warn.mockRestore();
		}
	});

	it('gives every item a delivery key that is the same for the same delivery, one per shift when split', async () => {
		const hooks = await activeHooks(['Per Diem Shift Opened'], {
			options: { ignoreDuplicates: false },
		});
		const deliver = await senderTo(hooks, 'Per Diem Shift Opened');
		const keys = (await deliver()).workflowData?.[0].map((item) => item.json.deliveryKey);
		expect(keys).toHaveLength(2);
		expect(new Set(keys).size).toBe(2);
		expect((await deliver()).workflowData?.[0].map((item) => item.json.deliveryKey)).toEqual(keys);
	});

	it('splits opened shifts by default and not when the option is off', async () => {
		const hooks = await activeHooks(['Per Diem Shift Opened'], {
			options: { ignoreDuplicates: false },
		});
		const deliver = await senderTo(hooks, 'Per Diem Shift Opened');
		expect((await deliver()).workflowData![0]).toHaveLength(2);
		hooks.edit({ options: { ignoreDuplicates: false, splitShifts: false } });
		const [whole] = (await deliver()).workflowData![0];
		expect(whole.json.Items).toHaveLength(2);
	});

	it('ignores (200) an event that is no longer selected', async () => {
		const hooks = await activeHooks(['Job Update']);
		const delivery = await hooks.deliver({
			query: { event: 'Submission Update', token: await tokenOf(hooks) },
			body: PAYLOADS['Submission Update'],
		});
		expect(delivery.result).toEqual({ noWebhookResponse: true });
		expect(delivery.status).toBe(200);
		expect(delivery.body).toMatchObject({
			received: true,
			ignored: expect.stringContaining('Submission Update'),
		});
	});
});
