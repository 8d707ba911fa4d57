import { randomBytes, randomUUID } from 'node:crypto';

import { sleep } from 'n8n-workflow';

import type { ExecutionRecord, N8nInstance, WorkflowJson } from './n8n';

export interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	position?: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	[key: string]: unknown;
}

/** n8n's connection map: source node name -> { main: [[{ node, type, index }]] }. */
export type Connections = Record<
	string,
	{ main: Array<Array<{ node: string; type: string; index: number }>> }
>;

export type JsonObject = Record<string, unknown>;

const WEBHOOK_NODE = 'Harness Webhook';
const INPUT_NODE = 'Harness Input';

export interface WebhookRunOptions {
	/** Items the first nodes receive; without them they receive the webhook's one item. */
	inputItems?: JsonObject[];
	/** Name of the Code node that emits `inputItems`, for expressions such as `$('Input').item`. */
	inputNodeName?: string;
	/** Read the finished execution (with its run data) back before the workflow is deleted. */
	keepExecution?: boolean;
}

export interface WebhookRun {
	/** The webhook's HTTP status: 200 for a run that finished, 500 for one that failed. */
	status: number;
	/** The last node's items as the webhook answered them (empty when the run failed). */
	items: JsonObject[];
	execution?: ExecutionRecord;
	/** Why the run failed, read from the execution record; only when status is not 2xx. */
	failure?: string;
}

/**
 * A Webhook node for POSTs at `webhookPath` that answers with every item of the workflow's last
 * node, or at once ('onReceived').
 */
export function answeringWebhook(
	name: string,
	webhookPath: string,
	answer: 'lastNode' | 'onReceived' = 'lastNode',
): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path: webhookPath,
			responseMode: answer,
			...(answer === 'lastNode' ? { responseData: 'allEntries' } : {}),
			options: {},
		},
	};
}

/** A Code node that turns the POSTed body's `items` list into exactly those items. */
function postedItemsNode(name: string): WorkflowNode {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [200, 0],
		parameters: {
			mode: 'runOnceForAllItems',
			language: 'javaScript',
			jsCode: 'return $input.first().json.body.items.map((json) => ({ json }));',
		},
	};
}

/** A PDF on the outside (the node checks the signature), a few random bytes inside, in base64. */
function profilePdfBase64(): string {
	return Buffer.concat([
		Buffer.from('%PDF-1.7\n', 'latin1'),
		randomBytes(2_000),
		Buffer.from('\n%%EOF\n', 'latin1'),
	]).toString('base64');
}

/**
 * Two nodes that make a text file of each item: 'Resume Text' sets `resume` to `text` (an
 * expression when it starts with =), 'Make File' turns it into the binary property `data`.
 */
export function textFileNodes(text: string, fileName: string): WorkflowNode[] {
	return [
		{
			name: 'Resume Text',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				assignments: {
					assignments: [{ id: randomUUID(), name: 'resume', value: text, type: 'string' }],
				},
				options: {},
			},
		},
		{
			name: 'Make File',
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			parameters: {
				operation: 'toText',
				sourceProperty: 'resume',
				binaryPropertyName: 'data',
				options: { fileName },
			},
		},
	];
}

/**
 * Webhook -> Rows -> Make File -> Submit (Submission Create), to save and activate: one
 * workflow, many runs. Each POSTed row `{ job, candidate, content }` becomes a PDF (content in
 * base64) submitted for that pair, with `submitOptions` as the node's options.
 */
