/**
 * The workflows the real-n8n part compares, each a single job done two ways on the same n8n:
 * this package's node, and the hand-built flow from n8n's generic nodes.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import type { N8nInstance, WorkflowJson } from '../../harness/n8n';

const TRIGGER_TYPE = 'n8n-nodes-trio-vms.trioVmsTrigger';
const ACTION_TYPE = 'n8n-nodes-trio-vms.trioVms';
export const ACTION_NODE = 'Trio VMS';
export const HTTP_NODE = 'HTTP Request';

export interface CredentialRef {
	id: string;
	name: string;
}

interface NodeJson {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	webhookId?: string;
	credentials?: Record<string, CredentialRef>;
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
}

/**
 * The trigger's type version in new workflows: the built node's defaultVersion (or its only
 * version), so the bench measures what the editor would create from this build.
 * TRIO_BENCH_TRIGGER_VERSION measures another one (workflows saved at 1 stay at 1).
 */
function triggerVersion(): number {
	const chosen = Number(process.env.TRIO_BENCH_TRIGGER_VERSION);
	if (chosen > 0) return chosen;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const built = require(
		join(__dirname, '../../dist/nodes/TrioVmsTrigger/TrioVmsTrigger.node.js'),
	) as {
		TrioVmsTrigger: new () => {
			description: { version: number | number[]; defaultVersion?: number };
		};
	};
	const { version, defaultVersion } = new built.TrioVmsTrigger().description;
	return defaultVersion ?? (Array.isArray(version) ? Math.max(...version) : version);
}

const node = (fields: Omit<NodeJson, 'id' | 'position'>, x = 0): NodeJson => ({
	id: randomUUID(),
	position: [x, 0],
	...fields,
});

function workflow(name: string, nodes: NodeJson[]): WorkflowJson {
	const connections: Record<string, unknown> = {};
	for (let index = 0; index + 1 < nodes.length; index++)
		connections[nodes[index].name] = {
			main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]],
		};
	return {
		name,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	} as unknown as WorkflowJson;
}

/**
 * n8n's Webhook node on POST /webhook/<path>. The ingestion baseline is its version 1: like the
 * Trio VMS Trigger at version 1, n8n evaluates an expression of its options for every delivery
 * to a start node at exactly version 1, so both sides pay the same (docs/benchmarks.md).
 */
function webhookNode(
	path: string,
	responseMode: 'onReceived' | 'lastNode',
	typeVersion = 2,
	responseData: 'noData' | 'allEntries' = 'noData',
): NodeJson {
	return node({
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion,
		webhookId: randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode,
			...(responseMode === 'lastNode' ? { responseData } : {}),
			options: {},
		},
	});
}

export interface Created {
	id: string;
	url: string;
}

async function createAndActivate(n8n: N8nInstance, json: WorkflowJson): Promise<string> {
	const record = await n8n.createWorkflow(json);
	await n8n.activate(record.id);
	return record.id;
}

/** The Trio VMS Trigger alone, for the given events (its defaults otherwise). */
export async function triggerWorkflow(
	n8n: N8nInstance,
	credential: CredentialRef,
	events: string[],
	activate = true,
): Promise<Created> {
	const webhookId = randomUUID();
	const json = workflow(`bench trigger ${events.length} events`, [
		node({
			name: 'Trio VMS Trigger',
			type: TRIGGER_TYPE,
			typeVersion: triggerVersion(),
			webhookId,
			parameters: { events },
			credentials: { trioVmsApi: credential },
		}),
	]);
	const id = activate ? await createAndActivate(n8n, json) : (await n8n.createWorkflow(json)).id;
	return { id, url: n8n.productionWebhookUrl(webhookId, 'webhook') };
}

/** A Webhook node alone, answering at once ("Immediately") or after the workflow ("When Last Node Finishes"). */
export async function webhookWorkflow(
	n8n: N8nInstance,
	responseMode: 'onReceived' | 'lastNode',
	typeVersion?: number,
): Promise<Created> {
	const path = `bench-${responseMode}-${randomUUID().slice(0, 8)}`;
	const id = await createAndActivate(
		n8n,
		workflow(`bench webhook ${responseMode}`, [webhookNode(path, responseMode, typeVersion)]),
	);
	return { id, url: n8n.productionWebhookUrl('', path) };
}

