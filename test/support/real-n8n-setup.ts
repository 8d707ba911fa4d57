import { banner, SKIP_ENV, UNAVAILABLE_ENV } from '../../harness/availability';
import { ensureN8n, N8N_LINES, type N8nLine } from '../../harness/install';

/**
 * Installs both n8n lines before any test starts, so a multi-minute cold install never counts
 * against a test's timeout. The real-n8n tests are skipped only when someone asks for it
 * (TRIO_SKIP_REAL_N8N=1, or a list of lines such as 1.x); an install that fails, a slow or
 * unreachable registry included, fails the run instead of passing it by skipping.
 */
export default async function globalSetup(): Promise<void> {
	const asked = (process.env[SKIP_ENV] ?? '').trim();
	const skipped = N8N_LINES.filter(
		(line) =>
			asked === '1' ||
			asked === 'all' ||
			asked
				.split(',')
				.map((each) => each.trim())
				.includes(line),
	);
	if (skipped.length) {
		const reason = `skipped because ${SKIP_ENV}=${asked} asks for it`;
		process.stderr.write(
			banner([
				'REAL-n8n E2E TESTS SKIPPED ON REQUEST',
				...skipped.map((line) => `n8n ${line}: ${reason}`),
			]),
		);
		process.env[UNAVAILABLE_ENV] = JSON.stringify(
			Object.fromEntries(skipped.map((line) => [line, reason])) as Partial<Record<N8nLine, string>>,
		);
	}
	// One line at a time: two installs at once on 2 cores only slow each other down.
	for (const line of N8N_LINES) {
		if (skipped.includes(line)) continue;
		const result = await ensureN8n(line);
		process.stderr.write(
			`\n[n8n harness] n8n ${result.version} (${line}) on node ${result.nodeVersion}: ${result.fromCache ? 'cached' : 'installed'} in ${result.installSeconds.toFixed(1)} s\n`,
		);
	}
}
