/**
 * .github/workflows/ci.yml, checked statically (nothing here talks to GitHub): every push and pull
 * request runs the quick loop on each Node the README supports, and main and a nightly schedule
 * run the whole suite exactly as .ci/run does, on the same action majors as release.yml.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { parse } from 'yaml';

import { REPO_ROOT } from '../../harness/pack';

interface Step {
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
}
interface Job {
	if?: string;
	strategy?: { matrix?: { node?: number[] } };
	steps: Step[];
}
interface Workflow {
	on: Record<string, unknown>;
	permissions: Record<string, string>;
	jobs: Record<string, Job>;
}

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const workflow = parse(read('.github/workflows/ci.yml')) as Workflow;
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
const runs = (job: Job) => job.steps.flatMap((step) => (step.run ? [step.run.trim()] : []));

describe('the CI workflow', () => {
	it('runs on every push and pull request, on a schedule and by hand, reading the code only', () => {
		expect(Object.keys(workflow.on).sort()).toEqual(
			['pull_request', 'push', 'schedule', 'workflow_dispatch'].sort(),
		);
		expect(workflow.permissions).toEqual({ contents: 'read' });
	});

	it("runs the quick loop on every Node the README names, with the script's own steps", () => {
		const quick = workflow.jobs.quick;
		expect(quick.if).toBeUndefined();
		const named = /Node (\d+), (\d+) or (\d+) with the npm it ships/.exec(read('README.md'));
		expect(named).not.toBeNull();
		expect(quick.strategy?.matrix?.node).toEqual(named!.slice(1).map(Number));
		expect(runs(quick)).toEqual(['npm ci', 'npm run test:quick']);
		// The quick loop is lint, types, build, the fast tier and the real-n8n smoke test: its plan
		// is held by test/docs/commands.test.ts.
		expect(scripts['test:quick']).toBe('node scripts/run-tests.mjs quick');
	});

	it('runs the whole suite as .ci/run does on main, nightly and by hand, never for a pull request', () => {
		const full = workflow.jobs.full;
		expect(runs(full)).toContain('bash .ci/run');
		expect(full.if).toContain("github.event_name != 'pull_request'");
		expect(full.if).toContain("github.ref == 'refs/heads/main'");
		expect(full.if).toContain("github.event_name == 'schedule'");
	});

	it("caches the pinned n8n installs by their lockfiles, and uses release.yml's action majors", () => {
		const release = read('.github/workflows/release.yml');
		for (const job of Object.values(workflow.jobs)) {
			const cache = job.steps.find((step) => step.uses?.startsWith('actions/cache@'));
			expect(cache?.with?.path).toBe('~/.cache/n8n-nodes-trio-vms');
			expect(String(cache?.with?.key)).toContain("hashFiles('test/n8n-versions/");
			for (const step of job.steps) {
				if (!step.uses || step.uses.startsWith('actions/cache@')) continue;
				expect(release).toContain(`uses: ${step.uses}`);
			}
		}
		// actions/cache is not in release.yml: its current major (v6, on Node 24) in November 2026.
		const caches = Object.values(workflow.jobs).flatMap((job) =>
			job.steps.filter((step) => step.uses?.startsWith('actions/cache@')),
		);
		expect(new Set(caches.map((step) => step.uses))).toEqual(new Set(['actions/cache@v6']));
	});
});
