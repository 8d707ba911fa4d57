/* eslint
	"@n8n/community-nodes/no-restricted-globals": "off",
	"@n8n/community-nodes/no-restricted-imports": "off",
	"@typescript-eslint/no-unused-vars": ["error", {"argsIgnorePattern": "^_", "varsIgnorePattern": "^_"}]
	-- not in the package: n8n's rules for the code users install do not apply here */
/**
 * The project lints the package with n8n's own rules: for every file n8n lints (package.json,
 * nodes/, credentials/), each rule of n8n's configuration (@n8n/node-cli/eslint, what
 * `n8n-node lint` applies) is on in eslint.config.mjs with the same severity and options. The
 * project may add rules on top, never switch one of n8n's off or soften it.
 */
import * as path from 'node:path';

import { runOrThrow } from '../support/harness/exec';
import { REPO_ROOT } from '../support/harness/pack';

type Rules = Record<string, unknown>;

interface FileRules {
	file: string;
	project: Rules | null;
	n8n: Rules | null;
}

/** ESLint reports a severity as 0/1/2 or as a word, alone or first in an array. */
function normalise(setting: unknown): unknown {
	const words: Record<string, number> = { off: 0, warn: 1, error: 2 };
	const [severity, ...options] = Array.isArray(setting) ? setting : [setting];
	return [typeof severity === 'string' ? words[severity] : severity, ...options];
}

let report: FileRules[];

beforeAll(async () => {
	const { NODE_ENV: _testMode, ...env } = process.env;
	const { stdout } = await runOrThrow(
		process.execPath,
		[path.join(__dirname, 'eslint-rules.mjs')],
		{ cwd: REPO_ROOT, env, timeoutMs: 60_000 },
	);
	report = JSON.parse(stdout) as FileRules[];
});

describe('eslint.config.mjs and n8n', () => {
	it('covers the package files n8n lints', () => {
		const files = report.map((entry) => entry.file);
		expect(files).toEqual(
			expect.arrayContaining([
				'package.json',
				'credentials/TrioVmsApi.credentials.ts',
				'nodes/TrioVms/TrioVms.node.ts',
				'nodes/TrioVmsTrigger/TrioVmsTrigger.node.ts',
			]),
		);
		for (const entry of report) {
			expect(entry.n8n).not.toBeNull();
			expect(Object.keys(entry.n8n ?? {}).length).toBeGreaterThan(20);
		}
	});

	it("applies every one of n8n's rules to those files, unchanged", () => {
		const differences: string[] = [];
		for (const { file, project, n8n } of report) {
			for (const [rule, setting] of Object.entries(n8n ?? {})) {
				const ours = project?.[rule];
				if (JSON.stringify(normalise(ours)) !== JSON.stringify(normalise(setting))) {
					differences.push(
						`${file}: ${rule} is ${JSON.stringify(ours)}, n8n: ${JSON.stringify(setting)}`,
					);
				}
			}
		}
		expect(differences).toEqual([]);
	});
});
