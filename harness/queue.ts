/**
 * n8n 2.x the way n8n recommends running it in production: PostgreSQL, and queue mode with a
 * main process (activates workflows, serves the editor and APIs), webhook processes (receive
 * production webhooks) and workers (run executions), Redis between them.
 *
 * A tiny round-robin HTTP proxy stands in for the load balancer in front of the webhook
 * processes; its address is n8n's public webhook address (WEBHOOK_URL).
 *
 * Also: `startN8nOnPostgres` for one regular-mode n8n on PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

import { spawnReaper } from './exec';
import { readyAt, watchN8n } from './n8n-process';
import { exitedDuringStart, waitUntil } from './wait';
import { ensureN8n } from './install';
import { freePort, n8nEnv, startN8n } from './n8n';
import type { N8nInstance } from './n8n';
import type { Postgres, Redis } from './services';

const READY_TIMEOUT_MS = 120_000;
const ROOT_PREFIX = 'trio-queue-';

// ---------------------------------------------------------------- the load balancer

interface RoundRobinProxy {
	/** `http://127.0.0.1:<port>/`: what n8n is told its public webhook address is. */
	url: string;
	port: number;
	/** Backends in turn; requests arriving while there are none are answered 502. */
	setTargets(targets: string[]): void;
	/** How many requests each backend received since the last reset, keyed by backend URL. */
	counts(): Record<string, number>;
	/** With 'uri-hash': the backend a request for this path and query goes to. */
	backendFor(requestUrl: string): string;
	resetCounts(): void;
	stop(): Promise<void>;
}

/**
 * How the proxy picks a backend: in turn, or by a hash of the request's path and query (what
 * nginx's `hash $request_uri consistent` or HAProxy's `balance uri whole` do), which sends every
 * copy of one delivery, and every delivery of one registration, to the same process.
 */
export type Balancing = 'round-robin' | 'uri-hash';

/**
 * Forwards each request, once its whole body has arrived, to a backend chosen by `balancing`, body
 * and headers as they came (plus the usual X-Forwarded-* headers), and streams the answer back.
 * 127.0.0.1 only.
 */
