/**
 * The runner itself: items, expressions, binary data, credentials and load-options all go
 * through n8n's real engine. Uses the test nodes (not the package's action node) so that it
 * says whether the runner works independently of the node under development.
 */
import { NodeApiError, type IBinaryData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { ScriptedServer } from '../support/scripted-server';
import { workflowNode } from '../support/workflow-node';
import {
	callListSearch,
	callLoadOptions,
	credentialTypes,
	engineNodeTypes,
	NODE_UNDER_TEST,
	readBinary,
	runNode,
	runWorkflow,
	SOURCE_NODE,
	TestCredentialsHelper,
	trioCredentials,
} from '../../harness/engine/engine';

const API_KEY = 'engine-test-key-7f3a9c';
const server = ScriptedServer.forEachTest();

const chain = (from: string, to: string) => ({
	[from]: { main: [[{ node: to, type: 'main' as const, index: 0 }]] },
});

describe('runWorkflow', () => {
	it('starts at the unfed node, resolves expressions and passes items along', async () => {
		const result = await runWorkflow({
			nodes: [
				{
					name: 'Start',
					type: 'test.start',
					parameters: { items: [{ sum: '={{ 1 + 2 }}' }, { text: '={{ "a".toUpperCase() }}' }] },
				},
				{ name: 'Collect', type: 'test.collect' },
			],
			connections: chain('Start', 'Collect'),
		});
		expect(result.error).toBeUndefined();
		expect(result.json('Collect')).toEqual([{ sum: 3 }, { text: 'A' }]);
		expect(result.executionOrder).toEqual(['Start', 'Collect']);
		expect(result.run.status).toBe('success');
	});

	it('gives one empty item when the start node has no items', async () => {
		const result = await runWorkflow({
			nodes: [{ name: 'Start', type: 'test.start' }],
			connections: {},
		});
		expect(result.json('Start')).toEqual([{}]);
	});

	it('reads items from $json in later nodes (expressions see the real run data)', async () => {
		server.respond({ json: { id: 7 } });
		const result = await runWorkflow({
			nodes: [
				{ name: 'Start', type: 'test.start', parameters: { items: [{ number: 'A/1' }] } },
				{
					name: 'Probe',
					type: 'test.transportProbe',
					parameters: {
						request: {
							method: 'GET',
							path: '/Job/{number}',
							pathParams: { number: '={{ $json.number }}' },
						},
					},
				},
			],
			connections: chain('Start', 'Probe'),
			credentials: { trioVmsApi: trioCredentials(server.baseUrl, API_KEY) },
		});
		expect(result.error).toBeUndefined();
		expect(server.requests[0].path).toBe('/api/v3/Job/A%2F1');
		expect(result.json('Probe')[0].body).toEqual({ id: 7 });
	});

	it("stores binary data through n8n's binary data service and reads it back", async () => {
		const bytes = Buffer.from('%PDF-1.4 resume bytes \u00e9', 'utf8');
		const result = await runWorkflow({
			nodes: [
				{
					name: 'Files',
					type: 'test.binarySource',
					parameters: {
						files: [
							{
								json: { n: 1 },
								property: 'resume',
								fileName: 'cv.pdf',
								mimeType: 'application/pdf',
								base64: bytes.toString('base64'),
							},
						],
					},
				},
				{ name: 'Collect', type: 'test.collect' },
			],
			connections: chain('Files', 'Collect'),
		});
		const [item] = result.items('Collect');
		expect(item.json).toEqual({ n: 1 });
		const binary = item.binary?.resume as IBinaryData;
		expect(binary).toMatchObject({
			fileName: 'cv.pdf',
			mimeType: 'application/pdf',
			bytes: bytes.length,
		});
		// Filesystem mode: the item carries a reference, the bytes live in the user folder.
		expect(binary.id).toMatch(/^filesystem(-v2)?:/);
		expect(await readBinary(binary)).toEqual(bytes);
	});

	it('reports an unknown node type clearly', async () => {
		await expect(
			runWorkflow({ nodes: [{ name: 'X', type: 'test.doesNotExist' }], connections: {} }),
		).rejects.toThrow('Unknown node type "test.doesNotExist"');
	});
});

describe('credentials', () => {
	it("adds X-API-KEY from the credential class's authenticate definition", async () => {
		server.respond({ json: { ok: true } });
		const result = await runNode({
			nodeType: 'test.transportProbe',
			parameters: { request: { method: 'GET', path: '/candidates' } },
			credentials: trioCredentials(server.baseUrl, API_KEY),
		});
		expect(result.error).toBeUndefined();
		expect(result.output.map((item) => item.json.body)).toEqual([{ ok: true }]);
		expect(server.requests[0].headers['x-api-key']).toBe(API_KEY);
		expect(server.requests[0].headers.authorization).toBeUndefined();
	});

	it('fails the node, not the runner, when the node has no credentials', async () => {
		const result = await runNode({
			nodeType: 'test.transportProbe',
			parameters: { request: { method: 'GET', path: '/x' } },
		});
		expect(result.error?.message).toMatch(/credentials/i);
		expect(server.requests).toHaveLength(0);
	});

	it("keeps credentials encrypted and fills in the credential type's defaults on decryption", async () => {
		const helper = new TestCredentialsHelper(credentialTypes);
		await helper.setCredentials('trioVmsApi', { apiKey: API_KEY });
		const stored = await helper.getCredentials({ id: 'trioVmsApi', name: 'x' }, 'trioVmsApi');
		expect(JSON.stringify(stored.getDataToSave())).not.toContain(API_KEY);
		const decrypted = await helper.getDecrypted(
			{} as never,
			{ id: 'trioVmsApi', name: 'x' },
			'trioVmsApi',
		);
		expect(decrypted).toEqual({ apiKey: API_KEY, environment: 'production', tenant: 'ahsa' });
	});

	it("resolves a generic authenticate definition through the workflow's expression engine", async () => {
		const helper = new TestCredentialsHelper(credentialTypes);
		const node = workflowNode('N', 'test.collect');
		const workflow = new Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: engineNodeTypes,
		});
		const options = await helper.authenticate(
			{ apiKey: API_KEY },
			'trioVmsApi',
			{ url: 'http://x', headers: { Accept: 'application/json' } },
			workflow,
			node,
		);
		expect(options.headers).toEqual({ Accept: 'application/json', 'X-API-KEY': API_KEY });
	});
});

