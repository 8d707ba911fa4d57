/**
 * The Trio VMS nodes in n8n 2.x run the way n8n recommends for production (issue #12):
 * PostgreSQL, and queue mode with a main process, two webhook processes behind a round-robin
 * proxy (the load balancer; its address is WEBHOOK_URL) and a worker, Redis between them.
 * Also one regular n8n on PostgreSQL. The Sync Trigger under n8n's durable scheduler, on a
 * stack of its own, is in queue-sync.e2e.test.ts.
 *
 * Duplicates across processes are dropped by n8n's Remove Duplicates keyed on the items'
 * deliveryKey (the process memory cannot see another process's copy); the first delivery after
 * activation passes on the token's own signature; an address change is repaired by one
 * deactivate and activate, since n8n 2.41 runs no trigger method at restart.
 *
 * Environment: TRIO_QUEUE_DELIVERIES (bulk test size, default 200; `npm run test:e2e:queue:1000`
 * runs 1,000), TRIO_QUEUE_WORKERS (default 1).
 *
 * Run `npm run build` first.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';

import { mapWithLimit } from '../../nodes/shared/limitedConcurrency';
import { TRIO_EVENT_NAMES, TRIO_EVENTS } from '../../nodes/shared/events';
import type { RunningSandbox as Sandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import { run } from '../../harness/exec';
import { nodeItems, type ExecutionRecord, type N8nInstance } from '../../harness/n8n';
import { packPackage } from '../../harness/pack';
import { jobSyncWorkflow, syncItems } from '../../harness/sync-trigger-workflow';
import {
	makeProbePackage,
	PROBE_NODE_TYPE,
	type ProbeStaticData,
} from '../../harness/probe-package';
import {
	logExcerpt,
	startN8nOnPostgres,
	startQueueStack,
	startRoundRobinProxy,
	type QueueStack,
} from '../../harness/queue';
import { answeringWebhook, runWebhookWorkflow } from '../../harness/run-workflow';
import { startQueueServices, type Postgres, type QueueServices } from '../../harness/services';
import {
	createTrioCredential,
	triggerWorkflow,
	type CredentialRef,
	type Registration,
} from '../../harness/trio';
import { pollUntil, waitUntil } from '../../harness/wait';
import { callSandbox, listJobs, startTestSandbox } from '../support/sandbox-client';

const TRIGGER_TYPE = 'n8n-nodes-trio-vms.trioVmsTrigger';
const TRIGGER_NAME = 'Trio VMS Trigger';
const ACTION_TYPE = 'n8n-nodes-trio-vms.trioVms';
const EXECUTION_TIMEOUT_MS = 120_000;
const BULK_DELIVERIES = Number(process.env.TRIO_QUEUE_DELIVERIES || 200);
const BULK_CONCURRENCY = 8;
const WORKERS = Number(process.env.TRIO_QUEUE_WORKERS || 1);
// ------------------------------------------------------------------ the sandbox

const itemsOf = (execution: ExecutionRecord) => nodeItems(execution, TRIGGER_NAME);

const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);

describeWithN8n('2.x', 'Trio VMS in production-shaped n8n 2.x (PostgreSQL, queue mode)', () => {
	let sandbox: Sandbox;
	let tarball: string[];
	let services: QueueServices | undefined;
	let postgres: Postgres;
	let stack: QueueStack;
	let credential: CredentialRef;
	const extraStops: Array<() => Promise<void>> = [];
	const fileStarted = Date.now();

	const main = (): N8nInstance => stack.main;
	const note = (text: string) => process.stderr.write(`[queue-mode] ${text}\n`);

	beforeAll(async () => {
		sandbox = await startTestSandbox();
		tarball = [await packPackage(), await makeProbePackage()];
		const servicesStarted = Date.now();
		services = await startQueueServices();
		({ postgres } = services);
		note(`PostgreSQL and Redis ready in ${(Date.now() - servicesStarted) / 1000} s`);
		stack = await startQueueStack({
			tarball,
			...services,
			database: 'queue',
			webhookProcesses: 2,
			workers: WORKERS,
		});
		const rss = stack.rssBytes();
		note(
			`queue stack ready: ${JSON.stringify(stack.timings)} s; RSS MiB main ${mib(rss.main)}, webhooks ${rss.webhooks.map(mib).join('/')}, workers ${rss.workers.map(mib).join('/')}`,
		);
		credential = await createTrioCredential(main(), 'Trio sandbox (admin)', sandbox);
	});

	afterAll(async () => {
		await stack?.stop();
		for (const stop of extraStops) await stop().catch(() => undefined);
		await services?.stop();
		await sandbox?.stop();
		note(`whole queue-mode describe took ${Math.round((Date.now() - fileStarted) / 1000)} s`);
	});

	afterEach(async () => {
		sandbox.clearFaults();
		await sandbox.idle();
	});

	// -------------------------------------------------------------- helpers on the stack

	interface TriggerWorkflow {
		id: string;
		webhookId: string;
		name: string;
		/** The trigger's production URL as registered (through the proxy). */
		url: string;
	}

	/** The documented guarantee across processes: Remove Duplicates keyed on deliveryKey. */
	const DEDUPE_NAME = 'Remove Duplicates';
	/** n8n's Remove Duplicates, dropping items whose `value` an earlier execution has seen. */
	const dedupeOn = (value: string) => ({
		id: randomUUID(),
		name: DEDUPE_NAME,
		type: 'n8n-nodes-base.removeDuplicates',
		typeVersion: 2,
		position: [200, 0],
		parameters: {
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: value,
			options: {},
		},
	});

	/** What passed the Remove Duplicates step in one execution. */
	const keptBy = (execution: ExecutionRecord) => nodeItems(execution, DEDUPE_NAME);

	async function createTrigger(
		name: string,
		parameters: Record<string, unknown>,
		options: { dedupe?: boolean } = {},
	): Promise<TriggerWorkflow> {
		const webhookId = randomUUID();
		const record = await main().createWorkflow({
			name,
			nodes: [
				...(options.dedupe ? [dedupeOn('={{ $json.deliveryKey }}')] : []),
				{
					id: randomUUID(),
					name: TRIGGER_NAME,
					type: TRIGGER_TYPE,
					typeVersion: 1,
					position: [0, 0],
					webhookId,
					parameters,
					credentials: { trioVmsApi: credential },
				},
			],
			connections: options.dedupe
				? { [TRIGGER_NAME]: { main: [[{ node: DEDUPE_NAME, type: 'main', index: 0 }]] } }
				: {},
			settings: { executionOrder: 'v1' },
		});
		return {
			id: record.id,
			webhookId,
			name,
			url: stack.productionWebhookUrl(webhookId, 'webhook'),
		};
	}

	interface PublicationStatus {
		status: string;
		triggers: Array<{ errorMessage: string | null }>;
	}

	/** 2.41 publishes asynchronously; wait until the trigger's create/delete has run. */
	async function settle(workflowId: string, instance = main()): Promise<PublicationStatus> {
		const status = await pollUntil(
			() => instance.rest<PublicationStatus>('GET', `/workflows/${workflowId}/publication-status`),
			(value) => value.status !== 'in_progress',
			60_000,
			150,
		);
		if (status.status === 'in_progress')
			throw new Error(`workflow ${workflowId}: still publishing`);
		return status;
	}

	async function activate(workflowId: string): Promise<void> {
		await main().activate(workflowId);
		const status = await settle(workflowId);
		if (status.status !== 'published') {
			throw new Error(
				`activation ${status.status}: ${status.triggers.map((each) => each.errorMessage).join('; ')}`,
			);
		}
	}

	async function deactivate(workflowId: string): Promise<void> {
		await main().deactivate(workflowId);
		await settle(workflowId);
	}

	const registrations = () =>
		callSandbox<Registration[]>(sandbox, 'GET', '/api/v3/Webhooks', undefined, sandbox.adminKey);

	/** Registrations of a workflow wherever they point (matched by the webhook id in the URL). */
	async function registrationsOf(workflow: TriggerWorkflow): Promise<Registration[]> {
		return (await registrations()).filter((registration) =>
			registration.Url.includes(`/webhook/${workflow.webhookId}/`),
		);
	}

	async function activeOf(workflow: TriggerWorkflow): Promise<Registration[]> {
		return (await registrationsOf(workflow)).filter((registration) => registration.IsActive);
	}

	function tokenOf(registration: Registration): string {
		return new URL(registration.Url).searchParams.get('token') ?? '';
	}

	const openJob = () => callSandbox<{ Number: number }>(sandbox, 'POST', '/_sandbox/jobs', {});

	async function finishedExecutions(
		workflow: TriggerWorkflow,
		count: number,
	): Promise<ExecutionRecord[]> {
		await sandbox.idle();
		return main().waitForExecutions(workflow.id, count, EXECUTION_TIMEOUT_MS);
	}

	/**
	 * Every execution of a workflow up to a marker, read in full, the marker's left out: one more
	 * delivery, sent once after all the others, so that a late execution of theirs (a copy's)
	 * comes before the marker's. `sendMarker` sends it and returns its Number; by default a job
	 * opened at the sandbox, delivered without faults.
	 */
	async function executionsBeforeMarker(
		workflowId: string,
		sendMarker: () => Promise<number> = async () => {
			sandbox.clearFaults();
			return (await openJob()).Number;
		},
		instance: N8nInstance = main(),
	): Promise<ExecutionRecord[]> {
		const marker = await sendMarker();
		const isMarker = (execution: ExecutionRecord) =>
			itemsOf(execution).some((item) => item.Number === marker);
		const read = new Map<string, ExecutionRecord>();
		await waitUntil(
			`the execution of the marker ${marker}`,
			async () => {
				const unread = (await instance.listExecutions(workflowId)).filter(
					(each) => !read.get(each.id)?.finished,
				);
				for (const full of await mapWithLimit(unread, 8, (each) => instance.getExecution(each.id)))
					read.set(full.id, full);
				return [...read.values()].some(isMarker) ? true : undefined;
			},
			{ timeoutMs: EXECUTION_TIMEOUT_MS, intervalMs: 500 },
		);
		return [...read.values()].filter((execution) => !isMarker(execution));
	}

	/** The last lines of every process's log that name the workflow or an error, for a failure. */
	function logLinesAbout(workflowId: string): string {
		return logExcerpt(
			stack.logs(),
			(line) => line.includes(workflowId) || /error|stalled|fail/i.test(line),
			60,
		);
	}

	/** Awaits `waiting`; if it fails, the error also says what `explain` tells about why. */
	async function explained<T>(waiting: Promise<T>, explain: () => string): Promise<T> {
		try {
			return await waiting;
		} catch (error) {
			throw new Error(`${(error as Error).message}\n${explain()}`);
		}
	}

	function workerThatRan(executionId: string): number {
		return stack.workers.findIndex((worker) =>
			worker.logs().includes(`Worker started execution ${executionId} `),
		);
	}

	/**
	 * The stopped stack started again on its database and folders, behind the same proxy (the
	 * same public address) or, with `sameAddress: false`, a new one.
	 */
	async function startAgain(options: { sameAddress: boolean }): Promise<QueueStack> {
		return await stack.startAgain({ newAddress: !options.sameAddress });
	}

	/** An existing job's payload (opening a job would deliver one more Job Update). */
	async function existingJob(): Promise<Record<string, unknown>> {
		const [someJob] = await listJobs(sandbox);
		return await callSandbox<Record<string, unknown>>(
			sandbox,
			'GET',
			`/api/v3/Job/${someJob.Number}`,
			undefined,
			sandbox.key,
		);
	}

	async function post(url: string, body: unknown): Promise<number> {
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
			signal: AbortSignal.timeout(60_000),
		});
		await response.arrayBuffer();
		return response.status;
	}

	/**
	 * A marker that changes nothing at Trio and asks it nothing: a Job Update under a fresh number,
	 * sent to the workflow's active registration (through the proxy, so a webhook process takes it
	 * and a worker runs it; its payload is not a whole job, which only adds a validation note).
	 */
	function jobUpdateMarker(workflow: TriggerWorkflow): () => Promise<number> {
		return async () => {
			const [registration] = (await activeOf(workflow)).filter((each) =>
				each.Events.includes('Job Update'),
			);
			const number = 700_000 + Math.floor(Math.random() * 100_000);
			expect(await post(registration.Url, { Number: number })).toBe(200);
			return number;
		};
	}

	// -------------------------------------------------------------- 1: activation in main

	test('1. activation in main registers each of the 15 events once; deactivation leaves none active; reactivation reuses them', async () => {
		const all = await createTrigger('All events (queue)', { events: [...TRIO_EVENT_NAMES] });
		await activate(all.id);
		const first = await activeOf(all);
		expect(first.map((registration) => registration.Events[0]).sort()).toEqual(
			[...TRIO_EVENT_NAMES].sort(),
		);
		expect(first.every((registration) => registration.Url.startsWith(`${all.url}?`))).toBe(true);
		expect(new Set(first.map(tokenOf)).size).toBe(1);
		await deactivate(all.id);
		expect(await activeOf(all)).toEqual([]);

		await activate(all.id);
		const again = await activeOf(all);
		expect(again.map((registration) => registration.Id).sort()).toEqual(
			first.map((registration) => registration.Id).sort(),
		);
		// Reused, not piled up.
		expect(await registrationsOf(all)).toHaveLength(15);
		await deactivate(all.id);
	});

	// -------------------------------------------------------------- 2: deliveries on either processor

	test('2. deliveries landing on either webhook processor are accepted with the token and refused without it; each accepted one is one execution on a worker', async () => {
		const jobs = await createTrigger('Jobs (queue)', { events: ['Job Update'] });
		await activate(jobs.id);
		const [registration] = await activeOf(jobs);
		const token = tokenOf(registration);

		// Refused without the right token, on each webhook process directly.
		for (const webhook of stack.webhooks) {
			const direct = `${webhook.baseUrl}/webhook/${jobs.webhookId}/webhook`;
			expect(await post(`${direct}?event=Job%20Update`, { Number: 1 })).toBe(403);
			expect(
				await post(`${direct}?event=Job%20Update&token=${'0'.repeat(64)}`, { Number: 1 }),
			).toBe(403);
		}

		sandbox.clearDeliveries();
		stack.proxy.resetCounts();
		const count = 6;
		for (let index = 0; index < count; index++) await openJob();
		await sandbox.idle();
		const deliveries = sandbox.deliveries().filter((each) => each.url.startsWith(`${jobs.url}?`));
		expect(deliveries.map((each) => each.status)).toEqual(new Array(count).fill(200));
		// The proxy spread them over both webhook processes.
		const counts = stack.proxy.counts();
		for (const webhook of stack.webhooks) {
			expect(counts[webhook.baseUrl] ?? 0).toBeGreaterThan(0);
		}

		const executions = await finishedExecutions(jobs, count);
		const all = await executionsBeforeMarker(jobs.id);
		expect(all).toHaveLength(count);
		expect(all.every((execution) => execution.status === 'success')).toBe(true);
		expect(all.every((execution) => execution.mode === 'webhook')).toBe(true);
		for (const execution of executions) {
			expect(workerThatRan(execution.id)).toBeGreaterThanOrEqual(0);
		}
		// Each accepted delivery's payload is in exactly one execution.
		const numbers = (
			await Promise.all(executions.map((execution) => main().getExecution(execution.id)))
		)
			.flatMap(itemsOf)
			.map((item) => item.Number)
			.sort();
		expect(numbers).toEqual(deliveries.map((each) => each.body.Number).sort());
		expect(token).toMatch(/^[0-9a-f]{64}$/);
		await deactivate(jobs.id);
	});

	// -------------------------------------------------------------- facts about n8n itself (probe node)

	interface ProbeWorkflow {
		id: string;
		url: string;
	}
	let probe: ProbeWorkflow | undefined;

	async function probeData(workflowId: string): Promise<ProbeStaticData> {
		const workflow = await main().rest<{ staticData?: Record<string, ProbeStaticData> }>(
			'GET',
			`/workflows/${workflowId}`,
		);
		return workflow.staticData?.['node:Static Probe'] ?? {};
	}

	test('facts: trigger methods run in main only; webhook processes read static data fresh per request and save what webhook() changes', async () => {
		const webhookId = randomUUID();
		const record = await main().createWorkflow({
			name: 'Static probe (queue)',
			nodes: [
				{
					id: randomUUID(),
					name: 'Static Probe',
					type: PROBE_NODE_TYPE,
					typeVersion: 1,
					position: [0, 0],
					webhookId,
					parameters: {},
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		});
		probe = { id: record.id, url: stack.productionWebhookUrl(webhookId, 'probe') };
		await activate(probe.id);
		const activated = await probeData(probe.id);
		expect(activated).toMatchObject({ checkExists: 1, created: 1, createPid: stack.main.pid });
		expect(activated.createdUrl).toBe(probe.url);

		const hit = async (): Promise<{ seen: number; pid: number }> => {
			const response = await fetch(probe!.url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: '{}',
				signal: AbortSignal.timeout(30_000),
			});
			return (await response.json()) as { seen: number; pid: number };
		};

		// One after another through the proxy (alternating processes), each sent once the previous
		// call's change is in the database: every call reads the latest save, whichever process made it.
		const answers: Array<{ seen: number; pid: number }> = [];
		for (let index = 0; index < 6; index++) {
			answers.push(await hit());
			const saved = await pollUntil(
				() => probeData(probe!.id),
				(data) => data.count === index + 1,
				15_000,
				50,
			);
			expect(saved.count).toBe(index + 1);
		}
		const webhookPids = stack.webhooks.map((webhook) => webhook.pid);
		expect(answers.map((answer) => answer.seen)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(new Set(answers.map((answer) => answer.pid))).toEqual(new Set(webhookPids));

		// Back to back: n8n answers before it saves, so the next call may read the previous value.
		const backToBack: number[] = [];
		for (let index = 0; index < 6; index++) backToBack.push((await hit()).seen);
		// Their saves come after the answers: the next round starts once one of them is in.
		await pollUntil(
			() => probeData(probe!.id),
			(data) => (data.count ?? 0) > 6,
			15_000,
			50,
		);

		// At the same time: every call reads, changes and rewrites the whole static data.
		const concurrent = await Promise.all(
			Array.from({ length: 10 }, async () => (await hit()).seen),
		);
		const after = await probeData(probe.id);
		note(
			`probe: waiting for each save, reads ${JSON.stringify(answers.map((answer) => answer.seen))}; back to back, reads ${JSON.stringify(backToBack)}; then 10 concurrent calls read ${JSON.stringify(concurrent.sort((a, b) => a - b))} and left count ${after.count} (22 if no update were lost)`,
		);
		expect(after.count).toBeGreaterThanOrEqual(7);
		expect(after.count).toBeLessThanOrEqual(22);
		// Still only main's activation ran.
		expect(after).toMatchObject({ checkExists: 1, created: 1, createPid: stack.main.pid });
	});

	test("facts: n8n's Remove Duplicates node keeps its memory in PostgreSQL, shared by the workers", async () => {
		const webhookPath = `dedupe-${randomUUID()}`;
		const record = await main().createWorkflow({
			name: 'Remove Duplicates (queue)',
			nodes: [
				answeringWebhook('Hook', webhookPath, 'onReceived'),
				dedupeOn('={{ $json.body.id }}'),
			],
			connections: { Hook: { main: [[{ node: 'Remove Duplicates', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		});
		await activate(record.id);
		const url = stack.productionWebhookUrl('', webhookPath);
		const kept = async (execution: ExecutionRecord) => {
			return keptBy(await main().getExecution(execution.id)).length;
		};
		let expected = 0;
		const send = async (id: string) => {
			expect(await post(url, { id })).toBe(200);
			expected += 1;
			return (await main().waitForExecutions(record.id, expected, EXECUTION_TIMEOUT_MS)).at(-1)!;
		};
		const first = await send('a');
		const again = await send('a');
		const other = await send('b');
		expect([await kept(first), await kept(again), await kept(other)]).toEqual([1, 0, 1]);
		// The same new value four times at once: how many executions let it through?
		const statuses = await Promise.all(Array.from({ length: 4 }, () => post(url, { id: 'c' })));
		expect(statuses).toEqual([200, 200, 200, 200]);
		expected += 4;
		const all = await main().waitForExecutions(record.id, expected, EXECUTION_TIMEOUT_MS);
		const concurrentKept = await Promise.all(all.slice(-4).map(kept));
		const ranOn = all.map((execution) => workerThatRan(execution.id));
		const rows = await run(
			'psql',
			[
				'-h',
				postgres.host,
				'-p',
				String(postgres.port),
				'-U',
				postgres.user,
				'-d',
				stack.database,
				'-At',
				'-c',
				`SELECT context, value FROM processed_data WHERE "workflowId" = '${record.id}'`,
			],
			{ timeoutMs: 30_000 },
		);
		note(
			`Remove Duplicates: sequential a,a,b kept 1,0,1; four concurrent 'c' kept ${JSON.stringify(concurrentKept)} (statuses ${JSON.stringify(statuses)}); executions ran on workers ${JSON.stringify(ranOn)}; processed_data: ${rows.stdout.trim().slice(0, 300)} ${rows.code === 0 ? '' : rows.output.slice(0, 300)}`,
		);
		expect(concurrentKept.reduce((sum, each) => sum + each, 0)).toBeGreaterThanOrEqual(1);
		await deactivate(record.id);
	});

	test('2b. the very first delivery, sent the moment the registration exists, is accepted by a webhook processor', async () => {
		// Two events; the service answers each registration slowly, so the first registration is
		// live at Trio while main is still registering the second and has saved nothing yet.
		const early = await createTrigger('Early delivery (queue)', {
			events: ['Job Update', 'Per Diem Shift Opened'],
		});
		sandbox.setFaults({ endpoints: { 'POST /api/v3/Webhooks': { latencyMs: 1500 } } });
		sandbox.clearDeliveries();
		const logLengths = stack.webhooks.map((webhook) => webhook.logs().length);
		const activated = Date.now();
		await main().activate(early.id);
		const live = await pollUntil(
			() => activeOf(early),
			(list) => list.some((registration) => registration.Events.includes('Job Update')),
			30_000,
			20,
		);
		const liveAfterMs = Date.now() - activated;
		expect(live.length).toBeGreaterThan(0);
		const job = await openJob();
		await sandbox.idle();
		// When does the token reach the database, where webhook processes read it?
		const saved = await pollUntil(
			() => main().rest<{ staticData?: unknown }>('GET', `/workflows/${early.id}`),
			(workflow) => JSON.stringify(workflow.staticData ?? {}).includes('"production"'),
			30_000,
			20,
		);
		const savedAfterMs = Date.now() - activated;
		const tokenSaved = JSON.stringify(saved.staticData ?? {}).includes('"production"');
		const first = sandbox
			.deliveries()
			.find((each) => each.url.startsWith(`${early.url}?`) && each.body.Number === job.Number);
		const status = await settle(early.id);
		// Evidence for the trigger's design: what the webhook processes said.
		const refusals = stack.webhooks
			.map((webhook, index) => webhook.logs().slice(logLengths[index]))
			.join('\n')
			.split('\n')
			.filter((line) => line.includes('Trio VMS Trigger refused'));
		note(
			`first delivery after activation: registration live at Trio ${liveAfterMs} ms after activate, delivery answered ${first?.status}, token in the database (static data) ${tokenSaved ? `${savedAfterMs} ms` : 'never (30 s)'} after activate; publication ${status.status}; webhook-process refusals: ${JSON.stringify(refusals)}`,
		);
		sandbox.clearFaults();
		await deactivate(early.id);
		expect(first?.status).toBe(200);
	});

	// -------------------------------------------------------------- 3: duplicates across processors

	test("3. the sandbox's duplicate deliveries, landing on different webhook processors, pass Remove Duplicates keyed on deliveryKey once each, unless its runs overlap", async () => {
		const once = await createTrigger('Once (queue)', { events: ['Job Update'] }, { dedupe: true });
		await activate(once.id);
		sandbox.clearDeliveries();
		stack.proxy.resetCounts();
		sandbox.setFaults({ duplicates: 1 });
		const count = 4;
		// One event at a time, so the two copies of a delivery are consecutive requests at the proxy.
		for (let index = 0; index < count; index++) {
			await openJob();
			await sandbox.idle();
		}
		const deliveries = sandbox.deliveries().filter((each) => each.url.startsWith(`${once.url}?`));
		expect(deliveries).toHaveLength(count * 2);
		expect(deliveries.every((each) => each.status === 200)).toBe(true);
		// The copies of one delivery follow each other, so round robin sends them to different processes.
		for (const webhook of stack.webhooks) {
			expect(stack.proxy.counts()[webhook.baseUrl]).toBe(count);
		}
		await finishedExecutions(once, count);
		const details = await executionsBeforeMarker(once.id);
		const all = details;
		const passed = details.flatMap(keptBy);
		await deactivate(once.id);
		// The process memory cannot see the other process's copy; the database-backed step can,
		// unless runs overlap: n8n keeps one list per workflow and node, read and then rewritten
		// whole without a lock, so a run that overlaps another can overwrite a key it just added.
		const runs = details.flatMap(
			(execution) =>
				(execution.data?.resultData.runData[DEDUPE_NAME] ?? []) as unknown as Array<{
					startTime: number;
					executionTime: number;
				}>,
		);
		const overlaps = runs.some((run, index) =>
			runs.some(
				(other, otherIndex) =>
					otherIndex !== index &&
					run.startTime <= other.startTime &&
					other.startTime <= run.startTime + run.executionTime,
			),
		);
		const passedKeys = passed.map((item) => item.deliveryKey);
		note(
			`duplicates across processors: ${deliveries.length} deliveries -> ${all.length} executions, ${passed.length} passed Remove Duplicates on deliveryKey; Remove Duplicates runs overlapped: ${overlaps}`,
		);
		// Every delivery passes; a copy passes as well only when runs overlapped.
		expect(new Set(passedKeys).size).toBe(count);
		if (!overlaps) expect(passedKeys).toHaveLength(count);
	});

	// -------------------------------------------------------------- 4: volume

	describe(`4. ${BULK_DELIVERIES} deliveries over both processors with 10% duplicates`, () => {
		let bulk: TriggerWorkflow;
		let unique: number[] = [];
		let executionNumbers: number[] = [];

		test('none is lost: every unique delivery is answered 200 and runs', async () => {
			bulk = await createTrigger('Bulk (queue)', { events: ['Job Update'] }, { dedupe: true });
			await activate(bulk.id);
			const [registration] = await activeOf(bulk);
			const url = registration.Url;
			const template = await existingJob();
			const duplicates = Math.round(BULK_DELIVERIES / 10);
			unique = Array.from({ length: BULK_DELIVERIES - duplicates }, (_, index) => 800_000 + index);
			// Every 9th unique delivery is sent again right after its answer, as a redelivery would be.
			const plan = unique.map((number, index) => ({
				number,
				copies: index % 9 === 0 && index / 9 < duplicates ? 2 : 1,
			}));
			expect(plan.reduce((sum, each) => sum + each.copies, 0)).toBe(BULK_DELIVERIES);
			stack.proxy.resetCounts();
			const started = Date.now();
			const statuses = (
				await mapWithLimit(plan, BULK_CONCURRENCY, async ({ number, copies }) => {
					const answers: number[] = [];
					for (let copy = 0; copy < copies; copy++) {
						answers.push(await post(url, { ...template, Number: number }));
					}
					return answers;
				})
			).flat();
			note(
				`bulk: ${statuses.length} deliveries answered in ${(Date.now() - started) / 1000} s; per processor ${JSON.stringify(stack.proxy.counts())}`,
			);
			expect(statuses).toEqual(new Array(BULK_DELIVERIES).fill(200));

			const executions = await main().waitForExecutions(
				bulk.id,
				unique.length,
				Math.max(EXECUTION_TIMEOUT_MS, BULK_DELIVERIES * 600),
			);
			const details = await executionsBeforeMarker(bulk.id);
			const all = details;
			note(
				`bulk: ${all.length} executions for ${unique.length} unique deliveries, all finished ${(Date.now() - started) / 1000} s after the first`,
			);
			expect(executions.every((execution) => execution.status === 'success')).toBe(true);
			expect(
				[...new Set(details.flatMap(itemsOf).map((item) => Number(item.Number)))].sort(),
			).toEqual([...unique].sort());
			executionNumbers = details.flatMap(keptBy).map((item) => Number(item.Number));
			note(
				`bulk: ${all.length} executions started, ${executionNumbers.length} deliveries passed Remove Duplicates on deliveryKey, for ${unique.length} unique`,
			);
		}, 600_000);

		test('and what passes Remove Duplicates on deliveryKey covers every unique delivery (copies counted)', async () => {
			try {
				expect(executionNumbers.length).toBeGreaterThan(0);
				const doubled = executionNumbers.length - new Set(executionNumbers).size;
				note(
					`bulk: ${doubled} of ${BULK_DELIVERIES - unique.length} copies passed Remove Duplicates as well (overlapping executions)`,
				);
				expect([...new Set(executionNumbers)].sort()).toEqual([...unique].sort());
			} finally {
				await deactivate(bulk.id).catch(() => undefined);
			}
		});
	});

	// -------------------------------------------------------------- 4b: a URI-hashing balancer

	test(`4b. behind a balancer that hashes the request URI, ${BULK_DELIVERIES} deliveries over both processors with 10% duplicates start exactly one execution per unique delivery`, async () => {
		// The documented deployment for "at most one execution": every copy of a delivery has the
		// same URI, so it reaches the process whose memory has seen the first.
		const sticky = await startRoundRobinProxy(
			stack.webhooks.map((each) => each.baseUrl),
			0,
			'uri-hash',
		);
		// Every event that arrives as one item; each registration's URI hashes to one process.
		const events = TRIO_EVENT_NAMES.filter((event) => !TRIO_EVENTS[event].batched);
		const once = await createTrigger('Bulk behind a URI hash', { events });
		try {
			await activate(once.id);
			const registrations = await activeOf(once);
			const urlOf = (event: string) => {
				const registration = registrations.find((each) => each.Events.includes(event));
				if (!registration) throw new Error(`no registration for ${event}`);
				return registration.Url.replace(stack.proxy.url, sticky.url);
			};
			const uriOf = (event: string) => {
				const url = new URL(urlOf(event));
				return `${url.pathname}${url.search}`;
			};
			// One event per process, so the deliveries spread over both (13 events: all on one
			// process has a chance of 1 in 4,096).
			const chosen = stack.webhooks.map(
				(webhook) =>
					events.find((event) => sticky.backendFor(uriOf(event)) === webhook.baseUrl) ?? '',
			);
			expect(chosen.every(Boolean)).toBe(true);
			const job = await existingJob();
			const bodyOf = (event: string, number: number) =>
				event === 'Job Update'
					? { ...job, Number: number }
					: { Number: number, JobNumber: job.Number, CandidateNumber: 5001 };
			const duplicates = Math.round(BULK_DELIVERIES / 10);
			const plan = Array.from({ length: BULK_DELIVERIES - duplicates }, (_, index) => ({
				number: 700_000 + index,
				event: chosen[index % chosen.length],
				copies: index % 9 === 0 && index / 9 < duplicates ? 2 : 1,
			}));
			expect(plan.reduce((sum, each) => sum + each.copies, 0)).toBe(BULK_DELIVERIES);
			const started = Date.now();
			const statuses = (
				await mapWithLimit(plan, BULK_CONCURRENCY, async ({ number, event, copies }) => {
					const answers: number[] = [];
					for (let copy = 0; copy < copies; copy++)
						answers.push(await post(urlOf(event), bodyOf(event, number)));
					return answers;
				})
			).flat();
			expect(statuses).toEqual(new Array(BULK_DELIVERIES).fill(200));
			await main().waitForExecutions(
				once.id,
				plan.length,
				Math.max(EXECUTION_TIMEOUT_MS, BULK_DELIVERIES * 600),
			);
			// Anything a copy started shows up before the execution of one more delivery sent after.
			const markerNumber = 699_999;
			const details = await executionsBeforeMarker(once.id, async () => {
				expect(await post(urlOf(chosen[0]), bodyOf(chosen[0], markerNumber))).toBe(200);
				return markerNumber;
			});
			const all = details;
			note(
				`URI-hash balancer: ${BULK_DELIVERIES} deliveries (${duplicates} copies) -> ${all.length} executions for ${plan.length} unique in ${(Date.now() - started) / 1000} s; per processor ${JSON.stringify(sticky.counts())}`,
			);
			for (const webhook of stack.webhooks)
				expect(sticky.counts()[webhook.baseUrl]).toBeGreaterThan(0);
			expect(all).toHaveLength(plan.length);
			expect(
				details
					.flatMap(itemsOf)
					.map((item) => Number(item.Number))
					.sort(),
			).toEqual(plan.map((each) => each.number).sort());
		} finally {
			await deactivate(once.id).catch(() => undefined);
			await sticky.stop();
		}
	}, 600_000);

	// -------------------------------------------------------------- 5: binary through a worker

	test('5. Submission Create with a 2.4 MB profile file from a previous node runs on a worker and reaches Trio whole', async () => {
		const jobsList = await listJobs(sandbox);
		const job = jobsList.find((each) => each.JobStatus === 'Open') ?? jobsList[0];
		const candidates = await callSandbox<Array<{ number: number }>>(
			sandbox,
			'GET',
			'/_sandbox/candidates',
		);
		// 2.4 MB as Trio counts (its limit is 2,500,000 bytes).
		// A PDF on the outside (the node checks the signature), incompressible bytes inside.
		const head = Buffer.from('%PDF-1.7\n', 'latin1');
		const tail = Buffer.from('\n%%EOF\n', 'latin1');
		const content = Buffer.concat([head, randomBytes(2_400_000 - head.length - tail.length), tail]);
		const fileName = 'Profile of a traveler.pdf';
		const trioCredentials = { trioVmsApi: credential };
		const run = await runWebhookWorkflow(
			main(),
			[
				{
					name: 'Make File',
					type: 'n8n-nodes-base.convertToFile',
					typeVersion: 1.1,
					parameters: {
						operation: 'toBinary',
						sourceProperty: 'content',
						binaryPropertyName: 'data',
						options: { dataIsBase64: true, fileName, mimeType: 'application/pdf' },
					},
				},
				{
					name: 'Submit',
					type: ACTION_TYPE,
					typeVersion: 1,
					credentials: trioCredentials,
					parameters: {
						resource: 'submission',
						operation: 'create',
						job: { __rl: true, mode: 'number', value: String(job.Number) },
						candidateNumber: String(candidates[0].number),
						binaryPropertyName: 'data',
						additionalFields: { billRateAmount: 81.25 },
						options: {},
					},
				},
			],
			{ 'Make File': { main: [[{ node: 'Submit', type: 'main', index: 0 }]] } },
			{ inputItems: [{ content: content.toString('base64') }], keepExecution: true },
		);
		expect(run.failure).toBeUndefined();
		expect(run.status).toBe(200);
		const [submission] = run.items;
		expect(submission).toEqual(
			expect.objectContaining({ Status: 'Submitted', JobNumber: job.Number }),
		);
		expect(run.execution && workerThatRan(run.execution.id)).toBeGreaterThanOrEqual(0);
		const file = await callSandbox<{
			filename: string;
			size: number;
			sha256: string;
			contentType: string;
		}>(sandbox, 'GET', `/_sandbox/submissions/${String(submission.Number)}/file`);
		expect(file).toEqual(
			expect.objectContaining({
				filename: fileName,
				size: content.length,
				sha256: createHash('sha256').update(content).digest('hex'),
			}),
		);
	});

	// -------------------------------------------------------------- 9: two workflows, one credential

	let pair: TriggerWorkflow[] = [];

	test('9. two workflows with the same credential never deactivate or replace each other', async () => {
		pair = [
			await createTrigger('Pair A (queue)', { events: ['Job Update', 'Per Diem Shift Opened'] }),
			await createTrigger('Pair B (queue)', { events: ['Job Update', 'Submission Update'] }),
		];
		const [a, b] = pair;
		await activate(a.id);
		await activate(b.id);
		const bBefore = await activeOf(b);
		expect(bBefore).toHaveLength(2);
		expect(await activeOf(a)).toHaveLength(2);

		await deactivate(a.id);
		expect(await activeOf(a)).toEqual([]);
		expect(await activeOf(b)).toEqual(bBefore);
		await activate(a.id);
		expect(await activeOf(b)).toEqual(bBefore);
		expect(await registrationsOf(a)).toHaveLength(2);

		sandbox.clearDeliveries();
		const job = await openJob();
		for (const workflow of pair) {
			const [execution] = await finishedExecutions(workflow, 1);
			const [item] = itemsOf(await main().getExecution(execution.id));
			expect(item).toMatchObject({ event: 'Job Update', Number: job.Number });
		}
		// Both stay active for the restart tests below.
	});

	// -------------------------------------------------------------- 7: restart of every process

	// -------------------------------------------------------------- 6: the Sync Trigger

	test('6. the Sync Trigger polls once, in main only, and its state survives a restart of every process', async () => {
		const workflow = await main().createWorkflow(jobSyncWorkflow('Job sync (queue)', credential));
		const polls = () =>
			sandbox.requests().filter((each) => each.method === 'GET' && each.path === '/api/v3/Job')
				.length;
		sandbox.clearRequests();
		try {
			const publishing = Date.now();
			await activate(workflow.id);
			const published = Date.now() - publishing;
			const [first] = await explained(
				main().waitForExecutions(workflow.id, 1, EXECUTION_TIMEOUT_MS),
				() =>
					`published in ${published} ms; ${polls()} job list request(s); what n8n logged of this workflow or of errors:\n${logLinesAbout(workflow.id)}`,
			);
			note(
				`Sync Trigger: published in ${published} ms, its first execution finished ${Date.now() - publishing} ms after Publish`,
			);
			// Any other process polling would show as more calls and more executions. A later delivery,
			// through a webhook process to a worker, whose execution main has recorded: by then every
			// process has done work after the activation, and the counts are still one.
			await executionsBeforeMarker(pair[0].id, jobUpdateMarker(pair[0]));
			expect(await main().listExecutions(workflow.id)).toHaveLength(1);
			expect(polls()).toBe(1);
			const listed = await listJobs(sandbox);
			expect(syncItems(await main().getExecution(first.id))).toHaveLength(listed.length);

			await stack.stopProcesses();
			// A change while n8n is down: after the restart only it may come out.
			const changed = listed.find((job) => job.JobStatus === 'Open') ?? listed[0];
			await callSandbox(sandbox, 'PATCH', `/_sandbox/jobs/${changed.Number}`, {
				Title: 'Charge RN - Step-Down (queue restart)',
			});
			sandbox.clearRequests();
			stack = await startAgain({ sameAddress: true });
			const executions = await explained(
				main().waitForExecutions(workflow.id, 2, EXECUTION_TIMEOUT_MS),
				() =>
					`${polls()} job list request(s) after the restart; what n8n logged of this workflow or of errors:\n${logLinesAbout(workflow.id)}`,
			);
			// The same marker after the restart: every process is up and has done work.
			await executionsBeforeMarker(pair[0].id, jobUpdateMarker(pair[0]));
			note(
				`Sync Trigger: ${polls()} poll(s) after the restart, ${(await main().listExecutions(workflow.id)).length} executions in all`,
			);
			expect(polls()).toBe(1);
			const latest = executions[executions.length - 1];
			expect(
				syncItems(await main().getExecution(latest.id)).map((item) => [item.Number, item.change]),
			).toEqual([[changed.Number, 'updated']]);
		} finally {
			await deactivate(workflow.id).catch(() => undefined);
		}
	}, 300_000);

	// -------------------------------------------------------------- 7: restarts

	test('7. after a restart of every process the active workflows keep receiving, nothing is registered twice, the state survives', async () => {
		expect(pair).toHaveLength(2);
		const before = await Promise.all(pair.map((workflow) => registrationsOf(workflow)));
		const totalBefore = (await registrations()).length;
		const staticBefore = await Promise.all(
			pair.map((workflow) =>
				main().rest<{ staticData?: unknown }>('GET', `/workflows/${workflow.id}`),
			),
		);

		const restartStarted = Date.now();
		const stopped = await stack.stopProcesses();
		stack = await startAgain({ sameAddress: true });
		note(
			`restart of every process: ${(Date.now() - restartStarted) / 1000} s (stops ${JSON.stringify(stopped)} s, start ${JSON.stringify(stack.timings)} s)`,
		);

		// Both keep receiving: a job opened now reaches each workflow once and runs. Those runs are
		// also the marker for what follows: by then main has started up and published, so anything
		// it would register again on start-up is registered, and nothing is.
		sandbox.clearDeliveries();
		const job = await openJob();
		for (const workflow of pair) await executionsBeforeMarker(workflow.id, async () => job.Number);
		await sandbox.idle();
		expect(sandbox.deliveries().map((each) => each.status)).toEqual([200, 200]);

		expect((await registrations()).length).toBe(totalBefore);
		const after = await Promise.all(pair.map((workflow) => registrationsOf(workflow)));
		expect(after).toEqual(before);
		const staticAfter = await Promise.all(
			pair.map((workflow) =>
				main().rest<{ staticData?: unknown }>('GET', `/workflows/${workflow.id}`),
			),
		);
		expect(staticAfter.map((each) => each.staticData)).toEqual(
			staticBefore.map((each) => each.staticData),
		);

		if (probe) {
			// Nothing called checkExists or create again on start-up.
			const data = await probeData(probe.id);
			note(`probe after restart: ${JSON.stringify(data)}`);
			expect(data).toMatchObject({ checkExists: 1, created: 1 });
		}
	});

	// -------------------------------------------------------------- 8: WEBHOOK_URL changes

	test("8. after n8n's public webhook address changes and everything restarts, one deactivate and activate moves the registrations and leaves none active at the old address", async () => {
		expect(pair).toHaveLength(2);
		const oldProxy = stack.proxy;
		await stack.stopProcesses();
		stack = await startAgain({ sameAddress: false });
		extraStops.push(() => oldProxy.stop());
		expect(stack.proxy.url).not.toBe(oldProxy.url);
		// The old address still reaches this n8n (the old name kept pointing at its load balancer):
		// the trigger recognises its own answer there. Were nothing to answer, it would act as a
		// copy and leave the old registrations alone (issue 22, point 3; see the engine tests).
		oldProxy.setTargets([stack.proxy.url]);
		for (const workflow of pair) {
			workflow.url = stack.productionWebhookUrl(workflow.webhookId, 'webhook');
		}
		// n8n 2.41 runs no trigger method at restart (it keys stored webhooks by method and path,
		// which do not hold the address): nothing can move them by itself, as the docs say.
		const untouched = (await Promise.all(pair.map((workflow) => activeOf(workflow)))).flat();
		expect(untouched.every((registration) => registration.Url.startsWith(oldProxy.url))).toBe(true);
		if (probe) {
			note(`probe after the address change: ${JSON.stringify(await probeData(probe.id))}`);
		}
		// The documented repair: deactivate and activate each workflow once.
		for (const workflow of pair) {
			await deactivate(workflow.id);
			await activate(workflow.id);
		}
		const moved = (await Promise.all(pair.map((workflow) => activeOf(workflow)))).flat();
		const stale = (await registrations()).filter(
			(registration) => registration.IsActive && registration.Url.startsWith(oldProxy.url),
		);
		note(
			`after the address change and one deactivate/activate: ${moved.filter((registration) => registration.Url.startsWith(stack.proxy.url)).length}/4 active at the new address, ${stale.length} still active at the old one`,
		);
		expect(stale).toEqual([]);
		expect(moved.map((registration) => registration.Url.startsWith(stack.proxy.url))).toEqual([
			true,
			true,
			true,
			true,
		]);
		sandbox.clearDeliveries();
		await openJob();
		await sandbox.idle();
		expect(sandbox.deliveries().map((each) => each.status)).toEqual([200, 200]);
	});

	test('deactivating every workflow leaves no active registration behind', async () => {
		for (const workflow of pair) await deactivate(workflow.id).catch(() => undefined);
		if (probe) await deactivate(probe.id).catch(() => undefined);
		const active = (await registrations()).filter((registration) => registration.IsActive);
		expect(active).toEqual([]);
	});

	// -------------------------------------------------------------- single process on PostgreSQL

	test('regular (single-process) n8n on PostgreSQL: activation, a delivery, a duplicate, deactivation', async () => {
		const single = await startN8nOnPostgres({ tarball, postgres, database: 'single' });
		extraStops.push(() => single.stop());
		const created = await createTrioCredential(single, 'Trio sandbox (admin)', sandbox);
		const webhookId = randomUUID();
		const workflow = await single.createWorkflow(
			triggerWorkflow('Single on PostgreSQL', webhookId, { events: ['Job Update'] }, created),
		);
		const url = single.productionWebhookUrl(webhookId, 'webhook');
		const activeAtUrl = async () =>
			(await registrations()).filter(
				(registration) => registration.IsActive && registration.Url.startsWith(`${url}?`),
			);
		await single.activate(workflow.id);
		const registered = await pollUntil(activeAtUrl, (list) => list.length === 1, 30_000);
		expect(registered).toHaveLength(1);
		// Static data must be saved before the deliveries; wait for the publication to settle.
		await settle(workflow.id, single);
		sandbox.setFaults({ duplicates: 1 });
		sandbox.clearDeliveries();
		await openJob();
		await sandbox.idle();
		expect(
			sandbox
				.deliveries()
				.filter((each) => each.url.startsWith(`${url}?`))
				.map((each) => each.status),
		).toEqual([200, 200]);
		await single.waitForExecutions(workflow.id, 1, EXECUTION_TIMEOUT_MS);
		expect(await executionsBeforeMarker(workflow.id, undefined, single)).toHaveLength(1);
		await single.deactivate(workflow.id);
		const left = await pollUntil(activeAtUrl, (list) => list.length === 0, 30_000);
		expect(left).toEqual([]);
	});
});

// ------------------------------------------------------------ the Sync Trigger, durable scheduler

/**
 * The Sync Trigger in queue mode with n8n's durable scheduler and durable cursors (the four
 * variables users turn on): polls claimed from the database by main, executions on a worker, the
 * node's state committed with each execution. Polls every minute, the shortest n8n allows.
 *
 * A stack of its own (main and a worker): with the four variables on the stack above, two of its
 * tests fail for reasons that are not the Sync Trigger's (tried with n8n 2.41.1): 6 waits for the
 * poll n8n runs on start-up, which the durable scheduler does not run (an hourly poll then waits
 * for its hour), and 7 counts the webhook deliveries this test's job changes set off in the shared
 * sandbox.
 */
