/**
 * The demo stack: the package built and packed, the Trio sandbox, a real n8n 2.x with the
 * package installed, the "Trio VMS account" credential pointing at the sandbox and every
 * examples/*.json imported with that credential, for scripts/demo.ts (`npm run demo`). It
 * starts each part through the same harness the real-n8n suites use (harness/: install, pack,
 * n8n, trio, wait), so the demo shows what those suites prove.
 *
 * Everything started is registered with a Cleanup as soon as it exists, so an interrupted
 * or failed start-up stops what it got to (see lifecycle.ts).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { TRIO_EVENT_NAMES } from '../../nodes/shared/events';
import { startSandbox } from '../../sandbox';
import type { RunningSandbox } from '../../sandbox';
import { isAlive, runOrThrow } from '../../harness/exec';
import { cacheRoot, ensureN8n, npmEnv } from '../../harness/install';
import { startN8n } from '../../harness/n8n';
import type { N8nInstance, WorkflowJson } from '../../harness/n8n';
import { packPackage, REPO_ROOT } from '../../harness/pack';
import { trioCredentialData } from '../../harness/trio';
import { waitUntil } from '../../harness/wait';
import type { Cleanup } from './lifecycle';

export { REPO_ROOT };

export const CREDENTIAL_NAME = 'Trio VMS account';
const CREDENTIAL_TYPE = 'trioVmsApi';
const PACKAGE_NAME = 'n8n-nodes-trio-vms';
const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.trioVmsTrigger`;
const SYNC_TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.trioVmsSyncTrigger`;
export const DEFAULT_SANDBOX_PORT = 4010;
const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
/** Copied into n8n's file folder so the spreadsheet example runs as it comes. */
const SAMPLE_DATA_DIR = path.join(EXAMPLES_DIR, 'sample-data');
/** Where the examples expect n8n's file folder (n8n's Docker image); replaced by the demo's. */
const EXAMPLES_FILES_DIR = '/home/node/.n8n-files';
/** Kept in the user folder: what the last run imported and where the sandbox was. */
const STATE_FILE = 'demo-state.json';
/**
 * The examples' trigger workflows end in Slack or e-mail nodes, and n8n 2.x refuses to publish
 * a workflow whose nodes lack a required credential. So the demo adds one workflow of its own
 * that n8n will publish: the trigger alone, listening for every event, so each curl shows a run.
 */
const DEMO_WORKFLOW_FILE = '(made by the demo)';
export const DEMO_WORKFLOW_NAME = 'Trio VMS demo: every event from the sandbox';
const LOCK_FILE = 'demo.lock';

export interface StackOptions {
	/**
	 * n8n's user folder. Given: kept between runs (owner, credential, workflows and executions
	 * survive). Omitted: a temp folder removed on stop.
	 */
	userFolder?: string;
	/** Sandbox port; 0 picks a free one. Default 4010. */
	sandboxPort?: number;
	/** When the sandbox port is taken: true uses a free port instead, false fails. */
	sandboxPortFallback?: boolean;
	seed?: number;
	jobs?: number;
	/** `npm run build` first (default true). */
	build?: boolean;
	/** Activate imported workflows that start with the Trio VMS Trigger or Sync Trigger (default true). */
	activateTriggers?: boolean;
	/** Sandbox request/delivery lines on the console (default false). */
	sandboxLog?: boolean;
	/** Progress lines. */
	log: (line: string) => void;
}

interface ImportedWorkflow {
	id: string;
	name: string;
	file: string;
	active: boolean;
	usesTrigger: boolean;
	/** imported (new), updated (file changed since the last run) or kept (unchanged). */
	outcome: 'imported' | 'updated' | 'kept';
	/** Why activation failed, if it did. */
	activationError?: string;
}

interface Timings {
	buildSeconds?: number;
	packSeconds: number;
	n8nInstallSeconds: number;
	n8nFromCache: boolean;
	/** Installing the packed package into the user folder, spawning n8n, waiting for ready, owner and API key. */
	n8nStartSeconds: number;
	/** n8n's own spawn-to-ready time. */
	n8nReadySeconds: number;
	setupSeconds: number;
	totalSeconds: number;
}