/**
 * Webhook (answers when the last node finishes, no data) -> Trio VMS Job: Get Many, Return All,
 * Output Simplified or Raw.
 */
export async function getManyWorkflow(
	n8n: N8nInstance,
	credential: CredentialRef,
	simplify: boolean,
): Promise<Created> {
	const hook = webhookNode(
		`bench-getmany-${simplify ? 'simple' : 'raw'}-${randomUUID().slice(0, 8)}`,
		'lastNode',
	);
	const id = await createAndActivate(
		n8n,
		workflow(`bench Trio VMS job getAll simplify ${simplify}`, [
			hook,
			node(
				{
					name: ACTION_NODE,
					type: ACTION_TYPE,
					typeVersion: 1,
					parameters: {
						resource: 'job',
						operation: 'getAll',
						returnAll: true,
						output: simplify ? 'simple' : 'raw',
					},
					credentials: { trioVmsApi: credential },
				},
				300,
			),
		]),
	);
	return { id, url: n8n.productionWebhookUrl('', hook.parameters.path as string) };
}

/** Webhook -> HTTP Request node: the same GET /api/v3/Job with the same key header. */
export async function httpGetManyWorkflow(
	n8n: N8nInstance,
	apiUrl: string,
	key: string,
): Promise<Created> {
	const hook = webhookNode(`bench-getmany-http-${randomUUID().slice(0, 8)}`, 'lastNode');
	const id = await createAndActivate(
		n8n,
		workflow('bench HTTP Request GET /Job', [
			hook,
			node(
				{
					name: HTTP_NODE,
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					parameters: {
						method: 'GET',
						url: `${apiUrl}/Job`,
						sendHeaders: true,
						headerParameters: {
							parameters: [
								{ name: 'X-API-KEY', value: key },
								{ name: 'Accept', value: 'application/json' },
							],
						},
						options: {},
					},
				},
				300,
			),
		]),
	);
	return { id, url: n8n.productionWebhookUrl('', hook.parameters.path as string) };
}

// ------------------------------------------------------------------ bulk submissions

/** The nodes both bulk flows share: the rows (a sheet's, by its column names) from the request body. */
const ROWS_NODE = 'Rows';
const CANDIDATE_NODE = 'Candidate';

/** The sheet's columns, as quick start 2 in the README names them. */
export const SHEET = {
	firstName: 'First Name',
	lastName: 'Last Name',
	email: 'Email',
	jobNumber: 'Job Number',
	resumeFile: 'Resume File',
} as const;

function bulkHead(path: string, responseData: 'noData' | 'allEntries' = 'noData'): NodeJson[] {
	return [
		webhookNode(path, 'lastNode', 2, responseData),
		node(
			{
				name: ROWS_NODE,
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				parameters: { fieldToSplitOut: 'body.rows', include: 'noOtherFields', options: {} },
			},
			200,
		),
	];
}

/** Read/Write Files from Disk, once per row: the same PDF as binary `data`. */
const readPdfNode = (pdfPath: string, x: number): NodeJson =>
	node(
		{
			name: 'Read the PDF',
			type: 'n8n-nodes-base.readWriteFile',
			typeVersion: 1.1,
			parameters: { fileSelector: pdfPath, options: {} },
		},
		x,
	);

const rowField = (column: string) =>
	`={{ $('${ROWS_NODE}').item.json[${JSON.stringify(column)}] }}`;

/**
 * The flow of the README's quick start 2: Webhook (the sheet's rows in its body) -> Split Out ->
 * one Trio VMS node, Submission: Create with Values From = Spreadsheet Columns, Columns on Map
 * Automatically, Resume From a folder on disk (`resumeFolder`, each row's Resume File in it), and
 * the rest at its defaults (Output: Row With Result). The webhook answers every row with its
 * result.
 */
