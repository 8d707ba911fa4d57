/**
 * Runs workflows in-process inside n8n's real execution engine: n8n-workflow's Workflow and
 * expression engine, n8n-core's WorkflowExecute, ExecutionLifecycleHooks and node execution
 * contexts (ExecuteContext, LoadOptionsContext), its outbound HTTP client and binary data
 * service. Requests from nodes go over real sockets; nothing is intercepted.
 *
 * Provided by the test rather than by an n8n instance: the credential store (see
 * credentials-helper.ts), the workflow/execution ids, the instance URLs, and a temporary
 * user folder (see container.ts). See README.md in this folder.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';

import type {
	ExecutionError,
	IBinaryData,
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INode,
	INodeCredentials,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	IRun,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError, Workflow } from 'n8n-workflow';
import { Container } from '@n8n/di';
import {
	BinaryDataService,
	ExecutionLifecycleHooks,
	ExternalSecretsProxy,
	LoadOptionsContext,
	WorkflowExecute,
} from 'n8n-core';

import { TRIO_CREDENTIAL_TYPE } from '../../nodes/shared/credentials';
import {
	findProcessMemory,
	forgetUncertainCreates,
	ProcessMemory,
} from '../../nodes/TrioVms/helpers/createMemory';
import { ensureEngineContainer } from './container';
import { NODE_UNDER_TEST, SOURCE_NODE } from './names';
import { CredentialTypeRegistry, TestCredentialsHelper } from './credentials-helper';
import { EngineNodeTypes } from './node-types';
import type { BinarySourceFile } from './test-nodes';

export { TestCredentialsHelper } from './credentials-helper';
export type { ProbeRequest } from './transport-probe.node';
export { ProcessedDataStorage, useProcessedDataStorage } from './deduplication';

/** The node types every run uses; tests may add their own with `engineNodeTypes.register`. */
export const engineNodeTypes = new EngineNodeTypes();

export const credentialTypes = new CredentialTypeRegistry();

export { NODE_UNDER_TEST, SOURCE_NODE } from './names';

export type EngineNode = Partial<INode> & {
	name: string;
	type: string;
	parameters?: INodeParameters;
};

export interface RunWorkflowOptions {
	nodes: EngineNode[];
	connections: IConnections;
	/** Credential type -> decrypted data, e.g. `{ trioVmsApi: trioCredentials(url, key) }`. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Node to start from; default the first node nothing connects into. */
	startNode?: string;
	/** Default 'manual', as when a user clicks "Execute workflow". */
	mode?: WorkflowExecuteMode;
	/**
	 * The workflow's id; default a new one per run. Runs with the same id are re-runs of one
	 * saved workflow: they share its memory in n8n's duplicate store (deduplication.ts).
	 */
	workflowId?: string;
}

export interface EngineRun {
	run: IRun;
	/** Items a node emitted on an output (all its runs, in order). */
	items(nodeName: string, outputIndex?: number): INodeExecutionData[];
	json(nodeName: string, outputIndex?: number): IDataObject[];
	/**
	 * The error that stopped the workflow, e.g. a NodeApiError a node threw. Like everything in
	 * run data it is what n8n stores: a flat copy of the error's own fields plus message and stack
	 * (so check `name`, `message`, `description`, `httpCode`, `context`; not `instanceof`).
	 */
	error: ExecutionError | undefined;
	/** The error a node's run ended with (same form as `error`). */
	nodeError(nodeName: string): ExecutionError | undefined;
	/** Names of the nodes in the order they finished. */
	executionOrder: string[];
}

export interface RunNodeOptions {
	parameters: INodeParameters;
	/** JSON of the items the node receives; default one empty item. */
	input?: IDataObject[];
	/** A file per input item (by index), stored through n8n's binary data service first. */
	inputBinary?: Array<
		{ property?: string; fileName: string; mimeType: string; data: Buffer } | undefined
	>;
	/** Trio VMS credential data (see trioCredentials). */
	credentials?: ICredentialDataDecryptedObject;
	/** Sets the node's "On Error" to "Continue (regular output)". */
	continueOnFail?: boolean;
	/**
	 * The node's settings as the editor saves them, e.g. Retry On Fail:
	 * `{ retryOnFail: true, maxTries: 3, waitBetweenTries: 1 }` (n8n reads 0 ms as its default 1000).
	 */
	settings?: Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries' | 'alwaysOutputData'>;
	/** Default 'trioVms'. */
	nodeType?: string;
	typeVersion?: number;
	mode?: WorkflowExecuteMode;
	/** See RunWorkflowOptions.workflowId. */
	workflowId?: string;
}

