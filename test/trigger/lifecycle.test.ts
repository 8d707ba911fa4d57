/**
 * The node's webhook methods (checkExists, create, delete) and its webhook() against an
 * in-memory stand-in for the service, through the real transport. Fast and in-process; the
 * same behaviour is checked through a real n8n in test/e2e/trigger.e2e.test.ts.
 */
import type { IDataObject, IHookFunctions, IHttpRequestOptions, INode, IWebhookFunctions } from 'n8n-workflow';

import { TRIO_EVENT_NAMES } from '../../nodes/shared/events';
import { TrioVmsTrigger } from '../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';
import { PAYLOADS } from './fixtures';

interface Registration {
	Id: string;
	Name: string;
	Url: string;
	Events: string[];
	IsActive: boolean;
}

class FakeService {
	registrations: Registration[] = [];

	calls: string[] = [];

	adminKeys = new Set(['admin']);

	failCreateAfter = Infinity;

	private nextId = 1;

	handle(options: IHttpRequestOptions, apiKey: string): { statusCode: number; headers: IDataObject; body: string } {
		const path = new URL(options.url).pathname;
		this.calls.push(`${options.method} ${path}`);
		const json = (statusCode: number, body: unknown) => ({ statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
		if (!this.adminKeys.has(apiKey)) return json(403, { title: 'Forbidden', status: 403 });
		if (path.endsWith('/Webhooks/Events')) return json(200, TRIO_EVENT_NAMES);
		if (options.method === 'GET') return json(200, this.registrations);
		const body = JSON.parse(String(options.body)) as Registration;
		if (body.Id) {
			const existing = this.registrations.find((r) => r.Id === body.Id);
			if (!existing) return json(404, { title: 'Not Found' });
			Object.assign(existing, body);
			return json(200, existing);
		}
		if (this.failCreateAfter <= 0) return json(500, { title: 'boom' });
		this.failCreateAfter--;
		const created = { ...body, Id: `r${this.nextId++}` };
		this.registrations.push(created);
		return json(200, created);
	}

	active(): Registration[] {
		return this.registrations.filter((r) => r.IsActive);
	}
}

const node: INode = { id: 'node-1', name: 'Trio VMS Trigger', type: 'n8n-nodes-trio-vms.trioVmsTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
const PROD_URL = 'https://n8n.agency.com/webhook/hook-1/webhook';
const TEST_URL = 'https://n8n.agency.com/webhook-test/hook-1/webhook';
const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

interface Setup {
	service: FakeService;
	staticData: IDataObject;
	parameters: IDataObject;
	apiKey: string;
}

function hookContext(setup: Setup, mode: string, webhookUrl: string): IHookFunctions {
	return {
		getNode: () => node,
		getMode: () => mode,
		getActivationMode: () => 'activate',
		getWorkflow: () => ({ id: 'wf-1', name: 'Shifts to Slack', active: true }),
		getNodeWebhookUrl: () => webhookUrl,
		getWorkflowStaticData: () => setup.staticData,
		getNodeParameter: (name: string, fallback?: unknown) => (name in setup.parameters ? setup.parameters[name] : fallback),
		getCredentials: async () => ({ apiKey: setup.apiKey, environment: 'custom', baseUrl: 'http://trio.test' }),
		logger: silent,
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => setup.service.handle(options, setup.apiKey),
		},
	} as unknown as IHookFunctions;
}

function webhookContext(setup: Setup, mode: string, query: IDataObject, body: unknown, contentType = 'application/json') {
	const response = { statusCode: 0, body: undefined as unknown };
	const raw = typeof body === 'string' ? body : JSON.stringify(body);
	const context = {
		getNode: () => node,
		getMode: () => mode,
		getWorkflow: () => ({ id: 'wf-1', name: 'Shifts to Slack', active: true }),
		getWorkflowStaticData: () => setup.staticData,
		getNodeParameter: (name: string, fallback?: unknown) => (name in setup.parameters ? setup.parameters[name] : fallback),
		getQueryData: () => query,
		getBodyData: () => (typeof body === 'object' ? body : {}),
		getRequestObject: () => ({ headers: { 'content-type': contentType }, rawBody: Buffer.from(raw) }),
		getResponseObject: () => ({
			status(code: number) {
				response.statusCode = code;
				return this;
			},
			json(value: unknown) {
				response.body = value;
				return this;
			},
		}),
		logger: silent,
		helpers: { returnJsonArray: (items: IDataObject[]) => items.map((json) => ({ json })) },
	} as unknown as IWebhookFunctions;
	return { context, response };
}

function setUp(events: string[], extra: IDataObject = {}): Setup {
	return { service: new FakeService(), staticData: {}, parameters: { events, ...extra }, apiKey: 'admin' };
}

const trigger = new TrioVmsTrigger();
const methods = trigger.webhookMethods.default;

async function activate(setup: Setup, mode = 'trigger', url = PROD_URL): Promise<boolean> {
	const context = hookContext(setup, mode, url);
	const exists = await methods.checkExists.call(context);
	if (!exists) await methods.create.call(context);
	return exists;
}

async function deactivate(setup: Setup, url = PROD_URL): Promise<void> {
	await methods.delete.call(hookContext(setup, 'internal', url));
}

function tokenOf(setup: Setup, scope: 'production' | 'test' = 'production'): string {
	return (setup.staticData[scope] as { token: string }).token;
}

describe('activation lifecycle', () => {
	it('creates one active registration per event, with the event and token in its URL', async () => {
		const setup = setUp(['Job Update', 'Per Diem Shift Opened']);
		expect(await activate(setup)).toBe(false);
		const active = setup.service.active();
		expect(active).toHaveLength(2);
		const token = tokenOf(setup);
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		expect(active.map((r) => [r.Name, r.Events, r.Url])).toEqual([
			['n8n: Shifts to Slack (Job Update)', ['Job Update'], `${PROD_URL}?event=Job%20Update&token=${token}`],
			['n8n: Shifts to Slack (Per Diem Shift Opened)', ['Per Diem Shift Opened'], `${PROD_URL}?event=Per%20Diem%20Shift%20Opened&token=${token}`],
		]);
		// Once in place, checkExists is true and nothing is sent again.
		setup.service.calls = [];
		expect(await activate(setup)).toBe(true);
		expect(setup.service.calls).toEqual(['GET /api/v3/Webhooks']);
	});

	it('deactivates on delete, clears static data, and reuses the registrations on the next activation', async () => {
		const setup = setUp(['Job Update', 'Submission Update']);
		for (let cycle = 0; cycle < 3; cycle++) {
			await activate(setup);
			expect(setup.service.active()).toHaveLength(2);
			await deactivate(setup);
			expect(setup.service.active()).toHaveLength(0);
			expect(setup.staticData).toEqual({});
		}
		// Reused by URL + event rather than piled up.
		expect(setup.service.registrations).toHaveLength(2);
	});

	it('switches off events that are no longer selected', async () => {
		const setup = setUp(['Job Update', 'Submission Update']);
		await activate(setup);
		setup.parameters.events = ['Job Update'];
		expect(await activate(setup)).toBe(false);
		expect(setup.service.active().map((r) => r.Events[0])).toEqual(['Job Update']);
		expect(Object.keys((setup.staticData.production as { ids: object }).ids)).toEqual(['Job Update']);
	});

	it('repairs a registration whose URL was changed at the service', async () => {
		const setup = setUp(['Job Update']);
		await activate(setup);
		setup.service.registrations[0].Url = 'https://elsewhere.example.com/hook';
		expect(await activate(setup)).toBe(false);
		expect(setup.service.registrations).toHaveLength(1);
		expect(setup.service.registrations[0].Url).toBe(`${PROD_URL}?event=Job%20Update&token=${tokenOf(setup)}`);
	});

	it("moves the registrations when n8n's webhook address changes", async () => {
		const setup = setUp(['Job Update']);
		await activate(setup);
		const moved = 'https://new-host.agency.com/webhook/hook-1/webhook';
		expect(await activate(setup, 'init', moved)).toBe(false);
		expect(setup.service.registrations).toHaveLength(1);
		expect(setup.service.registrations[0].Url.startsWith(`${moved}?`)).toBe(true);
	});

	it('keeps test registrations apart from production ones', async () => {
		const setup = setUp(['Job Update']);
		await activate(setup);
		const production = { ...setup.service.registrations[0] };
		await activate(setup, 'manual', TEST_URL);
		expect(setup.service.active()).toHaveLength(2);
		expect(setup.service.registrations[0]).toEqual(production);
		expect(setup.service.registrations[1].Name).toBe('n8n test: Shifts to Slack (Job Update)');
		expect(tokenOf(setup, 'test')).not.toBe(tokenOf(setup));
		// n8n removes the test webhook with mode "internal" and the test URL.
		await deactivate(setup, TEST_URL);
		expect(setup.service.active()).toEqual([production]);
		expect(setup.staticData).toHaveProperty('production');
		expect(setup.staticData).not.toHaveProperty('test');
	});

	it('fails with the agency-admin message for a key without permission', async () => {
		const setup = setUp(['Job Update']);
		setup.apiKey = 'plain';
		await expect(activate(setup)).rejects.toThrow(/agency administrator permission/);
		expect(setup.service.registrations).toHaveLength(0);
	});

	it('leaves nothing active when activation fails part-way', async () => {
		const setup = setUp(['Job Update', 'Submission Update', 'Per Diem Shift Opened']);
		setup.service.failCreateAfter = 2;
		await expect(activate(setup)).rejects.toThrow(/Registering the Trio VMS webhook for "Per Diem Shift Opened" failed/);
		expect(setup.service.active()).toHaveLength(0);
	});

	it('refuses to activate without events', async () => {
		const setup = setUp([]);
		await expect(activate(setup)).rejects.toThrow(/Select at least one event/);
	});

	it('counts a registration removed at the service as done on delete', async () => {
		const setup = setUp(['Job Update']);
		await activate(setup);
		setup.service.registrations = [];
		await deactivate(setup);
		expect(setup.staticData).toEqual({});
	});
});

describe('receiving deliveries', () => {
	async function activeSetup(events: string[], extra: IDataObject = {}) {
		const setup = setUp(events, extra);
		await activate(setup);
		return setup;
	}

	it('emits the payload with event and receivedAt', async () => {
		const setup = await activeSetup(['Submission Update']);
		const { context } = webhookContext(setup, 'webhook', { event: 'Submission Update', token: tokenOf(setup) }, PAYLOADS['Submission Update']);
		const result = await trigger.webhook.call(context);
		const [item] = result.workflowData![0];
		expect(item.json).toMatchObject({ event: 'Submission Update', ...PAYLOADS['Submission Update'] });
		expect(new Date(String(item.json.receivedAt)).toISOString()).toBe(item.json.receivedAt);
	});

	it('accepts the new token before n8n has saved the static data that create wrote', async () => {
		const setup = await activeSetup(['Submission Update']);
		const token = tokenOf(setup);
		// What a delivery sees in the moment after activation: static data as it was before create.
		const unsaved: Setup = { ...setup, staticData: {} };
		// A payload no other test sends, so the duplicate memory cannot be what answers.
		const payload = { ...PAYLOADS['Submission Update'], ModifiedDateUTC: '2031-01-01T00:00:00Z' };
		const { context } = webhookContext(unsaved, 'webhook', { event: 'Submission Update', token }, payload);
		const result = await trigger.webhook.call(context);
		expect(result.workflowData?.[0]).toHaveLength(1);

		const { context: wrong, response } = webhookContext(unsaved, 'webhook', { event: 'Submission Update', token: 'wrong' }, PAYLOADS['Submission Update']);
		await trigger.webhook.call(wrong);
		expect(response.statusCode).toBe(403);
	});

	it('forgets the issued token on deactivation', async () => {
		const setup = await activeSetup(['Submission Update']);
		const token = tokenOf(setup);
		await deactivate(setup);
		const { context, response } = webhookContext(setup, 'webhook', { event: 'Submission Update', token }, PAYLOADS['Submission Update']);
		await trigger.webhook.call(context);
		expect(response.statusCode).toBe(403);
	});

	it('answers 403 for a wrong token and 400 for an unknown event or a body that is not JSON, starting nothing', async () => {
		const setup = await activeSetup(['Job Update']);
		const cases: Array<[IDataObject, unknown, string, number]> = [
			[{ event: 'Job Update', token: 'wrong' }, PAYLOADS['Job Update'], 'application/json', 403],
			[{ event: 'Job Update' }, PAYLOADS['Job Update'], 'application/json', 403],
			[{ event: 'Job Closed', token: tokenOf(setup) }, PAYLOADS['Job Update'], 'application/json', 400],
			[{ event: 'Job Update', token: tokenOf(setup) }, 'not json', 'text/plain', 400],
		];
		for (const [query, body, contentType, status] of cases) {
			const { context, response } = webhookContext(setup, 'webhook', query, body, contentType);
			expect(await trigger.webhook.call(context)).toEqual({ noWebhookResponse: true });
			expect(response.statusCode).toBe(status);
		}
	});

	it("does not accept production's token on the test URL or the other way round", async () => {
		const setup = await activeSetup(['Job Update']);
		await activate(setup, 'manual', TEST_URL);
		const { context, response } = webhookContext(setup, 'manual', { event: 'Job Update', token: tokenOf(setup) }, PAYLOADS['Job Update']);
		await trigger.webhook.call(context);
		expect(response.statusCode).toBe(403);
		const test = webhookContext(setup, 'manual', { event: 'Job Update', token: tokenOf(setup, 'test') }, PAYLOADS['Job Update']);
		expect((await trigger.webhook.call(test.context)).workflowData).toBeDefined();
	});

	it('drops duplicates (200, no workflow) when asked to, and only then', async () => {
		const setup = await activeSetup(['Per Diem Shift Removed']);
		const payload = { ...PAYLOADS['Per Diem Shift Removed'], Id: `dup-${Date.now()}` };
		const deliver = () => webhookContext(setup, 'webhook', { event: 'Per Diem Shift Removed', token: tokenOf(setup) }, payload);
		const first = deliver();
		expect((await trigger.webhook.call(first.context)).workflowData).toHaveLength(1);
		const second = deliver();
		expect(await trigger.webhook.call(second.context)).toEqual({ noWebhookResponse: true });
		expect(second.response).toEqual({ statusCode: 200, body: { received: true, duplicate: true } });

		setup.parameters.ignoreDuplicates = false;
		expect((await trigger.webhook.call(deliver().context)).workflowData).toHaveLength(1);
	});

	it('splits opened shifts by default and not when the option is off', async () => {
		const setup = await activeSetup(['Per Diem Shift Opened'], { ignoreDuplicates: false });
		const deliver = () => webhookContext(setup, 'webhook', { event: 'Per Diem Shift Opened', token: tokenOf(setup) }, PAYLOADS['Per Diem Shift Opened']);
		expect((await trigger.webhook.call(deliver().context)).workflowData![0]).toHaveLength(2);
		setup.parameters.splitShifts = false;
		const [whole] = (await trigger.webhook.call(deliver().context)).workflowData![0];
		expect(whole.json.Items).toHaveLength(2);
	});

	it('ignores (200) an event that is no longer selected', async () => {
		const setup = await activeSetup(['Job Update']);
		const { context, response } = webhookContext(setup, 'webhook', { event: 'Submission Update', token: tokenOf(setup) }, PAYLOADS['Submission Update']);
		expect(await trigger.webhook.call(context)).toEqual({ noWebhookResponse: true });
		expect(response.statusCode).toBe(200);
	});
});
