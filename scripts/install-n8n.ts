/**
 * Installs (or finds in the cache) the pinned n8n lines the e2e tests run against.
 * Usage: tsx scripts/install-n8n.ts [2.x|1.x|all]
 * Run it ahead of the e2e tests to pay the multi-minute cold install up front.
 */
import { cacheRoot, ensureN8n, N8N_LINES } from '../harness/install';
import type { N8nLine } from '../harness/install';

async function main(): Promise<void> {
	const arg = process.argv[2] ?? 'all';
	if (arg !== 'all' && !(N8N_LINES as readonly string[]).includes(arg)) {
		process.stderr.write(`usage: tsx scripts/install-n8n.ts [${N8N_LINES.join('|')}|all]\n`);
		process.exit(2);
	}
	const lines: N8nLine[] = arg === 'all' ? [...N8N_LINES] : [arg as N8nLine];
	process.stdout.write(`cache: ${cacheRoot()}\n`);
	// One after the other: both at once on 2 cores makes each slower and the
	// sqlite3 compiles fight for the CPU.
	for (const line of lines) {
		const result = await ensureN8n(line);
		process.stdout.write(
			`n8n ${line}: version ${result.version}, ${result.fromCache ? 'from cache' : 'installed'} in ${result.installSeconds.toFixed(1)} s\n` +
				`  node: ${result.nodeBinary}\n  n8n:  ${result.n8nBin}\n`,
		);
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(1);
});
