import { spawn } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface RunResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	/** stdout and stderr interleaved, for error reports. */
	output: string;
	/** stdout alone, for commands whose result is machine-read. */
	stdout: string;
	seconds: number;
}

export interface RunOptions extends SpawnOptions {
	/** Every child is bounded: a hung npm must not hang the test run. */
	timeoutMs: number;
	/** Called with each chunk so long installs can be logged to a file as they go. */
	onOutput?: (chunk: string) => void;
	/**
	 * Kill the child's process group if this process dies first. For long installs: an
	 * orphaned npm would keep writing into a temp folder the next install deletes.
	 */
	killWithParent?: boolean;
}

/**
 * Runs a command to completion with a hard time limit and captures stdout+stderr
 * interleaved, because npm reports its real error on whichever stream it likes.
 */
export function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
	const { timeoutMs, onOutput, killWithParent, ...spawnOptions } = options;
	const started = Date.now();
	return new Promise((resolve, reject) => {
		// detached gives the child its own process group so a timeout can kill
		// npm's grandchildren (node-gyp, make, cc) too.
		const child = spawn(command, args, {
			...spawnOptions,
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		if (killWithParent) spawnReaper(process.pid, child.pid, []);
		let output = '';
		let stdout = '';
		child.stdout?.on('data', (data: Buffer) => {
			stdout += data.toString('utf8');
		});
		const onData = (data: Buffer) => {
			const text = data.toString('utf8');
			output += text;
			if (output.length > 2_000_000) output = output.slice(-1_000_000);
			onOutput?.(text);
		};
		child.stdout?.on('data', onData);
		child.stderr?.on('data', onData);
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup(child.pid, 'SIGKILL');
		}, timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			const seconds = (Date.now() - started) / 1000;
			if (timedOut) {
				reject(
					new Error(
						`${command} ${args.join(' ')} timed out after ${timeoutMs / 1000} s\n${tail(output, 40)}`,
					),
				);
				return;
			}
			resolve({ code, signal, output, stdout, seconds });
		});
	});
}

/** Like run, but a non-zero exit is an error carrying the end of the output. */
export async function runOrThrow(
	command: string,
	args: string[],
	options: RunOptions,
): Promise<RunResult> {
	const result = await run(command, args, options);
	if (result.code !== 0) {
		throw new Error(
			`${command} ${args.join(' ')} failed (exit ${result.code ?? result.signal}) in ${String(options.cwd ?? process.cwd())}\n${tail(result.output, 40)}`,
		);
	}
	return result;
}

export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
	if (pid === undefined) return;
	try {
		process.kill(-pid, signal);
	} catch {
		try {
			process.kill(pid, signal);
		} catch {
			// Already gone: nothing to kill.
		}
	}
}

function tail(text: string, lines: number): string {
	return text.split('\n').slice(-lines).join('\n');
}

/** Alive and not a zombie (a killed process its dead parent has not reaped yet). */
export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch (error) {
		// EPERM means it exists but belongs to someone else: still alive.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
	} catch {
		return true;
	}
}

/**
 * `unref` for timers that only bound a wait raced against something else: once the
 * other side wins, a pending timer must not keep the process (jest) alive.
 */
export function sleep(ms: number, unref = false): Promise<void> {
	return new Promise((resolve) => {
		const timer = setTimeout(resolve, ms);
		if (unref) timer.unref();
	});
}

// Runs in a separate tiny node process; kept as plain JS since it is passed to `node -e`.
const REAPER_SOURCE = `
const [watchPid, groupPid, ...paths] = process.argv.slice(1);
const fs = require('fs');
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; } };
const timer = setInterval(() => {
	const group = Number(groupPid);
	if (group > 0 && !alive(group)) { clearInterval(timer); return; }
	if (alive(Number(watchPid))) return;
	clearInterval(timer);
	if (group > 0) { try { process.kill(-group, 'SIGKILL'); } catch (e) { try { process.kill(group, 'SIGKILL'); } catch (e2) {} } }
	for (const p of paths) { try { fs.rmSync(p, { recursive: true, force: true }); } catch (e) {} }
}, 1000);
`;

/**
 * Starts a detached watcher that, once `watchPid` (the test process) is gone, kills the
 * process group of `groupPid` and deletes `paths`. Exit hooks are not enough: jest hands
 * test code a copy of `process` whose 'exit' listeners never fire, and SIGKILL runs no
 * hooks at all. The watcher ends by itself when the group leader exits normally.
 */
export function spawnReaper(watchPid: number, groupPid: number | undefined, paths: string[]): void {
	const child = spawn(
		process.execPath,
		['-e', REAPER_SOURCE, String(watchPid), String(groupPid ?? 0), ...paths],
		{
			detached: true,
			stdio: 'ignore',
		},
	);
	child.unref();
}

/** A running process's command line, arguments separated by spaces ('' when it is gone). */
function cmdline(pid: number): string {
	try {
		return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
	} catch {
		return '';
	}
}

/**
 * Cleans up after test processes killed without cleaning up: each folder under os.tmpdir() whose
 * name starts with `prefix` and whose JSON `markerFile` names an owner process that is gone is
 * removed, after the server it ran is ended: `leftover` says which process that is and a word of
 * its command line (so that a reused pid is never killed).
 */
export function sweepOrphanFolders<Marker extends { ownerPid?: number }>(
	prefix: string,
	markerFile: string,
	leftover: (marker: Marker) => { pid?: number; command?: string },
): void {
	let entries: string[];
	try {
		entries = fs.readdirSync(os.tmpdir()).filter((entry) => entry.startsWith(prefix));
	} catch {
		return;
	}
	for (const entry of entries) {
		const folder = path.join(os.tmpdir(), entry);
		let marker: Marker;
		try {
			marker = JSON.parse(fs.readFileSync(path.join(folder, markerFile), 'utf8')) as Marker;
		} catch {
			continue;
		}
		if (marker.ownerPid === undefined || isAlive(marker.ownerPid)) continue;
		const { pid, command } = leftover(marker);
		if (pid !== undefined && command && isAlive(pid) && cmdline(pid).includes(command))
			killGroup(pid, 'SIGKILL');
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

/** How a child process ended. */
export interface ExitStatus {
	code: number | null;
	signal: NodeJS.Signals | null;
}

/** Watches a child for its exit: how it ended once it has (`exited()`), and a promise of that. */
export function watchExit(child: ChildProcess): {
	exited(): ExitStatus | undefined;
	exitPromise: Promise<void>;
} {
	let status: ExitStatus | undefined;
	const exitPromise = new Promise<void>((resolve) => {
		child.on('exit', (code, signal) => {
			status = { code, signal };
			resolve();
		});
	});
	return { exited: () => status, exitPromise };
}
