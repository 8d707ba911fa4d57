/**
 * The webhook-lifecycle runner itself (trigger-hooks.ts), with a test node rather than the
 * package's trigger, so that it says whether the runner does what n8n does independently of the
 * node under development: the URLs, modes and activation modes n8n passes, how static data is
 * loaded and saved, and what a delivery's request and response look like to the node.
 */
import type {
	IDataObject,
	IHookFunctions,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { engineNodeTypes } from '../../harness/engine/engine';
import { triggerHooks } from '../../harness/engine/trigger-hooks';

const TYPE = 'test.webhookTrigger';
const INSTANCE = 'https://n8n.example.test';

interface Call {
	method: string;
	mode: string;
	activation: string;
	url: string | undefined;
}

const calls: Call[] = [];

function record(context: IHookFunctions, method: string): void {
	calls.push({
		method,
		mode: context.getMode(),
		activation: context.getActivationMode(),
		url: context.getNodeWebhookUrl('default'),
	});
}

class TestWebhookTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Webhook Trigger',
		name: TYPE,
		group: ['trigger'],
		version: 1,
		description: 'Registers itself in static data; answers or emits what it received',
		defaults: { name: 'Hook' },
		inputs: [],
		outputs: ['main'],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'hook' }],
		properties: [
			{ displayName: 'Answer With', name: 'answer', type: 'number', default: 0 },
			{ displayName: 'Fail Create', name: 'failCreate', type: 'boolean', default: false },
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				record(this, 'checkExists');
				return this.getWorkflowStaticData('node').registered !== undefined;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				record(this, 'create');
				this.getWorkflowStaticData('node').registered = this.getNodeWebhookUrl('default');
				if (this.getNodeParameter('failCreate') as boolean)
					throw new Error('create failed after writing static data');
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				record(this, 'delete');
				delete this.getWorkflowStaticData('node').registered;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const request = this.getRequestObject() as unknown as {
			rawBody: Buffer;
			contentType: string;
			headers: IDataObject;
		};
		const seen: IDataObject = {
			mode: this.getMode(),
			query: this.getQueryData() as IDataObject,
			body: this.getBodyData(),
			rawBody: request.rawBody.toString('utf8'),
			contentType: request.headers['content-type'],
			registered: this.getWorkflowStaticData('node').registered,
		};
		const answer = this.getNodeParameter('answer') as number;
		if (answer) {
			this.getResponseObject().status(answer).json(seen);
			return { noWebhookResponse: true };
		}
		return { workflowData: [this.helpers.returnJsonArray([seen])] };
	}
}

engineNodeTypes.register(TYPE, new TestWebhookTrigger());

function hooks(parameters: INodeParameters = {}) {
	return triggerHooks({
		parameters,
		credentials: {},
		nodeType: TYPE,
		nodeName: 'Hook',
		instanceUrl: INSTANCE,
	});
}

beforeEach(() => {
	calls.length = 0;
});

