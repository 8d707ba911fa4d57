import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { killGroup, runOrThrow, sleep, spawnReaper, sweepOrphanFolders } from './exec';
import { readyAt, watchN8n } from './n8n-process';
import { exitedDuringStart, waitUntil } from './wait';
import { cacheRoot, ensureN8n, npmEnv } from './install';
import type { N8nLine } from './install';

export interface StartN8nOptions {
	line: N8nLine;
	/** Packed community package(s) to install into the user folder, as users do. */
	tarball: string | string[];
	/**
	 * Reuse a user folder (e.g. to restart n8n on the same database). A folder you pass
	 * is kept on stop(); one the harness creates under os.tmpdir() is removed.
	 */
	userFolder?: string;
	/** Extra or overriding environment for the n8n process. */
	env?: Record<string, string>;
	/** Bound on start-up (readiness + editor log line); default 90 s. */
	readyTimeoutMs?: number;
	/**
	 * The port to listen on, e.g. a stopped instance's, so that n8n comes back at the address its
	 * webhook registrations point to (as a restarted container does); default a free port.
	 */
	port?: number;
}

interface Owner {
	email: string;
	password: string;
}

export interface WorkflowJson {
	name?: string;
	nodes: unknown[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	staticData?: unknown;
	[key: string]: unknown;
}

export interface WorkflowRecord extends WorkflowJson {
	id: string;
	name: string;
	active: boolean;
}

interface CredentialRecord {
	id: string;
	name: string;
	type: string;
}

/** n8n 2.x's answer to GET /rest/workflows/{id}/publication-status. */
interface PublicationStatus {
	status: string;
	triggers: Array<{ nodeId: string; status: string; errorMessage: string | null }>;
}

export interface ExecutionRecord {
	id: string;
	workflowId: string;
	status: string;
	finished: boolean;
	mode: string;
	startedAt: string;
	stoppedAt: string | null;
	/** Present from getExecution (includeData=true): the run data, keyed by node name. */
	data?: {
		resultData: {
			runData: Record<
				string,
				Array<{
					data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
					error?: unknown;
				}>
			>;
			error?: { message?: string; description?: string; node?: { name?: string } };
			lastNodeExecuted?: string;
		};
	};
	[key: string]: unknown;
}

/** The JSON of every item a node put on `output` in an execution read in full, over all its runs. */
export function nodeItems(
	execution: ExecutionRecord,
	nodeName: string,
	output = 0,
): Array<Record<string, unknown>> {
	const runs = execution.data?.resultData.runData[nodeName] ?? [];
	return runs.flatMap((run) => (run.data?.main[output] ?? []).map((item) => item.json));
}

export interface N8nInstance {
	line: N8nLine;
	/** The n8n version running. */
	version: string;
	baseUrl: string;
	port: number;
	brokerPort: number;
	pid: number;
	userFolder: string;
	owner: Owner;
	apiKey: string;
	/** Seconds from spawn to ready (readiness 200 and the editor log line). */
	startSeconds: number;
	/** Everything n8n printed so far (stdout and stderr, in order). */
	logs(): string;
	/** Internal REST API (`/rest/...`) as the logged-in owner; returns the `data` field. */
	rest<T = unknown>(method: string, urlPath: string, body?: unknown): Promise<T>;
	/** Public API (`/api/v1/...`) with the API key; returns the parsed body. */
	api<T = unknown>(method: string, urlPath: string, body?: unknown): Promise<T>;
	createCredential(
		name: string,
		type: string,
		data: Record<string, unknown>,
	): Promise<CredentialRecord>;
	createWorkflow(json: WorkflowJson): Promise<WorkflowRecord>;
	activate(id: string): Promise<WorkflowRecord>;
	deactivate(id: string): Promise<WorkflowRecord>;
	deleteWorkflow(id: string): Promise<void>;
	/**
	 * Executions of a workflow, oldest first, without run data: the public API's, and the newest
	 * finished ones it leaves out while n8n's main process wrongly counts them as running.
	 */
	listExecutions(workflowId: string): Promise<ExecutionRecord[]>;
	/**
	 * The newest 100 executions of a workflow, newest first, of any status (new and running
	 * included), as n8n's database has them: the editor's list.
	 */
	newestExecutions(workflowId: string): Promise<ExecutionRecord[]>;
	/** One execution with its run data. */
	getExecution(id: string): Promise<ExecutionRecord>;
	/** Polls until the workflow has at least `count` finished executions; oldest first. */
	/**
	 * n8n 2.x (2.41+) publishes asynchronously: the public API answers before the triggers'
	 * checkExists/create (or delete) have run. Waits (bounded) until the publication is no longer
	 * in progress and returns its status; 1.x works synchronously and has no such endpoint.
	 */
	settlePublication(workflowId: string, timeoutMs?: number): Promise<PublicationStatus | undefined>;
	waitForExecutions(
		workflowId: string,
		count: number,
		timeoutMs: number,
	): Promise<ExecutionRecord[]>;
	/** Names of all loaded node types, e.g. `n8n-nodes-trio-vms.trioVms`. */
	nodeTypes(): Promise<string[]>;
	/** Names of all loaded credential types. */
	credentialTypes(): Promise<string[]>;
	/**
	 * The icons n8n gives the editor for a package's node and credential types, each with what n8n
	 * answered when asked for it (the editor's own request).
	 */
	icons(
		packageName: string,
	): Promise<Array<{ type: string; url: string; status: number; contentType: string }>>;
	/**
	 * Production webhook URL. Nodes whose webhook path is not a full path (triggers) live
	 * under `/webhook/<webhookId>/<path>`; pass an empty webhookId for the Webhook node's
	 * own `/webhook/<path>`.
	 */
	productionWebhookUrl(webhookId: string, urlPath: string): string;
	/** Resident memory of n8n plus its child processes (the task runner), in bytes. */
	rssBytes(): number;
	/** SIGTERM, bounded wait, SIGKILL fallback; removes a harness-made user folder. */
	stop(): Promise<void>;
}

const DEFAULT_READY_TIMEOUT_MS = 90_000;
const REQUEST_TIMEOUT_MS = 60_000;
const READY_LOG_LINE = 'Editor is now accessible via:';
const FOLDER_PREFIX = 'trio-n8n-';
const HARNESS_FILE = '.trio-harness.json';
// Fixed so credentials stay readable when a test restarts n8n on the same folder.
const ENCRYPTION_KEY = 'trio-vms-e2e-harness-encryption-key';
// Sent on every REST call: n8n binds its auth cookie to the browser id it was issued for.
const BROWSER_ID = 'trio-vms-e2e-harness';

// ---- cleanup of every started process, whatever way the test process ends ----

interface Tracked {
	child: ChildProcess;
	userFolder: string;
	removeFolder: boolean;
}

const running = new Set<Tracked>();
let cleanupInstalled = false;

function killAllNow(): void {
	for (const tracked of running) {
		killGroup(tracked.child.pid, 'SIGKILL');
		if (tracked.removeFolder) fs.rmSync(tracked.userFolder, { recursive: true, force: true });
	}
	running.clear();
}

/** Outside jest (scripts, tsx) these hooks end instances at once; spawnReaper covers the rest. */
function installCleanup(): void {
	if (cleanupInstalled) return;
	cleanupInstalled = true;
	process.on('exit', killAllNow);
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
		const handler = () => {
			killAllNow();
			process.removeListener(signal, handler);
			// Re-raise so the process still dies the way it was asked to, unless
			// someone else (e.g. jest) handles the signal.
			if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
		};
		process.on(signal, handler);
	}
}

