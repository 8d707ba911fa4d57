/**
 * Updating the package in a real n8n 2.41.1 keeps everything a user has: the package is installed
 * from the Community Nodes panel at one version, three workflows run on it (a published Trio VMS
 * Trigger registered at the sandbox, a Sync Trigger with its baseline, a Webhook -> Trio VMS
 * workflow), and the package is then updated twice, the two ways README's Updating section
 * describes:
 * 1. the panel's Update button (PATCH /rest/community-packages with the package name, what the
 *    editor sends when unverified packages are allowed: n8n installs npm's `latest`);
 * 2. a restart with the next version in N8N_COMMUNITY_PACKAGES (the Docker way).
 * After each, a new job at the facility must come out exactly once from each trigger, the
 * trigger's registrations must be the same ones (none lost, none added), and the action workflow
 * must still run. The Sync Trigger polls every minute on its own schedule throughout: it is never
 * re-published, so it proves that its memory, not a new baseline, carried it across.
 *
 * The releases are the repository packed at package.json's version and again under the next two
 * patch versions, served by the registry stand-in (harness/npm-registry.ts) as registry.npmjs.org.
 * Run `npm run build` first. About six minutes, most of it waiting for minute polls.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';

import type { RunningSandbox as Sandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import { startN8n, type ExecutionRecord, type N8nInstance } from '../../harness/n8n';
import { startFakeNpmRegistry, type FakeNpmRegistry } from '../../harness/npm-registry';
import { packPackage, packPackageAs, REPO_ROOT } from '../../harness/pack';
import { answeringWebhook, postToWebhook } from '../../harness/run-workflow';
import { jobSyncWorkflow, SYNC_TRIGGER_NAME } from '../../harness/sync-trigger-workflow';
import { createTrioCredential, triggerWorkflow, type Registration } from '../../harness/trio';
import { callSandbox, startTestSandbox } from '../support/sandbox-client';

const PACKAGE = 'n8n-nodes-trio-vms';
const NODE_TYPES = [
	`${PACKAGE}.trioVms`,
	`${PACKAGE}.trioVmsSyncTrigger`,
	`${PACKAGE}.trioVmsTrigger`,
];
const FIRST = (
	JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const patchAfter = (version: string, steps: number): string => {
	const [major, minor, patch] = version.split('.').map(Number);
	return `${major}.${minor}.${patch + steps}`;
};
const SECOND = patchAfter(FIRST, 1);
const THIRD = patchAfter(FIRST, 2);

const TRIGGER_NAME = 'Trio VMS Trigger';
/** A minute poll can land just after a change: two schedules' worth, plus n8n's start-up. */
const POLL_WAIT_MS = 180_000;
const EXECUTION_WAIT_MS = 60_000;
jest.setTimeout(15 * 60_000);

interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	updateAvailable?: string;
	installedNodes: Array<{ type: string }>;
}

type Item = Record<string, unknown>;

function itemsOf(execution: ExecutionRecord, node: string): Item[] {
	const runs = execution.data?.resultData.runData[node] ?? [];
	return runs.flatMap((run) => (run.data?.main[0] ?? []).map((each) => each.json as Item));
}

interface Stage {
	name: string;
	version: string;
	job: number;
	/** The new job's changes the Sync Trigger reported in this stage, e.g. `1234:opened`. */
	syncChanges: string[];
	/** Trio VMS Trigger executions this stage started, and the job numbers in them. */
	triggerJobs: number[];
	registrations: number;
	actionItems: number;
}