describe('runNode', () => {
	it("runs Source -> node and returns the node's items", async () => {
		server.respond({ json: [1] }, { json: [2] });
		const result = await runNode({
			nodeType: 'test.transportProbe',
			input: [{ path: '/a' }, { path: '/b' }],
			parameters: { request: { method: 'GET', path: '={{ $json.path }}' } },
			credentials: trioCredentials(server.baseUrl, API_KEY),
		});
		expect(result.executionOrder).toEqual([SOURCE_NODE, NODE_UNDER_TEST]);
		expect(result.output.map((item) => item.json.body)).toEqual([[1], [2]]);
		expect(result.output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(server.requests.map((request) => request.path)).toEqual(['/api/v3/a', '/api/v3/b']);
	});

	it('puts the NodeApiError on the run and on the node when the node throws, as n8n stores it', async () => {
		server.respond({ status: 404, json: { message: 'No such job' } });
		const result = await runNode({
			nodeType: 'test.transportProbe',
			parameters: { request: { method: 'GET', path: '/Job/1' } },
			credentials: trioCredentials(server.baseUrl, API_KEY),
		});
		expect(result.output).toEqual([]);
		// n8n keeps a flat copy of the thrown error (own fields, message, stack), not the instance.
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			context: { itemIndex: 0 },
		});
		expect(result.error).not.toBeInstanceOf(NodeApiError);
		expect(result.nodeError(NODE_UNDER_TEST)).toEqual(result.error);
		expect(result.error?.message).toContain('No such job');
		expect(result.run.status).toBe('error');
	});

	it('continues on fail when asked, with the error as the item', async () => {
		server.respond({ status: 404, json: { message: 'No such job' } }, { json: { id: 2 } });
		const result = await runNode({
			nodeType: 'test.transportProbe',
			continueOnFail: true,
			input: [{ n: 1 }, { n: 2 }],
			parameters: {
				request: { method: 'GET', path: '/Job/{n}', pathParams: { n: '={{ $json.n }}' } },
			},
			credentials: trioCredentials(server.baseUrl, API_KEY),
		});
		expect(result.error).toBeUndefined();
		expect(result.output[0].json).toMatchObject({
			httpCode: '404',
			error: expect.stringContaining('No such job'),
		});
		expect(result.output[1].json.body).toEqual({ id: 2 });
	});

	it('feeds input binary data through the binary data service into the node', async () => {
		server.respond({ json: { ok: true } });
		const file = Buffer.from([0, 1, 2, 250, 251, 252]);
		const result = await runNode({
			nodeType: 'test.transportProbe',
			input: [{ who: 'x' }],
			inputBinary: [
				{ property: 'cv', fileName: 'cv.pdf', mimeType: 'application/pdf', data: file },
			],
			parameters: {
				request: {
					method: 'POST',
					path: '/Submission',
					multipart: [{ name: 'File', binaryProperty: 'cv' }],
				},
			},
			credentials: trioCredentials(server.baseUrl, API_KEY),
		});
		expect(result.error).toBeUndefined();
		expect(result.items(SOURCE_NODE)[0].json).toEqual({ who: 'x' });
		const body = server.requests[0].body;
		expect(body.includes(file)).toBe(true);
		expect(body.toString('latin1')).toContain('filename="cv.pdf"');
	});
});

