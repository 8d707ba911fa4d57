/**
 * docs/development.md's commands table names commands that exist, and the two doors to the tests
 * stay what the table says: `npm test` the whole suite (README and CI call it), `npm run
 * test:quick` the same first steps and a real-n8n smoke, never a second truth of its own.
 */
import { readRepoFile } from './markdown';

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

	it('keeps `npm test` the whole suite: every fast and every real-n8n suite', () => {
		expect(scripts.test).toBe(
			'npm run lint && npm run typecheck && npm run build && jest && jest -c jest.e2e.config.js',
		);
	});

	it('makes `npm run test:quick` the same first steps, then the real-n8n smoke only', () => {
		const [first, smoke] = scripts['test:quick'].split(' && jest && ');
		expect(`${first} && jest`).toBe(scripts.test.split(' && jest -c ')[0]);
		expect(smoke).toMatch(/jest -c jest\.e2e\.config\.js test\/e2e\/smoke\.e2e\.test\.ts$/);
	});
});