/**
 * A test process killed with SIGKILL leaves n8n running (it has its own process group).
 * The next start finds such orphans by their marker file and ends them.
 */
function sweepOrphans(): void {
	sweepOrphanFolders<{ ownerPid?: number; n8nPid?: number }>(
		FOLDER_PREFIX,
		HARNESS_FILE,
		(marker) => ({ pid: marker.n8nPid, command: 'n8n' }),
	);
}

// ---- helpers ----

/**
 * The ports the harness hands out to n8n, its task-runner brokers and the databases: below the
 * kernel's ephemeral range, and a slice of their own for each Jest worker. A port the kernel
 * picks (listen on 0) comes from the ephemeral range, where every outgoing connection on the
 * machine also takes its local port, so between the check and n8n's listen another suite's
 * connection could take it ("n8n's port … is already in use"; seen with three suites at once).
 * Outside that range only an explicit listen can take a port, and each worker's are its own.
 */
const PORTS_PER_WORKER = 1000;
const LOWEST_PORT = 10_000;

function portSlice(): { first: number; last: number } | undefined {
	let ephemeralFirst = 32_768;
	try {
		const [first] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/);
		if (Number.isInteger(Number(first))) ephemeralFirst = Number(first);
	} catch {
		// Not Linux: the usual range's start.
	}
	const slices = Math.floor((ephemeralFirst - LOWEST_PORT) / PORTS_PER_WORKER);
	if (slices < 2) return undefined;
	const worker = Number(process.env.JEST_WORKER_ID) || process.pid;
	const first = LOWEST_PORT + (worker % slices) * PORTS_PER_WORKER;
	return { first, last: first + PORTS_PER_WORKER - 1 };
}

