/** Webhook: Create, Update, Deactivate, Get Many and Get Available Events, through the engine. */
import type { IDataObject, INodeParameterResourceLocator } from 'n8n-workflow';

import { TRIO_EVENT_NAMES, TRIO_EVENTS } from '../../../nodes/shared/events';
import { PACKAGE_NAME } from '../../../harness/engine/node-types';
import { errorText, useSandbox } from '../../support/sandbox-harness';

const t = useSandbox({ jobs: 5 });

function byId(id: string): INodeParameterResourceLocator {
	return { __rl: true, mode: 'id', value: id };
}

async function register(name: string, events = ['Job Update']): Promise<IDataObject> {
	const { output, error } = await t.run({
		resource: 'webhook',
		operation: 'create',
		name,
		url: `https://hooks.example.com/${encodeURIComponent(name)}`,
		events,
	});
	if (error) throw error;
	t.clearRequests();
	return output[0].json;
}

describe('Webhook: Create', () => {
	it('registers an address for events and returns the registration with its Id', async () => {
		const { output, error } = await t.run({
			resource: 'webhook',
			operation: 'create',
			name: 'Submissions to n8n',
			url: 'https://hooks.example.com/trio',
			events: ['Submission Update', 'Job Update'],
		});
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({
			Name: 'Submissions to n8n',
			Url: 'https://hooks.example.com/trio',
			Events: ['Submission Update', 'Job Update'],
			IsActive: true,
		});
		expect(typeof output[0].json.Id).toBe('string');
		expect(t.apiRequests().map((r) => [r.method, r.path, r.key])).toEqual([
			['POST', '/api/v3/Webhooks', 'admin'],
		]);
	});

	it('takes events from an expression as text and can start inactive', async () => {
		const { output } = await t.run(
			{
				resource: 'webhook',
				operation: 'create',
				name: 'From sheet',
				url: 'https://hooks.example.com/x',
				events: '={{ $json.events }}',
				isActive: false,
			},
			{ input: [{ events: 'Job Update, Per Diem Shift Opened, Job Update' }] },
		);
		expect(output[0].json).toMatchObject({
			Events: ['Job Update', 'Per Diem Shift Opened'],
			IsActive: false,
		});
	});

	it.each([
		[{ url: 'http://hooks.example.com/trio' }, '"URL" must start with https://'],
		[{ url: 'hooks.example.com' }, '"URL" must be an absolute address'],
		[{ events: '={{ [] }}' }, '"Event Names or IDs" must name at least one event'],
		[{ name: '={{ " " }}' }, '"Name" is required but empty'],
	])('refuses %j before sending anything', async (change, message) => {
		const { error } = await t.run({
			resource: 'webhook',
			operation: 'create',
			name: 'Hook',
			url: 'https://hooks.example.com/trio',
			events: ['Job Update'],
			...change,
		});
		expect(errorText(error).message).toContain(message);
		expect(t.apiRequests()).toHaveLength(0);
	});

	describe('after a 429: looks in Trio before sending it again, so nothing is registered twice', () => {
		const create = (name: string, fault: IDataObject) => {
			t.sandbox.setFaults({
				endpoints: { 'POST /api/v3/Webhooks': { ...fault, failStatus: 429 } },
			});
			return t.run({
				resource: 'webhook',
				operation: 'create',
				name,
				url: `https://hooks.example.com/${name}`,
				events: ['Submission Update', 'Job Update'],
			});
		};
		const stored = (name: string) =>
			t.sandbox.store.listRegistrations().filter((registration) => registration.Name === name);
		const sequence = () => t.apiRequests().map((r) => `${r.method} ${r.status}`);

		it('stored before the 429 (a gateway limiting after passing it on): found, output as created despite the 429', async () => {
			const { output, error } = await create('stored-then-429', { failAfterHandlerNext: 1 });
			expect(error).toBeUndefined();
			expect(sequence()).toEqual(['POST 429', 'GET 200']);
			expect(stored('stored-then-429')).toHaveLength(1);
			expect(output[0].json).toMatchObject({
				Id: stored('stored-then-429')[0].Id,
				_trio: { action: 'created despite an error' },
			});
			expect(String((output[0].json._trio as IDataObject).error)).toContain('not registered twice');
		});

		it('refused before any work: the look finds none, and it is sent again once', async () => {
			const { output, error } = await create('plain-429', { failNext: 1 });
			expect(error).toBeUndefined();
			expect(sequence()).toEqual(['POST 429', 'GET 200', 'POST 200']);
			expect(stored('plain-429')).toHaveLength(1);
			expect(output[0].json._trio).toBeUndefined();
		});
	});

	it('explains that a plain agency key cannot manage webhooks (403)', async () => {
		const { error } = await t.run(
			{
				resource: 'webhook',
				operation: 'create',
				name: 'Hook',
				url: 'https://hooks.example.com/trio',
				events: ['Job Update'],
			},
			{ credentials: t.agency },
		);
		expect(errorText(error).message).toMatch(/^Trio VMS refused the API key/);
		expect(errorText(error).description).toContain('Status: 403 Forbidden');
		expect(errorText(error).description).toContain('agency administrator permission');
		expect(errorText(error).httpCode).toBe('403');
	});
});

