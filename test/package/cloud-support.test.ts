/**
 * n8n Cloud lists only verified community packages, and n8n's own CLI (@n8n/node-cli, pinned)
 * says whether this one can be verified: `n8n-node cloud-support` must report it eligible
 * (strict mode on, eslint.config.mjs exactly n8n's default), and `n8n-node lint` must pass at the
 * repository root, where it lints every TypeScript file: the test command's first step.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { run } from '../../harness/exec';
import { REPO_ROOT } from '../../harness/pack';
import { testPlan } from '../support/test-plan';

const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
/** The child's own bound; jest's is longer, so jest never walks away from a running child. */
const CHILD_TIMEOUT_MS = 90_000;
jest.setTimeout(CHILD_TIMEOUT_MS + 30_000);
const CLI = path.join(REPO_ROOT, 'node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs');

/**
 * A developer's shell: jest's NODE_ENV=test makes eslint-plugin-n8n-nodes-base judge its own
 * fixtures' file names instead of ours, and colours would only get in the way of matching.
 */
function developerEnv(): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
	delete env.NODE_ENV;
	delete env.FORCE_COLOR;
	return env;
}

async function n8nNode(args: string[], cwd = REPO_ROOT) {
	const result = await run(process.execPath, [CLI, ...args], {
		cwd,
		env: developerEnv(),
		timeoutMs: CHILD_TIMEOUT_MS,
	});
	// eslint's own output is coloured all the same (n8n-node sets FORCE_COLOR for it).
	const output = result.output.replace(ANSI_COLOUR, '');
	return { code: result.code, output };
}

describe("n8n's CLI on this repository", () => {
	it('reports the package eligible for n8n Cloud verification', async () => {
		const { code, output } = await n8nNode(['cloud-support']);

		expect(code).toBe(0);
		expect(output).toContain('Cloud support is ENABLED');
		expect(output).toMatch(/Strict mode: enabled/);
		expect(output).toMatch(/ESLint config: using default config/);
		expect(output).toMatch(/Status: eligible for n8n Cloud verification/);
	});

	// `npm test` runs `npm run lint`, and with it `n8n-node lint` over the whole repository, before
	// the real-n8n tier: running that lint again here would only double the slowest step. What this
	// file alone can check is that the pipeline keeps it.
	it('runs n8n-node lint at the repository root in the test command, before the real-n8n tier', () => {
		const { scripts } = JSON.parse(
			fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'),
		) as {
			scripts: Record<string, string>;
		};

		const phases = testPlan('whole');
		expect(phases.slice(0, -1).flat(2)).toContain('lint');
		expect(phases[phases.length - 1]).toEqual([['test:e2e']]);
		// Each file judged by the configuration nearest to it (eslint-config.test.ts).
		expect(scripts.lint.split(' && ')[0]).toBe(
			'ESLINT_FLAGS=unstable_config_lookup_from_file n8n-node lint',
		);
		expect(fs.readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8')).toMatch(
			/^npm ci && npm test$/m,
		);
	});

	it('has eslint.config.mjs byte for byte as `n8n-node cloud-support enable` writes it', async () => {
		const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-cloud-support-'));
		try {
			const manifest = JSON.parse(
				fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'),
			) as { n8n: Record<string, unknown> };
			fs.writeFileSync(
				path.join(scratch, 'package.json'),
				JSON.stringify({ ...manifest, n8n: { ...manifest.n8n, strict: false } }),
			);
			fs.writeFileSync(path.join(scratch, 'eslint.config.mjs'), '// a custom configuration\n');

			const { code, output } = await n8nNode(['cloud-support', 'enable'], scratch);
			expect({ code, output }).toMatchObject({ code: 0 });

			const written = fs.readFileSync(path.join(scratch, 'eslint.config.mjs'));
			expect(fs.readFileSync(path.join(REPO_ROOT, 'eslint.config.mjs')).equals(written)).toBe(true);
			const enabled = JSON.parse(fs.readFileSync(path.join(scratch, 'package.json'), 'utf8')) as {
				n8n: { strict: unknown };
			};
			expect(enabled.n8n.strict).toBe(manifest.n8n.strict);
		} finally {
			fs.rmSync(scratch, { recursive: true, force: true });
		}
	});
});