const slice = portSlice();
let nextPort = slice?.first ?? 0;

/** Whether `port` can be listened on now (0: the kernel's pick); the port listened on. */
function tryListen(port: number): Promise<number | undefined> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', (error: NodeJS.ErrnoException) =>
			error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(undefined) : reject(error),
		);
		server.listen(port, '127.0.0.1', () => {
			const address = server.address();
			const taken = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(taken));
		});
	});
}

/** A port nothing listens on, from this worker's slice (the kernel's pick when it has none). */
export async function freePort(): Promise<number> {
	if (slice) {
		for (let tried = 0; tried < PORTS_PER_WORKER; tried++) {
			const port = nextPort;
			nextPort = port >= slice.last ? slice.first : port + 1;
			const free = await tryListen(port);
			if (free) return free;
		}
	}
	const picked = await tryListen(0);
	if (!picked) throw new Error('no free port on 127.0.0.1');
	return picked;
}

/** The parent's n8n/DB settings must not leak into a test instance. */
function baseEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|JEST_|GENERIC_TIMEZONE$)/.test(key)) continue;
		env[key] = value;
	}
	return env;
}

export function n8nEnv(
	line: N8nLine,
	nodeVersion: string,
	userFolder: string,
	port: number,
	brokerPort: number,
): NodeJS.ProcessEnv {
	const url = `http://127.0.0.1:${port}/`;
	const env: NodeJS.ProcessEnv = {
		...baseEnv(),
		// Jest sets NODE_ENV=test, which switches n8n into its own test behaviour.
		NODE_ENV: 'production',
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: url,
		N8N_WEBHOOK_URL: url,
		N8N_EDITOR_BASE_URL: url,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PYTHON_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_PUBLIC_API_DISABLED: 'false',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		DB_TYPE: 'sqlite',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		// Node's on-disk cache of compiled modules (Node 22.1 and later; the 1.x line's Node 20
		// ignores it). n8n loads thousands of modules at every start, and the real-n8n tier starts
		// about 80 n8n processes on 2 busy cores: measured 2026-11-29, a 2.x start spends about
		// 0.8 s less CPU (of 11 s) with the cache warm. n8n behaves the same.
		NODE_COMPILE_CACHE: path.join(cacheRoot(), 'node-compile-cache'),
	};
	if (line === '2.x') {
		// mcp-registry is the one module that calls out at start-up. Unknown module
		// names are fatal, so 1.x must not get this.
		env.N8N_DISABLED_MODULES = 'mcp-registry';
	} else {
		env.N8N_RUNNERS_ENABLED = 'true';
		env.N8N_RUNNERS_MODE = 'internal';
		env.DB_SQLITE_POOL_SIZE = '2';
		// 1.x's default expression engine needs a native module with no Node 20 build;
		// without this n8n exits shortly after reporting ready.
		if (Number(/^v?(\d+)/.exec(nodeVersion)?.[1] ?? '0') < 22) env.N8N_EXPRESSION_ENGINE = 'legacy';
	}
	return env;
}

