/**
 * `npm run demo` as a user runs it: scripts/demo.ts in a child process (through tsx, as the
 * npm script does), with its own n8n folder and any free sandbox port. Checks what it prints
 * against the running n8n (editor, login, credential and examples through the public API),
 * then stops it the way Ctrl-C does and requires a clean exit with no process left behind.
 * A second, non-interactive run on the same folder checks that re-runs reuse it.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { describeWithN8n } from '../../harness/availability';
import { isAlive, killGroup, sleep } from '../../harness/exec';
import { REPO_ROOT } from '../../harness/pack';
import { pollUntil, waitUntil } from '../../harness/wait';
import { inLine } from './fixtures/readme-text';

const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const READY_TIMEOUT_MS = 180_000;
const DEMO_FILE = '(made by the demo)';
const STOP_TIMEOUT_MS = 60_000;

interface ReadyDetails {
	n8nPid: number;
	demoPid: number;
	userFolder: string;
	sandbox: { url: string; port: number };
	workflows: Array<{
		id: string;
		name: string;
		file: string;
		active: boolean;
		usesTrigger: boolean;
		outcome: string;
		activationError?: string;
	}>;
	skipped: Array<{ file: string; reason: string }>;
	credential: { id: string; outcome: string };
	credentialTest: { ok: boolean; message: string };
}

interface DemoRun {
	child: ChildProcess;
	output: () => string;
	exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startDemo(args: string[], env: NodeJS.ProcessEnv = {}): DemoRun {
	const childEnv: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		// Jest's own settings (NODE_ENV=test, JEST_WORKER_ID) are not the user's shell.
		if (key.startsWith('JEST_') || key === 'NODE_ENV') continue;
		childEnv[key] = value;
	}
	const child = spawn(TSX, ['scripts/demo.ts', ...args], {
		cwd: REPO_ROOT,
		env: { ...childEnv, ...env },
		// Its own process group, like a terminal's foreground job: SIGINT goes to the group.
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout?.on('data', (data: Buffer) => (output += data.toString('utf8')));
	child.stderr?.on('data', (data: Buffer) => (output += data.toString('utf8')));
	const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		child.on('exit', (code, signal) => resolve({ code, signal })),
	);
	return { child, output: () => output, exit };
}

function printed(output: string, label: string): string {
	const match = new RegExp(`^\\s*${label}\\s+(\\S+)`, 'm').exec(output);
	if (!match) throw new Error(`the demo printed no "${label}" line:\n${output.slice(-4000)}`);
	return match[1];
}

/** Every process below `root` (ppid links), root included. */
function processTree(root: number): number[] {
	const children = new Map<number, number[]>();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
		} catch {
			// Gone meanwhile.
		}
	}
	const result: number[] = [];
	const queue = [root];
	while (queue.length > 0) {
		const pid = queue.shift() as number;
		result.push(pid);
		queue.push(...(children.get(pid) ?? []));
	}
	return result;
}

async function refused(url: string): Promise<boolean> {
	try {
		await fetch(url, { signal: AbortSignal.timeout(3000) });
		return false;
	} catch {
		return true;
	}
}

function exampleFiles(): string[] {
	const dir = path.join(REPO_ROOT, 'examples');
	return fs.existsSync(dir)
		? fs
				.readdirSync(dir)
				.filter((file) => file.endsWith('.json'))
				.sort()
		: [];
}

