/**
 * n8n's verification scan, run here as n8n runs it: @n8n/scan-community-package (pinned) lints
 * the package's sources and the packed tarball with its own ESLint configuration and inline
 * `eslint-disable` comments ignored. Any finding, warning or error, fails the test command.
 * The tarball leg needs `npm run build` first, as `npm test` does.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { runOrThrow } from '../../harness/exec';
import { packPackage, REPO_ROOT } from '../../harness/pack';

// Longer than the children's own bounds, so jest never walks away from a child that is still
// running (its worker would then fail to exit).
jest.setTimeout(180000);

interface ScanReport {
	passed: boolean;
	message: string | null;
	files: string[];
	findings: Array<{ file: string; line: number; rule: string | null; message: string }>;
}

/**
 * The environment a reviewer's shell has. Jest sets NODE_ENV=test, and under it
 * eslint-plugin-n8n-nodes-base swaps in its own test fixtures' file and package names, which
 * would make the scan report hundreds of findings n8n never sees.
 */
function reviewerEnv(): NodeJS.ProcessEnv {
	const { NODE_ENV: _testMode, ...env } = process.env;
	return env;
}

async function scan(leg: 'source' | 'tarball', folder: string): Promise<ScanReport> {
	const script = path.join(__dirname, 'n8n-scan.mjs');
	const { stdout } = await runOrThrow(process.execPath, [script, leg, folder], {
		cwd: REPO_ROOT,
		env: reviewerEnv(),
		timeoutMs: 60_000,
	});
	return JSON.parse(stdout) as ScanReport;
}

/** The scan read at least these files, and passed them without a finding. */
function expectClean(report: ScanReport, files: string[]): void {
	expect(report.files).toEqual(expect.arrayContaining(files));
	expect(report.findings).toEqual([]);
	expect(report.passed).toBe(true);
}

describe("n8n's community package scanner", () => {
	it('finds nothing in the sources (package.json, nodes/, credentials/)', async () => {
		expectClean(await scan('source', REPO_ROOT), [
			'package.json',
			'credentials/TrioVmsApi.credentials.ts',
			'nodes/TrioVms/TrioVms.node.ts',
			'nodes/TrioVmsTrigger/TrioVmsTrigger.node.ts',
			'nodes/TrioVms/TrioVms.node.json',
		]);
	});

	it('finds nothing in the tarball npm pack produces', async () => {
		const tarball = await packPackage();
		const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-scan-'));
		try {
			await runOrThrow('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1'], {
				timeoutMs: 30_000,
			});
			expectClean(await scan('tarball', unpacked), [
				'package.json',
				'dist/credentials/TrioVmsApi.credentials.js',
				'dist/nodes/TrioVms/TrioVms.node.js',
				'dist/nodes/TrioVmsTrigger/TrioVmsTrigger.node.js',
			]);
		} finally {
			fs.rmSync(unpacked, { recursive: true, force: true });
		}
	});
});