function readProcStatusRss(pid: number): number {
	try {
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
		return match ? Number(match[1]) * 1024 : 0;
	} catch {
		return 0;
	}
}

function descendants(rootPid: number): number[] {
	const children = new Map<number, number[]>();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let stat: string;
		try {
			stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
		} catch {
			continue;
		}
		// The command name is in parentheses and may contain spaces; ppid follows it.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const ppid = Number(fields[1]);
		const list = children.get(ppid) ?? [];
		list.push(Number(entry));
		children.set(ppid, list);
	}
	const result: number[] = [];
	const queue = [rootPid];
	while (queue.length > 0) {
		const pid = queue.shift() as number;
		result.push(pid);
		queue.push(...(children.get(pid) ?? []));
	}
	return result;
}

/** A non-2xx answer; `status` and `body` let tests assert on n8n's refusals. */
class HttpError extends Error {
	constructor(
		message: string,
		readonly status: number,
		readonly body: string,
	) {
		super(message);
	}
}

async function request(
	method: string,
	url: string,
	headers: Record<string, string>,
	body?: unknown,
): Promise<{ status: number; text: string; headers: Headers }> {
	const send = () =>
		fetch(url, {
			method,
			headers: {
				accept: 'application/json',
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
		});
	let response: Response;
	try {
		response = await send();
	} catch (error) {
		// A kept-alive connection that n8n's server closed as idle just as this request went out
		// (both sides' keep-alive timers run late on a loaded machine) fails with "other side
		// closed" before n8n read anything; a read is sent again once on a fresh connection. A
		// write is not: nothing here can tell whether n8n acted on it.
		if (method !== 'GET' || !closedBeforeAnswer(error)) throw error;
		response = await send();
	}
	const text = await response.text();
	if (!response.ok) {
		throw new HttpError(
			`${method} ${url} -> ${response.status}: ${text.slice(0, 2000)}`,
			response.status,
			text,
		);
	}
	return { status: response.status, text, headers: response.headers };
}

function closedBeforeAnswer(error: unknown): boolean {
	const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
	return cause?.code === 'UND_ERR_SOCKET';
}

function parseJson<T>(text: string): T {
	return (text ? JSON.parse(text) : undefined) as T;
}

// ---- start ----

export async function startN8n(options: StartN8nOptions): Promise<N8nInstance> {
	const { line } = options;
	installCleanup();
	sweepOrphans();
	const install = await ensureN8n(line);

	const removeFolder = options.userFolder === undefined;
	const userFolder =
		options.userFolder ?? fs.mkdtempSync(path.join(os.tmpdir(), `${FOLDER_PREFIX}${line}-`));
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });

	const tarballs = Array.isArray(options.tarball) ? options.tarball : [options.tarball];
	try {
		if (tarballs.length > 0) {
			// Exactly what users do (and what n8n's own community-package install does):
			// npm install into <user folder>/.n8n/nodes, peers left to n8n.
			await runOrThrow(
				'npm',
				[
					'install',
					'--prefix',
					nodesDir,
					'--legacy-peer-deps',
					'--no-audit',
					'--no-fund',
					...tarballs,
				],
				{
					cwd: nodesDir,
					env: npmEnv(),
					timeoutMs: 180_000,
				},
			);
		}
	} catch (error) {
		if (removeFolder) fs.rmSync(userFolder, { recursive: true, force: true });
		throw error;
	}

	const port = options.port ?? (await freePort());
	let brokerPort = await freePort();
	while (brokerPort === port) brokerPort = await freePort();
	const baseUrl = `http://127.0.0.1:${port}`;
	const env = {
		...n8nEnv(line, install.nodeVersion, userFolder, port, brokerPort),
		...(options.env ?? {}),
	};

	const started = Date.now();
	const child = spawn(install.nodeBinary, [install.n8nBin, 'start'], {
		cwd: userFolder,
		env,
		// Own process group: stop() and the exit cleanup can then kill the task runner too.
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const tracked: Tracked = { child, userFolder, removeFolder };
	running.add(tracked);
	if (child.pid === undefined) {
		running.delete(tracked);
		throw new Error(`Could not spawn ${install.nodeBinary} ${install.n8nBin}`);
	}
	const pid = child.pid;
	fs.writeFileSync(
		path.join(userFolder, HARNESS_FILE),
		JSON.stringify({ ownerPid: process.pid, n8nPid: pid, line, port }),
	);
	spawnReaper(process.pid, pid, removeFolder ? [userFolder] : []);

	const watched = watchN8n(child as typeof child & { pid: number }, {
		readyLine: READY_LOG_LINE,
		label: `${line}:${port}`,
	});
	const { logs, lastLines } = watched;

	let stopped = false;
	const stop = async (): Promise<void> => {
		if (stopped) return;
		stopped = true;
		await watched.stop();
		running.delete(tracked);
		if (removeFolder) fs.rmSync(userFolder, { recursive: true, force: true });
	};

	try {
		const readyTimeout = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
		await waitUntil(`n8n ${line} to be ready`, () => readyAt(baseUrl, watched.sawReady()), {
			timeoutMs: readyTimeout,
			stopIf: () => exitedDuringStart(`n8n ${line}`, watched.exited()),
			detail: () => `(editor log line seen: ${watched.sawReady()})`,
		});
		// Readiness can answer just before a late start-up crash; give such a crash
		// a moment to show before handing out an instance that is about to vanish.
		await sleep(300);
		const exited = watched.exited();
		if (exited) throw new Error(`n8n ${line} exited right after start-up (code ${exited.code})`);
	} catch (error) {
		await stop();
		throw new Error(`${(error as Error).message}\n--- last 60 n8n log lines ---\n${lastLines(60)}`);
	}
	const startSeconds = Math.round((Date.now() - started) / 100) / 10;

	// ---- owner, login, API key ----
	const owner: Owner = { email: 'owner@trio-vms.test', password: 'Harness-Pass-1234' };
	let cookie = '';
	const restHeaders = () => ({ 'browser-id': BROWSER_ID, ...(cookie ? { cookie } : {}) });
	const takeCookie = (headers: Headers) => {
		for (const setCookie of headers.getSetCookie()) {
			const match = /^n8n-auth=([^;]*)/.exec(setCookie);
			if (match) cookie = `n8n-auth=${match[1]}`;
		}
	};
	const rest = async <T>(method: string, urlPath: string, body?: unknown): Promise<T> => {
		const response = await request(method, `${baseUrl}/rest${urlPath}`, restHeaders(), body);
		takeCookie(response.headers);
		const parsed = parseJson<{ data?: T } | undefined>(response.text);
		return (parsed && typeof parsed === 'object' && 'data' in parsed ? parsed.data : parsed) as T;
	};

	let apiKey = '';
	const api = async <T>(method: string, urlPath: string, body?: unknown): Promise<T> => {
		const response = await request(
			method,
			`${baseUrl}/api/v1${urlPath}`,
			{ 'X-N8N-API-KEY': apiKey },
			body,
		);
		return parseJson<T>(response.text);
	};

	try {
		try {
			await rest('POST', '/owner/setup', {
				email: owner.email,
				firstName: 'Harness',
				lastName: 'Owner',
				password: owner.password,
			});
		} catch (error) {
			// A reused user folder already has its owner.
			if (!(error instanceof HttpError) || error.status !== 400) throw error;
		}
		// Log in explicitly too: it is the path every later session takes, and it
		// proves the owner's password rather than relying on the setup cookie.
		await rest('POST', '/login', { emailOrLdapLoginId: owner.email, password: owner.password });
		const scopes = await rest<string[]>('GET', '/api-keys/scopes');
		const created = await rest<{ rawApiKey: string }>('POST', '/api-keys', {
			label: `harness-${Date.now()}-${randomUUID().slice(0, 8)}`,
			scopes,
			expiresAt: null,
		});
		apiKey = created.rawApiKey;
		if (!apiKey) throw new Error('POST /rest/api-keys returned no rawApiKey');
	} catch (error) {
		await stop();
		throw new Error(
			`Setting up n8n ${line} failed: ${(error as Error).message}\n--- last 60 n8n log lines ---\n${lastLines(60)}`,
		);
	}

	const typeNames = async (file: 'nodes' | 'credentials'): Promise<string[]> => {
		// The static type files are what the editor itself loads, including community
		// packages, and exist under the same path on 1.x and 2.x.
		const response = await request('GET', `${baseUrl}/types/${file}.json`, restHeaders());
		const list = parseJson<Array<{ name: string }>>(response.text);
		return [...new Set(list.map((entry) => entry.name))].sort();
	};

	const icons = async (packageName: string) => {
		const found: Array<{ type: string; url: string }> = [];
		for (const file of ['nodes', 'credentials'] as const) {
			const response = await request('GET', `${baseUrl}/types/${file}.json`, restHeaders());
			const list = parseJson<Array<{ name: string; iconUrl?: string | Record<string, string> }>>(
				response.text,
			);
			for (const entry of list) {
				const ours =
					file === 'credentials'
						? JSON.stringify(entry.iconUrl ?? '').includes(`/${packageName}/`)
						: entry.name.startsWith(`${packageName}.`);
				if (!ours || !entry.iconUrl) continue;
				const urls =
					typeof entry.iconUrl === 'string' ? [entry.iconUrl] : Object.values(entry.iconUrl);
				for (const url of urls) found.push({ type: entry.name, url });
			}
		}
		const answered = [];
		for (const { type, url } of found) {
			const response = await request('GET', `${baseUrl}/${url}`, restHeaders());
			answered.push({
				type,
				url,
				status: response.status,
				contentType: response.headers.get('content-type') ?? '',
			});
		}
		return answered;
	};

	const newestExecutions = async (workflowId: string): Promise<ExecutionRecord[]> => {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const answer = await rest<{ results?: ExecutionRecord[] } | undefined>(
			'GET',
			`/executions?filter=${filter}&limit=100`,
		);
		return answer?.results ?? [];
	};

	const listExecutions = async (workflowId: string): Promise<ExecutionRecord[]> => {
		const all: ExecutionRecord[] = [];
		let cursor: string | undefined;
		// Bounded: 40 pages of 250 is far beyond any test's executions.
		for (let page = 0; page < 40; page++) {
			const query = new URLSearchParams({ workflowId, limit: '250', includeData: 'false' });
			if (cursor) query.set('cursor', cursor);
			const result = await api<{ data: ExecutionRecord[]; nextCursor?: string | null }>(
				'GET',
				`/executions?${query.toString()}`,
			);
			all.push(...result.data);
			if (!result.nextCursor) break;
			cursor = result.nextCursor;
		}
		// The public API leaves out every execution the main process counts as running, and in
		// queue mode n8n's main misses the end of a job a worker finishes within moments of its
		// enqueueing (a polled check's execution, a few ms long): it counts that execution as
		// running until it restarts, though the database has it finished. The editor's list reads
		// the database: its newest finished executions join the list.
		const listed = new Set(all.map((each) => each.id));
		for (const each of await newestExecutions(workflowId))
			if (!listed.has(each.id) && each.stoppedAt) all.push(each);
		return all.sort((a, b) => Number(a.id) - Number(b.id));
	};

	const instance: N8nInstance = {
		line,
		version: install.version,
		baseUrl,
		port,
		brokerPort,
		pid,
		userFolder,
		owner,
		apiKey,
		startSeconds,
		logs,
		rest,
		api,
		createCredential: async (name, type, data) => {
			// 1.123.x rejects a credential body without this field; 2.x accepts it.
			const body =
				line === '1.x' && !('allowedHttpRequestDomains' in data)
					? { ...data, allowedHttpRequestDomains: 'all' }
					: data;
			try {
				return await api<CredentialRecord>('POST', '/credentials', { name, type, data: body });
			} catch (error) {
				// 1.x builds the public API's JSON schema from displayOptions wrongly: a field
				// shown for several values of another one (the Trio base URL for environment
				// "custom") becomes "prohibited". The editor's own endpoint has no such check.
				if (
					line !== '1.x' ||
					!(error instanceof HttpError) ||
					error.status !== 400 ||
					!error.body.includes('schema')
				)
					throw error;
				return rest<CredentialRecord>('POST', '/credentials', { name, type, data: body });
			}
		},
		createWorkflow: (json) =>
			// The public API rejects read-only fields (id, active, tags...), so send only
			// what it accepts.
			api<WorkflowRecord>('POST', '/workflows', {
				name: json.name ?? `harness ${randomUUID()}`,
				nodes: json.nodes,
				connections: json.connections,
				settings: json.settings ?? {},
				...(json.staticData === undefined ? {} : { staticData: json.staticData }),
			}),
		activate: (id) => api<WorkflowRecord>('POST', `/workflows/${id}/activate`),
		deactivate: (id) => api<WorkflowRecord>('POST', `/workflows/${id}/deactivate`),
		deleteWorkflow: async (id) => {
			// 2.x unpublishes asynchronously after deactivate and answers 409 meanwhile.
			const deadline = Date.now() + 15_000;
			for (;;) {
				try {
					await api('DELETE', `/workflows/${id}`);
					return;
				} catch (error) {
					if (!(error instanceof HttpError) || error.status !== 409 || Date.now() > deadline)
						throw error;
				}
				await sleep(200);
			}
		},
		listExecutions,
		newestExecutions,
		getExecution: (id) => api<ExecutionRecord>('GET', `/executions/${id}?includeData=true`),
		settlePublication: async (workflowId, timeoutMs = 60_000) => {
			if (line !== '2.x') return undefined;
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const status = await rest<PublicationStatus>(
					'GET',
					`/workflows/${workflowId}/publication-status`,
				);
				if (status.status !== 'in_progress') return status;
				if (Date.now() > deadline)
					throw new Error(
						`workflow ${workflowId}: publication still in progress after ${timeoutMs / 1000} s`,
					);
				await sleep(150);
			}
		},
		waitForExecutions: async (workflowId, count, timeoutMs) => {
			const deadline = Date.now() + timeoutMs;
			let seen: ExecutionRecord[] = [];
			for (;;) {
				seen = await listExecutions(workflowId);
				const finished = seen.filter(
					(execution) =>
						execution.stoppedAt !== null &&
						!['new', 'running', 'waiting'].includes(execution.status),
				);
				if (finished.length >= count) return finished;
				if (Date.now() > deadline) {
					throw new Error(
						`Workflow ${workflowId}: expected ${count} finished executions within ${timeoutMs} ms, saw ${JSON.stringify(
							seen.map((execution) => ({ id: execution.id, status: execution.status })),
						)}`,
					);
				}
				await sleep(250);
			}
		},
		nodeTypes: () => typeNames('nodes'),
		credentialTypes: () => typeNames('credentials'),
		icons,
		productionWebhookUrl: (webhookId, urlPath) => {
			const trimmed = urlPath.replace(/^\/+/, '');
			return webhookId
				? `${baseUrl}/webhook/${webhookId}/${trimmed}`
				: `${baseUrl}/webhook/${trimmed}`;
		},
		rssBytes: () =>
			watched.exited()
				? 0
				: descendants(pid).reduce((sum, each) => sum + readProcStatusRss(each), 0),
		stop,
	};
	return instance;
}
