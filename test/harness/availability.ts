import * as os from 'node:os';

import { run } from './exec';
import { cacheRoot, isCached, N8N_LINES, npmEnv } from './install';
import type { N8nLine } from './install';

/** Set by the e2e globalSetup for the test files: line -> why it cannot run. */
export const UNAVAILABLE_ENV = 'TRIO_N8N_UNAVAILABLE';

export async function registryReachable(
	timeoutMs = 20_000,
): Promise<{ ok: boolean; detail: string }> {
	try {
		const result = await run('npm', ['view', 'n8n@2.41.1', 'version', '--fetch-retries=0'], {
			// Any folder outside the repository: npm view needs no project.
			cwd: os.tmpdir(),
			env: npmEnv(),
			timeoutMs,
		});
		const ok = result.code === 0 && result.stdout.trim().includes('2.41.1');
		const code = /npm error code (\S+)/.exec(result.output)?.[1] ?? `exit ${result.code}`;
		return { ok, detail: ok ? 'ok' : `npm view n8n@2.41.1 failed: ${code}` };
	} catch (error) {
		return { ok: false, detail: (error as Error).message.split('\n')[0] };
	}
}

/**
 * Which lines cannot run and why. A line already in the cache needs no registry, so
 * the registry is only asked about when something is missing.
 */
export async function unavailableLines(): Promise<Partial<Record<N8nLine, string>>> {
	const missing = N8N_LINES.filter((line) => !isCached(line));
	if (missing.length === 0) return {};
	const registry = await registryReachable();
	if (registry.ok) return {};
	const reason = `the npm registry is unreachable (${registry.detail}) and n8n is not installed in ${cacheRoot()}`;
	return Object.fromEntries(missing.map((line) => [line, reason]));
}

function wrap(text: string, width: number): string[] {
	const out: string[] = [];
	let current = '';
	for (const word of text.split(' ')) {
		if (current && current.length + word.length + 1 > width) {
			out.push(current);
			current = word;
		} else {
			current = current ? `${current} ${word}` : word;
		}
	}
	if (current) out.push(current);
	return out;
}

export function banner(text: string[]): string {
	const lines = text.flatMap((each) => wrap(each, 96));
	const width = Math.max(...lines.map((each) => each.length)) + 4;
	const bar = '!'.repeat(width);
	return ['', bar, ...lines.map((each) => `! ${each.padEnd(width - 4)} !`), bar, ''].join('\n');
}

/** Reads what globalSetup decided; an unset variable means everything may run. */
export function unavailableReason(line: N8nLine): string | undefined {
	const raw = process.env[UNAVAILABLE_ENV];
	if (!raw) return undefined;
	return (JSON.parse(raw) as Partial<Record<N8nLine, string>>)[line];
}

/**
 * `describe` for a block that needs a real n8n of `line`: skipped, loudly, when
 * globalSetup found it cannot be installed (never under CI=true: globalSetup fails then).
 */
export function describeWithN8n(line: N8nLine, name: string, fn: () => void): void {
	const reason = unavailableReason(line);
	if (reason) {
		process.stderr.write(banner([`SKIPPING real-n8n tests for n8n ${line}: ${name}`, reason]));
		describe.skip(name, fn);
		return;
	}
	describe(name, fn);
}