export interface Stack {
	n8n: N8nInstance;
	sandbox: RunningSandbox;
	credential: { id: string; name: string; outcome: 'created' | 'updated' };
	/** n8n's own credential test (the Test button) against the sandbox. */
	credentialTest: { ok: boolean; message: string };
	workflows: ImportedWorkflow[];
	/** Examples that could not be imported: file -> reason. */
	skipped: Array<{ file: string; reason: string }>;
	/** Sandbox port asked for, when another one had to be used. */
	sandboxPortWanted?: number;
	timings: Timings;
	userFolder: string;
	persistent: boolean;
	/** n8n's file folder (N8N_RESTRICT_FILE_ACCESS_TO), with the sample data in trio-submissions/. */
	filesDir: string;
}

interface DemoState {
	sandboxUrl?: string;
	/** Example file name -> { id, sha256 } of what was imported. */
	examples?: Record<string, { id: string; sha256: string }>;
}

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;

function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
	});
}

/** Who holds a TCP port, best effort, for the error message (ss is on Debian by default). */
async function portHolder(port: number): Promise<string> {
	try {
		const { run } = await import('../../harness/exec');
		const result = await run('ss', ['-ltnpH', `sport = :${port}`], { timeoutMs: 5000 });
		const match = /users:\(\("([^"]+)",pid=(\d+)/.exec(result.stdout);
		return match ? ` by ${match[1]} (pid ${match[2]})` : '';
	} catch {
		return '';
	}
}

/** Decides the sandbox port before anything slow runs, so a taken port fails at once. */
async function chooseSandboxPort(
	options: StackOptions,
	log: (line: string) => void,
): Promise<{ port: number; wanted?: number }> {
	const wanted = options.sandboxPort ?? DEFAULT_SANDBOX_PORT;
	if (wanted === 0 || (await portIsFree(wanted))) return { port: wanted };
	const holder = await portHolder(wanted);
	if (!options.sandboxPortFallback) {
		throw new Error(
			`Port ${wanted} on 127.0.0.1 is already in use${holder}. Stop that process or pick another port with --port N (0 = any free port).`,
		);
	}
	log(`port ${wanted} is already in use${holder}; the sandbox takes a free port instead`);
	return { port: 0, wanted };
}

async function startSandboxOn(port: number, options: StackOptions): Promise<RunningSandbox> {
	try {
		return await startSandbox({
			port,
			seed: options.seed ?? 1,
			jobs: options.jobs,
			quiet: !options.sandboxLog,
		});
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
			throw new Error(
				`Port ${port} on 127.0.0.1 was taken while the demo was starting. Pick another port with --port N (0 = any free port).`,
			);
		}
		throw error;
	}
}

function readState(userFolder: string): DemoState {
	try {
		return JSON.parse(fs.readFileSync(path.join(userFolder, STATE_FILE), 'utf8')) as DemoState;
	} catch {
		return {};
	}
}

function writeState(userFolder: string, state: DemoState): void {
	fs.writeFileSync(path.join(userFolder, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
}

/** One demo per user folder: two n8n processes on one SQLite file would corrupt each other's view. */
function lockFolder(userFolder: string, cleanup: Cleanup): void {
	const lockPath = path.join(userFolder, LOCK_FILE);
	fs.mkdirSync(userFolder, { recursive: true });
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
			cleanup.add('demo folder lock', async () => {
				if (fs.readFileSync(lockPath, 'utf8') === String(process.pid))
					fs.rmSync(lockPath, { force: true });
			});
			return;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		const holder = Number(fs.readFileSync(lockPath, 'utf8'));
		if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
			throw new Error(
				`Another demo (pid ${holder}) is using ${userFolder}. Stop it first (Ctrl-C in its terminal, or kill ${holder}), or use --dir for a second one.`,
			);
		}
		// Left by a demo that was killed outright.
		fs.rmSync(lockPath, { force: true });
	}
	throw new Error(`Could not lock ${lockPath}`);
}

