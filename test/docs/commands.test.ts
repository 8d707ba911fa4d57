/**
 * docs/development.md's commands table names commands that exist, and the two doors to the tests
 * stay what the table says: `npm test` the whole suite (README and CI call it), `npm run
 * test:quick` the same steps with a real-n8n smoke in place of the real-n8n tier, never a second
 * truth of its own. Both run through scripts/run-tests.mjs, whose plan is read as it prints it.
 */
import { testPlan as plan, type TestPlan as Plan } from '../support/test-plan';
import { readRepoFile, section } from './markdown';

const stepsOf = (each: Plan) => each.flat(2);
/** The plan's real-n8n step: the whole tier, or the smoke suite. */
const name = (each: Plan) => (stepsOf(each).includes('test:e2e') ? 'test:e2e' : 'test:smoke');

const scripts = (JSON.parse(readRepoFile('package.json')) as { scripts: Record<string, string> })
	.scripts;

const table = (() => {
	const text = readRepoFile('docs/development.md');
	const start = text.indexOf('| Command | What it does |');
	const end = text.indexOf('\n\n', start);
	return text.slice(start, end);
})();

const commands = [...table.matchAll(/^\| `npm (?:run )?([\w:-]+)` \|/gm)].map((match) => match[1]);

describe("docs/development.md's commands table", () => {
	it('lists commands', () => {
		expect(commands).toEqual(expect.arrayContaining(['test', 'test:quick', 'build', 'lint']));
	});

	it.each(commands)('names `%s`, a script in package.json', (command) => {
		expect(Object.keys(scripts)).toContain(command);
	});

	it('keeps `npm test` the whole suite: every fast and every real-n8n suite, lint, types, build', () => {
		expect(scripts.test).toBe('node scripts/run-tests.mjs whole');
		expect(stepsOf(plan('whole')).sort()).toEqual(
			['build', 'lint', 'typecheck', 'test:unit', 'test:e2e'].sort(),
		);
		expect(scripts['test:unit']).toBe('jest');
		expect(scripts['test:e2e']).toBe('jest -c jest.e2e.config.js');
	});

	it('builds before anything reads dist/, and starts the real-n8n tier once every other step passed', () => {
		const whole = plan('whole');
		for (const phases of [whole, plan('quick')]) {
			for (const step of stepsOf(phases)) expect(Object.keys(scripts)).toContain(step);
			// The fast tier's package tests, the smoke and every real-n8n suite pack dist/.
			expect(phases[0]).toContainEqual(['build']);
			expect(stepsOf(phases.slice(1))).toEqual(expect.arrayContaining(['test:unit', name(phases)]));
		}
		expect(whole[whole.length - 1]).toEqual([['test:e2e']]);
	});

	it('makes `npm run test:quick` the same steps, with the real-n8n smoke instead of the real-n8n tier', () => {
		expect(scripts['test:quick']).toBe('node scripts/run-tests.mjs quick');
		const whole = stepsOf(plan('whole')).filter((step) => step !== 'test:e2e');
		expect(stepsOf(plan('quick')).sort()).toEqual([...whole, 'test:smoke'].sort());
		expect(scripts['test:smoke']).toMatch(
			/jest -c jest\.e2e\.config\.js test\/e2e\/smoke\.e2e\.test\.ts$/,
		);
	});

	it('keeps docs/real-n8n.md\'s "Running it" the commands the test doors run', () => {
		// The section's one code block (its code spans are prose about the commands).
		const [, block] = /```sh\n([\s\S]*?)```/.exec(
			section(readRepoFile('docs/real-n8n.md'), 'Running it'),
		)!;
		const lines = block
			.trim()
			.split('\n')
			.map((line) => line.replace(/\s*#.*$/, ''));
		expect(lines).toEqual([
			'npm run build',
			'npx tsx scripts/install-n8n.ts all',
			`npx ${scripts['test:e2e']}`,
			'npm run test:smoke',
		]);
		expect(scripts['n8n:install']).toBe('tsx scripts/install-n8n.ts');
		expect(stepsOf(plan('quick'))).toContain('test:smoke');
	});
});