describeWithN8n(
	'2.x',
	'real n8n 2.x: updating the package keeps workflows, registrations and memory',
	() => {
		let sandbox: Sandbox;
		let registry: FakeNpmRegistry;
		let n8n: N8nInstance;
		let userFolder = '';
		let port = 0;
		const releases: Record<string, string> = {};
		const workflow = { trigger: '', sync: '', action: '' };
		let triggerUrl = '';
		let actionUrl = '';
		let registrationsAtStart: Registration[] = [];
		const stages: Stage[] = [];
		/** Sync Trigger executions already accounted for by earlier stages. */
		let syncSeen = 0;
		let triggerSeen = 0;
		let baselineSize = 0;

		beforeAll(async () => {
			sandbox = await startTestSandbox({ jobs: 20 });
			releases[FIRST] = await packPackage();
			releases[SECOND] = await packPackageAs(SECOND);
			releases[THIRD] = await packPackageAs(THIRD);
			registry = await startFakeNpmRegistry({ tarball: releases[FIRST] });
			userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-update-e2e-'));
			n8n = await startN8n({
				line: '2.x',
				tarball: [],
				userFolder,
				env: { ...registry.env(), N8N_UNVERIFIED_PACKAGES_ENABLED: 'true' },
			});
			port = n8n.port;
		});

		afterAll(async () => {
			await n8n?.stop();
			await registry?.stop();
			await sandbox?.stop();
			if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
			if (stages.length > 0)
				process.stderr.write(
					`[update] workflows 3; registrations at start ${registrationsAtStart.length}; Sync Trigger baseline ${baselineSize} jobs; per stage ${JSON.stringify(stages)}\n`,
				);
		});

		const ours = async (): Promise<InstalledPackage | undefined> =>
			(await n8n.rest<InstalledPackage[]>('GET', '/community-packages')).find(
				(each) => each.packageName === PACKAGE,
			);

		const onDisk = (): string =>
			(
				JSON.parse(
					fs.readFileSync(
						path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE, 'package.json'),
						'utf8',
					),
				) as { version: string }
			).version;

		const triggerRegistrations = async (): Promise<Registration[]> =>
			(
				await callSandbox<Registration[]>(
					sandbox,
					'GET',
					'/api/v3/Webhooks',
					undefined,
					sandbox.adminKey,
				)
			).filter((each) => each.Url.startsWith(`${triggerUrl}?`));

		async function publish(id: string): Promise<void> {
			await n8n.activate(id);
			const status = await n8n.settlePublication(id);
			if (status && status.status !== 'published')
				throw new Error(
					`publishing ${id}: ${status.status} ${status.triggers.map((each) => each.errorMessage).join('; ')}`,
				);
		}

		/**
		 * One stage: the facility opens a job; each trigger must report it once and nothing else, the
		 * registrations must be the ones the trigger made at the start, and the action workflow runs.
		 */
		async function stage(name: string, version: string): Promise<Stage> {
			sandbox.clearDeliveries();
			const job = await callSandbox<{ Number: number }>(sandbox, 'POST', '/_sandbox/jobs', {
				Title: `Update test RN (${name})`,
			});
			await sandbox.idle();
			const deliveries = sandbox
				.deliveries()
				.filter((delivery) => delivery.url.startsWith(`${triggerUrl}?`));
			// One registration for Job Update: exactly one delivery, answered.
			expect(deliveries.map((delivery) => delivery.status)).toEqual([200]);

			const triggerRuns = await n8n.waitForExecutions(
				workflow.trigger,
				triggerSeen + 1,
				EXECUTION_WAIT_MS,
			);
			const newTriggerRuns = triggerRuns.slice(triggerSeen);
			triggerSeen = triggerRuns.length;
			const triggerJobs: number[] = [];
			for (const run of newTriggerRuns)
				for (const item of itemsOf(await n8n.getExecution(run.id), TRIGGER_NAME))
					triggerJobs.push(Number(item.Number));
			expect(triggerJobs).toEqual([job.Number]);

			const syncRuns = await n8n.waitForExecutions(workflow.sync, syncSeen + 1, POLL_WAIT_MS);
			const syncChanges: string[] = [];
			for (const run of syncRuns.slice(syncSeen))
				for (const item of itemsOf(await n8n.getExecution(run.id), SYNC_TRIGGER_NAME))
					syncChanges.push(`${String(item.Number)}:${String(item.change)}`);
			syncSeen = syncRuns.length;
			// The new job, once; nothing from the baseline or an earlier stage again.
			expect(syncChanges).toEqual([`${job.Number}:opened`]);

			const registrations = await triggerRegistrations();
			expect(registrations.map(({ Id, Url, IsActive }) => ({ Id, Url, IsActive }))).toEqual(
				registrationsAtStart.map(({ Id, Url, IsActive }) => ({ Id, Url, IsActive })),
			);

			const response = await postToWebhook(actionUrl, {});
			const body = (await response.json()) as Item | Item[];
			expect(response.status).toBe(200);
			const items = Array.isArray(body) ? body : [body];
			const listed = await callSandbox<Array<{ Number: number }>>(
				sandbox,
				'GET',
				'/api/v3/Job',
				undefined,
				sandbox.key,
			);
			expect(items.map((item) => item.Number).sort()).toEqual(
				listed.map((each) => each.Number).sort(),
			);

			const result: Stage = {
				name,
				version,
				job: job.Number,
				syncChanges,
				triggerJobs,
				registrations: registrations.length,
				actionItems: items.length,
			};
			stages.push(result);
			return result;
		}

		test(`installed from the Community Nodes panel: n8n takes npm's latest, ${FIRST}`, async () => {
			const installed = await n8n.rest<InstalledPackage>('POST', '/community-packages', {
				name: PACKAGE,
			});
			expect(installed.installedVersion).toBe(FIRST);
			expect(onDisk()).toBe(FIRST);
			const nodeTypes = await n8n.nodeTypes();
			expect(NODE_TYPES.filter((type) => nodeTypes.includes(type))).toEqual(NODE_TYPES);
		});

		test('three workflows run on it: the trigger registered, the Sync Trigger with its baseline, the action node', async () => {
			const credential = await createTrioCredential(n8n, 'Trio sandbox (admin)', sandbox);
			const credentials = { trioVmsApi: credential };

			const webhookId = randomUUID();
			workflow.trigger = (
				await n8n.createWorkflow(
					triggerWorkflow(
						'Job updates',
						webhookId,
						{ events: ['Job Update'] },
						credential,
						TRIGGER_NAME,
					),
				)
			).id;
			triggerUrl = n8n.productionWebhookUrl(webhookId, 'webhook');

			const sync = jobSyncWorkflow('New jobs', credentials.trioVmsApi);
			// Its own schedule, every minute, carries it across both updates: it is never re-published.
			sync.nodes[0].parameters.pollTimes = { item: [{ mode: 'everyMinute' }] };
			workflow.sync = (await n8n.createWorkflow(sync)).id;

			const actionPath = `update-e2e-${randomUUID()}`;
			workflow.action = (
				await n8n.createWorkflow({
					name: 'Open jobs on request',
					nodes: [
						answeringWebhook('Webhook', actionPath),
						{
							id: randomUUID(),
							name: 'Trio VMS',
							type: `${PACKAGE}.trioVms`,
							typeVersion: 1,
							position: [200, 0],
							parameters: { resource: 'job', operation: 'getAll', returnAll: true },
							credentials,
						},
					],
					connections: { Webhook: { main: [[{ node: 'Trio VMS', type: 'main', index: 0 }]] } },
					settings: { executionOrder: 'v1' },
				})
			).id;
			actionUrl = n8n.productionWebhookUrl('', actionPath);

			for (const id of Object.values(workflow)) await publish(id);
			registrationsAtStart = await triggerRegistrations();
			expect(registrationsAtStart.map((each) => [each.Events, each.IsActive])).toEqual([
				[['Job Update'], true],
			]);
			// The baseline: the activation poll reports every job there is, once.
			const [baseline] = await n8n.waitForExecutions(workflow.sync, 1, EXECUTION_WAIT_MS);
			const listed = await callSandbox<unknown[]>(
				sandbox,
				'GET',
				'/api/v3/Job',
				undefined,
				sandbox.key,
			);
			baselineSize = itemsOf(await n8n.getExecution(baseline.id), SYNC_TRIGGER_NAME).length;
			expect(baselineSize).toBe(listed.length);
			syncSeen = 1;

			await stage('before the update', FIRST);
		});

		test(`updated with the panel's Update button to ${SECOND}: nothing reported twice, the same registration, every workflow runs`, async () => {
			await registry.publish(releases[SECOND]);
			// What the panel shows: the installed version and the update npm offers.
			expect(await ours()).toMatchObject({ installedVersion: FIRST, updateAvailable: SECOND });

			const updated = await n8n.rest<InstalledPackage>('PATCH', '/community-packages', {
				name: PACKAGE,
			});
			expect(updated.installedVersion).toBe(SECOND);
			expect(onDisk()).toBe(SECOND);
			expect((await ours())?.installedVersion).toBe(SECOND);
			expect(registry.tarballDownloads(SECOND)).toBe(1);

			await stage('after the panel update', SECOND);
		});

		test(`updated by restarting with ${THIRD} in N8N_COMMUNITY_PACKAGES: the same, and the panel then refuses changes`, async () => {
			await registry.publish(releases[THIRD]);
			await n8n.stop();
			// The same folder and address, as a container restarted on its volume behind the same URL.
			n8n = await startN8n({
				line: '2.x',
				tarball: [],
				userFolder,
				port,
				env: {
					...registry.env(),
					N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
					N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
					N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: PACKAGE, version: THIRD }]),
				},
			});
			expect(n8n.logs()).toContain(
				`Updated community package '${PACKAGE}' from ${SECOND} to ${THIRD} from env`,
			);
			expect(onDisk()).toBe(THIRD);
			expect((await ours())?.installedVersion).toBe(THIRD);
			for (const id of Object.values(workflow)) {
				const status = await n8n.settlePublication(id);
				expect(status?.status).toBe('published');
			}

			await stage('after the restart with the variable', THIRD);

			// With the list in the variable, the panel's Update is refused: the variable is the one place.
			const refused = await n8n
				.rest('PATCH', '/community-packages', { name: PACKAGE })
				.then(() => undefined)
				.catch((error: Error) => error.message);
			expect(refused).toContain('managed via environment variables');
		});
	},
);
