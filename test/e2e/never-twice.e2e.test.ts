/**
 * "Never twice" in real n8n 2.x queue mode (issue 27 point 2): PostgreSQL, Redis, a main process,
 * one webhook process and two workers. Submission Create remembers its creates in n8n's duplicate
 * store (the database), so:
 * - a create that Trio stored but answered 504 is refused when the workflow runs again on the
 *   other worker, and again after a restart of every process: Trio stores it once;
 * - so are creates whose 502 came dated 1970 or an hour ahead (a gateway with a wrong clock),
 *   arriving again after a restart behind another row (issue 39 point 1);
 * - a sheet of rows run twice, the second time on the other worker while Trio's submission list
 *   is not offered, submits each row once: the second run says it cannot check, and sends nothing
 *   (the memory in n8n's database only refuses; "already submitted" comes only from Trio).
 * The sandbox counts what it stores. Figures go to stderr as `[never-twice] ...`.
 *
 * Run `npm run build` first.
 */
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';

import { describeWithN8n } from '../../harness/availability';
import type { N8nInstance } from '../../harness/n8n';
import { packPackage, REPO_ROOT } from '../../harness/pack';
import { startQueueStack, type QueueStack } from '../../harness/queue';
import { submitRows, submitRowsWorkflow } from '../../harness/run-workflow';
import { startQueueServices, type QueueServices } from '../../harness/services';
import { createTrioCredential, type CredentialRef } from '../../harness/trio';

const WORKERS = 2;

interface Sandbox {
	url: string;
	adminKey: string;
	key: string;
	stop(): Promise<void>;
	setFaults(config: {
		dateOffsetMs?: number;
		endpoints?: Record<
			string,
			{ failAfterHandlerNext?: number; failNext?: number; failRate?: number; failStatus?: number }
		>;
	}): void;
	clearFaults(): void;
}

function loadStartSandbox(): (options: object) => Promise<Sandbox> {
	type SandboxModule = { startSandbox: (options: object) => Promise<Sandbox> };
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require(path.join(REPO_ROOT, 'sandbox')) as SandboxModule).startSandbox;
}