export async function bulkWorkflow(
	n8n: N8nInstance,
	credential: CredentialRef,
	resumeFolder: string,
): Promise<Created> {
	const path = `bench-bulk-trio-${randomUUID().slice(0, 8)}`;
	const id = await createAndActivate(
		n8n,
		workflow('bench bulk submissions Trio VMS', [
			...bulkHead(path, 'allEntries'),
			node(
				{
					name: ACTION_NODE,
					type: ACTION_TYPE,
					typeVersion: 1,
					parameters: {
						resource: 'submission',
						operation: 'create',
						valuesFrom: 'columns',
						resumeFolder,
					},
					credentials: { trioVmsApi: credential },
				},
				400,
			),
		]),
	);
	return { id, url: n8n.productionWebhookUrl('', path) };
}

/**
 * n8n's own cost of the same sheet: Webhook -> Split Out -> No Operation, answering every row.
 * What the bulk flow needs beyond this (time, memory) is the Trio VMS node's own.
 */
export async function rowsOnlyWorkflow(n8n: N8nInstance): Promise<Created> {
	const path = `bench-bulk-rows-${randomUUID().slice(0, 8)}`;
	const id = await createAndActivate(
		n8n,
		workflow('bench bulk rows alone', [
			...bulkHead(path, 'allEntries'),
			node(
				{ name: 'No Operation', type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
				400,
			),
		]),
	);
	return { id, url: n8n.productionWebhookUrl('', path) };
}

/** What a user sets on an HTTP Request node to live with 429s: n8n's own Retry On Fail. */
const RETRY = { retryOnFail: true, maxTries: 5, waitBetweenTries: 1000 };

/**
 * The same flow from HTTP Request nodes: POST /candidates (the rows' e-mails are new, so no
 * lookup), Read the PDF, then the multipart POST /Submission with the file. Each HTTP Request
 * node retries on fail (5 tries, 1 s apart).
 */
export async function httpBulkWorkflow(
	n8n: N8nInstance,
	apiUrl: string,
	key: string,
	pdfPath: string,
): Promise<Created> {
	const path = `bench-bulk-http-${randomUUID().slice(0, 8)}`;
	const keyHeader = {
		sendHeaders: true,
		headerParameters: {
			parameters: [
				{ name: 'X-API-KEY', value: key },
				{ name: 'Accept', value: 'application/json' },
			],
		},
	};
	const id = await createAndActivate(
		n8n,
		workflow('bench bulk submissions HTTP Request', [
			...bulkHead(path),
			node(
				{
					name: CANDIDATE_NODE,
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					...RETRY,
					parameters: {
						method: 'POST',
						url: `${apiUrl}/candidates`,
						...keyHeader,
						sendBody: true,
						specifyBody: 'json',
						jsonBody: `={{ JSON.stringify({ firstName: $json[${JSON.stringify(SHEET.firstName)}], lastName: $json[${JSON.stringify(SHEET.lastName)}], email1: $json[${JSON.stringify(SHEET.email)}] }) }}`,
						options: {},
					},
				},
				400,
			),
			readPdfNode(pdfPath, 600),
			node(
				{
					name: 'Submission',
					type: 'n8n-nodes-base.httpRequest',
					typeVersion: 4.2,
					...RETRY,
					parameters: {
						method: 'POST',
						url: `${apiUrl}/Submission`,
						...keyHeader,
						sendBody: true,
						contentType: 'multipart-form-data',
						bodyParameters: {
							parameters: [
								{ name: 'JobNumber', value: rowField(SHEET.jobNumber) },
								{
									name: 'CandidateNumber',
									value: `={{ $('${CANDIDATE_NODE}').item.json.number }}`,
								},
								{
									parameterType: 'formBinaryData',
									name: 'CandidateProfileFile',
									inputDataFieldName: 'data',
								},
							],
						},
						options: {},
					},
				},
				800,
			),
		]),
	);
	return { id, url: n8n.productionWebhookUrl('', path) };
}
