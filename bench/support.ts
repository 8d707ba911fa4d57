/** Helpers the benchmarks share: the sandbox process, plain HTTP calls, reading engine runs, a test PDF. */
import { fork } from 'node:child_process';
import { join } from 'node:path';

import type { EngineRun } from '../harness/engine/engine';
import { NODE_UNDER_TEST } from '../harness/engine/names';
import type { BenchContext } from './runner';

export interface SandboxProcess extends BenchContext {
	stop(): Promise<void>;
}

/** Starts bench/sandbox-process.ts with the same TypeScript loader as this process; at most 30 s. */
export async function startSandboxProcess(jobs: number): Promise<SandboxProcess> {
	// Inherit the loader flags tsx put in execArgv, but not --expose-gc: the sandbox needs no GC hooks.
	const execArgv = process.execArgv.filter((flag) => flag !== '--expose-gc');
	const child = fork(join(__dirname, 'sandbox-process.ts'), [], {
		execArgv,
		env: { ...process.env, BENCH_SANDBOX_JOBS: String(jobs) },
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const killOnExit = () => child.kill();
	process.once('exit', killOnExit);
	const ready = await new Promise<BenchContext>((resolve, reject) => {
		const timer = setTimeout(
			() => reject(new Error('The sandbox process did not start within 30 s')),
			30_000,
		);
		child.once('message', (message) => {
			clearTimeout(timer);
			resolve(message as BenchContext);
		});
		child.once('exit', (code) => {
			clearTimeout(timer);
			reject(new Error(`The sandbox process exited (code ${code}) before it was ready`));
		});
	});
	return {
		...ready,
		stop: async () => {
			if (child.exitCode !== null) return;
			const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
			child.send('stop');
			const timer = setTimeout(() => child.kill(), 10_000);
			await exited;
			clearTimeout(timer);
			process.removeListener('exit', killOnExit);
		},
	};
}

/** A JSON request that must succeed; for setting benchmarks up, never inside a measured run. */
export async function callJson<T = unknown>(
	url: string,
	options: { method?: string; key?: string; body?: unknown } = {},
): Promise<T> {
	const headers: Record<string, string> = { Accept: 'application/json' };
	if (options.key) headers['X-API-KEY'] = options.key;
	if (options.body !== undefined) headers['Content-Type'] = 'application/json';
	const response = await fetch(url, {
		method: options.method ?? 'GET',
		headers,
		body: options.body === undefined ? undefined : JSON.stringify(options.body),
		signal: AbortSignal.timeout(30_000),
	});
	const text = await response.text();
	if (!response.ok)
		throw new Error(
			`${options.method ?? 'GET'} ${url} answered ${response.status}: ${text.slice(0, 300)}`,
		);
	return (text ? JSON.parse(text) : undefined) as T;
}

/** Throws n8n's error when the workflow failed: a benchmark of an error path would measure nothing useful. */
export function expectSuccess(run: EngineRun): void {
	if (run.error)
		throw new Error(
			`The workflow failed: ${run.error.message} ${(run.error as { description?: string }).description ?? ''}`,
		);
}

/** The Trio VMS node's own execution time in a run, as n8n recorded it (whole milliseconds). */
export function nodeExecutionTime(run: EngineRun): number | undefined {
	return run.run.data.resultData.runData[NODE_UNDER_TEST]?.[0]?.executionTime;
}

/** A PDF-shaped file of exactly `size` bytes: header, one stream of incompressible bytes, trailer. */
export function makePdf(size: number): Buffer {
	const head = Buffer.from(
		'%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n2 0 obj\n<< /Filter /FlateDecode >>\nstream\n',
		'latin1',
	);
	const tail = Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
	const body = Buffer.alloc(size - head.length - tail.length);
	let state = 0x2545_4446; // xorshift32, seeded: the same file every run
	for (let index = 0; index < body.length; index++) {
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		body[index] = state & 0xff;
	}
	return Buffer.concat([head, body, tail]);
}