/**
 * Every examples/*.json with the Trio credential put on each Trio node and the Docker file
 * folder the examples name replaced by the demo's (`filesDir`).
 */
function loadExamples(
	credential: { id: string; name: string },
	filesDir: string,
): Array<{ file: string; json: WorkflowJson; sha256: string } | { file: string; error: string }> {
	if (!fs.existsSync(EXAMPLES_DIR)) return [];
	const files = fs
		.readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort();
	return files.map((file) => {
		const text = fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8');
		let json: WorkflowJson;
		try {
			json = JSON.parse(text) as WorkflowJson;
		} catch (error) {
			return { file, error: `not valid JSON: ${(error as Error).message}` };
		}
		if (
			!json ||
			typeof json !== 'object' ||
			!Array.isArray(json.nodes) ||
			typeof json.connections !== 'object'
		) {
			return { file, error: 'not a workflow (needs nodes and connections)' };
		}
		const nodes = json.nodes.map((raw) => {
			const node = { ...(raw as Record<string, unknown>) };
			const type = String(node.type ?? '');
			// Parameters only: the sticky notes keep telling Docker users where their folder is.
			if (type !== 'n8n-nodes-base.stickyNote' && node.parameters !== undefined) {
				node.parameters = JSON.parse(
					JSON.stringify(node.parameters)
						.split(EXAMPLES_FILES_DIR)
						.join(JSON.stringify(filesDir).slice(1, -1)),
				) as unknown;
			}
			const credentials = { ...((node.credentials as Record<string, unknown> | undefined) ?? {}) };
			if (type.startsWith(`${PACKAGE_NAME}.`) || CREDENTIAL_TYPE in credentials) {
				credentials[CREDENTIAL_TYPE] = { id: credential.id, name: credential.name };
				node.credentials = credentials;
			}
			return node;
		});
		return {
			file,
			json: { ...json, name: json.name ?? path.basename(file, '.json'), nodes },
			sha256: createHash('sha256')
				.update(text)
				.update(credential.id)
				.update(filesDir)
				.digest('hex'),
		};
	});
}

