/* eslint
	"@n8n/community-nodes/no-restricted-imports": "off"
	-- not in the package: n8n's rules for the code users install do not apply here */
/**
 * eslint.config.mjs is n8n's default (cloud-support.test.ts), and ESLint 9 reads no other
 * configuration file, so `eslint .` judges the whole repository by n8n's rules. The code that is
 * not published (tests, sandbox, scripts, benchmarks) runs in Node, not inside n8n: a file there
 * may switch off, in a first-line `eslint` comment, only n8n's rules about what installed code
 * may do (Node's globals and modules, child processes, console, secrets in source, raw errors,
 * a node description's required parts for test doubles of nodes), and relax unused-variable
 * names to the `_` prefix. The package's own files carry no inline ESLint comments at all:
 * n8n's verification scanner ignores them, so they could only hide what it will report.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { REPO_ROOT } from '../../harness/pack';

const RUNTIME_RULES = [
	'no-console',
	'@n8n/community-nodes/no-restricted-globals',
	'@n8n/community-nodes/no-restricted-imports',
	'@n8n/community-nodes/no-dangerous-functions',
	'@n8n/community-nodes/no-hardcoded-secrets',
	'@n8n/community-nodes/require-node-api-error',
	'@n8n/community-nodes/icon-validation',
	'@n8n/community-nodes/node-usable-as-tool',
	'@n8n/community-nodes/require-node-description-fields',
	'@n8n/community-nodes/node-connection-type-literal',
];
const UNUSED_VARS = ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }];

const UNPUBLISHED = ['test', 'harness', 'sandbox', 'scripts', 'bench', 'examples'];
const PACKAGE = ['nodes', 'credentials'];

function typescriptFiles(folder: string): string[] {
	const absolute = path.join(REPO_ROOT, folder);
	if (!fs.existsSync(absolute)) return [];
	return fs
		.readdirSync(absolute, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.ts') && !file.split(path.sep).includes('node_modules'))
		.map((file) => path.join(folder, file));
}

const read = (file: string): string => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** Each configuration comment opening a line, as ESLint parses it (JSON between braces). */
function inlineConfigs(text: string): Array<Record<string, unknown>> {
	return [...text.matchAll(/^\/\*\s*eslint\s([\s\S]*?)\*\//gm)].map((match) => {
		const [settings] = match[1].split(/\s-{2,}\s/);
		return JSON.parse(`{${settings}}`) as Record<string, unknown>;
	});
}

describe('ESLint comments', () => {
	it('switch off, in unpublished code, only the rules for code that runs inside n8n', () => {
		const files = UNPUBLISHED.flatMap(typescriptFiles);
		expect(files.length).toBeGreaterThan(50);

		const misuses: string[] = [];
		for (const file of files) {
			const text = read(file);
			const configs = inlineConfigs(text);
			if (configs.length > 0 && !text.startsWith('/* eslint')) {
				misuses.push(`${file}: the eslint comment is not the file's first line`);
			}
			for (const [rule, setting] of configs.flatMap((config) => Object.entries(config))) {
				const allowed =
					rule === '@typescript-eslint/no-unused-vars'
						? JSON.stringify(setting) === JSON.stringify(UNUSED_VARS)
						: RUNTIME_RULES.includes(rule) && setting === 'off';
				if (!allowed) misuses.push(`${file}: ${rule} ${JSON.stringify(setting)}`);
			}
			for (const match of text.matchAll(/eslint-disable(?:-next-line|-line)?\s+([^\n*]+)/g)) {
				const rules = match[1]
					.split(/\s-{2,}\s/)[0]
					.split(/[\s,]+/)
					.filter(Boolean);
				const n8nRules = rules.filter((rule) => /^(@n8n\/|n8n-nodes-base\/)/.test(rule));
				if (rules.length === 0 || n8nRules.length > 0) {
					misuses.push(`${file}: ${match[0].trim()}`);
				}
			}
		}
		expect(misuses).toEqual([]);
	});

	it('do not appear in the package sources', () => {
		const files = PACKAGE.flatMap(typescriptFiles);
		expect(files).toEqual(expect.arrayContaining(['nodes/TrioVms/TrioVms.node.ts']));

		const withComments = files.filter((file) =>
			/\/[*/]\s*eslint(?:-disable|-enable|\s)/.test(read(file)),
		);
		expect(withComments).toEqual([]);
	});
});
