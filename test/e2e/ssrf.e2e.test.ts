/**
 * n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED, n8n 2.41; wider by default in 3.0) in a real
 * n8n 2.x, with the package installed as users install it and the sandbox on 127.0.0.1, which is
 * exactly the kind of address the protection blocks:
 * - with the loopback range allowed (N8N_SSRF_ALLOWED_IP_RANGES=127.0.0.0/8, what the demo and
 *   docs/sandbox.md set), the credential test, the action node's operations, the webhook trigger's
 *   publish and unpublish, and the Sync Trigger's poll behave as without protection;
 * - without it, an operation fails before anything reaches the sandbox, and its message names the
 *   setting that lets the address through (n8n's own text names none).
 *
 * Run `npm run build` first.
 */
import { randomUUID } from 'node:crypto';

import type { RunningSandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import { startN8n, type N8nInstance } from '../../harness/n8n';
import { packPackage } from '../../harness/pack';
import { runWebhookWorkflow, type WorkflowNode } from '../../harness/run-workflow';
import { jobSyncWorkflow, SYNC_TRIGGER_NAME } from '../../harness/sync-trigger-workflow';
import {
	createTrioCredential,
	trioCredentialData,
	triggerWorkflow,
	type CredentialRef,
	type Registration,
} from '../../harness/trio';
import { startTestSandbox } from '../support/sandbox-client';

const ACTION_TYPE = 'n8n-nodes-trio-vms.trioVms';
const PROTECTED = { N8N_SSRF_PROTECTION_ENABLED: 'true' };
const LOOPBACK_ALLOWED = { ...PROTECTED, N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.0/8' };

type Json = Record<string, unknown>;

describeWithN8n('2.x', "n8n's SSRF protection", () => {
	let sandbox: RunningSandbox;
	let n8n: N8nInstance | undefined;
	let credential: CredentialRef;

	beforeAll(async () => {
		sandbox = await startTestSandbox({ seed: 5, jobs: 12 });
	});

	afterEach(async () => {
		await n8n?.stop();
		n8n = undefined;
		await sandbox.idle();
		sandbox.clearRequests();
	});

	afterAll(async () => {
		await sandbox?.stop();
	});

	async function start(env: Record<string, string>): Promise<N8nInstance> {
		n8n = await startN8n({ line: '2.x', tarball: await packPackage(), env });
		credential = await createTrioCredential(n8n, 'Trio sandbox', sandbox);
		return n8n;
	}

	const action = (name: string, parameters: Json): WorkflowNode => ({
		name,
		type: ACTION_TYPE,
		typeVersion: 1,
		parameters,
		credentials: { trioVmsApi: credential },
	});

	async function registrations(): Promise<Registration[]> {
		const response = await fetch(`${sandbox.apiUrl}/Webhooks`, {
			headers: { 'X-API-KEY': sandbox.adminKey },
			signal: AbortSignal.timeout(30_000),
		});
		return (await response.json()) as Registration[];
	}

	it('lets everything through with the loopback range allowed', async () => {
		const instance = await start(LOOPBACK_ALLOWED);

		const tested = await instance.rest<{ status: string; message?: string }>(
			'POST',
			'/credentials/test',
			{
				credentials: {
					id: credential.id,
					name: credential.name,
					type: 'trioVmsApi',
					data: trioCredentialData(sandbox.url, sandbox.adminKey),
				},
			},
		);
		expect(tested).toMatchObject({ status: 'OK' });

		const email = `ssrf-${randomUUID().slice(0, 8)}@agency.test`;
		const run = await runWebhookWorkflow(
			instance,
			[
				action('Jobs', { resource: 'job', operation: 'getAll', limit: 2 }),
				action('Candidate', {
					resource: 'candidate',
					operation: 'findOrCreate',
					email,
					firstName: 'Sam',
					lastName: 'Loopback',
				}),
				action('Reasons', { resource: 'submission', operation: 'getWithdrawReasons' }),
			],
			{
				Jobs: { main: [[{ node: 'Candidate', type: 'main', index: 0 }]] },
				Candidate: { main: [[{ node: 'Reasons', type: 'main', index: 0 }]] },
			},
		);
		expect(run.failure).toBeUndefined();
		expect(run.items.length).toBeGreaterThan(0);
		const paths = sandbox.requests().map((request) => `${request.method} ${request.path}`);
		expect(paths).toEqual(
			expect.arrayContaining([
				'GET /api/v3/Job',
				'GET /api/v3/candidates',
				'POST /api/v3/candidates',
				'GET /api/v3/Submission/WithdrawReasons',
			]),
		);

		// The webhook trigger: publish registers at Trio, unpublish switches it off.
		const webhookId = randomUUID();
		const trigger = await instance.createWorkflow(
			triggerWorkflow(
				'Trigger behind SSRF protection',
				webhookId,
				{ events: ['Job Update'] },
				credential,
			),
		);
		const url = instance.productionWebhookUrl(webhookId, 'webhook');
		const ours = async () =>
			(await registrations()).filter((registration) => registration.Url.startsWith(`${url}?`));
		await instance.activate(trigger.id);
		expect(await instance.settlePublication(trigger.id)).toMatchObject({ status: 'published' });
		expect((await ours()).filter((registration) => registration.IsActive)).toHaveLength(1);
		await instance.deactivate(trigger.id);
		await instance.settlePublication(trigger.id);
		expect((await ours()).filter((registration) => registration.IsActive)).toHaveLength(0);

		// The Sync Trigger: its activation poll reads the job list and emits every listed job.
		const sync = await instance.createWorkflow(
			jobSyncWorkflow('Sync behind SSRF protection', credential),
		);
		await instance.activate(sync.id);
		expect(await instance.settlePublication(sync.id)).toMatchObject({ status: 'published' });
		const [execution] = await instance.waitForExecutions(sync.id, 1, 60_000);
		const full = await instance.getExecution(execution.id);
		const emitted = full.data?.resultData.runData[SYNC_TRIGGER_NAME]?.[0]?.data?.main[0] ?? [];
		expect(emitted).toHaveLength(sandbox.store.listJobs().length);
		await instance.deactivate(sync.id);
		await instance.settlePublication(sync.id);
	});

	it('refuses the sandbox before sending anything, naming the setting that allows it', async () => {
		const instance = await start(PROTECTED);

		const run = await runWebhookWorkflow(
			instance,
			[action('Jobs', { resource: 'job', operation: 'getAll', limit: 2 })],
			{},
		);

		expect(run.status).toBe(500);
		expect(run.failure).toContain("n8n's SSRF protection blocked the request to 127.0.0.1");
		expect(run.failure).toContain('N8N_SSRF_ALLOWED_IP_RANGES');
		expect(sandbox.requests()).toEqual([]);
	});
});