function demoWorkflow(credential: { id: string; name: string }): WorkflowJson {
	return {
		name: DEMO_WORKFLOW_NAME,
		nodes: [
			{
				id: 'a3c1f0d2-5b7e-4c1a-9f3e-000000000001',
				name: 'Note',
				type: 'n8n-nodes-base.stickyNote',
				typeVersion: 1,
				position: [-360, -120],
				parameters: {
					width: 320,
					height: 300,
					content:
						'## Every Trio VMS event\nMade by `npm run demo`. Published, so the trigger registered one webhook per event with the local Trio sandbox.\n\nRun the curl commands the demo printed and open **Executions** to see what Trio sends.',
				},
			},
			{
				id: 'a3c1f0d2-5b7e-4c1a-9f3e-000000000002',
				name: 'When Trio VMS reports anything',
				type: TRIGGER_NODE_TYPE,
				typeVersion: 1,
				position: [0, 0],
				webhookId: '5d1c6a0e-7f0b-4f43-9a55-d30000e0e001',
				parameters: { events: [...TRIO_EVENT_NAMES], options: { splitShifts: true } },
				credentials: { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Whether a workflow starts by itself with a Trio trigger: the webhook trigger, or the Sync
 * Trigger, whose first poll runs when the workflow is published (example 04 then fills its
 * data table at once, which is what shows the node in the demo).
 */
function usesTrigger(json: WorkflowJson): boolean {
	return json.nodes.some((node) =>
		[TRIGGER_NODE_TYPE, SYNC_TRIGGER_NODE_TYPE].includes((node as { type?: string }).type ?? ''),
	);
}

interface PublicWorkflow {
	id: string;
	name: string;
	active: boolean;
	nodes: Array<{ type?: string }>;
}

async function listWorkflows(n8n: N8nInstance): Promise<PublicWorkflow[]> {
	const all: PublicWorkflow[] = [];
	let cursor: string | undefined;
	for (let page = 0; page < 20; page++) {
		const query = new URLSearchParams({ limit: '250' });
		if (cursor) query.set('cursor', cursor);
		const result = await n8n.api<{ data: PublicWorkflow[]; nextCursor?: string | null }>(
			'GET',
			`/workflows?${query.toString()}`,
		);
		all.push(...result.data);
		if (!result.nextCursor) break;
		cursor = result.nextCursor;
	}
	return all;
}

async function upsertCredential(
	n8n: N8nInstance,
	sandbox: RunningSandbox,
): Promise<{ id: string; name: string; outcome: 'created' | 'updated' }> {
	// The agency-admin key: the trigger registers webhooks, which a plain agency key may not.
	const data = trioCredentialData(sandbox.url, sandbox.adminKey);
	const list = await n8n.api<{ data: Array<{ id: string; name: string; type: string }> }>(
		'GET',
		'/credentials?limit=250',
	);
	const existing = list.data.find(
		(credential) => credential.name === CREDENTIAL_NAME && credential.type === CREDENTIAL_TYPE,
	);
	if (existing) {
		await n8n.api('PATCH', `/credentials/${existing.id}`, { data });
		return { id: existing.id, name: existing.name, outcome: 'updated' };
	}
	const created = await n8n.createCredential(CREDENTIAL_NAME, CREDENTIAL_TYPE, data);
	return { id: created.id, name: created.name, outcome: 'created' };
}

async function testCredential(
	n8n: N8nInstance,
	id: string,
): Promise<{ ok: boolean; message: string }> {
	try {
		const result = await n8n.api<{ status?: string; message?: string }>(
			'POST',
			`/credentials/${id}/test`,
		);
		return { ok: result.status === 'OK', message: result.message ?? String(result.status) };
	} catch (error) {
		return { ok: false, message: (error as Error).message.slice(0, 300) };
	}
}

/**
 * Publishing returns before the trigger can take deliveries: n8n 2.x adds the production
 * webhook route a moment later (a POST meanwhile gets 404) and saves the trigger's static
 * data (its registration token) later still (a delivery meanwhile is refused with 403),
 * about 0.3 and 0.5 s after the call here. Wait for both so a curl run right after the demo
 * prints its summary is received. A GET probes the route without running anything.
 */
async function waitForWebhooks(
	n8n: N8nInstance,
	workflowId: string,
	timeoutMs = 20_000,
): Promise<void> {
	const wait = { timeoutMs, intervalMs: 100 };
	const triggers = await waitUntil(
		`n8n to save the registrations of workflow ${workflowId} after publishing`,
		async () => {
			const workflow = await n8n.api<{
				nodes: Array<{ name: string; type?: string; webhookId?: string }>;
				staticData?: Record<string, unknown> | null;
			}>('GET', `/workflows/${workflowId}`);
			const triggers = workflow.nodes.filter(
				(node) => node.type === TRIGGER_NODE_TYPE && node.webhookId,
			);
			const saved = triggers.every((node) => workflow.staticData?.[`node:${node.name}`]);
			return saved ? triggers : undefined;
		},
		wait,
	);
	for (const node of triggers) {
		const url = n8n.productionWebhookUrl(node.webhookId as string, 'webhook');
		await waitUntil(
			`n8n to add ${url} after publishing the workflow`,
			async () => {
				const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
				const text = await response.text();
				return response.status !== 404 || text.includes('not registered for GET')
					? true
					: undefined;
			},
			wait,
		);
	}
}

async function activate(n8n: N8nInstance, workflow: ImportedWorkflow): Promise<void> {
	try {
		await n8n.activate(workflow.id);
		await waitForWebhooks(n8n, workflow.id);
		workflow.active = true;
	} catch (error) {
		const message = (error as Error).message;
		const missing = [...message.matchAll(/Missing required credential: (\w+)/g)].map(
			(match) => match[1],
		);
		workflow.activationError =
			missing.length > 0
				? `n8n publishes it once you give it a ${[...new Set(missing)].join(' and ')} credential`
				: message.replace(/^POST \S+ -> /, '').slice(0, 300);
	}
}

/** Each example once: imported when new, replaced when its file changed, otherwise left as the user left it. */
async function importExamples(
	n8n: N8nInstance,
	credential: { id: string; name: string },
	state: DemoState,
	options: { activateTriggers: boolean; sandboxMoved: boolean; filesDir: string },
): Promise<{ workflows: ImportedWorkflow[]; skipped: Array<{ file: string; reason: string }> }> {
	const existing = new Map((await listWorkflows(n8n)).map((workflow) => [workflow.id, workflow]));
	const imported: ImportedWorkflow[] = [];
	const skipped: Array<{ file: string; reason: string }> = [];
	const previous = state.examples ?? {};
	state.examples = {};
	const demo = demoWorkflow(credential);
	const all = [
		...loadExamples(credential, options.filesDir),
		{
			file: DEMO_WORKFLOW_FILE,
			json: demo,
			sha256: createHash('sha256').update(JSON.stringify(demo)).digest('hex'),
		},
	];
	for (const example of all) {
		if ('error' in example) {
			skipped.push({ file: example.file, reason: example.error });
			continue;
		}
		const before = previous[example.file] ? existing.get(previous[example.file].id) : undefined;
		const trigger = usesTrigger(example.json);
		try {
			if (before && previous[example.file].sha256 === example.sha256) {
				const workflow: ImportedWorkflow = {
					id: before.id,
					name: before.name,
					file: example.file,
					active: before.active,
					usesTrigger: trigger,
					outcome: 'kept',
				};
				if (trigger && workflow.active && options.sandboxMoved) {
					// Its webhooks were registered with the old sandbox: register them with this one.
					await n8n.deactivate(workflow.id).catch(() => undefined);
					workflow.active = false;
					await activate(n8n, workflow);
				} else if (trigger && !workflow.active && options.activateTriggers) {
					await activate(n8n, workflow);
				} else if (trigger && workflow.active) {
					// Published in an earlier run: n8n re-added it while starting.
					await waitForWebhooks(n8n, workflow.id).catch(
						(error: Error) => (workflow.activationError = error.message),
					);
				}
				imported.push(workflow);
				state.examples[example.file] = previous[example.file];
				continue;
			}
			if (before) {
				if (before.active) await n8n.deactivate(before.id).catch(() => undefined);
				await n8n.deleteWorkflow(before.id);
			}
			const record = await n8n.createWorkflow(example.json);
			const workflow: ImportedWorkflow = {
				id: record.id,
				name: record.name,
				file: example.file,
				active: false,
				usesTrigger: trigger,
				outcome: before ? 'updated' : 'imported',
			};
			if (trigger && options.activateTriggers) await activate(n8n, workflow);
			imported.push(workflow);
			state.examples[example.file] = { id: record.id, sha256: example.sha256 };
		} catch (error) {
			skipped.push({ file: example.file, reason: (error as Error).message.slice(0, 400) });
		}
	}
	return { workflows: imported, skipped };
}

/** The harness makes an API key per start; keep only the newest so a long-lived folder does not pile them up. */
async function pruneApiKeys(n8n: N8nInstance): Promise<void> {
	try {
		const keys = await n8n.rest<Array<{ id: string; label: string; createdAt: string }>>(
			'GET',
			'/api-keys',
		);
		const harnessKeys = keys
			.filter((key) => key.label.startsWith('harness-'))
			.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
		for (const key of harnessKeys.slice(1)) await n8n.rest('DELETE', `/api-keys/${key.id}`);
	} catch {
		// Only tidiness.
	}
}

export async function startStack(options: StackOptions, cleanup: Cleanup): Promise<Stack> {
	const started = Date.now();
	const { log } = options;
	const persistent = options.userFolder !== undefined;
	if (options.userFolder) lockFolder(options.userFolder, cleanup);
	const state = options.userFolder ? readState(options.userFolder) : {};
	const sandboxPort = await chooseSandboxPort(options, log);

	let buildSeconds: number | undefined;
	if (options.build ?? true) {
		log('building the package (npm run build)');
		const since = Date.now();
		await runOrThrow('npm', ['run', 'build'], {
			cwd: REPO_ROOT,
			env: npmEnv(),
			timeoutMs: 300_000,
		});
		buildSeconds = seconds(since);
	}
	cleanup.throwIfStopping();

	let since = Date.now();
	const tarball = await packPackage();
	const packSeconds = seconds(since);
	cleanup.throwIfStopping();

	since = Date.now();
	log(
		`finding n8n 2.x (installed once into ${cacheRoot()}; the first install takes a few minutes)`,
	);
	const install = await ensureN8n('2.x');
	const n8nInstallSeconds = seconds(since);
	cleanup.throwIfStopping();

	// The sandbox comes first: n8n re-activates saved trigger workflows while it starts,
	// and their webhook registration calls go to the sandbox.
	const sandbox = await startSandboxOn(sandboxPort.port, options);
	cleanup.add('Trio sandbox', () => sandbox.stop());
	log(`sandbox listening on ${sandbox.url}`);
	cleanup.throwIfStopping();

	since = Date.now();
	log(`starting n8n ${install.version}`);
	// n8n 2.x reads and writes files only inside ~/.n8n-files. The demo's n8n runs with its user
	// folder as its home, so that `~/.n8n-files/resumes` means in the demo what README's quick
	// start 2 says it means: `~` is n8n's home for n8n's file rules, and the folder that holds
	// n8n's .n8n folder for the node (which may not ask the system for a home folder).
	const homeDir = options.userFolder ?? fs.mkdtempSync(path.join(os.tmpdir(), 'trio-demo-home-'));
	const filesDir = path.join(homeDir, '.n8n-files');
	fs.mkdirSync(filesDir, { recursive: true });
	if (!options.userFolder)
		cleanup.add('temp user folder', async () =>
			fs.rmSync(homeDir, { recursive: true, force: true }),
		);
	if (fs.existsSync(SAMPLE_DATA_DIR))
		fs.cpSync(SAMPLE_DATA_DIR, path.join(filesDir, 'trio-submissions'), { recursive: true });
	const n8n = await startN8n({
		line: '2.x',
		tarball,
		userFolder: homeDir,
		env: {
			HOME: homeDir,
			N8N_RESTRICT_FILE_ACCESS_TO: filesDir,
			// As n8n 3.0 will by default, with the one range the sandbox needs let through.
			N8N_SSRF_PROTECTION_ENABLED: 'true',
			N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.0/8',
		},
	});
	cleanup.add(`n8n (pid ${n8n.pid})`, () => n8n.stop());
	cleanup.takeOverSignals();
	const n8nStartSeconds = seconds(since);
	cleanup.throwIfStopping();

	since = Date.now();
	await pruneApiKeys(n8n);
	const credential = await upsertCredential(n8n, sandbox);
	const credentialTest = await testCredential(n8n, credential.id);
	const sandboxMoved = state.sandboxUrl !== undefined && state.sandboxUrl !== sandbox.url;
	const { workflows, skipped } = await importExamples(n8n, credential, state, {
		activateTriggers: options.activateTriggers ?? true,
		sandboxMoved,
		filesDir,
	});
	state.sandboxUrl = sandbox.url;
	if (options.userFolder) writeState(options.userFolder, state);
	const setupSeconds = seconds(since);

	return {
		n8n,
		sandbox,
		credential,
		credentialTest,
		workflows,
		skipped,
		sandboxPortWanted: sandboxPort.wanted,
		userFolder: n8n.userFolder,
		persistent,
		filesDir,
		timings: {
			buildSeconds,
			packSeconds,
			n8nInstallSeconds,
			n8nFromCache: install.fromCache,
			n8nStartSeconds,
			n8nReadySeconds: n8n.startSeconds,
			setupSeconds,
			totalSeconds: seconds(started),
		},
	};
}