export function submitRowsWorkflow(
	name: string,
	webhookPath: string,
	credential: { id: string; name: string },
	submitOptions: JsonObject,
): WorkflowJson {
	return {
		name,
		nodes: [
			answeringWebhook('Webhook', webhookPath),
			postedItemsNode('Rows'),
			{
				name: 'Make File',
				type: 'n8n-nodes-base.convertToFile',
				typeVersion: 1.1,
				position: [400, 0],
				parameters: {
					operation: 'toBinary',
					sourceProperty: 'content',
					binaryPropertyName: 'data',
					options: { dataIsBase64: true, fileName: 'Profile.pdf', mimeType: 'application/pdf' },
				},
			},
			{
				name: 'Submit',
				type: 'n8n-nodes-trio-vms.trioVms',
				typeVersion: 1,
				position: [600, 0],
				credentials: { trioVmsApi: credential },
				onError: 'continueRegularOutput',
				parameters: {
					resource: 'submission',
					operation: 'create',
					job: { __rl: true, mode: 'number', value: "={{ $('Rows').item.json.job }}" },
					candidateNumber: "={{ $('Rows').item.json.candidate }}",
					binaryPropertyName: 'data',
					options: submitOptions,
				},
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] },
			Rows: { main: [[{ node: 'Make File', type: 'main', index: 0 }]] },
			'Make File': { main: [[{ node: 'Submit', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * POSTs `{ job, candidate }` pairs, each with a new PDF, to a submitRowsWorkflow's production URL
 * and returns the items the webhook answered; throws unless it answered 200.
 */
export async function submitRows(
	url: string,
	pairs: Array<{ job: number; candidate: number }>,
): Promise<JsonObject[]> {
	const response = await postToWebhook(url, {
		items: pairs.map((pair) => ({ ...pair, content: profilePdfBase64() })),
	});
	const text = await response.text();
	if (response.status !== 200)
		throw new Error(`the submit webhook answered ${response.status}: ${text.slice(0, 500)}`);
	const body = JSON.parse(text) as unknown;
	return (Array.isArray(body) ? body : [body]) as JsonObject[];
}

/**
 * Runs nodes in a real n8n after a Webhook node (respond with all items of the last node):
 * activates the workflow, POSTs to its production URL, and returns the webhook's answer,
 * optionally with the execution. The workflow is removed afterwards, pass or fail.
 */
export async function runWebhookWorkflow(
	instance: N8nInstance,
	nodes: WorkflowNode[],
	connections: Connections,
	options: WebhookRunOptions = {},
): Promise<WebhookRun> {
	if (nodes.length === 0) throw new Error('runWebhookWorkflow needs at least one node');
	const { inputItems, inputNodeName = INPUT_NODE } = options;
	const webhookPath = `harness-${randomUUID()}`;
	const targets = new Set<string>();
	for (const outputs of Object.values(connections)) {
		for (const output of outputs.main)
			for (const connection of output ?? []) targets.add(connection.node);
	}
	// Nodes nothing feeds are where the data enters.
	const entryNodes = nodes.filter((node) => !targets.has(node.name));
	if (entryNodes.length === 0)
		throw new Error('runWebhookWorkflow: every node has an incoming connection; nothing to feed');
	const feed = inputItems === undefined ? WEBHOOK_NODE : inputNodeName;

	const harnessNodes: WorkflowNode[] = [answeringWebhook(WEBHOOK_NODE, webhookPath)];
	const harnessConnections: Connections = {};
	if (inputItems !== undefined) {
		harnessNodes.push(postedItemsNode(inputNodeName));
		harnessConnections[WEBHOOK_NODE] = {
			main: [[{ node: inputNodeName, type: 'main', index: 0 }]],
		};
	}
	harnessConnections[feed] = {
		main: [entryNodes.map((node) => ({ node: node.name, type: 'main', index: 0 }))],
	};

	const placed = nodes.map((node, index) => ({
		position: [400 + index * 200, 0] as [number, number],
		...node,
	}));
	const workflow = await instance.createWorkflow({
		name: `harness run ${webhookPath}`,
		nodes: [...harnessNodes, ...placed],
		connections: { ...harnessConnections, ...connections },
		settings: { executionOrder: 'v1' },
	});
	let run: WebhookRun | undefined;
	let failure: unknown;
	try {
		await instance.activate(workflow.id);
		// 2.x publishes after the activate call answers: waiting for it keeps a large body from
		// being sent to a webhook not registered yet (a 404 is still retried).
		await instance.settlePublication(workflow.id);
		const response = await postToWebhook(instance.productionWebhookUrl('', webhookPath), {
			items: inputItems ?? [],
		});
		const text = await response.text();
		run = { status: response.status, items: [] };
		if (response.ok && text.trim() !== '') {
			const body = JSON.parse(text) as unknown;
			// With one item n8n may answer with the bare object instead of a list.
			run.items = Array.isArray(body) ? (body as JsonObject[]) : [body as JsonObject];
		}
		if (!response.ok) {
			run.failure = `webhook answered ${response.status} ${text.slice(0, 500)}\n${await describeFailure(instance, workflow.id)}`;
		}
		if (options.keepExecution) {
			const executions = await instance.waitForExecutions(workflow.id, 1, 30_000);
			run.execution = await instance.getExecution(executions[executions.length - 1].id);
		}
	} catch (error) {
		failure = error;
	}
	// Cleanup runs either way; its own failure is reported only when it is the sole
	// problem, so it never hides why the run failed.
	try {
		await instance.deactivate(workflow.id);
		await instance.deleteWorkflow(workflow.id);
	} catch (error) {
		failure ??= new Error(
			`runWebhookWorkflow could not remove workflow ${workflow.id}: ${(error as Error).message}`,
		);
	}
	if (failure || !run) throw failure;
	return run;
}

/**
 * Runs action nodes in a real n8n and returns the JSON of the items the last node produced;
 * throws with the failing node and its error when the run fails.
 *
 * Without `inputItems` the first nodes receive the webhook's one item (headers, body…);
 * with them, a Code node turns the POSTed list into exactly those items.
 */
export async function runThroughWebhook(
	instance: N8nInstance,
	nodes: WorkflowNode[],
	connections: Connections,
	inputItems?: JsonObject[],
): Promise<JsonObject[]> {
	const run = await runWebhookWorkflow(instance, nodes, connections, { inputItems });
	if (run.failure !== undefined) throw new Error(`Workflow run failed: ${run.failure}`);
	return run.items;
}

/**
 * POSTs JSON to a production webhook. n8n 2.x registers an activated workflow's webhooks
 * a moment after the activate call returns, so "not registered" 404s are retried
 * (bounded); a 404 runs nothing, so retrying cannot run the workflow twice.
 */
export async function postToWebhook(
	url: string,
	body: unknown,
	registerTimeoutMs = 15_000,
): Promise<Response> {
	const deadline = Date.now() + registerTimeoutMs;
	for (;;) {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
			signal: AbortSignal.timeout(120_000),
		});
		if (response.status !== 404 || Date.now() > deadline) return response;
		await response.arrayBuffer();
		await sleep(200);
	}
}

/** The webhook's 500 says nothing; the execution record says which node failed and why. */
async function describeFailure(instance: N8nInstance, workflowId: string): Promise<string> {
	try {
		const executions = await instance.waitForExecutions(workflowId, 1, 10_000);
		const last = executions[executions.length - 1];
		const full: ExecutionRecord = await instance.getExecution(last.id);
		const result = full.data?.resultData;
		const nodeErrors = Object.entries(result?.runData ?? {})
			.flatMap(([name, runs]) =>
				runs
					.filter((run) => run.error)
					.map((run) => `${name}: ${JSON.stringify(run.error).slice(0, 1000)}`),
			)
			.join('\n');
		return `execution ${last.id} status ${last.status}; error: ${result?.error?.message ?? '(none)'} ${result?.error?.description ?? ''}\n${nodeErrors}`;
	} catch (error) {
		return `(could not read the execution: ${(error as Error).message})`;
	}
}
