/**
 * eslint.config.mjs is n8n's default (cloud-support.test.ts), and it alone judges the package
 * sources (nodes/, credentials/). The code that is not published (tests, harness, sandbox,
 * scripts, benchmarks) runs in Node, not inside n8n: each of its folders has an eslint.config.mjs
 * of its own (the shared eslint.unpublished.mjs), found because `npm run lint` looks
 * configurations up from each file. It is n8n's configuration with only n8n's rules about what
 * installed code may do switched off (Node's globals and modules, child processes, console,
 * secrets in source, raw errors, a node description's required parts for test doubles of
 * nodes), and unused names allowed with a `_` prefix. No file carries that in a comment of its
 * own, and the package's own files carry no inline ESLint comments at all: n8n's verification
 * scanner ignores them, so they could only hide what it will report.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { run } from '../../harness/exec';
import { REPO_ROOT } from '../../harness/pack';

/** One ESLint process computes every configuration below (loading typescript-eslint once). */
jest.setTimeout(180_000);

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
const UNUSED_VARS = 'error, args and variables named _… allowed';

const UNPUBLISHED = ['test', 'harness', 'sandbox', 'scripts', 'bench'];
const PACKAGE = ['nodes', 'credentials'];
const LOOKUP_FROM_FILE = 'unstable_config_lookup_from_file';

function typescriptFiles(folder: string): string[] {
	const absolute = path.join(REPO_ROOT, folder);
	if (!fs.existsSync(absolute)) return [];
	return fs
		.readdirSync(absolute, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.ts') && !file.split(path.sep).includes('node_modules'))
		.map((file) => path.join(folder, file));
}

const read = (file: string): string => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');

type Rules = Record<string, unknown[]>;

interface Asked {
	file: string;
	/** As `npm run lint` runs ESLint (its flag), or as a plain `eslint` without it. */
	lookupFromFile: boolean;
}

/**
 * The rules ESLint applies to each file (which need not exist), through ESLint's own API in one
 * child process: what `eslint --print-config` prints, without loading n8n's configuration
 * (typescript-eslint, seconds of CPU) once per file. The child runs outside Jest, as the CLI does,
 * because ESLint loads each folder's eslint.config.mjs as an ES module.
 */
async function rulesFor(asked: Asked[]): Promise<Rules[]> {
	const script = `
		const { loadESLint } = require('eslint');
		(async () => {
			const ESLint = await loadESLint({ useFlatConfig: true });
			const instances = {
				true: new ESLint({ cwd: process.cwd(), flags: [${JSON.stringify(LOOKUP_FROM_FILE)}] }),
				false: new ESLint({ cwd: process.cwd() }),
			};
			const out = [];
			for (const { file, lookupFromFile } of ${JSON.stringify(asked)})
				out.push((await instances[lookupFromFile].calculateConfigForFile(file)).rules);
			process.stdout.write(JSON.stringify(out));
		})().catch((error) => { console.error(error); process.exit(1); });`;
	const { code, output, stdout } = await run(process.execPath, ['-e', script], {
		cwd: REPO_ROOT,
		env: { ...process.env, ESLINT_FLAGS: '' },
		timeoutMs: 120_000,
	});
	if (code !== 0) throw new Error(`ESLint's configurations could not be computed: ${output}`);
	return JSON.parse(stdout) as Rules[];
}

/** The rules whose setting differs, in words: "rule: before -> after". */
function differences(before: Rules, after: Rules): Record<string, string> {
	const words = (setting: unknown[] | undefined): string => {
		if (!setting) return 'absent';
		const [level, options] = setting;
		const name = ['off', 'warn', 'error'][Number(level)] ?? String(level);
		if (
			JSON.stringify(options) ===
			JSON.stringify({ argsIgnorePattern: '^_', varsIgnorePattern: '^_' })
		)
			return UNUSED_VARS;
		return options === undefined || JSON.stringify(options) === '{}'
			? name
			: `${name} ${JSON.stringify(options)}`;
	};
	const changed: Record<string, string> = {};
	for (const rule of new Set([...Object.keys(before), ...Object.keys(after)])) {
		if (JSON.stringify(before[rule]) !== JSON.stringify(after[rule]))
			changed[rule] = `${words(before[rule])} -> ${words(after[rule])}`;
	}
	return changed;
}

describe('ESLint configuration', () => {
	it("judges the package sources by n8n's default alone, looked up from each file or not", async () => {
		const [node, nodeAsBefore, credential] = await rulesFor([
			{ file: 'nodes/TrioVms/TrioVms.node.ts', lookupFromFile: true },
			{ file: 'nodes/TrioVms/TrioVms.node.ts', lookupFromFile: false },
			{ file: 'credentials/TrioVmsApi.credentials.ts', lookupFromFile: true },
		]);
		expect(differences(nodeAsBefore, node)).toEqual({});
		expect(node['@n8n/community-nodes/no-restricted-imports']).toEqual([2]);
		expect(node['n8n-nodes-base/node-param-display-name-miscased']).toEqual([2]);
		expect(credential['n8n-nodes-base/cred-class-field-name-uppercase-first-char']).toEqual([2]);
	});

	it('switches off, in unpublished code, only the rules for code that runs inside n8n', async () => {
		const expected = Object.fromEntries([
			...RUNTIME_RULES.map((rule) => [rule, 'error -> off']),
			['@typescript-eslint/no-unused-vars', `error -> ${UNUSED_VARS}`],
		]);
		const [root, ...folders] = await rulesFor(
			['anything.ts', ...UNPUBLISHED.map((folder) => `${folder}/anything.ts`)].map((file) => ({
				file,
				lookupFromFile: true,
			})),
		);
		for (const rules of folders) expect(differences(root, rules)).toEqual(expected);
	});

	it('are in configuration files, not in comments of unpublished files', () => {
		const files = UNPUBLISHED.flatMap(typescriptFiles);
		expect(files.length).toBeGreaterThan(50);

		const misuses: string[] = [];
		for (const file of files) {
			const text = read(file);
			if (/^\s*\/\*\s*eslint\s/m.test(text)) misuses.push(`${file}: an eslint comment`);
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