export async function startRoundRobinProxy(
	targets: string[] = [],
	port = 0,
	balancing: Balancing = 'round-robin',
): Promise<RoundRobinProxy> {
	let backends = [...targets];
	let next = 0;
	let counts: Record<string, number> = {};
	// A fresh connection per request: with keep-alive, n8n closing an idle socket just as the proxy
	// reuses it turns into a spurious 502 (seen once in 200 deliveries), which no load balancer
	// would pass on for a request it never got to send.
	const agent = new http.Agent({ keepAlive: false, maxSockets: 64 });
	const hashed = (requestUrl: string) =>
		backends[createHash('sha256').update(requestUrl).digest().readUInt32BE(0) % backends.length];
	const server = http.createServer((request, response) => {
		if (backends.length === 0) {
			response.writeHead(502, { 'content-type': 'text/plain' }).end('no backend');
			request.resume();
			return;
		}
		let backend: string;
		if (balancing === 'uri-hash') {
			backend = hashed(request.url ?? '/');
		} else {
			backend = backends[next % backends.length];
			next = (next + 1) % backends.length;
		}
		counts[backend] = (counts[backend] ?? 0) + 1;
		const target = new URL(request.url ?? '/', backend);
		// The whole upload is read before the backend is asked, as nginx does by default
		// (proxy_request_buffering): n8n answers a request it will not run (a webhook it does not
		// know yet) before reading its body and drops the connection, and a client still uploading
		// then gets a complete answer from the balancer instead of a reset connection.
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('error', () => response.destroy());
		request.on('end', () => {
			const body = Buffer.concat(chunks);
			const headers: http.OutgoingHttpHeaders = {
				...request.headers,
				host: target.host,
				'x-forwarded-for': request.socket.remoteAddress ?? '127.0.0.1',
				'x-forwarded-host': request.headers.host ?? '',
				'x-forwarded-proto': 'http',
			};
			delete headers['transfer-encoding'];
			if (body.length > 0 || request.headers['content-length'] !== undefined)
				headers['content-length'] = String(body.length);
			const upstream = http.request(
				target,
				{ method: request.method, agent, headers },
				(answer) => {
					response.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(response);
					// An answer the backend cut off reaches the client cut off, not as a wait for ever.
					answer.on('close', () => {
						if (!answer.complete) response.destroy();
					});
				},
			);
			upstream.setTimeout(120_000, () => upstream.destroy(new Error('backend timed out')));
			upstream.on('error', (error) => {
				if (!response.headersSent) {
					response.writeHead(502, { 'content-type': 'text/plain' }).end(error.message);
				} else {
					response.destroy(error);
				}
			});
			upstream.end(body);
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
	const address = server.address();
	const actualPort = typeof address === 'object' && address ? address.port : port;
	return {
		url: `http://127.0.0.1:${actualPort}/`,
		port: actualPort,
		setTargets: (list) => {
			backends = [...list];
			next = 0;
		},
		counts: () => ({ ...counts }),
		backendFor: hashed,
		resetCounts: () => {
			counts = {};
		},
		stop: async () => {
			agent.destroy();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

// ---------------------------------------------------------------- environment

/** n8n on the harness's PostgreSQL (password-less: the server trusts loopback). */
function postgresEnv(postgres: Postgres, database: string): Record<string, string> {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: postgres.host,
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		DB_POSTGRESDB_SCHEMA: 'public',
	};
}

/** What every process of one queue-mode n8n shares. */
function queueEnv(
	postgres: Postgres,
	database: string,
	redis: Redis,
	webhookUrl: string,
): Record<string, string> {
	return {
		...postgresEnv(postgres, database),
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		// Binary data must be reachable from every process: 2.41 accepts filesystem (only with a
		// shared disk), s3 and database in queue mode; database needs nothing else.
		N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		// Production webhooks go to the webhook processes only, as behind a real load balancer.
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		WEBHOOK_URL: webhookUrl,
		N8N_WEBHOOK_URL: webhookUrl,
		N8N_LOG_LEVEL: process.env.TRIO_N8N_LOG_LEVEL || 'info',
	};
}

// ---------------------------------------------------------------- webhook and worker processes

type QueueRole = 'webhook' | 'worker';

interface N8nProcess {
	role: QueueRole;
	/** The HTTP port: the webhook listener, or the worker's health server. */
	port: number;
	/** `http://127.0.0.1:<port>` */
	baseUrl: string;
	pid: number;
	userFolder: string;
	startSeconds: number;
	logs(): string;
	rssBytes(): number;
	stop(): Promise<void>;
}

const READY_LINES: Record<QueueRole, string> = {
	webhook: 'Webhook listener waiting for requests.',
	worker: 'n8n worker is now ready',
};

function rssOfGroup(pid: number): number {
	let total = 0;
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			// fields[2] is the process group.
			if (Number(fields[2]) !== pid) continue;
			const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
			const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
			if (match) total += Number(match[1]) * 1024;
		} catch {
			// Gone meanwhile.
		}
	}
	return total;
}

/**
 * Starts `n8n webhook` or `n8n worker` on a user folder that already holds the community
 * package (copied from the main process's folder). The folder is kept on stop: a restart
 * reuses it.
 */
async function startQueueProcess(options: {
	role: QueueRole;
	userFolder: string;
	env: Record<string, string>;
	label?: string;
}): Promise<N8nProcess> {
	const { role, userFolder } = options;
	const install = await ensureN8n('2.x');
	const port = await freePort();
	let brokerPort = await freePort();
	while (brokerPort === port) brokerPort = await freePort();
	const env: NodeJS.ProcessEnv = {
		...n8nEnv('2.x', install.nodeVersion, userFolder, port, brokerPort),
		...options.env,
	};
	if (role === 'worker') {
		// A worker has no editor port; its health server answers /healthz/readiness.
		env.QUEUE_HEALTH_CHECK_ACTIVE = 'true';
		env.QUEUE_HEALTH_CHECK_PORT = String(port);
		env.N8N_WORKER_SERVER_ADDRESS = '127.0.0.1';
	}
	const started = Date.now();
	const child = spawn(install.nodeBinary, [install.n8nBin, role], {
		cwd: userFolder,
		env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	if (child.pid === undefined) throw new Error(`could not spawn n8n ${role}`);
	const pid = child.pid;
	spawnReaper(process.pid, pid, []);
	const watched = watchN8n(child as typeof child & { pid: number }, {
		readyLine: READY_LINES[role],
		label: options.label ?? `${role}:${port}`,
	});
	const baseUrl = `http://127.0.0.1:${port}`;
	try {
		await waitUntil(`n8n ${role} to be ready`, () => readyAt(baseUrl, watched.sawReady()), {
			timeoutMs: READY_TIMEOUT_MS,
			stopIf: () => exitedDuringStart(`n8n ${role}`, watched.exited()),
		});
	} catch (error) {
		await watched.stop();
		throw new Error(
			`${(error as Error).message}\n--- last 60 log lines ---\n${watched.lastLines(60)}`,
		);
	}
	return {
		role,
		port,
		baseUrl,
		pid,
		userFolder,
		startSeconds: Math.round((Date.now() - started) / 100) / 10,
		logs: watched.logs,
		rssBytes: () => (watched.exited() ? 0 : rssOfGroup(pid)),
		stop: watched.stop,
	};
}

// ---------------------------------------------------------------- the whole stack

/**
 * The last `last` lines of a stack's logs (QueueStack.logs) that `keep` takes, each process's
 * "===== name =====" header kept so a reader sees which process said what: for a failure's message.
 */
export function logExcerpt(logs: string, keep: (line: string) => boolean, last: number): string {
	return logs
		.split('\n')
		.filter((line) => line.startsWith('=====') || keep(line))
		.slice(-last)
		.join('\n');
}

export interface QueueStackOptions {
	tarball: string | string[];
	postgres: Postgres;
	redis: Redis;
	/** Database for this stack; created when `createDatabase` is true (default). */
	database: string;
	createDatabase?: boolean;
	webhookProcesses?: number;
	workers?: number;
	/** Reuse folders (a restart); otherwise a new root folder under os.tmpdir(). */
	rootFolder?: string;
	/** Reuse a proxy (same public address); otherwise a new one. */
	proxy?: RoundRobinProxy;
	/** Extra environment for every process. */
	env?: Record<string, string>;
}

/** Seconds each process took to stop (a process that ignores SIGTERM is killed after 20 s). */
interface StopTimings {
	webhooks: number[];
	workers: number[];
	main: number;
}

export interface QueueStack {
	main: N8nInstance;
	webhooks: N8nProcess[];
	workers: N8nProcess[];
	proxy: RoundRobinProxy;
	rootFolder: string;
	database: string;
	/** Production URL through the proxy (what the service calls). */
	productionWebhookUrl(webhookId: string, urlPath: string): string;
	/** Seconds per process to ready, and the whole stack's wall time. */
	timings: { total: number; main: number; webhooks: number[]; workers: number[] };
	/** Every process's log, labelled, for evidence in failures. */
	logs(): string;
	rssBytes(): { main: number; webhooks: number[]; workers: number[] };
	/** Stops every n8n process, keeping folders, database, Redis and the proxy (for a restart). */
	stopProcesses(): Promise<StopTimings>;
	/** Stops the processes and the proxy, and removes the folders. Services are the caller's. */
	stop(): Promise<void>;
	/**
	 * After stopProcesses(): the same stack started again on its database and folders, behind
	 * the same proxy (the same public address) unless `newAddress`; `postgres` reaches the same
	 * server another way (e.g. through a delaying proxy); `workers` starts that many workers
	 * instead of the stack's count (the first ones, on their folders).
	 */
	startAgain(changes?: {
		newAddress?: boolean;
		postgres?: Postgres;
		workers?: number;
	}): Promise<QueueStack>;
}

export async function startQueueStack(options: QueueStackOptions): Promise<QueueStack> {
	const started = Date.now();
	const webhookCount = options.webhookProcesses ?? 2;
	const workerCount = options.workers ?? 1;
	const { postgres, redis, database } = options;
	if (options.createDatabase !== false) await postgres.createDatabase(database);
	const rootFolder =
		options.rootFolder ?? fs.mkdtempSync(path.join(os.tmpdir(), `${ROOT_PREFIX}${database}-`));
	if (!options.rootFolder) {
		// Removed once the test process is gone, however it ends (groupPid 0: watch only).
		spawnReaper(process.pid, undefined, [rootFolder]);
	}
	const proxy = options.proxy ?? (await startRoundRobinProxy());
	const shared = { ...queueEnv(postgres, database, redis, proxy.url), ...(options.env ?? {}) };
	const folderOf = (name: string) => {
		const folder = path.join(rootFolder, name);
		fs.mkdirSync(folder, { recursive: true });
		return folder;
	};

	// Main first: it runs the database migrations the others expect.
	const mainInstance = await startN8n({
		line: '2.x',
		tarball: fs.existsSync(path.join(rootFolder, 'main', '.n8n', 'nodes', 'node_modules'))
			? []
			: options.tarball,
		userFolder: folderOf('main'),
		env: shared,
		readyTimeoutMs: READY_TIMEOUT_MS,
	});
	const mainNodes = path.join(rootFolder, 'main', '.n8n', 'nodes');
	const others: Array<{ role: QueueRole; name: string }> = [
		...Array.from({ length: webhookCount }, (_, index) => ({
			role: 'webhook' as const,
			name: `webhook-${index + 1}`,
		})),
		...Array.from({ length: workerCount }, (_, index) => ({
			role: 'worker' as const,
			name: `worker-${index + 1}`,
		})),
	];
	const startedOthers: N8nProcess[] = [];
	try {
		// Two at a time: on 2 cores, four n8n starting together only slow each other down.
		for (let index = 0; index < others.length; index += 2) {
			const batch = others.slice(index, index + 2);
			const results = await Promise.allSettled(
				batch.map(async ({ role, name }) => {
					const folder = folderOf(name);
					const nodesDir = path.join(folder, '.n8n', 'nodes');
					if (!fs.existsSync(path.join(nodesDir, 'node_modules'))) {
						fs.mkdirSync(path.dirname(nodesDir), { recursive: true });
						fs.cpSync(mainNodes, nodesDir, { recursive: true });
					}
					return startQueueProcess({ role, userFolder: folder, env: shared, label: name });
				}),
			);
			for (const result of results) {
				if (result.status === 'fulfilled') startedOthers.push(result.value);
			}
			const failed = results.find((result) => result.status === 'rejected');
			if (failed) throw (failed as PromiseRejectedResult).reason;
		}
	} catch (error) {
		await Promise.all(startedOthers.map((each) => each.stop()));
		await mainInstance.stop();
		if (!options.proxy) await proxy.stop();
		throw error;
	}
	const webhooks = startedOthers.filter((each) => each.role === 'webhook');
	const workers = startedOthers.filter((each) => each.role === 'worker');
	proxy.setTargets(webhooks.map((each) => each.baseUrl));

	const productionWebhookUrl = (webhookId: string, urlPath: string) => {
		const trimmed = urlPath.replace(/^\/+/, '');
		return webhookId
			? `${proxy.url}webhook/${webhookId}/${trimmed}`
			: `${proxy.url}webhook/${trimmed}`;
	};
	// The main instance's helpers work unchanged, but its production URL is the proxy's.
	const main: N8nInstance = { ...mainInstance, productionWebhookUrl };

	const timed = async (stop: () => Promise<void>) => {
		const begun = Date.now();
		await stop();
		return Math.round((Date.now() - begun) / 100) / 10;
	};
	const stopProcesses = async (): Promise<StopTimings> => {
		const [webhookTimes, workerTimes] = await Promise.all([
			Promise.all(webhooks.map((each) => timed(each.stop))),
			Promise.all(workers.map((each) => timed(each.stop))),
		]);
		const mainTime = await timed(mainInstance.stop);
		return { webhooks: webhookTimes, workers: workerTimes, main: mainTime };
	};
	return {
		main,
		webhooks,
		workers,
		proxy,
		rootFolder,
		database,
		productionWebhookUrl,
		timings: {
			total: Math.round((Date.now() - started) / 100) / 10,
			main: mainInstance.startSeconds,
			webhooks: webhooks.map((each) => each.startSeconds),
			workers: workers.map((each) => each.startSeconds),
		},
		logs: () =>
			[
				`===== main =====\n${mainInstance.logs()}`,
				...webhooks.map((each, index) => `===== webhook-${index + 1} =====\n${each.logs()}`),
				...workers.map((each, index) => `===== worker-${index + 1} =====\n${each.logs()}`),
			].join('\n'),
		rssBytes: () => ({
			main: mainInstance.rssBytes(),
			webhooks: webhooks.map((each) => each.rssBytes()),
			workers: workers.map((each) => each.rssBytes()),
		}),
		stopProcesses,
		stop: async () => {
			await stopProcesses();
			await proxy.stop();
			fs.rmSync(rootFolder, { recursive: true, force: true });
		},
		startAgain: async (changes = {}) =>
			await startQueueStack({
				...options,
				postgres: changes.postgres ?? postgres,
				workers: changes.workers ?? options.workers,
				createDatabase: false,
				rootFolder,
				proxy: changes.newAddress ? undefined : proxy,
			}),
	};
}

/** One regular-mode n8n 2.x whose database is the harness's PostgreSQL. */
export async function startN8nOnPostgres(options: {
	tarball: string | string[];
	postgres: Postgres;
	database: string;
	userFolder?: string;
	createDatabase?: boolean;
	env?: Record<string, string>;
}): Promise<N8nInstance> {
	if (options.createDatabase !== false) await options.postgres.createDatabase(options.database);
	return startN8n({
		line: '2.x',
		tarball: options.tarball,
		userFolder: options.userFolder,
		env: { ...postgresEnv(options.postgres, options.database), ...(options.env ?? {}) },
	});
}