describe('loadOptions and listSearch', () => {
	it('runs a loadOptions method inside LoadOptionsContext with the real credential', async () => {
		server.respond({ json: ['job.created', 'job.updated'] });
		const options = await callLoadOptions('probeOptions', {
			nodeType: 'test.transportProbe',
			credentials: trioCredentials(server.baseUrl, API_KEY),
			currentNodeParameters: { optionsPath: '/Webhooks/Events' },
		});
		expect(options).toEqual([
			{ name: 'job.created', value: 'job.created' },
			{ name: 'job.updated', value: 'job.updated' },
		]);
		expect(server.requests[0].path).toBe('/api/v3/Webhooks/Events');
		expect(server.requests[0].headers['x-api-key']).toBe(API_KEY);
	});

	it('runs a listSearch method with filter and pagination token', async () => {
		server.respond({ json: { items: [{ id: 3, name: 'Ann' }], next: 'p2' } });
		const page = await callListSearch('probeSearch', {
			nodeType: 'test.transportProbe',
			filter: 'ann@example.com',
			paginationToken: 'p1',
			credentials: trioCredentials(server.baseUrl, API_KEY),
		});
		expect(page).toEqual({ results: [{ name: 'Ann', value: 3 }], paginationToken: 'p2' });
		expect(Object.fromEntries(server.requests[0].query)).toEqual({
			email: 'ann@example.com',
			page: 'p1',
		});
	});

	it('says which method is missing', async () => {
		await expect(callLoadOptions('nope', { nodeType: 'test.transportProbe' })).rejects.toThrow(
			'no loadOptions method "nope"',
		);
	});
});

describe('node types', () => {
	it('knows the package nodes by their full and short names', () => {
		for (const name of [
			'n8n-nodes-trio-vms.trioVms',
			'trioVms',
			'n8n-nodes-trio-vms.trioVmsTrigger',
			'trioVmsTrigger',
		]) {
			expect(engineNodeTypes.has(name)).toBe(true);
		}
	});
});
