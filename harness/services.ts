/**
 * PostgreSQL and Redis for the production-shaped real-n8n tests (queue mode, n8n on PostgreSQL).
 *
 * Both come from Debian packages. When a server binary is missing it is installed with apt-get
 * (`apt-get update` once first) behind a temporary `policy-rc.d` that forbids starting services,
 * so the package's own system service never runs. The harness then starts its own servers on free
 * 127.0.0.1 ports with their data in a temporary folder, and stops them at the end: on `stop()`,
 * through the reaper when the test process dies, and by the next start's sweep of orphans.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	killGroup,
	run,
	runOrThrow,
	sleep,
	spawnReaper,
	sweepOrphanFolders,
	watchExit,
	type ExitStatus,
} from './exec';
import { exitedDuringStart, waitUntil } from './wait';
import { freePort } from './n8n';

const FOLDER_PREFIX = 'trio-services-';
const MARKER = '.trio-services.json';
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 15_000;
const APT_TIMEOUT_MS = 10 * 60_000;

interface RunningService {
	name: 'postgres' | 'redis';
	port: number;
	pid: number;
	/** Temporary folder with the server's data; removed on stop. */
	folder: string;
	/** Everything the server printed. */
	logs(): string;
	stop(): Promise<void>;
}

export interface Postgres extends RunningService {
	name: 'postgres';
	host: string;
	user: string;
	/** A database created for the caller. */
	database: string;
	/** Creates another empty database (e.g. one per n8n setup). */
	createDatabase(name: string): Promise<void>;
}

export interface Redis extends RunningService {
	name: 'redis';
	host: string;
}

// ---------------------------------------------------------------- binaries

let aptUpdated = false;

/** apt-get install with services forbidden to start (policy-rc.d answers 101: "not allowed"). */
async function aptInstall(packages: string[]): Promise<void> {
	if (typeof process.getuid === 'function' && process.getuid() !== 0) {
		throw new Error(
			`${packages.join(', ')} missing and this process is not root: install them with apt-get`,
		);
	}
	const policy = '/usr/sbin/policy-rc.d';
	const ownPolicy = !fs.existsSync(policy);
	if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
	try {
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		if (!aptUpdated) {
			await runOrThrow('apt-get', ['update'], { env, timeoutMs: APT_TIMEOUT_MS });
			aptUpdated = true;
		}
		// apt's lock may be held by another engineer's install: wait for it (bounded).
		await runOrThrow(
			'apt-get',
			['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '--no-install-recommends', ...packages],
			{ env, timeoutMs: APT_TIMEOUT_MS },
		);
	} finally {
		if (ownPolicy) fs.rmSync(policy, { force: true });
	}
	// Belt and braces: should a package have started its server anyway, stop it, and keep it from
	// starting at the next boot (the harness starts its own servers; the system ones stay off).
	for (const service of packages) {
		const quiet = { timeoutMs: 30_000 };
		await run('service', [service, 'stop'], quiet).catch(() => undefined);
		await run('update-rc.d', [service, 'disable'], quiet).catch(() => undefined);
	}
}

export const CHROMIUM = '/usr/bin/chromium';

/** Headless, without the sandbox (root in CI), and quiet: nothing fetched from outside. */
export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--no-first-run',
];

/**
 * Debian's Chromium for the editor test, installed with apt-get when absent (never a browser
 * build downloaded by a tool). Its package ships no service, so nothing is left running.
 */
export async function ensureChromium(): Promise<string> {
	if (!fs.existsSync(CHROMIUM)) await aptInstall(['chromium']);
	if (!fs.existsSync(CHROMIUM))
		throw new Error(`apt-get installed chromium, but ${CHROMIUM} is missing`);
	return CHROMIUM;
}

function postgresBinDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return undefined;
	const versions = fs
		.readdirSync(root)
		.filter((entry) => fs.existsSync(path.join(root, entry, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(root, versions[0], 'bin') : undefined;
}

function which(binary: string): string | undefined {
	const result = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
	const found = result.stdout.trim();
	return result.status === 0 && found ? found : undefined;
}

async function ensurePostgresBinaries(): Promise<string> {
	let dir = postgresBinDir();
	if (!dir) {
		await aptInstall(['postgresql']);
		dir = postgresBinDir();
	}
	if (!dir)
		throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql after install');
	return dir;
}

async function ensureRedisBinary(): Promise<string> {
	let binary = which('redis-server');
	if (!binary) {
		await aptInstall(['redis-server']);
		binary = which('redis-server');
	}
	if (!binary) throw new Error('redis-server not found after install');
	return binary;
}

// ---------------------------------------------------------------- process bookkeeping

/** PostgreSQL refuses to run as root: use the package's `postgres` user when we are root. */
function unprivilegedUser(): { uid: number; gid: number } | undefined {
	if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
	const result = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
	const gidResult = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
	if (result.status !== 0 || gidResult.status !== 0) {
		throw new Error('running as root but there is no "postgres" user to run PostgreSQL as');
	}
	return { uid: Number(result.stdout.trim()), gid: Number(gidResult.stdout.trim()) };
}

/** Kills servers and removes folders left by a test process that died without cleaning up. */
function sweepOrphans(): void {
	sweepOrphanFolders<{ ownerPid?: number; pid?: number; binary?: string }>(
		FOLDER_PREFIX,
		MARKER,
		(marker) => ({
			pid: marker.pid,
			command: marker.binary ? path.basename(marker.binary) : undefined,
		}),
	);
}

interface Spawned {
	child: ChildProcess;
	pid: number;
	logs(): string;
	exited(): ExitStatus | undefined;
	exitPromise: Promise<void>;
}

function spawnServer(
	binary: string,
	args: string[],
	folder: string,
	options: { uid?: number; gid?: number; env?: NodeJS.ProcessEnv },
): Spawned {
	const child = spawn(binary, args, {
		cwd: folder,
		env: options.env ?? process.env,
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
		...(options.uid !== undefined ? { uid: options.uid, gid: options.gid } : {}),
	});
	if (child.pid === undefined) throw new Error(`could not spawn ${binary}`);
	const pid = child.pid;
	fs.writeFileSync(
		path.join(folder, MARKER),
		JSON.stringify({ ownerPid: process.pid, pid, binary }),
	);
	spawnReaper(process.pid, pid, [folder]);
	let output = '';
	const onData = (data: Buffer) => {
		output += data.toString('utf8');
		if (output.length > 500_000) output = output.slice(-250_000);
	};
	child.stdout?.on('data', onData);
	child.stderr?.on('data', onData);
	return { child, pid, logs: () => output, ...watchExit(child) };
}

async function stopServer(spawned: Spawned, signal: NodeJS.Signals, folder: string): Promise<void> {
	if (!spawned.exited()) {
		killGroup(spawned.pid, signal);
		const graceful = await Promise.race([
			spawned.exitPromise.then(() => true),
			sleep(STOP_GRACE_MS, true).then(() => false),
		]);
		if (!graceful) {
			killGroup(spawned.pid, 'SIGKILL');
			await Promise.race([spawned.exitPromise, sleep(5000, true)]);
		}
	}
	killGroup(spawned.pid, 'SIGKILL');
	fs.rmSync(folder, { recursive: true, force: true });
}

async function untilReady(
	what: string,
	spawned: Spawned,
	probe: () => Promise<boolean>,
): Promise<void> {
	await waitUntil(
		`${what} to be ready`,
		async () => ((await probe().catch(() => false)) ? true : undefined),
		{
			timeoutMs: READY_TIMEOUT_MS,
			intervalMs: 200,
			stopIf: () => exitedDuringStart(what, spawned.exited()),
			detail: () => spawned.logs().slice(-4000),
		},
	);
}

/** PostgreSQL and Redis for a queue-mode stack, started side by side; stop() stops both. */
export interface QueueServices {
	postgres: Postgres;
	redis: Redis;
	stop(): Promise<void>;
}

export async function startQueueServices(): Promise<QueueServices> {
	const [postgres, redis] = await Promise.allSettled([startPostgres(), startRedis()]);
	if (postgres.status === 'rejected' || redis.status === 'rejected') {
		if (postgres.status === 'fulfilled') await postgres.value.stop();
		if (redis.status === 'fulfilled') await redis.value.stop();
		throw postgres.status === 'rejected'
			? postgres.reason
			: (redis as PromiseRejectedResult).reason;
	}
	return {
		postgres: postgres.value,
		redis: redis.value,
		stop: async () => {
			await redis.value.stop();
			await postgres.value.stop();
		},
	};
}

// ---------------------------------------------------------------- PostgreSQL

export async function startPostgres(options: { database?: string } = {}): Promise<Postgres> {
	sweepOrphans();
	const bin = await ensurePostgresBinaries();
	const user = unprivilegedUser();
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), `${FOLDER_PREFIX}postgres-`));
	const dataDir = path.join(folder, 'data');
	fs.mkdirSync(dataDir, { mode: 0o700 });
	if (user) {
		fs.chownSync(folder, user.uid, user.gid);
		fs.chownSync(dataDir, user.uid, user.gid);
	}
	const asUser = user ? { uid: user.uid, gid: user.gid } : {};
	const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };
	try {
		await runOrThrow(
			path.join(bin, 'initdb'),
			['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'],
			{ cwd: folder, env, timeoutMs: 120_000, ...asUser },
		);
	} catch (error) {
		fs.rmSync(folder, { recursive: true, force: true });
		throw error;
	}
	const port = await freePort();
	const host = '127.0.0.1';
	const postgresBinary = path.join(bin, 'postgres');
	const spawned = spawnServer(
		postgresBinary,
		[
			'-D',
			dataDir,
			'-h',
			host,
			'-p',
			String(port),
			// The socket lives in the temp folder, never in /var/run/postgresql.
			'-k',
			folder,
			// Throwaway data: durability costs time and buys nothing here.
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=200',
		],
		folder,
		{ ...asUser, env },
	);
	const psql = path.join(bin, 'psql');
	const query = (sql: string) =>
		runOrThrow(
			psql,
			[
				'-h',
				host,
				'-p',
				String(port),
				'-U',
				'postgres',
				'-d',
				'postgres',
				'-v',
				'ON_ERROR_STOP=1',
				'-c',
				sql,
			],
			{ cwd: os.tmpdir(), env, timeoutMs: 30_000 },
		);
	const stop = () => stopServer(spawned, 'SIGINT', folder);
	try {
		await untilReady('PostgreSQL', spawned, async () => {
			const result = await run(
				path.join(bin, 'pg_isready'),
				['-h', host, '-p', String(port), '-U', 'postgres'],
				{ cwd: os.tmpdir(), env, timeoutMs: 10_000 },
			);
			return result.code === 0;
		});
		const database = options.database ?? 'n8n';
		await query(`CREATE DATABASE "${database}"`);
		return {
			name: 'postgres',
			host,
			port,
			pid: spawned.pid,
			folder,
			user: 'postgres',
			database,
			createDatabase: async (name) => {
				await query(`CREATE DATABASE "${name}"`);
			},
			logs: spawned.logs,
			// SIGINT is PostgreSQL's "fast shutdown".
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

// ---------------------------------------------------------------- Redis

export async function startRedis(): Promise<Redis> {
	sweepOrphans();
	const binary = await ensureRedisBinary();
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), `${FOLDER_PREFIX}redis-`));
	const port = await freePort();
	const host = '127.0.0.1';
	const spawned = spawnServer(
		binary,
		[
			'--port',
			String(port),
			'--bind',
			host,
			'--dir',
			folder,
			'--save',
			'',
			'--appendonly',
			'no',
			'--daemonize',
			'no',
			'--protected-mode',
			'yes',
		],
		folder,
		{},
	);
	const stop = () => stopServer(spawned, 'SIGTERM', folder);
	try {
		await untilReady('Redis', spawned, async () => spawned.logs().includes('Ready to accept'));
		return { name: 'redis', host, port, pid: spawned.pid, folder, logs: spawned.logs, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}
