/**
 * A webhook trigger's lifecycle as n8n drives it, in-process: its `webhookMethods`
 * (checkExists, create, delete) run inside n8n-core's real HookContext and its `webhook()`
 * inside n8n-core's real WebhookContext, with the modes, activation modes, webhook data and
 * static-data handling n8n 2.x uses (see the notes on each method). Requests the node sends go
 * through n8n's real HTTP client and our credential's real `authenticate`, over real sockets.
 *
 * Real: `Workflow` (static data with its change tracking, parameter defaults, expressions),
 * `HookContext`, `WebhookContext`, `getNodeWebhookUrl` (the URLs come from the instance URL,
 * the node's webhookId and the webhook's path, exactly as n8n builds them), the request helpers,
 * the node and credential classes. Provided: the credential store (see credentials-helper.ts),
 * the "database" that holds the saved workflow and its static data, and the HTTP request and
 * response objects of a delivery (see `deliver`).
 *
 * ```ts
 * const hooks = triggerHooks({ parameters: { events: ['Job Update'] }, credentials: trioCredentials(url, key) });
 * await hooks.activate();                       // checkExists, then create, as n8n activates
 * hooks.staticData();                           // what n8n saved
 * await hooks.deliver({ query: { event: 'Job Update', token }, body: payload });
 * await hooks.deactivate();                     // delete
 * ```
 */
import { randomUUID } from 'node:crypto';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError, Workflow } from 'n8n-workflow';
import { HookContext, WebhookContext } from 'n8n-core';

import { TRIO_CREDENTIAL_TYPE } from '../../nodes/shared/credentials';
import { ensureEngineContainer } from './container';
import { buildAdditionalData, completeNode, credentialsHelperFor, engineNodeTypes } from './engine';

/** Production: the active workflow's URL (/webhook/). Test: the editor's "Listen for test event" URL (/webhook-test/). */
export type WebhookTarget = 'production' | 'test';

export interface TriggerHooksOptions {
	/** The trigger node's parameters as saved; defaults are added as n8n adds them. */
	parameters: INodeParameters;
	/** Trio VMS credential data (see trioCredentials in engine.ts). */
	credentials: ICredentialDataDecryptedObject;
	/** n8n's public address (WEBHOOK_URL); default 'https://n8n.agency.test'. Changeable later via `instanceUrl`. */
	instanceUrl?: string;
	workflowName?: string;
	/** The workflow's saved static data to start from; default none. */
	staticData?: IDataObject;
	/** Default 'trioVmsTrigger'. */
	nodeType?: string;
	/** Default 'Trio VMS Trigger'. */
	nodeName?: string;
	/** The saved node's webhookId (default a new one): the same workflow as another TriggerHooks. */
	webhookId?: string;
	/** The saved node's version; default the node's defaultVersion, as for a new workflow. */
	typeVersion?: number;
	/** The workflow's id (default a new one): a copy of another n8n's database keeps it. */
	workflowId?: string;
	/** The saved node's id (default a new one): a copy of another n8n's database keeps it. */
	nodeId?: string;
}

interface HookCallOptions {
	target?: WebhookTarget;
	/**
	 * For production: why n8n activates ('activate', 'update', 'init' at start-up,
	 * 'leadershipChange'); default 'activate'. Test registrations are always 'manual'.
	 */
	activation?: WorkflowActivateMode;
}

interface DeliveryRequest {
	target?: WebhookTarget;
	query?: IDataObject;
	/** The body: a string is sent as it is, anything else as JSON. */
	body?: unknown;
	/** Default 'application/json; charset=utf-8', what Trio VMS sends. */
	contentType?: string;
	/** The bytes n8n read from the socket; default the body's text. */
	rawBody?: Buffer;
	headers?: Record<string, string>;
	/**
	 * A request n8n did not read: for a content type n8n does not parse, the express request
	 * reaches webhook() as an unread stream without rawBody. When given, the request is this
	 * stream (with method, headers and query set on it) and `body`/`rawBody` are ignored.
	 */
	unreadBody?: NodeJS.ReadableStream;
	/**
	 * The static data the delivery's Workflow is built with. Default: what n8n saved last (for a
	 * test delivery: what the test registration cached). n8n builds a new Workflow from the
	 * database for every production delivery, so `{}` is what a delivery sees before n8n has
	 * saved the static data `create` wrote.
	 */
	staticData?: IDataObject;
}

interface Delivery {
	/** The status the node answered with; undefined when it left the answer to n8n. */
	status: number | undefined;
	/** The body the node answered with (what it passed to json/send/end). */
	body: unknown;
	/** The items that would start the workflow, if any. */
	workflowData: INodeExecutionData[][] | undefined;
	/** What `webhook()` returned. */
	result: IWebhookResponseData;
}

