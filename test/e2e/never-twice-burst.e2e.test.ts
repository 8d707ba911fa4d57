/**
 * "Never twice" under concurrent executions of one workflow, in real n8n 2.x queue mode
 * (issue 33 point 1): PostgreSQL, Redis, one webhook process, one worker running up to ten
 * executions at once (n8n's default worker concurrency). A webhook-driven submit workflow at its
 * defaults (Skip If Already Submitted on) receives ten executions at once, each with a pair Trio
 * refuses (its job is On Hold) and a good pair; a second workflow with the check off receives ten
 * creates that Trio stores but answers 502. Then every process restarts (a fresh worker), the job
 * reopens, and the same pairs arrive again. Counted, per round:
 * (a) refused pairs submitted when they arrive again (should be all),
 * (b) creates Trio stored before answering 502, stored again (should be none).
 * TRIO_PG_DELAY_MS puts a TCP proxy between n8n and PostgreSQL that delays every chunk that long
 * each way (a managed database across a network); TRIO_BURST_WORKERS runs that many queue-mode
 * workers (default 1), so the executions of a burst share n8n's database from several processes. Figures go to stderr as `[burst] ...`.
 *
 * Run `npm run build` first.
 */
import { randomUUID } from 'node:crypto';
import * as net from 'node:net';
import * as path from 'node:path';

import { describeWithN8n } from '../../harness/availability';
import { packPackage, REPO_ROOT } from '../../harness/pack';
import { startQueueStack, type QueueStack } from '../../harness/queue';
import { submitRows, submitRowsWorkflow } from '../../harness/run-workflow';
import { startQueueServices, type Postgres, type QueueServices } from '../../harness/services';
import { createTrioCredential, type CredentialRef } from '../../harness/trio';

const BURST = 10;
const ROUNDS = Number(process.env.TRIO_BURST_ROUNDS || 3);
const PG_DELAY_MS = Number(process.env.TRIO_PG_DELAY_MS || 0);
/** Queue-mode worker processes sharing the executions (issue 39 point 2 measured three). */
const WORKERS = Number(process.env.TRIO_BURST_WORKERS || 1);

interface Sandbox {
	url: string;
	adminKey: string;
	key: string;
	stop(): Promise<void>;
	setFaults(config: object): void;
	clearFaults(): void;
	store: {
		listJobs(): Array<{ Number: number; JobStatus: string }>;
		candidates: Map<number, unknown>;
		submissions: Map<number, { submission: { JobNumber: number; CandidateNumber: number } }>;
		holdJob(number: number): unknown;
		reopenJob(number: number): unknown;
	};
}

function loadStartSandbox(): (options: object) => Promise<Sandbox> {
	type SandboxModule = { startSandbox: (options: object) => Promise<Sandbox> };
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require(path.join(REPO_ROOT, 'sandbox')) as SandboxModule).startSandbox;
}

/** A TCP proxy on 127.0.0.1 that delays every chunk by `delayMs`, each way, in order. */
async function startDelayProxy(
	target: { host: string; port: number },
	delayMs: number,
): Promise<{ port: number; stop(): Promise<void> }> {
	const sockets = new Set<net.Socket>();
	const server = net.createServer((client) => {
		const upstream = net.connect(target.port, target.host);
		for (const socket of [client, upstream]) {
			sockets.add(socket);
			socket.on('close', () => sockets.delete(socket));
			socket.on('error', () => {
				client.destroy();
				upstream.destroy();
			});
		}
		const relay = (from: net.Socket, to: net.Socket) => {
			from.on('data', (chunk) => setTimeout(() => to.write(chunk), delayMs));
			from.on('end', () => setTimeout(() => to.end(), delayMs));
		};
		relay(client, upstream);
		relay(upstream, client);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address() as net.AddressInfo;
	return {
		port: address.port,
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => server.close(resolve));
		},
	};
}

type Pair = { job: number; candidate: number };
type Item = Record<string, unknown>;

