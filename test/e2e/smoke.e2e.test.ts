/**
 * A smoke of the packed package in one real n8n per line: it loads, the credential test button
 * and the editor's lists work, one operation runs, a trigger workflow activates, receives one
 * delivery and deactivates.
 *
 * In `npm test` it is n8n 1.x's share of the real-n8n tier (2.x has the whole node, trigger and
 * queue suites). `npm run test:quick` runs it on 2.x (TRIO_SMOKE_LINES=2.x), the line users run,
 * so a change gets a real n8n in minutes.
 *
 * Run `npm run build` first.
 */
import { randomUUID } from 'node:crypto';

import type { RunningSandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import type { N8nLine } from '../../harness/install';
import { nodeItems, type N8nInstance } from '../../harness/n8n';
import { runThroughWebhook } from '../../harness/run-workflow';
import { triggerWorkflow, type CredentialRef, type Registration } from '../../harness/trio';
import { callSandbox } from '../support/sandbox-client';
import { useRealN8n } from '../support/use-real-n8n';
import { expectCredentialTestButton } from './fixtures/credential-test-button';

const PACKAGE = 'n8n-nodes-trio-vms';
const LINES = (process.env.TRIO_SMOKE_LINES ?? '1.x')
	.split(',')
	.map((line) => line.trim()) as N8nLine[];

for (const line of LINES) {
	describeWithN8n(line, `smoke: the package in real n8n ${line}`, () => {
		let sandbox: RunningSandbox;
		let n8n: N8nInstance;
		let credential: CredentialRef;
		useRealN8n(
			{ seed: 7, jobs: 12 },
			{ line },
			(started) => ({ sandbox, n8n, credential } = started),
		);

		const registrations = () =>
			callSandbox<Registration[]>(sandbox, 'GET', '/api/v3/Webhooks', undefined, sandbox.adminKey);

		test('loads: n8n lists the credential and the three nodes and serves their icons', async () => {
			expect(n8n.version).toMatch(line === '2.x' ? /^2\./ : /^1\./);
			process.stderr.write(
				`[n8n harness] n8n ${n8n.version} (${line}): ready in ${n8n.startSeconds} s, RSS ${(n8n.rssBytes() / 2 ** 20).toFixed(0)} MiB\n`,
			);
			expect(await n8n.credentialTypes()).toContain('trioVmsApi');
			const nodeTypes = await n8n.nodeTypes();
			for (const node of ['trioVms', 'trioVmsTrigger', 'trioVmsSyncTrigger'])
				expect(nodeTypes).toContain(`${PACKAGE}.${node}`);
			const icons = await n8n.icons(PACKAGE);
			expect(icons.length).toBeGreaterThanOrEqual(4);
			for (const icon of icons) expect(icon).toMatchObject({ status: 200, contentType: /svg/ });
		});

		test("the credential test button passes with the sandbox key and fails on a wrong key or address, in this line's words", async () => {
			await expectCredentialTestButton({ n8n, sandbox, credential });
		});

		test("the editor's lists load from the sandbox: the job search and the event dropdown", async () => {
			const jobs = await callSandbox<Array<{ Number: number }>>(
				sandbox,
				'GET',
				'/api/v3/Job',
				undefined,
				sandbox.adminKey,
			);
			const search = await n8n.rest<{ results: Array<{ value: string }> }>(
				'POST',
				'/dynamic-node-parameters/resource-locator-results',
				{
					nodeTypeAndVersion: { name: `${PACKAGE}.trioVms`, version: 1 },
					path: 'job',
					methodName: 'searchJobs',
					currentNodeParameters: {
						resource: 'job',
						operation: 'get',
						job: { __rl: true, mode: 'list', value: '' },
						options: {},
					},
					credentials: { trioVmsApi: credential },
				},
			);
			expect(search.results.map((result) => result.value)).toEqual(
				jobs.map((job) => String(job.Number)),
			);
			const events = await n8n.rest<Array<{ value: string }>>(
				'POST',
				'/dynamic-node-parameters/options',
				{
					nodeTypeAndVersion: { name: `${PACKAGE}.trioVms`, version: 1 },
					path: 'events',
					methodName: 'getWebhookEvents',
					currentNodeParameters: {
						resource: 'webhook',
						operation: 'create',
						name: '',
						url: '',
						events: [],
						options: {},
					},
					credentials: { trioVmsApi: credential },
				},
			);
			expect(events.map((option) => option.value)).toEqual(
				await callSandbox<string[]>(
					sandbox,
					'GET',
					'/api/v3/Webhooks/Events',
					undefined,
					sandbox.adminKey,
				),
			);
		});

		test('one operation: job "get many" (return all) returns the sandbox\'s jobs', async () => {
			const expected = await callSandbox<Array<{ Number: number; Title: string }>>(
				sandbox,
				'GET',
				'/api/v3/Job',
				undefined,
				sandbox.key,
			);
			expect(expected.length).toBeGreaterThan(0);
			const items = await runThroughWebhook(
				n8n,
				[
					{
						name: 'Trio VMS',
						type: `${PACKAGE}.trioVms`,
						typeVersion: 1,
						// 'getAll' is n8n's value for the "Get Many" operation.
						parameters: { resource: 'job', operation: 'getAll', returnAll: true },
						credentials: { trioVmsApi: credential },
					},
				],
				{},
			);
			expect(items.map((item) => [item.Number, item.Title]).sort()).toEqual(
				expected.map((job) => [job.Number, job.Title]).sort(),
			);
		});

		test('the trigger: activation registers its event, one delivery runs the workflow, deactivation leaves nothing active', async () => {
			const webhookId = randomUUID();
			const workflow = await n8n.createWorkflow(
				triggerWorkflow('Smoke: jobs', webhookId, { events: ['Job Update'] }, credential),
			);
			const url = n8n.productionWebhookUrl(webhookId, 'webhook');
			const ours = async () =>
				(await registrations()).filter((registration) => registration.Url.startsWith(`${url}?`));

			await n8n.activate(workflow.id);
			const published = await n8n.settlePublication(workflow.id);
			if (published) expect(published.status).toBe('published');
			const active = (await ours()).filter((registration) => registration.IsActive);
			expect(active.map((registration) => registration.Events)).toEqual([['Job Update']]);

			sandbox.clearDeliveries();
			const job = await callSandbox<{ Number: number }>(sandbox, 'POST', '/_sandbox/jobs', {});
			await sandbox.idle();
			expect(sandbox.deliveries().map((delivery) => [delivery.event, delivery.status])).toEqual([
				['Job Update', 200],
			]);
			const [finished] = await n8n.waitForExecutions(workflow.id, 1, 60_000);
			const execution = await n8n.getExecution(finished.id);
			expect(execution.status).toBe('success');
			expect(nodeItems(execution, 'Trio VMS Trigger')).toEqual([
				expect.objectContaining({ event: 'Job Update', Number: job.Number }),
			]);

			await n8n.deactivate(workflow.id);
			await n8n.settlePublication(workflow.id);
			expect((await ours()).filter((registration) => registration.IsActive)).toEqual([]);
		});
	});
}