describe('triggerHooks', () => {
	it("gives n8n's production and test URLs, which follow the instance URL", async () => {
		const h = hooks();
		expect(h.node.webhookId).toMatch(/^[0-9a-f-]{36}$/);
		expect(await h.webhookUrl()).toBe(`${INSTANCE}/webhook/${h.node.webhookId}/hook`);
		expect(await h.webhookUrl('test')).toBe(`${INSTANCE}/webhook-test/${h.node.webhookId}/hook`);
		h.instanceUrl = 'https://moved.example.test';
		expect(await h.webhookUrl()).toBe(
			`https://moved.example.test/webhook/${h.node.webhookId}/hook`,
		);
	});

	it('activates and deactivates with the modes n8n uses, keeping test static data apart', async () => {
		const h = hooks();
		const production = await h.webhookUrl();
		const test = await h.webhookUrl('test');
		expect(await h.activate()).toBe(false);
		expect(h.staticData()).toEqual({ registered: production });
		expect(await h.activate({ activation: 'init' })).toBe(true);
		await h.activate({ target: 'test' });
		expect(h.staticData('test')).toEqual({ registered: test });
		expect(h.staticData()).toEqual({ registered: production });
		await h.deactivate({ target: 'test' });
		await h.deactivate();
		expect(h.staticData()).toEqual({});
		expect(h.staticData('test')).toEqual({});
		expect(calls).toEqual([
			{ method: 'checkExists', mode: 'trigger', activation: 'activate', url: production },
			{ method: 'create', mode: 'trigger', activation: 'activate', url: production },
			{ method: 'checkExists', mode: 'trigger', activation: 'init', url: production },
			// A test registration starts from empty static data, as n8n's TestWebhooks does.
			{ method: 'checkExists', mode: 'manual', activation: 'manual', url: test },
			{ method: 'create', mode: 'manual', activation: 'manual', url: test },
			{ method: 'delete', mode: 'internal', activation: 'update', url: test },
			{ method: 'delete', mode: 'internal', activation: 'update', url: production },
		]);
	});

	it('runs each method on its own when asked, and keeps nothing from a call that failed', async () => {
		const h = hooks({ failCreate: true });
		expect(await h.checkExists()).toBe(false);
		await expect(h.create()).rejects.toThrow('create failed after writing static data');
		expect(h.staticData()).toEqual({});
		h.edit({ failCreate: false });
		expect(await h.create()).toBe(true);
		expect(h.staticData()).toEqual({ registered: await h.webhookUrl() });
		expect(calls.map((call) => call.method)).toEqual(['checkExists', 'create', 'create']);
	});

	it('hands the node the request as n8n parses it, and reports its answer', async () => {
		const h = hooks({ answer: 202 });
		const json = await h.deliver({ query: { a: '1' }, body: { b: 2 } });
		expect(json.status).toBe(202);
		expect(json.result).toEqual({ noWebhookResponse: true });
		expect(json.body).toEqual({
			mode: 'webhook',
			query: { a: '1' },
			body: { b: 2 },
			rawBody: '{"b":2}',
			contentType: 'application/json; charset=utf-8',
			registered: undefined,
		});
		const text = await h.deliver({ body: 'plain words', contentType: 'text/plain' });
		expect(text.body).toMatchObject({ body: 'plain words', rawBody: 'plain words' });
		const other = await h.deliver({
			body: 'a=1',
			contentType: 'application/x-www-form-urlencoded',
		});
		expect(other.body).toMatchObject({ body: {}, rawBody: 'a=1' });
	});

	it('leaves the answer to n8n when the node emits items, and builds each delivery from the saved static data', async () => {
		const h = hooks();
		await h.activate();
		const production = await h.deliver({ body: {} });
		expect(production.status).toBeUndefined();
		expect(production.workflowData?.[0][0].json).toMatchObject({
			mode: 'webhook',
			registered: await h.webhookUrl(),
		});
		const unsaved = await h.deliver({ body: {}, staticData: {} });
		expect(unsaved.workflowData?.[0][0].json.registered).toBeUndefined();
		await h.activate({ target: 'test' });
		const test = await h.deliver({ target: 'test', body: {} });
		expect(test.workflowData?.[0][0].json).toMatchObject({
			mode: 'manual',
			registered: await h.webhookUrl('test'),
		});
	});

	it('refuses a second answer, as express does', async () => {
		engineNodeTypes.register('test.answersTwice', {
			description: { ...new TestWebhookTrigger().description, name: 'test.answersTwice' },
			async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
				this.getResponseObject().status(200).json({ first: true });
				this.getResponseObject().status(500).json({ second: true });
				return { noWebhookResponse: true };
			},
		});
		const h = triggerHooks({
			parameters: {},
			credentials: {},
			nodeType: 'test.answersTwice',
			instanceUrl: INSTANCE,
		});
		await expect(h.deliver({ body: {} })).rejects.toThrow(/after the response was sent/);
	});
});
