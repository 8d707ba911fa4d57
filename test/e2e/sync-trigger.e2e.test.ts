/* eslint
	"@n8n/community-nodes/no-restricted-globals": "off",
	"@n8n/community-nodes/no-restricted-imports": "off"
	-- not in the package: n8n's rules for the code users install do not apply here */
/**
 * The Trio VMS Sync Trigger inside a real n8n 2.x and 1.x (the packed package installed as users
 * install it), polling the local sandbox with a plain agency key.
 *
 * n8n runs a poll trigger's first poll when the workflow is activated, and saves the node's
 * static data when the poll emits. So: activation 1 emits every listed job (Emit Existing on),
 * the facility then changes a few jobs, and activation 2, on the static data n8n saved, must emit
 * exactly those changes. One n8n per line; about a minute per line.
 *
 * Run `npm run build` first.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { RunningSandbox as Sandbox } from '../../sandbox';
import { describeWithN8n } from '../support/harness/availability';
import type { N8nLine } from '../support/harness/install';
import { startN8n, type ExecutionRecord, type N8nInstance } from '../support/harness/n8n';
import { packPackage } from '../support/harness/pack';
import {
	DURABLE_SCHEDULER,
	jobSyncWorkflow,
	SYNC_TRIGGER_NAME,
	SYNC_TRIGGER_TYPE,
} from '../support/harness/sync-trigger-workflow';
import { callSandbox, startTestSandbox } from '../support/sandbox-client';

const LINES: N8nLine[] = (process.env.TRIO_SYNC_E2E_LINES?.split(',') as N8nLine[] | undefined) ?? [
	'2.x',
	'1.x',
];
const EXECUTION_TIMEOUT_MS = 60_000;

interface Variant {
	line: N8nLine;
	name: string;
	env: Record<string, string>;
}

const VARIANTS: Variant[] = LINES.flatMap((line) => [
	{ line, name: `real n8n ${line}`, env: {} },
	...(line === '2.x'
		? [{ line, name: `real n8n ${line}, durable scheduler and cursors`, env: DURABLE_SCHEDULER }]
		: []),
]);

type Item = Record<string, unknown>;

function itemsOf(execution: ExecutionRecord): Item[] {
	const runs = execution.data?.resultData.runData[SYNC_TRIGGER_NAME] ?? [];
	return runs.flatMap((run) => (run.data?.main[0] ?? []).map((item) => item.json as Item));
}

const changes = (items: Item[]) => items.map((item) => `${item.Number}:${item.change}`).sort();

for (const { line, name, env } of VARIANTS) {
	describeWithN8n(line, `Trio VMS Sync Trigger in ${name}`, () => {
		let sandbox: Sandbox;
		let n8n: N8nInstance;
		let userFolder: string;
		let credential: { id: string; name: string };

		beforeAll(async () => {
			sandbox = await startTestSandbox({ jobs: 200 });
			const tarball = await packPackage();
			userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `trio-sync-e2e-${line}-`));
			n8n = await startN8n({ line, tarball, userFolder, env });
			const created = await n8n.createCredential('Trio sandbox (plain key)', 'trioVmsApi', {
				apiKey: sandbox.key,
				environment: 'custom',
				baseUrl: sandbox.url,
			});
			credential = { id: created.id, name: created.name };
		});

		afterAll(async () => {
			await n8n?.stop();
			await sandbox?.stop();
			if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
		});

		/** 2.x publishes asynchronously: wait until the activation (and its first poll) has run. */
		async function settle(
			workflowId: string,
			wanted: 'published' | 'not_published',
		): Promise<void> {
			if (line !== '2.x') return;
			const deadline = Date.now() + 60_000;
			for (;;) {
				const status = await n8n.rest<{
					status: string;
					triggers: Array<{ errorMessage: string | null }>;
				}>('GET', `/workflows/${workflowId}/publication-status`);
				if (status.status === wanted) return;
				if (status.status !== 'in_progress')
					throw new Error(
						`activation ${status.status}: ${status.triggers.map((t) => t.errorMessage).join('; ')}`,
					);
				if (Date.now() > deadline) throw new Error('publication still in progress after 60 s');
				await new Promise((resolve) => setTimeout(resolve, 150));
			}
		}

		test('is installed, polls on activation, and the next poll emits exactly what changed', async () => {
			expect(await n8n.nodeTypes()).toContain(SYNC_TRIGGER_TYPE);
			const workflow = await n8n.createWorkflow(jobSyncWorkflow('Trio job sync', credential));

			await n8n.activate(workflow.id);
			await settle(workflow.id, 'published');
			const [first] = await n8n.waitForExecutions(workflow.id, 1, EXECUTION_TIMEOUT_MS);
			const listed = await callSandbox<Array<{ Number: number; JobStatus: string }>>(
				sandbox,
				'GET',
				'/api/v3/Job',
				undefined,
				sandbox.key,
			);
			const opened = itemsOf(await n8n.getExecution(first.id));
			expect(opened).toHaveLength(listed.length);
			expect(new Set(opened.map((item) => item.change))).toEqual(new Set(['opened']));
			await n8n.deactivate(workflow.id);
			await settle(workflow.id, 'not_published');

			// The facility changes a few jobs while the workflow is off.
			const open = listed.filter((job) => job.JobStatus === 'Open');
			const [updated, closed, counted] = open.map((job) => job.Number);
			await callSandbox(sandbox, 'PATCH', `/_sandbox/jobs/${updated}`, {
				Title: 'Charge RN - ICU',
			});
			await callSandbox(sandbox, 'POST', `/_sandbox/jobs/${closed}/close`, { reason: 'Filled' });
			await callSandbox(sandbox, 'POST', `/_sandbox/jobs/${counted}/open-positions`, { count: 0 });
			const added = await callSandbox<{ Number: number }>(sandbox, 'POST', '/_sandbox/jobs', {
				Title: 'Night Shift RN - Telemetry',
			});

			await n8n.activate(workflow.id);
			await settle(workflow.id, 'published');
			const executions = await n8n.waitForExecutions(workflow.id, 2, EXECUTION_TIMEOUT_MS);
			const second = itemsOf(await n8n.getExecution(executions[1].id));
			// The closed job is missing from the full list, and Trio's own answer says Closed.
			expect(changes(second)).toEqual(
				changes([
					{ Number: updated, change: 'updated' },
					{ Number: closed, change: 'closed' },
					{ Number: counted, change: 'openPositionsChanged' },
					{ Number: added.Number, change: 'opened' },
				]),
			);
			expect(second.find((item) => item.change === 'closed')).toMatchObject({
				event: 'Job Update',
				JobStatus: 'Closed',
				receivedAt: expect.any(String),
			});
			await n8n.deactivate(workflow.id);
			await settle(workflow.id, 'not_published');
		});
	});
}
