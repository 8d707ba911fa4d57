/**
 * The packed package and the Trio VMS action node inside one real n8n 2.x, installed from the
 * tarball as users install it, against the local Trio sandbox over HTTP. What only n8n itself
 * can show, through n8n's own endpoints:
 * - the package loads: n8n lists its credential and nodes under their user-facing names and
 *   serves their one icon pair;
 * - the credential test button (POST /rest/credentials/test) runs the credential's `test`
 *   request and rules;
 * - the editor's dropdowns and searchable lists (POST /rest/dynamic-node-parameters/options and
 *   /resource-locator-results) run the node's loadOptions and listSearch methods;
 * - a file made by n8n's Convert to File node reaches Trio through n8n's binary data store, here
 *   `filesystem`, the mode n8n 3.0 makes the default (it drops the in-memory one).
 * What the node does with an item (errors, "Continue", paired items, refused input) is proven in
 * n8n's engine (test/nodes/TrioVms); n8n 1.x gets a smoke of its own (smoke-1x.e2e.test.ts).
 *
 * Run `npm run build` first.
 */
import { createHash, randomUUID } from 'node:crypto';

import { SANDBOX_WITHDRAW_REASONS, type RunningSandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import type { N8nInstance } from '../../harness/n8n';
import { runWebhookWorkflow, textFileNodes, type WorkflowNode } from '../../harness/run-workflow';
import type { CredentialRef } from '../../harness/trio';
import { useRealN8n } from '../support/use-real-n8n';
import { expectCredentialTestButton } from './fixtures/credential-test-button';

const PACKAGE = 'n8n-nodes-trio-vms';
const NODE_TYPE = `${PACKAGE}.trioVms`;
const CREDENTIAL_TYPE = 'trioVmsApi';

type Json = Record<string, unknown>;

interface NodeOption {
	name: string;
	value: string;
	description?: string;
}

describeWithN8n(
	'2.x',
	'the package and the Trio VMS node in real n8n 2.x (binary data on disk)',
	() => {
		let sandbox: RunningSandbox;
		let n8n: N8nInstance;
		/** The sandbox's administrator key: every operation, webhook management included. */
		let credential: CredentialRef;
		useRealN8n(
			{ seed: 11, jobs: 24 },
			// n8n 3.0 drops the in-memory binary data mode: files between nodes live on disk unless S3
			// or the database is configured. Set explicitly here, the file test below goes through it.
			{ line: '2.x', env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' } },
			(started) => ({ sandbox, n8n, credential } = started),
		);

		beforeEach(() => {
			sandbox.clearRequests();
		});

		const trioNode = (
			name: string,
			parameters: Json,
			extra: Partial<WorkflowNode> = {},
		): WorkflowNode => ({
			name,
			type: NODE_TYPE,
			typeVersion: 1,
			parameters,
			credentials: { [CREDENTIAL_TYPE]: credential },
			...extra,
		});

		/** The API requests the sandbox received, without the scenario API. */
		const apiRequests = () =>
			sandbox.requests().map((request) => `${request.method} ${request.path} ${request.status}`);

		async function trio<T>(path: string): Promise<T> {
			const response = await fetch(`${sandbox.apiUrl}${path}`, {
				headers: { 'X-API-KEY': sandbox.adminKey },
				signal: AbortSignal.timeout(10_000),
			});
			if (!response.ok)
				throw new Error(`GET ${path} -> ${response.status}: ${await response.text()}`);
			return (await response.json()) as T;
		}

		// ------------------------------------------------------------------ the package loads

		test('reports its version and resources', () => {
			const rssMiB = n8n.rssBytes() / 2 ** 20;
			process.stderr.write(
				`[n8n harness] n8n ${n8n.version} (2.x): ready in ${n8n.startSeconds} s, RSS ${rssMiB.toFixed(0)} MiB\n`,
			);
			expect(n8n.version).toMatch(/^2\./);
			expect(rssMiB).toBeGreaterThan(100);
		});

		test('lists the package credential and node types under their user-facing names', async () => {
			expect(await n8n.credentialTypes()).toContain(CREDENTIAL_TYPE);
			const nodeTypes = await n8n.nodeTypes();
			expect(nodeTypes).toContain(`${PACKAGE}.trioVms`);
			expect(nodeTypes).toContain(`${PACKAGE}.trioVmsTrigger`);
			expect(nodeTypes).toContain(`${PACKAGE}.trioVmsSyncTrigger`);
		});

		test('serves the one icon pair every node and the credential name', async () => {
			const icons = await n8n.icons(PACKAGE);
			expect(new Set(icons.map((icon) => icon.type))).toEqual(
				new Set([
					// The action node is listed twice: as itself and as the tool an AI agent uses.
					`${PACKAGE}.trioVms`,
					`${PACKAGE}.trioVmsTool`,
					`${PACKAGE}.trioVmsTrigger`,
					`${PACKAGE}.trioVmsSyncTrigger`,
					CREDENTIAL_TYPE,
				]),
			);
			for (const icon of icons) expect(icon).toMatchObject({ status: 200, contentType: /svg/ });
			// One pair, in dist/nodes/shared, for every node and the credential.
			const elsewhere = icons
				.filter((icon) => !/\/dist\/nodes\/shared\/trioVms(\.dark)?\.svg$/.test(icon.url))
				.map((icon) => icon.type);
			expect(elsewhere).toEqual([]);
		});

		// ------------------------------------------------------------------ credential test

		test("n8n's credential test passes with the sandbox key and fails on a wrong key (403) or address (404)", async () => {
			await expectCredentialTestButton({ n8n, sandbox, credential });
		});

		test("the editor's reason list and event dropdown load the withdraw reasons and webhook events from the sandbox", async () => {
			const options = (methodName: string, path: string, currentNodeParameters: Json) =>
				n8n.rest<NodeOption[]>('POST', '/dynamic-node-parameters/options', {
					nodeTypeAndVersion: { name: NODE_TYPE, version: 1 },
					path,
					methodName,
					currentNodeParameters,
					credentials: { [CREDENTIAL_TYPE]: credential },
				});

			const sandboxEvents = await trio<string[]>('/Webhooks/Events');
			sandbox.clearRequests();
			const { results: reasons } = await n8n.rest<{ results: NodeOption[] }>(
				'POST',
				'/dynamic-node-parameters/resource-locator-results',
				{
					nodeTypeAndVersion: { name: NODE_TYPE, version: 1 },
					path: 'reason',
					methodName: 'searchWithdrawReasons',
					currentNodeParameters: {
						resource: 'submission',
						operation: 'withdraw',
						submissionNumber: '',
						reason: { __rl: true, mode: 'list', value: '' },
						description: '',
						options: {},
					},
					credentials: { [CREDENTIAL_TYPE]: credential },
				},
			);
			// The sandbox's list has one reason the node's fallback list lacks.
			expect(reasons.map((option) => option.value)).toEqual([...SANDBOX_WITHDRAW_REASONS]);
			expect(reasons.map((option) => option.value)).toContain('Candidate accepted a counter-offer');
			expect(
				reasons.every((option) => option.name === option.value && option.description === undefined),
			).toBe(true);

			const events = await options('getWebhookEvents', 'events', {
				resource: 'webhook',
				operation: 'create',
				name: '',
				url: '',
				events: [],
				options: {},
			});
			expect(events.map((option) => option.value)).toEqual(sandboxEvents);
			expect(events.find((option) => option.value === 'Job Update')?.description).toMatch(/job/i);

			// Loaded from the sandbox (not the fallback lists), once each, with the stored key.
			expect(
				sandbox
					.requests()
					.map((request) => `${request.method} ${request.path} ${request.key} ${request.status}`),
			).toEqual([
				'GET /api/v3/Submission/WithdrawReasons admin 200',
				'GET /api/v3/Webhooks/Events admin 200',
			]);
		});

		test("the editor's job list search returns the sandbox's open and on-hold jobs, and filters them", async () => {
			const search = (filter?: string) =>
				n8n.rest<{ results: NodeOption[]; paginationToken?: unknown }>(
					'POST',
					'/dynamic-node-parameters/resource-locator-results',
					{
						nodeTypeAndVersion: { name: NODE_TYPE, version: 1 },
						path: 'job',
						methodName: 'searchJobs',
						...(filter === undefined ? {} : { filter }),
						currentNodeParameters: {
							resource: 'job',
							operation: 'get',
							job: { __rl: true, mode: 'list', value: '' },
							options: {},
						},
						credentials: { [CREDENTIAL_TYPE]: credential },
					},
				);

			const jobs = await trio<Array<{ Number: number; Title: string; JobStatus: string }>>('/Job');
			expect(jobs.length).toBeGreaterThan(3);
			sandbox.clearRequests();
			const all = await search();
			expect(all.results.map((result) => result.value)).toEqual(
				jobs.map((job) => String(job.Number)),
			);
			for (const [index, job] of jobs.entries()) {
				expect(all.results[index].name).toContain(`${job.Number} · ${job.Title}`);
				if (job.JobStatus === 'OnHold') expect(all.results[index].name).toMatch(/\(On Hold\)$/);
			}

			const [target] = jobs.slice(-1);
			const filtered = await search(`${target.Number}`);
			expect(filtered.results.map((result) => result.value)).toEqual([String(target.Number)]);
		});

		// ------------------------------------------------------------------ binary

		test("a file made by n8n's Convert to File node after Find or Create passes through n8n's filesystem store and is submitted to Trio once", async () => {
			const [job] = (await trio<Array<{ Number: number; JobStatus: string }>>('/Job')).filter(
				(each) => each.JobStatus === 'Open',
			);
			const person = {
				firstName: 'Zoë',
				lastName: 'Okafor',
				email: `zoe.okafor.${randomUUID().slice(0, 8)}@agency.example.com`,
			};
			const fileName = 'Zoe Okafor resume.txt';
			sandbox.clearRequests();

			const run = await runWebhookWorkflow(
				n8n,
				[
					trioNode('Find or Create', {
						resource: 'candidate',
						operation: 'findOrCreate',
						email: person.email,
						firstName: person.firstName,
						lastName: person.lastName,
						additionalFields: {},
						options: {},
					}),
					...textFileNodes(
						'=Résumé of {{ $json.firstName }} {{ $json.lastName }} <{{ $json.email1 }}>\nICU RN, 6 years, BLS and ACLS.\n',
						fileName,
					),
					trioNode('Submit', {
						resource: 'submission',
						operation: 'create',
						job: { __rl: true, mode: 'number', value: String(job.Number) },
						candidateNumber: "={{ $('Find or Create').item.json.number }}",
						binaryPropertyName: 'data',
						additionalFields: { billRateAmount: 72.5 },
						options: {},
					}),
				],
				{
					'Find or Create': { main: [[{ node: 'Resume Text', type: 'main', index: 0 }]] },
					'Resume Text': { main: [[{ node: 'Make File', type: 'main', index: 0 }]] },
					'Make File': { main: [[{ node: 'Submit', type: 'main', index: 0 }]] },
				},
				{ keepExecution: true },
			);
			expect(run.failure).toBeUndefined();
			const { items } = run;

			// n8n kept the file on disk, not in memory: the reference it passed between the nodes names
			// its filesystem store. (The file itself went with the harness's workflow, which n8n deletes
			// with its executions once the run is read.)
			const made = run.execution?.data?.resultData.runData['Make File']?.[0]?.data?.main[0]?.[0] as
				{ binary?: { data?: { id?: string } } } | undefined;
			expect(made?.binary?.data?.id ?? '').toMatch(/^filesystem(-v2)?:/);

			const [candidate] = sandbox.store.findCandidates(person.email);
			expect(items).toHaveLength(1);
			const [submission] = items;
			expect(submission).toEqual(
				expect.objectContaining({
					Status: 'Submitted',
					JobNumber: job.Number,
					CandidateNumber: candidate.number,
					BillRateAmount: 72.5,
				}),
			);

			const content = Buffer.from(
				`Résumé of ${person.firstName} ${person.lastName} <${person.email}>\nICU RN, 6 years, BLS and ACLS.\n`,
				'utf8',
			);
			const fileResponse = await fetch(
				`${sandbox.url}/_sandbox/submissions/${String(submission.Number)}/file`,
				{ signal: AbortSignal.timeout(10_000) },
			);
			expect(fileResponse.status).toBe(200);
			expect(await fileResponse.json()).toEqual(
				expect.objectContaining({
					filename: fileName,
					contentType: expect.stringMatching(/^text\/plain/),
					size: content.length,
					sha256: createHash('sha256').update(content).digest('hex'),
				}),
			);

			// One lookup, one candidate create, one read of the submissions (Skip If Already
			// Submitted, on by default), and exactly one submission.
			expect(apiRequests()).toEqual([
				'GET /api/v3/candidates 200',
				'POST /api/v3/candidates 200',
				'GET /api/v3/Submission 200',
				'POST /api/v3/Submission 200',
			]);
		});
	},
);
