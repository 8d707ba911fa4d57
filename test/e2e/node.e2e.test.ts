/**
 * The Trio VMS action node inside a real n8n of each supported line, installed from the packed
 * tarball as users install it, against the local Trio sandbox over HTTP. Each line gets one n8n
 * for the whole file (2.x first, stopped before 1.x starts: never two at once). What n8n itself
 * contributes is exercised through n8n's own endpoints:
 * - the credential test button (POST /rest/credentials/test) runs the credential's `test`
 *   request and rules (n8n 1.x cannot apply the rules: see that test);
 * - the editor's dropdowns and searchable lists (POST /rest/dynamic-node-parameters/options and
 *   /resource-locator-results) run the node's loadOptions and listSearch methods;
 * - workflows started by a webhook run the node, and their executions are read back: a Trio
 *   error fails the run with its status and subject, or becomes an item under "On Error:
 *   Continue"; a file made by n8n's Convert to File node reaches Trio; a bad e-mail is refused
 *   before anything is sent.
 *
 * Run `npm run build` first.
 */
import { createHash, randomUUID } from 'node:crypto';

import { SANDBOX_WITHDRAW_REASONS, type RunningSandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import { N8N_LINES } from '../../harness/install';
import type { N8nInstance } from '../../harness/n8n';
import { runThroughWebhook, textFileNodes, type WorkflowNode } from '../../harness/run-workflow';
import { trioCredentialData, type CredentialRef } from '../../harness/trio';
import { useRealN8n } from '../support/use-real-n8n';
import { outputOf, runKeepingExecution } from './fixtures/node/run-keeping-execution';

const NODE_TYPE = 'n8n-nodes-trio-vms.trioVms';
const CREDENTIAL_TYPE = 'trioVmsApi';
/** A job number the sandbox never seeds (its jobs start at 100001). */
const MISSING_JOB = 999_999;

type Json = Record<string, unknown>;

interface CredentialTestResult {
	status: string;
	message?: string;
}

interface NodeOption {
	name: string;
	value: string;
	description?: string;
}

for (const line of N8N_LINES) {
	describeWithN8n(line, `Trio VMS node in real n8n ${line}`, () => {
		let sandbox: RunningSandbox;
		let n8n: N8nInstance;
		/** The sandbox's administrator key: every operation, webhook management included. */
		let credential: CredentialRef;
		const credentialData = (): Json => trioCredentialData(sandbox.url, sandbox.adminKey);
		useRealN8n(
			{ seed: 11, jobs: 24 },
			{ line },
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

		// ------------------------------------------------------------------ credential test

		test("n8n's credential test passes with the sandbox key and fails on a wrong key (403) or address (404)", async () => {
			// What the editor's Test button sends: the stored credential's id with the form's data.
			// 1.x stores (and so sends back) its allowed-domains field as well.
			const domains: Json = line === '1.x' ? { allowedHttpRequestDomains: 'all' } : {};
			const testCredential = async (name: string, data: Json): Promise<CredentialTestResult> => {
				const stored =
					name === credential.name
						? credential
						: await n8n.createCredential(name, CREDENTIAL_TYPE, data);
				return n8n.rest<CredentialTestResult>('POST', '/credentials/test', {
					credentials: {
						id: stored.id,
						name: stored.name,
						type: CREDENTIAL_TYPE,
						data: { ...data, ...domains },
					},
				});
			};

			expect(await testCredential(credential.name, credentialData())).toEqual(
				expect.objectContaining({ status: 'OK' }),
			);
			const wrongKey = await testCredential('Trio sandbox, wrong key', {
				...credentialData(),
				apiKey: 'not-a-trio-key',
			});
			const wrongAddress = await testCredential('Trio sandbox, wrong address', {
				...credentialData(),
				baseUrl: `${sandbox.url}/not-trio`,
			});
			expect(wrongKey.status).toBe('Error');
			expect(wrongAddress.status).toBe('Error');
			if (line === '2.x') {
				// The credential's own rules decide the message.
				expect(wrongKey.message).toBe(
					'The service refused the API key: it is wrong, expired or lacks permission. Create a new key on your Trio User Profile page or ask your MSP contact.',
				);
				expect(wrongAddress.message).toMatch(
					/^Nothing answers at this address\. Check the environment, the tenant or the base URL/,
				);
			} else {
				// n8n 1.x cannot apply `responseCode` rules: its ExecutionBaseError declares `cause` as a
				// class field, which erases the HTTP error the tester looks for (error.cause.response), so
				// it shows NodeApiError's generic text instead (fixed in 2.x; see n8n-io/n8n#34509). The
				// test still fails as it should; only the wording is n8n's.
				expect(wrongKey.message).toBe('Forbidden - perhaps check your credentials?');
				expect(wrongAddress.message).toBe('The resource you are requesting could not be found');
			}

			// All three went to the sandbox, with the right key, the wrong one, and to a wrong path.
			expect(
				sandbox
					.requests()
					.map((request) => [request.method, request.path, request.key, request.status]),
			).toEqual([
				['GET', '/api/v3/candidates', 'admin', 200],
				['GET', '/api/v3/candidates', 'invalid', 403],
				['GET', '/not-trio/api/v3/candidates', 'admin', 404],
			]);
			expect(sandbox.requests()[0].query).toEqual({ email: 'n8n-credential-test@example.invalid' });
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

		// ------------------------------------------------------------------ errors

		test('a missing job fails the run with 404 naming the job; with "Continue (regular output)" it becomes a paired error item', async () => {
			const [first, second] = await trio<Array<{ Number: number; Title: string }>>('/Job');
			const input = [{ job: first.Number }, { job: MISSING_JOB }, { job: second.Number }];
			sandbox.clearRequests();
			const getJob = (extra: Partial<WorkflowNode> = {}) =>
				trioNode(
					'Get Job',
					{
						resource: 'job',
						operation: 'get',
						job: { __rl: true, mode: 'number', value: '={{ $json.job }}' },
						options: {},
					},
					extra,
				);

			const failed = await runKeepingExecution(n8n, [getJob()], {}, input);
			expect(failed.status).toBeGreaterThanOrEqual(500);
			expect(failed.execution.status).toBe('error');
			const error = failed.execution.data?.resultData.error;
			expect(error?.node?.name).toBe('Get Job');
			expect(error?.message).toContain('404');
			expect(error?.message).toContain(String(MISSING_JOB));
			expect(error?.description).toContain(`No job ${MISSING_JOB} was found`);
			// The run stopped at the failed item: the third job was never asked for.
			expect(apiRequests()).toEqual([
				`GET /api/v3/Job/${first.Number} 200`,
				`GET /api/v3/Job/${MISSING_JOB} 404`,
			]);

			sandbox.clearRequests();
			const continued = await runKeepingExecution(
				n8n,
				[getJob({ onError: 'continueRegularOutput' })],
				{},
				input,
			);
			expect(continued.status).toBe(200);
			expect(continued.execution.status).toBe('success');
			expect(continued.items).toHaveLength(3);
			expect(continued.items[0]).toEqual(
				expect.objectContaining({ Number: first.Number, Title: first.Title }),
			);
			expect(continued.items[2]).toEqual(
				expect.objectContaining({ Number: second.Number, Title: second.Title }),
			);
			expect(Object.keys(continued.items[1]).sort()).toEqual(['details', 'error']);
			expect(continued.items[1].error).toMatch(
				new RegExp(`^Trio VMS answered 404 Not Found: .*${MISSING_JOB}`),
			);
			expect(continued.items[1].details).toContain(`No job ${MISSING_JOB} was found`);

			const stored = outputOf(continued.execution, 'Get Job');
			expect(stored.map((item) => item.pairedItem)).toEqual([
				{ item: 0 },
				{ item: 1 },
				{ item: 2 },
			]);
			expect(stored[1].json).toEqual(continued.items[1]);
			expect(apiRequests()).toEqual([
				`GET /api/v3/Job/${first.Number} 200`,
				`GET /api/v3/Job/${MISSING_JOB} 404`,
				`GET /api/v3/Job/${second.Number} 200`,
			]);
		});

		// ------------------------------------------------------------------ binary

		test("a file made by n8n's Convert to File node after Find or Create is submitted to Trio once", async () => {
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

			const items = await runThroughWebhook(
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
			);

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

		// ------------------------------------------------------------------ local validation

		test('a bad e-mail in Candidate Create fails on the "Email" field and nothing reaches Trio', async () => {
			const run = await runKeepingExecution(
				n8n,
				[
					trioNode('Create Candidate', {
						resource: 'candidate',
						operation: 'create',
						email: '={{ $json.email }}',
						firstName: 'Jane',
						lastName: 'Doe',
						additionalFields: {},
						options: {},
					}),
				],
				{},
				[{ email: 'jane@' }],
			);
			expect(run.execution.status).toBe('error');
			const error = run.execution.data?.resultData.error;
			expect(error?.node?.name).toBe('Create Candidate');
			expect(error?.message).toContain('"Email"');
			expect(error?.message).toContain('jane@');
			expect(error?.description).toContain('Nothing was sent to Trio VMS');
			expect(sandbox.requests()).toEqual([]);
		});
	});
}
