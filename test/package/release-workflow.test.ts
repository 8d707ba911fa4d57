/**
 * .github/workflows/release.yml, checked statically (nothing here talks to GitHub or npm): it
 * publishes only from a version tag, after the test command CI runs, with an npm provenance
 * statement through OIDC trusted publishing, and grants the OIDC token to the publishing job
 * alone. scripts/release-check.mjs, which it runs first, is exercised on throw-away manifests.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { parse } from 'yaml';

import { run } from '../../harness/exec';
import { REPO_ROOT } from '../../harness/pack';

// Longer than the children's own bounds, so jest never walks away from a child that is still
// running (its worker would then fail to exit).
jest.setTimeout(60000);

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, unknown>;
}
interface Job {
	needs?: string | string[];
	permissions?: Record<string, string>;
	environment?: string;
	steps: Step[];
}
interface Workflow {
	on: { push?: { tags?: string[]; branches?: string[] } } & Record<string, unknown>;
	permissions: Record<string, string>;
	jobs: Record<string, Job>;
}

const source = fs.readFileSync(path.join(REPO_ROOT, '.github/workflows/release.yml'), 'utf8');
const workflow = parse(source) as Workflow;
const jobs = Object.entries(workflow.jobs);
const runs = (job: Job): string[] => job.steps.flatMap((step) => (step.run ? [step.run] : []));
const publishJobs = jobs.filter(([, job]) =>
	runs(job).some((line) => /\bnpm publish\b/.test(line)),
);
const ciCommand = fs
	.readFileSync(path.join(REPO_ROOT, '.ci/run'), 'utf8')
	.split('\n')
	.find((line) => line.startsWith('npm '));

function version(text: string): number[] {
	return (/(\d+)\.(\d+)\.(\d+)/.exec(text) ?? []).slice(1).map(Number);
}
const atLeast = (actual: number[], wanted: number[]): boolean =>
	actual.length === 3 &&
	(actual[0] !== wanted[0]
		? actual[0] > wanted[0]
		: actual[1] !== wanted[1]
			? actual[1] > wanted[1]
			: actual[2] >= wanted[2]);

describe('release workflow', () => {
	it('runs only for pushed version tags', () => {
		expect(Object.keys(workflow.on)).toEqual(['push']);
		expect(workflow.on.push?.branches).toBeUndefined();
		expect(workflow.on.push?.tags).toEqual(['v*.*.*']);
	});

	it('publishes from exactly one job, with provenance, public, and no token', () => {
		expect(publishJobs).toHaveLength(1);
		const [, job] = publishJobs[0];
		const publish = runs(job).filter((line) => /\bnpm publish\b/.test(line));
		expect(publish).toHaveLength(1);
		expect(publish[0]).toMatch(/--provenance\b/);
		expect(publish[0]).toMatch(/--access public\b/);
		// Trusted publishing: authentication is the OIDC token, never a stored secret.
		expect(source).not.toMatch(/secrets\./);
		expect(source).not.toMatch(/NODE_AUTH_TOKEN|NPM_TOKEN/);
	});

	it('grants id-token: write to the publishing job only, and read-only contents everywhere', () => {
		expect(workflow.permissions).toEqual({ contents: 'read' });
		for (const [name, job] of jobs) {
			const isPublisher = publishJobs.some(([publisher]) => publisher === name);
			if (isPublisher) {
				expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
			} else {
				expect(job.permissions?.['id-token']).toBeUndefined();
			}
		}
	});

	it('publishes only after the test command CI runs has passed, on the Node CI uses', () => {
		expect(ciCommand).toBe('npm ci && npm test');
		const [, publisher] = publishJobs[0];
		const needs = ([] as string[]).concat(publisher.needs ?? []);
		expect(needs.length).toBeGreaterThan(0);
		const testJobs = needs.map((name) => workflow.jobs[name]);
		const testJob = testJobs.find((job) => runs(job).includes('bash .ci/run'));
		expect(testJob).toBeDefined();
		// The Node on PATH when the tests run is the last one set up: 22 or 24, Node 20 being
		// end-of-life. Node 20 may be set up before it only to run n8n 1.x (TRIO_N8N_NODE1).
		const testSteps = (testJob as Job).steps;
		const testsAt = testSteps.findIndex((step) => step.run === 'bash .ci/run');
		const nodes = testSteps
			.slice(0, testsAt)
			.filter((step) => step.uses?.startsWith('actions/setup-node@'));
		expect([22, 24]).toContain(Number(nodes.at(-1)?.with?.['node-version']));
		const earlier = nodes.slice(0, -1);
		expect(earlier.map((step) => Number(step.with?.['node-version']))).toEqual([20]);
		const keep = testSteps.find((step) => step.run?.includes('TRIO_N8N_NODE1'));
		expect(keep?.run).toBe('echo "TRIO_N8N_NODE1=$(command -v node)" >> "$GITHUB_ENV"');
		const order = (step: Step | undefined) => testSteps.indexOf(step as Step);
		expect(order(earlier[0])).toBeLessThan(order(keep));
		expect(order(keep)).toBeLessThan(order(nodes.at(-1)));

		// The tag is checked before the tests, and the tarball published is the one tested.
		const steps = runs(testJob as Job);
		const check = steps.findIndex((line) => line.includes('scripts/release-check.mjs'));
		expect(check).toBeGreaterThanOrEqual(0);
		expect(check).toBeLessThan(steps.indexOf('bash .ci/run'));
		expect(steps.some((line) => line.startsWith('npm pack'))).toBe(true);
		expect(publisher.steps.some((step) => step.uses?.startsWith('actions/checkout@'))).toBe(false);
	});

	it('tests with the npm .ci/run brings and publishes with one that can use OIDC (npm 11.5.1+, Node 22.14+)', () => {
		const [, publisher] = publishJobs[0];
		for (const [, job] of jobs) {
			const npm = runs(job).find((line) => /npm install -g npm@/.test(line));
			if (job === publisher) {
				expect(npm).toBeDefined();
				expect(atLeast(version(npm ?? ''), [11, 5, 1])).toBe(true);
			} else {
				expect(npm).toBeUndefined();
			}
		}
		const node = publisher.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
		expect(Number(node?.with?.['node-version'])).toBeGreaterThanOrEqual(24);
		expect(node?.with?.['registry-url']).toBe('https://registry.npmjs.org');
	});
});

/**
 * The current major of every action the workflow uses, each on GitHub's Node 24 runtime (Node 20
 * left GitHub's runners in September 2026). Read from each action's repository (action.yml's
 * `runs.using`) in November 2026.
 */