export interface TriggerHooks {
	readonly workflowId: string;
	/** The node as saved (without the defaults n8n adds when it loads the workflow). */
	readonly node: INode;
	/** n8n's public address; changing it moves the webhook URLs, as changing WEBHOOK_URL does. */
	instanceUrl: string;
	/** The URL n8n gives the node for this target (HookContext.getNodeWebhookUrl). */
	webhookUrl(target?: WebhookTarget): Promise<string>;
	/**
	 * The node's static data (a copy). Production: as saved in the database. Test: as cached with
	 * the test registration (n8n keeps it apart from the workflow's saved static data).
	 */
	staticData(target?: WebhookTarget): IDataObject;
	/** The user edits the node and saves the workflow; later calls load the new parameters. */
	edit(parameters: INodeParameters): void;
	checkExists(options?: HookCallOptions): Promise<boolean>;
	create(options?: HookCallOptions): Promise<boolean>;
	delete(options?: HookCallOptions): Promise<boolean>;
	/** n8n's createWebhookIfNotExists: checkExists, then create unless it exists. Returns what checkExists said. */
	activate(options?: HookCallOptions): Promise<boolean>;
	/** n8n's deleteWebhook, run when a workflow is deactivated or a test webhook is removed. */
	deactivate(options?: { target?: WebhookTarget }): Promise<boolean>;
	/** A request to the node's webhook URL, run through `webhook()` in a WebhookContext. */
	deliver(request: DeliveryRequest): Promise<Delivery>;
}

/** JSON round trip: what storing static data in n8n's database (or its cache) and reading it back does. */
function stored(data: IDataObject | undefined): IDataObject {
	return JSON.parse(JSON.stringify(data ?? {})) as IDataObject;
}

/**
 * Stand-in for the HTTP layer (express) of a delivery. n8n hands `webhook()` its express request
 * and response through additionalData.httpRequest / httpResponse; running express and n8n's
 * webhook server is what the real-n8n tests (test/e2e) do, and is not needed to call the node.
 * The request carries what n8n's body handling leaves on it for a webhook (rawBody, and body
 * parsed for JSON and text); the response implements the express methods a node uses to answer
 * and, like express, refuses a second answer.
 */
class DeliveryResponse {
	statusCode = 200;

	headersSent = false;

	body: unknown;

	private readonly headers: Record<string, string> = {};

	status(code: number): this {
		this.assertOpen('status');
		this.statusCode = code;
		return this;
	}

	setHeader(name: string, value: string): this {
		this.assertOpen('setHeader');
		this.headers[name.toLowerCase()] = value;
		return this;
	}

	header(name: string, value: string): this {
		return this.setHeader(name, value);
	}

	getHeader(name: string): string | undefined {
		return this.headers[name.toLowerCase()];
	}

	json(value: unknown): this {
		this.setHeader('content-type', 'application/json; charset=utf-8');
		return this.end(value);
	}

	send(value: unknown): this {
		return this.end(value);
	}

	end(value?: unknown): this {
		this.assertOpen('end');
		this.body = value;
		this.headersSent = true;
		return this;
	}

	private assertOpen(method: string): void {
		if (this.headersSent)
			throw new UnexpectedError(
				`res.${method}() after the response was sent: Cannot set headers after they are sent to the client`,
			);
	}
}

function deliveryRequest(input: DeliveryRequest): IDataObject {
	const contentType = input.contentType ?? 'application/json; charset=utf-8';
	if (input.unreadBody) {
		return Object.assign(input.unreadBody, {
			method: 'POST',
			headers: { 'content-type': contentType, ...input.headers },
			contentType: contentType.split(';')[0].trim().toLowerCase(),
			query: input.query ?? {},
			params: {},
			body: {},
		}) as unknown as IDataObject;
	}
	const text =
		typeof input.body === 'string'
			? input.body
			: input.body === undefined
				? ''
				: JSON.stringify(input.body);
	const rawBody = input.rawBody ?? Buffer.from(text, 'utf8');
	const mimeType = contentType.split(';')[0].trim().toLowerCase();
	// What n8n's body parser makes of it (n8n/dist/middlewares/body-parser.js: parseBody).
	let body: unknown = {};
	if (rawBody.length > 0 && mimeType === 'application/json') {
		try {
			body = JSON.parse(rawBody.toString('utf8').replace(/^\uFEFF/, '')) as unknown;
		} catch {
			throw new UnexpectedError(
				'n8n answers 422 to a request whose application/json body does not parse, before the node runs',
			);
		}
	} else if (rawBody.length > 0 && mimeType === 'text/plain') {
		body = rawBody.toString('utf8');
	}
	return {
		method: 'POST',
		headers: {
			'content-type': contentType,
			'content-length': String(rawBody.length),
			...input.headers,
		},
		contentType: mimeType,
		query: input.query ?? {},
		params: {},
		body: body as IDataObject,
		rawBody,
	};
}