describeWithN8n('2.x', 'never twice under concurrent executions, queue mode (n8n 2.x)', () => {
	let sandbox: Sandbox;
	let services: QueueServices | undefined;
	let proxy: { port: number; stop(): Promise<void> } | undefined;
	let database: Postgres;
	let stack: QueueStack;
	let credential: CredentialRef;
	const note = (text: string) => process.stderr.write(`[burst] ${text}\n`);

	beforeAll(async () => {
		sandbox = await loadStartSandbox()({ port: 0, quiet: true, jobs: 60, seed: 33 });
		services = await startQueueServices();
		const { postgres } = services;
		if (PG_DELAY_MS > 0) {
			proxy = await startDelayProxy({ host: postgres.host, port: postgres.port }, PG_DELAY_MS);
			database = { ...postgres, host: '127.0.0.1', port: proxy.port };
		} else database = postgres;
		// Set up on the database directly: n8n's migrations over a delayed link outlast its start.
		stack = await startQueueStack({
			tarball: await packPackage(),
			...services,
			database: 'nevertwiceburst',
			webhookProcesses: 1,
			workers: WORKERS,
		});
		if (PG_DELAY_MS > 0) await restartEverything();
		note(`queue stack ready (${WORKERS} worker(s), database delay ${PG_DELAY_MS} ms each way)`);
		credential = await createTrioCredential(stack.main, 'Trio sandbox (burst)', sandbox);
	}, 900_000);

	afterAll(async () => {
		await stack?.stop();
		await proxy?.stop();
		await services?.stop();
		await sandbox?.stop();
	});

	const stored = (pair: Pair) =>
		[...sandbox.store.submissions.values()].filter(
			(each) =>
				each.submission.JobNumber === pair.job &&
				each.submission.CandidateNumber === pair.candidate,
		).length;

	let used = 0;
	function freshPairs(count: number, job?: number, avoid?: number): Pair[] {
		const open = sandbox.store
			.listJobs()
			.filter((each) => each.JobStatus === 'Open' && each.Number !== avoid);
		const candidates = [...sandbox.store.candidates.keys()];
		const pairs: Pair[] = [];
		while (pairs.length < count) {
			const pair = {
				job: job ?? open[used % open.length].Number,
				candidate: candidates[(used * 7 + 3) % candidates.length],
			};
			used++;
			if (
				stored(pair) === 0 &&
				!pairs.some((each) => each.job === pair.job && each.candidate === pair.candidate)
			)
				pairs.push(pair);
		}
		return pairs;
	}

	const workflows: Array<{ id: string; path: string }> = [];
	async function submitWorkflow(name: string, skipIfAlreadySubmitted: boolean) {
		const webhookPath = `burst-${randomUUID()}`;
		// At its defaults when the check is on: the option is not even set.
		const workflow = await stack.main.createWorkflow(
			submitRowsWorkflow(
				name,
				webhookPath,
				credential,
				skipIfAlreadySubmitted ? {} : { skipIfAlreadySubmitted: false },
			),
		);
		await stack.main.activate(workflow.id);
		workflows.push({ id: workflow.id, path: webhookPath });
		return async (pairs: Pair[]): Promise<Item[]> =>
			await submitRows(stack.main.productionWebhookUrl('', webhookPath), pairs);
	}

	async function restartEverything(): Promise<void> {
		await stack.stopProcesses();
		stack = await stack.startAgain({ postgres: database });
	}

	const actionOf = (item: Item) =>
		String((item._trio as Item | undefined)?.action ?? item.error ?? JSON.stringify(item));

	test(`${ROUNDS} rounds of ten executions at once: refused pairs are submitted when they arrive again, 502-stored creates are stored once`, async () => {
		const submit = await submitWorkflow('Burst: defaults', true);
		const submitCheckOff = await submitWorkflow('Burst: check off', false);
		const totals = { refused: 0, submittedAgain: 0, stored502: 0, storedTwice: 0 };
		for (let round = 1; round <= ROUNDS; round++) {
			const heldJob = sandbox.store.listJobs().find((each) => each.JobStatus === 'Open');
			if (!heldJob) throw new Error('no open job left');
			const refused = freshPairs(BURST, heldJob.Number);
			const good = freshPairs(BURST, undefined, heldJob.Number);
			const failing = freshPairs(BURST, undefined, heldJob.Number);
			sandbox.store.holdJob(heldJob.Number);
			sandbox.setFaults({
				endpoints: {
					'POST /api/v3/Submission': { failAfterHandlerNext: BURST, failStatus: 502 },
				},
			});
			// The 502 burst first, so each of its creates meets the fault; then the refused pairs.
			const burst502 = await Promise.all(failing.map(async (pair) => await submitCheckOff([pair])));
			sandbox.clearFaults();
			const stored502 = failing.filter((pair) => stored(pair) > 0);
			const burst = await Promise.all(
				refused.map(async (pair, n) => await submit([pair, good[n]])),
			);
			note(
				`round ${round} burst: 502 creates ${burst502.map((items) => actionOf(items[0]).slice(0, 40)).join(' | ')}`,
			);
			const refusedNow = burst.filter((items) => !(items[0]._trio as Item | undefined)).length;
			note(
				`round ${round} burst: ${refusedNow} of ${BURST} refused pairs refused by Trio; good pairs ${burst.map((items) => actionOf(items[1]).slice(0, 20)).join(',')}`,
			);

			await restartEverything();
			sandbox.store.reopenJob(heldJob.Number);
			const again = await Promise.all(refused.map(async (pair) => await submit([pair])));
			const againCheckOff = await Promise.all(
				failing.map(async (pair) => await submitCheckOff([pair])),
			);
			const submittedAgain = again.filter(
				(items) => (items[0]._trio as Item | undefined)?.action === 'created',
			).length;
			const storedTwice = stored502.filter((pair) => stored(pair) > 1).length;
			note(
				`round ${round}: (a) refused pairs submitted when they arrived again: ${submittedAgain} of ${BURST} (others: ${again
					.map((items) => actionOf(items[0]))
					.filter((action) => action !== 'created')
					.map((action) => action.slice(0, 60))
					.join(
						' | ',
					)}); (b) 502-stored creates stored twice: ${storedTwice} of ${stored502.length} (re-arrivals: ${againCheckOff.map((items) => actionOf(items[0]).slice(0, 30)).join(' | ')})`,
			);
			totals.refused += BURST;
			totals.submittedAgain += submittedAgain;
			totals.stored502 += stored502.length;
			totals.storedTwice += storedTwice;
		}
		note(
			`total (${WORKERS} worker(s), database delay ${PG_DELAY_MS} ms): (a) ${totals.submittedAgain} of ${totals.refused} refused pairs submitted when they arrived again; (b) ${totals.storedTwice} of ${totals.stored502} 502-stored creates stored twice`,
		);
		expect(totals.submittedAgain).toBe(totals.refused);
		expect(totals.storedTwice).toBe(0);
	}, 3_600_000);
});