describe('Webhook: Update and Deactivate', () => {
	it('changes only the given fields, keeping the others', async () => {
		const created = await register('Original', ['Job Update', 'Submission Update']);
		const { output, error } = await t.run({
			resource: 'webhook',
			operation: 'update',
			webhook: byId(created.Id as string),
			updateFields: { name: 'Renamed' },
		});
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({
			Id: created.Id,
			Name: 'Renamed',
			Url: created.Url,
			Events: created.Events,
			IsActive: true,
		});
		expect(t.apiRequests().map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /api/v3/Webhooks',
			'POST /api/v3/Webhooks',
		]);
	});

	it('changes the address, events and active state', async () => {
		const created = await register('Everything');
		const { output } = await t.run({
			resource: 'webhook',
			operation: 'update',
			webhook: { __rl: true, mode: 'list', value: String(created.Id) },
			updateFields: {
				url: 'https://hooks.example.com/new',
				events: ['Per Diem Shift Assigned'],
				isActive: false,
			},
		});
		expect(output[0].json).toMatchObject({
			Name: 'Everything',
			Url: 'https://hooks.example.com/new',
			Events: ['Per Diem Shift Assigned'],
			IsActive: false,
		});
	});

	it('repeats an update after a service failure, because updating twice changes nothing', async () => {
		const created = await register('Retry me');
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Webhooks': { failNext: 1, failStatus: 503 } },
		});
		const { output, error } = await t.run({
			resource: 'webhook',
			operation: 'update',
			webhook: byId(created.Id as string),
			updateFields: { name: 'Retried' },
		});
		expect(error).toBeUndefined();
		expect(output[0].json.Name).toBe('Retried');
		expect(
			t
				.apiRequests()
				.filter((r) => r.method === 'POST')
				.map((r) => r.status),
		).toEqual([503, 200]);
	});

	it('refuses an empty change before sending anything, and an unknown Id after looking', async () => {
		const empty = await t.run({
			resource: 'webhook',
			operation: 'update',
			webhook: byId('abc'),
			updateFields: {},
		});
		expect(errorText(empty.error).message).toContain('"Update Fields" is empty');
		expect(t.apiRequests()).toHaveLength(0);

		const unknown = await t.run({
			resource: 'webhook',
			operation: 'update',
			webhook: byId('no-such-id'),
			updateFields: { name: 'X' },
		});
		expect(errorText(unknown.error).message).toContain(
			'your agency has no webhook registration with that ID',
		);
		expect(t.apiRequests().map((r) => r.method)).toEqual(['GET']);
	});

	it('deactivates a registration, which stays listed as inactive', async () => {
		const created = await register('Switch me off');
		const { output, error } = await t.run({
			resource: 'webhook',
			operation: 'deactivate',
			webhook: byId(created.Id as string),
		});
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({
			Id: created.Id,
			Name: 'Switch me off',
			IsActive: false,
		});
		const listed = t.sandbox.store.listRegistrations().find((r) => r.Id === created.Id);
		expect(listed?.IsActive).toBe(false);
	});
});

describe('Webhook: Get Many and Get Available Events', () => {
	it('lists registrations with Limit, Return All and Active Only', async () => {
		await register('Listed A');
		const b = await register('Listed B');
		await t.run({ resource: 'webhook', operation: 'deactivate', webhook: byId(b.Id as string) });
		const total = t.sandbox.store.listRegistrations().length;

		const all = await t.run({ resource: 'webhook', operation: 'getAll', returnAll: true });
		expect(all.output).toHaveLength(total);
		const one = await t.run({ resource: 'webhook', operation: 'getAll', limit: 1 });
		expect(one.output).toHaveLength(1);
		const active = await t.run({
			resource: 'webhook',
			operation: 'getAll',
			returnAll: true,
			activeOnly: true,
		});
		expect(active.output.every((item) => item.json.IsActive !== false)).toBe(true);
		expect(active.output.length).toBeLessThan(total);
	});

	it('lists the events that can be registered, with what they mean', async () => {
		const { output, error } = await t.run({ resource: 'webhook', operation: 'getEvents' });
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.name)).toEqual([...TRIO_EVENT_NAMES]);
		expect(output[0].json.description).toBe(TRIO_EVENTS['Job Update'].description);
	});

	it('explains the 403 for a plain key on listing too', async () => {
		const { error } = await t.run(
			{ resource: 'webhook', operation: 'getAll' },
			{ credentials: t.agency },
		);
		expect(errorText(error).description).toContain('agency administrator permission');
	});
});