export function triggerHooks(options: TriggerHooksOptions): TriggerHooks {
	const workflowId = options.workflowId ?? `trigger-workflow-${randomUUID()}`;
	const workflowName = options.workflowName ?? 'Shifts to Slack';
	const typeName = options.nodeType ?? 'trioVmsTrigger';
	// As the editor saves a webhook node: with an id and a webhookId (n8n's resolveNodeWebhookId).
	const savedNode: INode = {
		...completeNode(
			{
				...(options.nodeId ? { id: options.nodeId } : {}),
				...(options.typeVersion !== undefined ? { typeVersion: options.typeVersion } : {}),
				name: options.nodeName ?? 'Trio VMS Trigger',
				type: typeName,
				parameters: structuredClone(options.parameters),
			},
			0,
			[TRIO_CREDENTIAL_TYPE],
		),
		webhookId: options.webhookId ?? randomUUID(),
	};
	/** The database: the saved workflow's static data. */
	let savedStaticData = stored(options.staticData);
	/** The test webhook registration's cached static data (n8n: TestWebhookRegistrationsService). */
	let testStaticData: IDataObject | undefined;

	function nodeType(): INodeType {
		return engineNodeTypes.getByNameAndVersion(savedNode.type, savedNode.typeVersion);
	}

	/** As n8n loads a workflow: a new Workflow from the saved nodes and the given static data. */
	function loadWorkflow(staticData: IDataObject): { workflow: Workflow; node: INode } {
		const workflow = new Workflow({
			id: workflowId,
			name: workflowName,
			nodes: [structuredClone(savedNode)],
			connections: {},
			active: true,
			nodeTypes: engineNodeTypes,
			staticData: stored(staticData),
			settings: { executionOrder: 'v1' },
		});
		const node = workflow.getNode(savedNode.name);
		if (!node) throw new UnexpectedError(`The workflow has no node "${savedNode.name}"`);
		return { workflow, node };
	}

	async function additionalData(
		extra: Partial<IWorkflowExecuteAdditionalData> = {},
	): Promise<IWorkflowExecuteAdditionalData> {
		await ensureEngineContainer();
		const credentialsHelper = await credentialsHelperFor({
			[TRIO_CREDENTIAL_TYPE]: options.credentials,
		});
		return buildAdditionalData(credentialsHelper, {
			workflowId,
			instanceBaseUrl: `${hooks.instanceUrl}/`,
			webhookBaseUrl: `${hooks.instanceUrl}/webhook`,
			webhookTestBaseUrl: `${hooks.instanceUrl}/webhook-test`,
			...extra,
		});
	}

	/** The webhook as n8n describes it to the node (WebhookService.getNodeWebhooks); test ones carry isTest. */
	function webhookData(
		workflow: Workflow,
		node: INode,
		data: IWorkflowExecuteAdditionalData,
		target: WebhookTarget,
	): IWebhookData {
		const description = nodeType().description.webhooks?.find(
			(webhook) => webhook.name === 'default',
		);
		if (!description) throw new UnexpectedError(`Node type "${node.type}" has no default webhook`);
		return {
			httpMethod: String(description.httpMethod) as IWebhookData['httpMethod'],
			node: node.name,
			path: NodeHelpers.getNodeWebhookPath(
				workflow.id,
				node,
				String(description.path),
				false,
				false,
			),
			webhookDescription: description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: data,
			...(target === 'test' ? { isTest: true } : {}),
		};
	}

	/**
	 * One n8n operation on the webhook registration, as n8n runs it:
	 * - production activation: ActiveWorkflowManager.addWebhooks, mode 'trigger', on the workflow
	 *   loaded from the database; the static data is saved afterwards if it changed (and not when
	 *   the activation failed);
	 * - test registration: TestWebhooks.needsWebhook, mode and activation 'manual', on a workflow
	 *   built with empty static data; the result is cached with the registration;
	 * - removal: mode 'internal', activation 'update'; production loads the saved static data and
	 *   saves it afterwards, a test webhook uses the static data cached with its registration.
	 */
	async function run(
		methods: Array<'checkExists' | 'create' | 'delete'>,
		target: WebhookTarget,
		activation: WorkflowActivateMode | undefined,
	): Promise<boolean[]> {
		const removing = methods.includes('delete');
		const initial =
			target === 'production' ? savedStaticData : removing ? (testStaticData ?? {}) : {};
		const data = await additionalData();
		const { workflow, node } = loadWorkflow(initial);
		const webhook = webhookData(workflow, node, data, target);
		const mode: WorkflowExecuteMode = removing
			? 'internal'
			: target === 'test'
				? 'manual'
				: 'trigger';
		const activationMode: WorkflowActivateMode = removing
			? 'update'
			: target === 'test'
				? 'manual'
				: (activation ?? 'activate');
		const webhookMethods = nodeType().webhookMethods?.default;
		if (!webhookMethods)
			throw new UnexpectedError(`Node type "${node.type}" has no webhookMethods.default`);
		const results: boolean[] = [];
		for (const method of methods) {
			// n8n's createWebhookIfNotExists: create only when checkExists said no.
			if (method === 'create' && methods[0] === 'checkExists' && results[0] === true) break;
			const context = new HookContext(workflow, node, data, mode, activationMode, webhook);
			results.push(await webhookMethods[method].call(context));
		}
		if (target === 'production') {
			// WorkflowStaticDataService.saveStaticData: only when Workflow noticed a change.
			if (workflow.staticData.__dataChanged === true) {
				savedStaticData = stored(workflow.staticData);
				workflow.staticData.__dataChanged = false;
			}
		} else {
			testStaticData = stored(workflow.staticData);
		}
		return results;
	}

	function nodeKey(): string {
		return `node:${savedNode.name}`;
	}

	const hooks: TriggerHooks = {
		workflowId,
		node: savedNode,
		instanceUrl: options.instanceUrl ?? 'https://n8n.agency.test',

		async webhookUrl(target = 'production') {
			const data = await additionalData();
			const { workflow, node } = loadWorkflow({});
			const context = new HookContext(
				workflow,
				node,
				data,
				'trigger',
				'activate',
				webhookData(workflow, node, data, target),
			);
			const url = context.getNodeWebhookUrl('default');
			if (!url) throw new UnexpectedError('n8n gave no webhook URL');
			return url;
		},

		staticData(target = 'production') {
			const data = target === 'production' ? savedStaticData : (testStaticData ?? {});
			return stored(data[nodeKey()] as IDataObject | undefined);
		},

		edit(parameters) {
			savedNode.parameters = { ...savedNode.parameters, ...structuredClone(parameters) };
		},

		async checkExists(call = {}) {
			const [exists] = await run(['checkExists'], call.target ?? 'production', call.activation);
			return exists;
		},

		async create(call = {}) {
			const [created] = await run(['create'], call.target ?? 'production', call.activation);
			return created;
		},

		async delete(call = {}) {
			const [deleted] = await run(['delete'], call.target ?? 'production', undefined);
			return deleted;
		},

		async activate(call = {}) {
			const [exists] = await run(
				['checkExists', 'create'],
				call.target ?? 'production',
				call.activation,
			);
			return exists;
		},

		async deactivate(call = {}) {
			const [deleted] = await run(['delete'], call.target ?? 'production', undefined);
			return deleted;
		},

		async deliver(input) {
			const target = input.target ?? 'production';
			// LiveWebhooks: a Workflow from the database per request, mode 'webhook'. TestWebhooks: a
			// Workflow with empty static data plus the registration's cached static data, mode 'manual'.
			const response = new DeliveryResponse();
			const data = await additionalData({
				httpRequest: deliveryRequest(
					input,
				) as unknown as IWorkflowExecuteAdditionalData['httpRequest'],
				httpResponse: response as unknown as IWorkflowExecuteAdditionalData['httpResponse'],
			});
			const { workflow, node } = loadWorkflow(
				target === 'production' ? (input.staticData ?? savedStaticData) : {},
			);
			if (target === 'test') workflow.setTestStaticData(stored(input.staticData ?? testStaticData));
			const mode: WorkflowExecuteMode = target === 'production' ? 'webhook' : 'manual';
			const closeFunctions: Array<() => Promise<void>> = [];
			const context = new WebhookContext(
				workflow,
				node,
				data,
				mode,
				webhookData(workflow, node, data, target),
				closeFunctions,
				null,
			);
			const webhook = nodeType().webhook;
			if (!webhook) throw new UnexpectedError(`Node type "${node.type}" has no webhook()`);
			let result: IWebhookResponseData;
			try {
				result = await webhook.call(context);
			} finally {
				for (const close of closeFunctions) await close();
			}
			if (
				target === 'production' &&
				input.staticData === undefined &&
				workflow.staticData.__dataChanged === true
			) {
				savedStaticData = stored(workflow.staticData);
			}
			return {
				status: response.headersSent ? response.statusCode : undefined,
				body: response.body,
				workflowData: result.workflowData,
				result,
			};
		},
	};
	return hooks;
}