async function call<T>(sandbox: Sandbox, urlPath: string, key?: string): Promise<T> {
	const response = await fetch(`${sandbox.url}${urlPath}`, {
		headers: key ? { 'X-API-KEY': key } : {},
		signal: AbortSignal.timeout(30_000),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`GET ${urlPath} -> ${response.status}: ${text}`);
	return JSON.parse(text) as T;
}

type Pair = { job: number; candidate: number };
type Item = Record<string, unknown>;

describeWithN8n('2.x', 'never twice across queue-mode workers and restarts (n8n 2.x)', () => {
	let sandbox: Sandbox;
	let services: QueueServices | undefined;
	let stack: QueueStack;
	let credential: CredentialRef;
	const stopped = new Set<number>();
	const note = (text: string) => process.stderr.write(`[never-twice] ${text}\n`);
	const main = (): N8nInstance => stack.main;

	beforeAll(async () => {
		sandbox = await loadStartSandbox()({ port: 0, quiet: true, jobs: 40, seed: 27 });
		services = await startQueueServices();
		stack = await startQueueStack({
			tarball: await packPackage(),
			...services,
			database: 'nevertwice',
			webhookProcesses: 1,
			workers: WORKERS,
		});
		note(`queue stack ready: ${JSON.stringify(stack.timings)} s`);
		credential = await createTrioCredential(main(), 'Trio sandbox (never twice)', sandbox);
	}, 900_000);

	afterAll(async () => {
		await stack?.stop();
		await services?.stop();
		await sandbox?.stop();
	});

	let used = 0;
	async function freshPairs(count: number): Promise<Pair[]> {
		const jobs = await call<Array<{ Number: number; JobStatus: string }>>(
			sandbox,
			'/api/v3/Job',
			sandbox.key,
		);
		const open = jobs.filter((job) => job.JobStatus === 'Open');
		const candidates = await call<Array<{ number: number }>>(sandbox, '/_sandbox/candidates');
		const pairs: Pair[] = [];
		while (pairs.length < count) {
			const pair = {
				job: open[used % open.length].Number,
				candidate: candidates[(used * 7 + 3) % candidates.length].number,
			};
			used++;
			if ((await storedOf(pair)) === 0) pairs.push(pair);
		}
		return pairs;
	}

	async function storedOf(pair: Pair): Promise<number> {
		const list = await call<Array<{ JobNumber: number; CandidateNumber: number }>>(
			sandbox,
			'/api/v3/Submission',
			sandbox.key,
		);
		return list.filter(
			(each) => each.JobNumber === pair.job && each.CandidateNumber === pair.candidate,
		).length;
	}

	/** Webhook -> rows -> file -> Submission Create, saved and active: one workflow, many runs. */
	async function submitWorkflow(name: string, skipIfAlreadySubmitted: boolean) {
		const webhookPath = `never-twice-${randomUUID()}`;
		const workflow = await main().createWorkflow(
			submitRowsWorkflow(name, webhookPath, credential, { skipIfAlreadySubmitted }),
		);
		await main().activate(workflow.id);
		let runs = 0;
		return {
			id: workflow.id,
			/** One execution over the rows; its items and the worker (index) that ran it. */
			run: async (pairs: Pair[]): Promise<{ items: Item[]; worker: number }> => {
				const items = await submitRows(main().productionWebhookUrl('', webhookPath), pairs);
				runs++;
				const executions = await main().waitForExecutions(workflow.id, runs, 60_000);
				const latest = executions[executions.length - 1].id;
				const worker = stack.workers.findIndex((each) =>
					each.logs().includes(`Worker started execution ${latest} `),
				);
				return { items, worker };
			},
		};
	}

	/** Stops one worker, so the next execution can only run on the other. */
	async function stopWorker(index: number): Promise<void> {
		await stack.workers[index].stop();
		stopped.add(index);
	}

	async function restartEverything(): Promise<void> {
		const started = Date.now();
		await stack.stopProcesses();
		stack = await stack.startAgain();
		stopped.clear();
		note(`restart of every process: ${(Date.now() - started) / 1000} s`);
	}

	const errorOf = (item: Item) => String(item.error ?? '');

	test('a create that Trio stored but answered 504 is refused on the other worker and after a restart: stored once', async () => {
		const [pair] = await freshPairs(1);
		const workflow = await submitWorkflow('Never twice: 504', false);
		sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: 504 } },
		});
		const first = await workflow.run([pair]);
		sandbox.clearFaults();
		note(`504 run on worker ${first.worker + 1}: ${errorOf(first.items[0])}`);
		expect(errorOf(first.items[0])).toMatch(/^Trio VMS failed \(its error, not yours\)/);
		expect(String(first.items[0].details ?? '')).toContain('Status: 504 Gateway Timeout');
		expect(String(first.items[0].details ?? JSON.stringify(first.items[0]))).toContain(
			"memory of it in n8n's database",
		);
		expect(first.worker).toBeGreaterThanOrEqual(0);

		await stopWorker(first.worker);
		const other = await workflow.run([pair]);
		note(`re-run on worker ${other.worker + 1}: ${errorOf(other.items[0])}`);
		expect(other.worker).not.toBe(first.worker);
		expect(other.worker).toBeGreaterThanOrEqual(0);
		expect(errorOf(other.items[0])).toContain(
			'Not sent: this node holds a create of the same submission',
		);

		await restartEverything();
		const afterRestart = await workflow.run([pair]);
		note(
			`after the restart, on worker ${afterRestart.worker + 1}: ${errorOf(afterRestart.items[0])}`,
		);
		expect(errorOf(afterRestart.items[0])).toContain(
			'Not sent: this node holds a create of the same submission',
		);

		const stored = await storedOf(pair);
		note(`504 create: ${stored} submission(s) stored after 3 runs (2 workers, 1 restart)`);
		expect(stored).toBe(1);
	}, 900_000);

	test('creates Trio stored before a 502 dated 1970 or an hour ahead, then a restart, then the same rows behind another: each stored once', async () => {
		const [early, late, other] = await freshPairs(3);
		const workflow = await submitWorkflow('Never twice: wrong clocks', false);
		// The gateway's clock is wrong: its 502 is dated 1970, or an hour ahead.
		for (const [pair, dateOffsetMs] of [
			[early, -Date.now()],
			[late, 3_600_000],
		] as const) {
			sandbox.setFaults({
				dateOffsetMs,
				endpoints: { 'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: 502 } },
			});
			const first = await workflow.run([pair]);
			note(`502 dated ${dateOffsetMs < 0 ? '1970' : 'an hour ahead'}: ${errorOf(first.items[0])}`);
			expect(errorOf(first.items[0])).toMatch(/^Trio VMS failed \(its error, not yours\)/);
			expect(String(first.items[0].details ?? '')).toContain('Status: 502 Bad Gateway');
		}
		sandbox.clearFaults();

		await restartEverything();
		const again = await workflow.run([other, early, late]);
		note(
			`after the restart: ${again.items.map((item) => (item._trio as Item | undefined)?.action ?? errorOf(item)).join(' | ')}`,
		);
		expect((again.items[0]._trio as Item | undefined)?.action).toBe('created');
		for (const item of again.items.slice(1))
			expect(errorOf(item)).toContain('Not sent: this node holds a create of the same submission');
		const stored = await Promise.all([early, late].map(storedOf));
		note(`wrong clocks: submissions stored per held row after a restart ${JSON.stringify(stored)}`);
		expect(stored).toEqual([1, 1]);
	}, 900_000);

	test('a sheet run twice, the second time on the other worker while the list is not offered: each row submitted once', async () => {
		const pairs = await freshPairs(5);
		const workflow = await submitWorkflow('Never twice: sheet', true);
		const first = await workflow.run(pairs);
		note(
			`sheet run 1 on worker ${first.worker + 1}: ${first.items.map((item) => (item._trio as Item | undefined)?.action ?? errorOf(item)).join(', ')}`,
		);
		expect(first.items.map((item) => (item._trio as Item).action)).toEqual(
			pairs.map(() => 'created'),
		);

		await stopWorker(first.worker);
		sandbox.setFaults({
			endpoints: { 'GET /api/v3/Submission': { failRate: 1, failStatus: 404 } },
		});
		const second = await workflow.run(pairs);
		sandbox.clearFaults();
		note(
			`sheet run 2 on worker ${second.worker + 1}: ${second.items.map((item) => (item._trio as Item | undefined)?.action ?? errorOf(item)).join(', ')}`,
		);
		expect(second.worker).not.toBe(first.worker);
		for (const item of second.items)
			expect(errorOf(item)).toContain('Could not check whether candidate');
		const stored = await Promise.all(pairs.map(storedOf));
		note(`sheet: submissions stored per row ${JSON.stringify(stored)}`);
		expect(stored).toEqual(pairs.map(() => 1));
	}, 900_000);
});