describe("the trigger's delivery secret in Webhook output", () => {
	const secret = 'f'.repeat(64);
	const url = `https://n8n.agency.example/webhook/abc/webhook?event=Job%20Update&token=${secret}`;
	const masked = `https://n8n.agency.example/webhook/abc/webhook?event=Job%20Update&token=ffff[redacted]`;

	it('is masked in what Create, Get Many, Update and Deactivate output, and kept whole at the service', async () => {
		const created = await t.run({
			resource: 'webhook',
			operation: 'create',
			name: 'Trigger-like',
			url,
			events: ['Job Update'],
		});
		expect(created.output[0].json.Url).toBe(masked);
		const id = String(created.output[0].json.Id);

		const listed = await t.run({ resource: 'webhook', operation: 'getAll', returnAll: true });
		const mine = listed.output.find((item) => item.json.Id === id);
		expect(mine?.json.Url).toBe(masked);
		expect(JSON.stringify(listed.output)).not.toContain(secret);

		const updated = await t.run({
			resource: 'webhook',
			operation: 'update',
			webhook: byId(id),
			updateFields: { name: 'Renamed' },
		});
		expect(updated.output[0].json.Url).toBe(masked);
		const deactivated = await t.run({
			resource: 'webhook',
			operation: 'deactivate',
			webhook: byId(id),
		});
		expect(JSON.stringify(deactivated.output)).not.toContain(secret);

		// Update re-sends the registration as the service has it, token included.
		const atService = [...t.sandbox.store.registrations.values()].find((r) => r.Id === id);
		expect(atService?.Url).toBe(url);
	});
});

describe('Webhook resource and AI agents', () => {
	it('refuses every Webhook operation when an AI agent runs the node, before sending anything', async () => {
		const { error } = await t.run(
			{ resource: 'webhook', operation: 'getAll', returnAll: true },
			{ nodeType: `${PACKAGE_NAME}.trioVmsTool` },
		);
		expect(errorText(error).message).toBe('Webhook registrations cannot be managed by an AI agent');
		expect(t.apiRequests()).toHaveLength(0);
	});

	it('still serves an agent the other resources', async () => {
		const { output, error } = await t.run(
			{ resource: 'job', operation: 'getAll', limit: 2 },
			{ nodeType: `${PACKAGE_NAME}.trioVmsTool` },
		);
		expect(error).toBeUndefined();
		expect(output).toHaveLength(2);
	});
});

describe('Webhook addresses the real Trio cannot reach', () => {
	const production = { apiKey: 'key', environment: 'production', tenant: 'ahsa' };

	it.each([
		['https://localhost:5678/webhook/trio', 'localhost'],
		['https://192.168.1.20/webhook/trio', 'private'],
		['https://n8n.internal/webhook/trio', 'inside your network'],
	])('refuses %s on Production before sending anything', async (url, reason) => {
		const { error } = await t.run(
			{ resource: 'webhook', operation: 'create', name: 'n8n', url, events: ['Job Update'] },
			{ credentials: production },
		);
		expect(errorText(error).message).toContain(
			'"URL" is an address Trio VMS cannot send events to',
		);
		expect(errorText(error).message).toContain(reason);
		expect(errorText(error).description).toContain('Trio VMS Sync Trigger');
		expect(t.apiRequests()).toHaveLength(0);
	});

	it('refuses plain http on Production as anywhere else', async () => {
		const { error } = await t.run(
			{
				resource: 'webhook',
				operation: 'create',
				name: 'n8n',
				url: 'http://n8n.example.com/webhook/trio',
				events: ['Job Update'],
			},
			{ credentials: production },
		);
		expect(errorText(error).message).toContain('"URL" must start with https://');
		expect(t.apiRequests()).toHaveLength(0);
	});

	it('refuses it on Update too', async () => {
		const { error } = await t.run(
			{
				resource: 'webhook',
				operation: 'update',
				webhook: { __rl: true, mode: 'id', value: 'x' },
				updateFields: { url: 'https://10.0.0.5/hook' },
			},
			{ credentials: { ...production, environment: 'uat' } },
		);
		expect(errorText(error).message).toContain('private');
	});

	it('keeps accepting a local address on a Custom URL (a test copy of Trio)', async () => {
		const { error } = await t.run({
			resource: 'webhook',
			operation: 'create',
			name: 'local',
			url: 'http://127.0.0.1:9/hook',
			events: ['Job Update'],
		});
		expect(error).toBeUndefined();
	});
});