const CURRENT_MAJORS: Record<string, string> = {
	'actions/checkout': 'v7',
	'actions/setup-node': 'v7',
	'actions/upload-artifact': 'v7',
	'actions/download-artifact': 'v8',
};

describe('release workflow actions', () => {
	const used = jobs.flatMap(([, job]) =>
		job.steps.flatMap((step) => (step.uses ? [step.uses] : [])),
	);

	it('uses only actions whose current major is known here, each on that major', () => {
		expect(used.length).toBeGreaterThanOrEqual(5);
		for (const uses of used) {
			const [action, major] = uses.split('@');
			expect(Object.keys(CURRENT_MAJORS)).toContain(action);
			expect(`${action}@${major}`).toBe(`${action}@${CURRENT_MAJORS[action]}`);
		}
		expect(new Set(used.map((uses) => uses.split('@')[0]))).toEqual(
			new Set(Object.keys(CURRENT_MAJORS)),
		);
	});
});

describe('scripts/release-check.mjs', () => {
	let dir: string;
	const script = path.join(REPO_ROOT, 'scripts/release-check.mjs');
	const manifest = {
		name: 'n8n-nodes-trio-vms',
		version: '1.2.3',
		repository: { type: 'git', url: 'git+https://github.com/acme/n8n-nodes-trio-vms.git' },
		author: { name: 'Jane Doe', email: 'jane@acme.example' },
	};

	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-release-'));
	});
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	async function check(tag: string, changes: object = {}, repository = 'acme/n8n-nodes-trio-vms') {
		fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...manifest, ...changes }));
		return run(process.execPath, [script, tag], {
			cwd: dir,
			env: { ...process.env, GITHUB_REPOSITORY: repository },
			timeoutMs: 20_000,
		});
	}

	it('lets a matching tag, repository and real author through', async () => {
		const result = await check('v1.2.3');
		expect(result.output).toContain('Releasing n8n-nodes-trio-vms 1.2.3');
		expect(result.code).toBe(0);
	});

	it('refuses a tag that is not v<version>', async () => {
		const result = await check('v1.2.4');
		expect(result.code).toBe(1);
		expect(result.output).toMatch(/tag "v1.2.4" is not v1.2.3/);
	});

	it('refuses a repository address other than the one the workflow runs in', async () => {
		const result = await check('v1.2.3', {}, 'someone-else/n8n-nodes-trio-vms');
		expect(result.code).toBe(1);
		expect(result.output).toMatch(/names acme\/n8n-nodes-trio-vms, but this runs in someone-else/);
	});

	it("refuses the repository's own placeholders", async () => {
		const own = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
			repository: object;
			author: object;
		};
		const result = await check('v1.2.3', { repository: own.repository, author: own.author });
		expect(result.code).toBe(1);
		expect(result.output).toMatch(/repository.url names/);
		expect(result.output).toMatch(/placeholder/);
	});
});