export function trioCredentials(baseUrl: string, apiKey: string): ICredentialDataDecryptedObject {
	return { apiKey, environment: 'custom', baseUrl };
}

let executionCounter = 0;

const INSTANCE_URL = 'http://localhost:5678';

/** What n8n hands every node context besides the workflow: URLs, the credentials helper, hooks. */
export function buildAdditionalData(
	credentialsHelper: TestCredentialsHelper,
	extra: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	const unsupported = (what: string) => async (): Promise<never> => {
		throw new UnexpectedError(`${what} is not available in the in-process test engine`);
	};
	return {
		credentialsHelper,
		executeWorkflow: unsupported('Executing a sub-workflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unsupported('The task runner (Code node)'),
		logAiEvent: () => undefined,
		externalSecretsProxy: new ExternalSecretsProxy(),
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: `${INSTANCE_URL}/rest`,
		instanceBaseUrl: `${INSTANCE_URL}/`,
		formBaseUrl: `${INSTANCE_URL}/form`,
		formWaitingBaseUrl: `${INSTANCE_URL}/form-waiting`,
		formTestBaseUrl: `${INSTANCE_URL}/form-test`,
		webhookBaseUrl: `${INSTANCE_URL}/webhook`,
		webhookWaitingBaseUrl: `${INSTANCE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${INSTANCE_URL}/webhook-test`,
		mcpBaseUrl: `${INSTANCE_URL}/mcp`,
		mcpTestBaseUrl: `${INSTANCE_URL}/mcp-test`,
		...extra,
	};
}

export async function credentialsHelperFor(
	credentials: Record<string, ICredentialDataDecryptedObject> = {},
): Promise<TestCredentialsHelper> {
	const helper = new TestCredentialsHelper(credentialTypes);
	for (const [type, data] of Object.entries(credentials)) await helper.setCredentials(type, data);
	return helper;
}

/** The node as the editor would save it: an id, a version, and a reference to each given credential it can use. */
/** A UUID-shaped id derived from the node's name. */
function stableNodeId(name: string): string {
	const hex = createHash('sha256').update(name).digest('hex');
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function completeNode(
	node: EngineNode,
	index: number,
	credentialTypesGiven: string[],
): INode {
	const copy = structuredClone(node) as EngineNode;
	const typeVersion = copy.typeVersion ?? engineNodeTypes.defaultVersion(copy.type);
	let credentials = copy.credentials;
	if (!credentials && credentialTypesGiven.length) {
		const declared =
			engineNodeTypes.getByNameAndVersion(copy.type, typeVersion).description.credentials ?? [];
		const usable = declared.filter((entry) => credentialTypesGiven.includes(entry.name));
		if (usable.length) {
			credentials = Object.fromEntries(
				usable.map((entry) => [entry.name, { id: entry.name, name: `${entry.name} (test)` }]),
			) as INodeCredentials;
		}
	}
	return {
		...copy,
		// Stable across runs, as a saved workflow's node ids are (n8n's node-scoped stores key on them).
		id: copy.id ?? stableNodeId(String(copy.name)),
		typeVersion,
		position: copy.position ?? [index * 220, 0],
		parameters: copy.parameters ?? {},
		...(credentials ? { credentials } : {}),
	};
}

function firstUnfedNode(nodes: INode[], connections: IConnections): INode | undefined {
	const fed = new Set<string>();
	for (const byType of Object.values(connections)) {
		for (const outputs of Object.values(byType))
			for (const output of outputs ?? []) for (const target of output ?? []) fed.add(target.node);
	}
	return nodes.find((node) => !fed.has(node.name));
}

function toEngineRun(run: IRun, executionOrder: string[]): EngineRun {
	const runData = run.data.resultData.runData;
	const items = (nodeName: string, outputIndex = 0): INodeExecutionData[] =>
		(runData[nodeName] ?? []).flatMap((task) => task.data?.main?.[outputIndex] ?? []);
	return {
		run,
		items,
		json: (nodeName, outputIndex) => items(nodeName, outputIndex).map((item) => item.json),
		error: run.data.resultData.error,
		nodeError: (nodeName) => (runData[nodeName] ?? []).find((task) => task.error)?.error,
		executionOrder,
	};
}

export async function runWorkflow(options: RunWorkflowOptions): Promise<EngineRun> {
	await ensureEngineContainer();
	const credentialsHelper = await credentialsHelperFor(options.credentials);
	const nodes = options.nodes.map((node, index) =>
		completeNode(node, index, Object.keys(options.credentials ?? {})),
	);
	const executionId = String(++executionCounter);
	const workflowId = options.workflowId ?? `engine-workflow-${executionId}`;
	const mode = options.mode ?? 'manual';

	const workflowData: IWorkflowBase = {
		id: workflowId,
		name: `Test workflow ${executionId}`,
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections: options.connections,
		settings: { executionOrder: 'v1' },
	};
	// Workflow adds each node's parameter defaults in place, as n8n does when it loads a workflow.
	const workflow = new Workflow({
		id: workflowId,
		name: workflowData.name,
		nodes,
		connections: options.connections,
		active: false,
		nodeTypes: engineNodeTypes,
		settings: workflowData.settings,
	});

	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	const executionOrder: string[] = [];
	hooks.addHandler('nodeExecuteAfter', (nodeName) => {
		executionOrder.push(nodeName);
	});
	const additionalData = buildAdditionalData(credentialsHelper, { hooks, executionId, workflowId });

	const startNode = options.startNode
		? workflow.getNode(options.startNode)
		: firstUnfedNode(Object.values(workflow.nodes), options.connections);
	if (!startNode)
		throw new UnexpectedError(
			`No start node ${options.startNode ? `named "${options.startNode}"` : 'without incoming connections'} found`,
		);

	const run = await new WorkflowExecute(additionalData, mode).run({ workflow, startNode });
	return toEngineRun(run, executionOrder);
}

/** Runs `Source -> Trio VMS` (or another node type) and returns what the node emitted. */
export async function runNode(
	options: RunNodeOptions,
): Promise<EngineRun & { output: INodeExecutionData[] }> {
	const input = options.input ?? [{}];
	let source: EngineNode;
	if (options.inputBinary?.some(Boolean)) {
		const count = Math.max(input.length, options.inputBinary.length);
		const files: BinarySourceFile[] = Array.from({ length: count }, (_, index) => {
			const file = options.inputBinary?.[index];
			return {
				json: input[index] ?? {},
				...(file
					? {
							property: file.property ?? 'data',
							fileName: file.fileName,
							mimeType: file.mimeType,
							base64: file.data.toString('base64'),
						}
					: {}),
			};
		});
		source = {
			name: SOURCE_NODE,
			type: 'test.binarySource',
			parameters: { files: files as unknown as INodeParameters[] },
		};
	} else {
		source = {
			name: SOURCE_NODE,
			type: 'test.start',
			parameters: { items: input as INodeParameters[] },
		};
	}
	const node: EngineNode = {
		name: NODE_UNDER_TEST,
		type: options.nodeType ?? 'trioVms',
		parameters: options.parameters,
		...(options.typeVersion !== undefined ? { typeVersion: options.typeVersion } : {}),
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...options.settings,
	};
	const result = await runWorkflow({
		nodes: [source, node],
		connections: { [SOURCE_NODE]: { main: [[{ node: NODE_UNDER_TEST, type: 'main', index: 0 }]] } },
		credentials: options.credentials ? { [TRIO_CREDENTIAL_TYPE]: options.credentials } : undefined,
		mode: options.mode,
		workflowId: options.workflowId,
	});
	return { ...result, output: result.items(NODE_UNDER_TEST) };
}

/**
 * Forgets what this process holds in memory about earlier runs (the creates it saw fail with
 * an unknown outcome), as a restarted n8n or another queue-mode worker starts without it. What
 * n8n keeps in its database (the duplicate store, deduplication.ts) stays.
 */
export function forgetProcessMemory(): void {
	forgetUncertainCreates();
}

const workers = new AsyncLocalStorage<ProcessMemory>();
findProcessMemory(() => workers.getStore());

/**
 * Runs `work` as on a queue-mode worker process of its own, beside others running at once: its
 * executions share their process's memory (running creates, outcome-unknown creates, its one
 * writer to the duplicate store) with each other and with no other worker. n8n's database (the
 * duplicate store's storage) is the one all workers share.
 */
export function onWorker(): <T>(work: () => Promise<T>) => Promise<T> {
	const memory = new ProcessMemory();
	return async (work) => await workers.run(memory, work);
}

/** The bytes of a binary property, read back through n8n's binary data service. */
export async function readBinary(binary: IBinaryData): Promise<Buffer> {
	await ensureEngineContainer();
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}

export interface MethodCallOptions {
	/** The node's parameters as saved. */
	parameters?: INodeParameters;
	/** Trio VMS credential data (see trioCredentials). */
	credentials?: ICredentialDataDecryptedObject;
	/** What the editor currently shows (n8n sends the whole form); default `parameters`. */
	currentNodeParameters?: INodeParameters;
	/** Default 'trioVms'. */
	nodeType?: string;
	typeVersion?: number;
	/** Path of the parameter being loaded, for `&sibling` lookups; default `parameters.<method>`. */
	path?: string;
}

async function methodContext(
	methodName: string,
	options: MethodCallOptions,
): Promise<{ context: LoadOptionsContext; nodeType: INodeType }> {
	await ensureEngineContainer();
	const typeName = options.nodeType ?? 'trioVms';
	const credentials: Record<string, ICredentialDataDecryptedObject> = options.credentials
		? { [TRIO_CREDENTIAL_TYPE]: options.credentials }
		: {};
	const credentialsHelper = await credentialsHelperFor(credentials);
	const node = completeNode(
		{
			name: NODE_UNDER_TEST,
			type: typeName,
			parameters: options.parameters ?? {},
			...(options.typeVersion !== undefined ? { typeVersion: options.typeVersion } : {}),
		},
		0,
		Object.keys(credentials),
	);
	// As in n8n's dynamic-parameters service: a one-node workflow; Workflow fills in the defaults.
	const workflow = new Workflow({
		id: 'engine-load-options',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: engineNodeTypes,
	});
	const additionalData = buildAdditionalData(credentialsHelper, {
		currentNodeParameters: options.currentNodeParameters ?? node.parameters,
	});
	const context = new LoadOptionsContext(
		workflow,
		node,
		additionalData,
		options.path ?? `parameters.${methodName}`,
	);
	return { context, nodeType: engineNodeTypes.getByNameAndVersion(typeName, node.typeVersion) };
}

/** Runs `methods.loadOptions[methodName]` of the node inside n8n-core's LoadOptionsContext. */
export async function callLoadOptions(
	methodName: string,
	options: MethodCallOptions = {},
): Promise<INodePropertyOptions[]> {
	const { context, nodeType } = await methodContext(methodName, options);
	const method = nodeType.methods?.loadOptions?.[methodName];
	if (!method)
		throw new UnexpectedError(
			`Node type "${nodeType.description.name}" has no loadOptions method "${methodName}"`,
		);
	return await method.call(context);
}

/** Runs `methods.listSearch[methodName]` of the node inside n8n-core's LoadOptionsContext. */
export async function callListSearch(
	methodName: string,
	options: MethodCallOptions & { filter?: string; paginationToken?: string } = {},
): Promise<INodeListSearchResult> {
	const { context, nodeType } = await methodContext(methodName, options);
	const method = nodeType.methods?.listSearch?.[methodName];
	if (!method)
		throw new UnexpectedError(
			`Node type "${nodeType.description.name}" has no listSearch method "${methodName}"`,
		);
	return await method.call(context, options.filter, options.paginationToken);
}