describeWithN8n('2.x', 'npm run demo', () => {
	let folder: string;
	const runs: DemoRun[] = [];

	beforeAll(() => {
		folder = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-demo-test-'));
	});

	/** Whatever a failed test left running must not hold the folder for the next one. */
	const stopLeftovers = async () => {
		for (const run of runs) {
			if (run.child.exitCode === null && run.child.signalCode === null) {
				const tree = processTree(run.child.pid as number);
				killGroup(run.child.pid, 'SIGKILL');
				await Promise.race([run.exit, sleep(5000, true)]);
				// n8n has its own group: the harness's watcher ends it once the demo is gone.
				await pollUntil(
					() => tree.some(isAlive),
					(alive) => !alive,
					10_000,
				);
			}
		}
	};

	beforeEach(stopLeftovers);

	/** `npm run demo` on the test's folder, on a free port, writing its details to `readyFile`. */
	const demoInFolder = (readyFile: string, env?: NodeJS.ProcessEnv): DemoRun => {
		const run = startDemo(
			[
				'--dir',
				path.join(folder, 'n8n'),
				'--port',
				'0',
				'--no-build',
				'--quiet-sandbox',
				'--ready-file',
				readyFile,
			],
			env,
		);
		runs.push(run);
		return run;
	};

	afterAll(async () => {
		await stopLeftovers();
		fs.rmSync(folder, { recursive: true, force: true });
	});

	test(
		'starts n8n and the sandbox, sets them up as printed, and Ctrl-C leaves nothing running',
		async () => {
			const readyFile = path.join(folder, 'ready-1.json');
			const run = demoInFolder(readyFile);
			await waitUntil(
				'readiness',
				() =>
					run.output().includes('Ctrl-C stops n8n') && fs.existsSync(readyFile) ? true : undefined,
				{
					timeoutMs: READY_TIMEOUT_MS,
					intervalMs: 500,
					stopIf: () =>
						run.child.exitCode !== null || run.child.signalCode !== null
							? 'the demo exited'
							: undefined,
					detail: () => run.output().slice(-6000),
				},
			);
			const output = run.output();
			const details = JSON.parse(fs.readFileSync(readyFile, 'utf8')) as ReadyDetails;

			// What a person reads off the screen works.
			const editorUrl = printed(output, 'n8n editor');
			const editor = await fetch(editorUrl, { signal: AbortSignal.timeout(10_000) });
			expect(editor.status).toBe(200);
			expect(await editor.text()).toMatch(/<html/i);
			const login = /log in\s+(\S+) \/ (\S+)/.exec(output);
			expect(login).not.toBeNull();
			const base = new URL(editorUrl).origin;
			const loggedIn = await fetch(`${base}/rest/login`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'browser-id': 'demo-e2e' },
				body: JSON.stringify({ emailOrLdapLoginId: login?.[1], password: login?.[2] }),
				signal: AbortSignal.timeout(10_000),
			});
			expect(loggedIn.status).toBe(200);

			const apiKey = printed(output, 'API key');
			const api = async <T>(urlPath: string): Promise<T> => {
				const response = await fetch(`${base}/api/v1${urlPath}`, {
					headers: { 'X-N8N-API-KEY': apiKey },
					signal: AbortSignal.timeout(10_000),
				});
				expect(response.status).toBe(200);
				return (await response.json()) as T;
			};
			const credentials = await api<{ data: Array<{ id: string; name: string; type: string }> }>(
				'/credentials',
			);
			expect(credentials.data).toEqual([
				expect.objectContaining({
					id: details.credential.id,
					name: 'Trio VMS account',
					type: 'trioVmsApi',
				}),
			]);
			expect(details.credentialTest).toEqual({ ok: true, message: expect.any(String) });
			expect(output).toContain('connection test: OK');

			// Every examples/*.json is in n8n, wired to that credential, beside the demo's own workflow.
			const files = exampleFiles();
			expect(details.skipped).toEqual([]);
			expect(details.workflows.map((workflow) => workflow.file).sort()).toEqual(
				[DEMO_FILE, ...files].sort(),
			);
			const workflows = await api<{
				data: Array<{
					id: string;
					name: string;
					active: boolean;
					nodes: Array<{ type: string; credentials?: Record<string, { id: string }> }>;
				}>;
			}>('/workflows?limit=250');
			expect(workflows.data.map((workflow) => workflow.id).sort()).toEqual(
				details.workflows.map((workflow) => workflow.id).sort(),
			);
			for (const workflow of workflows.data) {
				for (const node of workflow.nodes.filter((each) =>
					each.type.startsWith('n8n-nodes-trio-vms.'),
				)) {
					expect(node.credentials?.trioVmsApi?.id).toBe(details.credential.id);
				}
			}

			// The demo's workflow is published: a printed curl command makes it run.
			const demoWorkflow = details.workflows.find((workflow) => workflow.file === DEMO_FILE);
			expect(demoWorkflow).toMatchObject({ active: true, usesTrigger: true });
			// The Sync Trigger's example needs no other credential: it is published, and its first
			// poll (run by n8n on publishing) fills the "Trio jobs" data table.
			expect(details.workflows.find((workflow) => workflow.file.startsWith('04-'))).toMatchObject({
				active: true,
				usesTrigger: true,
			});
			const shiftsCommand =
				/curl -X POST (\S+\/_sandbox\/per-diem\/shifts) .* -d '(\{[^']*\})'/.exec(output);
			expect(shiftsCommand).not.toBeNull();
			const fired = await fetch(shiftsCommand?.[1] as string, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: shiftsCommand?.[2],
				signal: AbortSignal.timeout(10_000),
			});
			expect(fired.status).toBe(200);
			const executions = await pollUntil(
				async () =>
					(
						await api<{ data: Array<{ id: string; status: string }> }>(
							`/executions?workflowId=${demoWorkflow?.id}`,
						)
					).data,
				(list) => list.some((execution) => execution.status === 'success'),
				30_000,
				500,
			);
			if (executions.length === 0) {
				const deliveries = await (
					await fetch(`${details.sandbox.url}/_sandbox/deliveries`, {
						signal: AbortSignal.timeout(10_000),
					})
				).text();
				throw new Error(
					`no run of the demo workflow within 30 s; the sandbox's deliveries: ${deliveries.slice(0, 3000)}`,
				);
			}
			expect(executions.map((execution) => execution.status)).toEqual(['success']);
			const execution = await api<{
				data: {
					resultData: {
						runData: Record<
							string,
							Array<{ data: { main: Array<Array<{ json: { event?: string } }>> } }>
						>;
					};
				};
			}>(`/executions/${executions[0].id}?includeData=true`);
			const items = Object.values(execution.data.resultData.runData)[0][0].data.main[0];
			// Three shifts in one delivery, split into one item each.
			expect(items.map((item) => item.json.event)).toEqual([
				'Per Diem Shift Opened',
				'Per Diem Shift Opened',
				'Per Diem Shift Opened',
			]);

			// README's quick start 2 in the demo as the README words it (issue 46): the CSV at the
			// files folder the banner prints, Resume Folder = ~/.n8n-files/... typed with its `~`.
			const filesFolder = printed(output, 'files folder');
			expect(output).toContain("n8n's ~/.n8n-files");
			const post = async <T>(urlPath: string, body: unknown): Promise<T> => {
				const response = await fetch(`${base}/api/v1${urlPath}`, {
					method: 'POST',
					headers: { 'X-N8N-API-KEY': apiKey, 'content-type': 'application/json' },
					body: JSON.stringify(body),
					signal: AbortSignal.timeout(10_000),
				});
				expect(response.status).toBe(200);
				return (await response.json()) as T;
			};
			const hook = `quick-start-2-in-the-demo-${Date.now()}`;
			const step = (name: string, type: string, typeVersion: number, parameters: object) => ({
				id: `${name}-id`,
				name,
				type,
				typeVersion,
				position: [0, 0],
				parameters,
			});
			const nodes = [
				{
					...step('Start', 'n8n-nodes-base.webhook', 2, {
						httpMethod: 'POST',
						path: hook,
						responseMode: 'lastNode',
						responseData: 'allEntries',
						options: {},
					}),
					webhookId: hook,
				},
				step('Read', 'n8n-nodes-base.readWriteFile', 1, {
					operation: 'read',
					fileSelector: path.join(filesFolder, 'trio-submissions', 'candidates.csv'),
					options: {},
				}),
				step('Extract', 'n8n-nodes-base.extractFromFile', 1, { operation: 'csv', options: {} }),
				{
					...step('Trio VMS', 'n8n-nodes-trio-vms.trioVms', 1, {
						resource: 'submission',
						operation: 'create',
						valuesFrom: 'columns',
						columns: { mappingMode: 'autoMapInputData', value: null },
						resumeFrom: 'folder',
						resumeFolder: '~/.n8n-files/trio-submissions/resumes',
					}),
					credentials: { trioVmsApi: { id: details.credential.id, name: 'Trio VMS account' } },
				},
			];
			const quickStart = await post<{ id: string }>('/workflows', {
				name: 'Quick start 2 in the demo',
				nodes,
				connections: inLine(nodes),
				settings: { executionOrder: 'v1' },
			});
			await post(`/workflows/${quickStart.id}/activate`, {});
			const answer = await pollUntil(
				async () =>
					await fetch(`${base}/webhook/${hook}`, {
						method: 'POST',
						signal: AbortSignal.timeout(60_000),
					}),
				(response) => response.status !== 404,
				30_000,
				500,
			);
			expect(answer.status).toBe(200);
			const rows = (await answer.json()) as Array<Record<string, unknown>>;
			// The sample's three good rows are submitted: their resumes were read through `~`.
			expect(rows.filter((row) => row['Trio Result'] === 'submitted')).toHaveLength(3);
			// Only the sample's resume that is not there is missing: the others were found through `~`.
			expect(
				rows
					.filter((row) => /which is no file/.test(String(row['Trio Problem'])))
					.map((row) => row['Resume File']),
			).toEqual(['sam-lee.docx']);

			// Ctrl-C: the terminal signals the whole foreground group.
			const tree = processTree(run.child.pid as number);
			expect(tree).toContain(details.n8nPid);
			expect(tree.length).toBeGreaterThanOrEqual(4);
			killGroup(run.child.pid, 'SIGINT');
			const exit = await Promise.race([
				run.exit,
				sleep(STOP_TIMEOUT_MS, true).then(() => undefined),
			]);
			expect(exit).toEqual({ code: 0, signal: null });
			expect(run.output()).toContain('all stopped');
			expect(run.output()).not.toContain('again: exiting without waiting');
			// The harness's watchers notice their parent is gone within a second.
			expect(
				await pollUntil(
					() => tree.filter(isAlive),
					(alive) => alive.length === 0,
					10_000,
				),
			).toEqual([]);
			expect(await refused(editorUrl)).toBe(true);
			expect(await refused(`${details.sandbox.url}/_sandbox`)).toBe(true);
			// The folder is kept for the next run, unlocked.
			expect(fs.existsSync(path.join(folder, 'n8n', '.n8n', 'database.sqlite'))).toBe(true);
			expect(fs.existsSync(path.join(folder, 'n8n', 'demo.lock'))).toBe(false);
		},
		READY_TIMEOUT_MS + STOP_TIMEOUT_MS + 60_000,
	);

	test(
		'a second run on the same folder reuses the owner, credential and examples (and --exit-after-ready ends by itself)',
		async () => {
			const first = JSON.parse(
				fs.readFileSync(path.join(folder, 'ready-1.json'), 'utf8'),
			) as ReadyDetails;
			const readyFile = path.join(folder, 'ready-2.json');
			const run = demoInFolder(readyFile, { DEMO_EXIT_AFTER_READY: '1' });
			const exit = await Promise.race([
				run.exit,
				sleep(READY_TIMEOUT_MS, true).then(() => undefined),
			]);
			expect({ exit, output: exit?.code === 0 ? '' : run.output().slice(-4000) }).toEqual({
				exit: { code: 0, signal: null },
				output: '',
			});
			const second = JSON.parse(fs.readFileSync(readyFile, 'utf8')) as ReadyDetails;
			expect(second.credential).toEqual({ ...first.credential, outcome: 'updated' });
			expect(second.credentialTest.ok).toBe(true);
			expect(
				second.workflows.map((workflow) => [workflow.file, workflow.id, workflow.outcome]),
			).toEqual(first.workflows.map((workflow) => [workflow.file, workflow.id, 'kept']));
			// The sandbox moved to another port: the demo's workflow was re-registered there.
			const demoWorkflow = second.workflows.find((workflow) => workflow.file === DEMO_FILE);
			expect([demoWorkflow?.active, demoWorkflow?.activationError]).toEqual([true, undefined]);
			// Ended by itself: the demo and its n8n are gone.
			expect(
				await pollUntil(
					() => [second.n8nPid, second.demoPid].filter(isAlive),
					(alive) => alive.length === 0,
					1_500,
				),
			).toEqual([]);
		},
		READY_TIMEOUT_MS + 30_000,
	);
});
