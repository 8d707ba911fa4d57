/**
 * scripts/run-tests.mjs, the runner behind `npm test` and `npm run test:quick`, run for real on a
 * throw-away package whose scripts stand in for the steps: each writes its name to a log and
 * passes or fails as the test says. The plans themselves are test/docs/commands.test.ts's.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { REPO_ROOT } from '../../harness/pack';
import { npmEnv } from '../../harness/install';

const STEPS = ['build', 'typecheck', 'test:unit', 'lint', 'test:e2e', 'test:smoke'];

function runPlan(name: 'whole' | 'quick', failing: string[] = []) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-run-tests-'));
	try {
		fs.mkdirSync(path.join(folder, 'scripts'));
		fs.copyFileSync(
			path.join(REPO_ROOT, 'scripts', 'run-tests.mjs'),
			path.join(folder, 'scripts', 'run-tests.mjs'),
		);
		const step = (script: string) =>
			`node -e "require('fs').appendFileSync('ran.log', '${script}\\n'); console.log('output of ${script}'); process.exit(${failing.includes(script) ? 1 : 0})"`;
		const scripts = Object.fromEntries(STEPS.map((script) => [script, step(script)]));
		fs.writeFileSync(
			path.join(folder, 'package.json'),
			JSON.stringify({ name: 'runner-fixture', private: true, scripts }),
		);
		const result = spawnSync(
			process.execPath,
			[path.join(folder, 'scripts', 'run-tests.mjs'), name],
			{ cwd: folder, env: npmEnv(), encoding: 'utf8', timeout: 60_000 },
		);
		const ran = fs.existsSync(path.join(folder, 'ran.log'))
			? fs.readFileSync(path.join(folder, 'ran.log'), 'utf8').trim().split('\n')
			: [];
		return { status: result.status, output: `${result.stdout}${result.stderr}`, ran };
	} finally {
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

describe('scripts/run-tests.mjs', () => {
	it('runs every step of the whole plan, the real-n8n tier last, and ends with a summary', () => {
		const { status, output, ran } = runPlan('whole');
		expect(status).toBe(0);
		expect([...ran].sort()).toEqual(['build', 'lint', 'test:e2e', 'test:unit', 'typecheck']);
		expect(ran[ran.length - 1]).toBe('test:e2e');
		expect(output).toMatch(/npm test: passed in \d+ s/);
		// A held step's output comes whole, under its own heading.
		expect(output).toMatch(/──── npm run lint \(beside the steps above\): passed in \d+ s ────\n/);
		expect(output).toContain('output of lint');
	});

	it('a failed step stops its lane and every later phase, fails the run and repeats its last lines', () => {
		const { status, output, ran } = runPlan('whole', ['lint']);
		expect(status).toBe(1);
		expect(ran).not.toContain('test:e2e');
		// The step beside it runs to its end.
		expect(ran).toContain('test:unit');
		expect(output).toMatch(/npm test: FAILED in \d+ s/);
		expect(output).toMatch(/ {2}lint {7}FAILED/);
		expect(output).toMatch(/ {2}test:e2e {3}not run/);
		const summary = output.slice(output.lastIndexOf('──── last lines of npm run lint ────'));
		expect(summary).toContain('output of lint');
	});

	it('in the quick loop, runs the smoke suite after lint and never the real-n8n tier', () => {
		const { status, ran } = runPlan('quick');
		expect(status).toBe(0);
		expect(ran).not.toContain('test:e2e');
		expect(ran.indexOf('test:smoke')).toBeGreaterThan(ran.indexOf('lint'));
	});

	it('refuses a plan it does not know', () => {
		const result = spawnSync(
			process.execPath,
			[path.join(REPO_ROOT, 'scripts', 'run-tests.mjs'), 'everything'],
			{ encoding: 'utf8' },
		);
		expect(result.status).toBe(2);
		expect(result.stderr).toContain('usage: node scripts/run-tests.mjs whole|quick [--plan]');
	});
});
