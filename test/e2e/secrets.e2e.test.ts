/**
 * The counted secrets suite: every operation of the Trio VMS node (successes and failures) and
 * the trigger's whole lifecycle (activation, accepted and refused deliveries, the Webhook
 * operations listing its registrations, deactivation) run in a real n8n 2.x at n8n's debug log
 * level. Then everything a person or a backup could read is scanned for the agency's API key and
 * the trigger's delivery token: every execution with its run data, the node outputs, the error
 * messages, the workflows as n8n's API returns them (static data included) and n8n's own log.
 * The figures are printed; the test asks for 0 hits.
 *
 * Run `npm run build` first.
 */
import { randomUUID } from 'node:crypto';

import type { RunningSandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import type { N8nInstance } from '../../harness/n8n';
import type { WorkflowNode } from '../../harness/run-workflow';
import { triggerWorkflow, type CredentialRef, type Registration } from '../../harness/trio';
import { pollUntil } from '../../harness/wait';
import { useRealN8n } from '../support/use-real-n8n';
import { runKeepingExecution } from './fixtures/node/run-keeping-execution';

const NODE_TYPE = 'n8n-nodes-trio-vms.trioVms';

type Json = Record<string, unknown>;

interface Operation {
	name: string;
	parameters: Json;
	/** Nodes the operation needs before it (e.g. a file), and their connections. */
	before?: WorkflowNode[];
}

describeWithN8n('2.x', 'secrets in real n8n 2.x at debug log level', () => {
	let sandbox: RunningSandbox;
	let n8n: N8nInstance;
	let credential: CredentialRef;
	/** Every text that was read back, by where it came from. */
	const scanned: Array<{ where: string; text: string }> = [];
	useRealN8n(
		{ seed: 5, jobs: 12 },
		{ line: '2.x', env: { N8N_LOG_LEVEL: 'debug' } },
		(started) => ({ sandbox, n8n, credential } = started),
	);

	const trioNode = (name: string, parameters: Json): WorkflowNode => ({
		name,
		type: NODE_TYPE,
		typeVersion: 1,
		position: [400, 0],
		parameters: { options: {}, ...parameters },
		credentials: { trioVmsApi: credential },
	});

	async function sandboxJson<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${sandbox.url}${path}`, {
			method,
			headers: { 'X-API-KEY': sandbox.adminKey, 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(10_000),
		});
		const text = await response.text();
		return (text ? JSON.parse(text) : undefined) as T;
	}

	async function runOperation(operation: Operation): Promise<void> {
		const nodes = [...(operation.before ?? []), trioNode(operation.name, operation.parameters)];
		const connections: Record<
			string,
			{ main: Array<Array<{ node: string; type: string; index: number }>> }
		> = {};
		for (let index = 0; index + 1 < nodes.length; index++) {
			connections[nodes[index].name] = {
				main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]],
			};
		}
		const run = await runKeepingExecution(n8n, nodes, connections, [{ n: 1 }]);
		scanned.push({ where: `execution of ${operation.name}`, text: JSON.stringify(run.execution) });
		scanned.push({ where: `output of ${operation.name}`, text: JSON.stringify(run.items) });
	}

	test('neither the API key nor the delivery token appears anywhere n8n keeps or shows', async () => {
		const jobs = await sandboxJson<Array<{ Number: number; JobStatus: string }>>(
			'GET',
			'/api/v3/Job',
		);
		const job = jobs.find((each) => each.JobStatus === 'Open') ?? jobs[0];
		const email = `secret.scan.${randomUUID().slice(0, 8)}@agency.example.com`;
		const file: WorkflowNode[] = [
			{
				name: 'Resume Text',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [0, 0],
				parameters: {
					assignments: {
						assignments: [
							{ id: randomUUID(), name: 'resume', value: 'ICU RN, 6 years.', type: 'string' },
						],
					},
					options: {},
				},
			},
			{
				name: 'Make File',
				type: 'n8n-nodes-base.convertToFile',
				typeVersion: 1.1,
				position: [200, 0],
				parameters: {
					operation: 'toText',
					sourceProperty: 'resume',
					binaryPropertyName: 'data',
					options: { fileName: 'resume.txt' },
				},
			},
		];
		const jobParameter = { __rl: true, mode: 'number', value: String(job.Number) };
		const applicant = sandbox.store.createCandidate({
			firstName: 'Ada',
			lastName: 'Applicant',
			email1: `ada.${randomUUID().slice(0, 8)}@agency.example.com`,
		});
		const operations: Operation[] = [
			{ name: 'Job Get', parameters: { resource: 'job', operation: 'get', job: jobParameter } },
			{
				name: 'Job Get Missing',
				parameters: {
					resource: 'job',
					operation: 'get',
					job: { __rl: true, mode: 'number', value: '999999' },
				},
			},
			{
				name: 'Job Get Many',
				parameters: { resource: 'job', operation: 'getAll', returnAll: false, limit: 3 },
			},
			{
				name: 'Candidate Create',
				parameters: {
					resource: 'candidate',
					operation: 'create',
					firstName: 'Sam',
					lastName: 'Scan',
					email,
					additionalFields: {},
				},
			},
			{
				name: 'Candidate Find',
				parameters: { resource: 'candidate', operation: 'findByEmail', email },
			},
			{
				name: 'Candidate Find Or Create',
				parameters: {
					resource: 'candidate',
					operation: 'findOrCreate',
					firstName: 'Sam',
					lastName: 'Scan',
					email,
					additionalFields: {},
				},
			},
			{
				name: 'Submission Create',
				before: file,
				parameters: {
					resource: 'submission',
					operation: 'create',
					job: jobParameter,
					candidateNumber: String(applicant.number),
					binaryPropertyName: 'data',
					additionalFields: {},
				},
			},
			{
				name: 'Submission Get Many',
				parameters: { resource: 'submission', operation: 'getAll', returnAll: false, limit: 3 },
			},
			{
				name: 'Submission Reasons',
				parameters: { resource: 'submission', operation: 'getWithdrawReasons' },
			},
			{
				name: 'Submission Accept Missing',
				parameters: { resource: 'submission', operation: 'accept', submissionNumber: 999999 },
			},
			{
				name: 'Webhook Events',
				parameters: { resource: 'webhook', operation: 'getEvents' },
			},
			{
				name: 'Webhook Create',
				parameters: {
					resource: 'webhook',
					operation: 'create',
					name: 'Scan',
					url: 'https://hooks.example.com/scan',
					events: ['Job Update'],
				},
			},
		];
		for (const operation of operations) await runOperation(operation);
		const [submission] = sandbox.store.listSubmissions(undefined);
		for (const [name, parameters] of [
			[
				'Submission Get',
				{ resource: 'submission', operation: 'get', submissionNumber: submission.Number },
			],
			[
				'Submission Withdraw',
				{
					resource: 'submission',
					operation: 'withdraw',
					submissionNumber: submission.Number,
					reason: 'Other',
				},
			],
		] as const) {
			await runOperation({ name, parameters: { ...parameters } });
		}

		// The trigger's whole lifecycle, then the Webhook operations over its registrations.
		const webhookId = randomUUID();
		const trigger = await n8n.createWorkflow(
			triggerWorkflow(
				'Secrets scan trigger',
				webhookId,
				{ events: ['Job Update', 'Submission Update'] },
				credential,
			),
		);
		await n8n.activate(trigger.id);
		const url = n8n.productionWebhookUrl(webhookId, 'webhook');
		const registered = await pollUntil(
			async () =>
				(await sandboxJson<Registration[]>('GET', '/api/v3/Webhooks')).filter(
					(registration) => registration.IsActive && registration.Url.startsWith(`${url}?`),
				),
			(list) => list.length === 2,
			60_000,
			200,
		);
		expect(registered).toHaveLength(2);
		const token = new URL(registered[0].Url).searchParams.get('token') ?? '';
		expect(token).toMatch(/^[0-9a-f]{64}$/);

		await sandboxJson('PATCH', `/_sandbox/jobs/${job.Number}`, { Title: 'Scanned RN' });
		const refused = await fetch(`${url}?event=Job%20Update&token=${'0'.repeat(64)}`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ Number: 1 }),
		});
		expect(refused.status).toBe(403);
		await sandbox.idle();
		const executions = await n8n.waitForExecutions(trigger.id, 1, 60_000);
		for (const execution of executions) {
			scanned.push({
				where: `trigger execution ${execution.id}`,
				text: JSON.stringify(await n8n.getExecution(execution.id)),
			});
		}
		scanned.push({
			where: 'the trigger workflow (static data) as the REST API returns it',
			text: JSON.stringify(await n8n.rest('GET', `/workflows/${trigger.id}`)),
		});
		scanned.push({
			where: 'the trigger workflow as the public API returns it',
			text: JSON.stringify(await n8n.api('GET', `/workflows/${trigger.id}`)),
		});
		await runOperation({
			name: 'Webhook Get Many',
			parameters: { resource: 'webhook', operation: 'getAll', returnAll: true, activeOnly: true },
		});
		const webhook = { __rl: true, mode: 'id', value: registered[0].Id };
		await runOperation({
			name: 'Webhook Update',
			parameters: {
				resource: 'webhook',
				operation: 'update',
				webhook,
				updateFields: { isActive: true },
			},
		});
		await n8n.deactivate(trigger.id);
		await new Promise((resolve) => setTimeout(resolve, 1_000));
		const log = n8n.logs();
		// The scan is worth something only if n8n really logged at debug level and the runs worked.
		expect(log).toMatch(/debug/i);
		expect(
			scanned.some(
				({ where, text }) =>
					where === 'output of Job Get' && text.includes(`"Number":${job.Number}`),
			),
		).toBe(true);
		scanned.push({ where: "n8n's log (debug level)", text: log });

		const secrets = { 'API key': sandbox.adminKey, 'delivery token': token };
		const hits: string[] = [];
		for (const [secretName, secret] of Object.entries(secrets)) {
			for (const { where, text } of scanned) {
				if (text.includes(secret)) hits.push(`${secretName} in ${where}`);
			}
		}
		const operationsRun = operations.length + 2 + 2;
		process.stderr.write(
			`secrets: ${operationsRun} operations and the trigger lifecycle at debug log level; ${scanned.length} texts scanned (${Math.round(scanned.reduce((sum, each) => sum + each.text.length, 0) / 1024)} KiB); hits: ${hits.length}\n`,
		);
		expect(hits).toEqual([]);
	});
});
