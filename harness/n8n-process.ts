/**
 * One spawned n8n process (any role), as every harness start needs it: its log kept in memory
 * and scanned for a ready line, its exit noticed, and a stop that asks politely first and then
 * kills its whole process group (n8n's task runner lives there too).
 */
import type { ChildProcess } from 'node:child_process';

import { killGroup, sleep, watchExit, type ExitStatus } from './exec';

const STOP_GRACE_MS = 20_000;
const LOG_LINES_KEPT = 20_000;

export interface WatchedN8n {
	pid: number;
	/** The whole kept log (the last 20,000 lines). */
	logs(): string;
	lastLines(count: number): string;
	/** Whether the ready line has been logged. */
	sawReady(): boolean;
	/** How it ended, once it has. */
	exited(): ExitStatus | undefined;
	/** SIGTERM, up to 20 s to leave, then SIGKILL to the group; the group is always killed. */
	stop(): Promise<void>;
}

/** `child` must have been spawned `detached` (its own process group) with piped output. */
export function watchN8n(
	child: ChildProcess & { pid: number },
	options: { readyLine: string; label: string },
): WatchedN8n {
	const { pid } = child;
	const logLines: string[] = [];
	let sawReady = false;
	const echo = process.env.TRIO_N8N_ECHO === '1';
	let partial = '';
	const onChunk = (data: Buffer) => {
		const text = partial + data.toString('utf8');
		const lines = text.split('\n');
		partial = lines.pop() ?? '';
		for (const line of lines) {
			logLines.push(line);
			if (line.includes(options.readyLine)) sawReady = true;
			if (echo) process.stderr.write(`[n8n ${options.label}] ${line}\n`);
		}
		if (logLines.length > LOG_LINES_KEPT) logLines.splice(0, logLines.length - LOG_LINES_KEPT);
	};
	child.stdout?.on('data', onChunk);
	child.stderr?.on('data', onChunk);

	const { exited, exitPromise } = watchExit(child);
	let stopping: Promise<void> | undefined;
	const stop = async (): Promise<void> => {
		if (!exited()) {
			child.kill('SIGTERM');
			const graceful = await Promise.race([
				exitPromise.then(() => true),
				sleep(STOP_GRACE_MS, true).then(() => false),
			]);
			if (!graceful) {
				killGroup(pid, 'SIGKILL');
				await Promise.race([exitPromise, sleep(5000, true)]);
			}
		}
		// The runner normally leaves with n8n; make sure nothing of the group lingers.
		killGroup(pid, 'SIGKILL');
	};
	return {
		pid,
		logs: () => logLines.join('\n'),
		lastLines: (count) => logLines.slice(-count).join('\n'),
		sawReady: () => sawReady,
		exited,
		stop: () => (stopping ??= stop()),
	};
}

/** For waitUntil: true once n8n has logged its editor line and answers its readiness check. */
export async function readyAt(baseUrl: string, sawReady: boolean): Promise<true | undefined> {
	if (!sawReady) return undefined;
	const ok = await fetch(`${baseUrl}/healthz/readiness`, { signal: AbortSignal.timeout(2000) })
		.then((response) => response.ok)
		.catch(() => false);
	return ok ? true : undefined;
}
