// Prints, for each file of the package, the rules ESLint applies to it under the project's
// eslint.config.mjs and under n8n's configuration alone (what `n8n-node lint` uses in a repository
// created by n8n's starter). A separate process because the configuration loads ES modules that
// jest's CommonJS runtime cannot.
import { createRequire } from 'node:module';

import { ESLint } from 'eslint';
import { config as n8nConfig } from '@n8n/node-cli/eslint';

// node-cli's own glob library rather than a package this project does not depend on.
const glob = createRequire(import.meta.resolve('@n8n/node-cli/eslint'))('fast-glob');

const root = process.cwd();
const files = glob.sync(['package.json', '{nodes,credentials}/**/*.ts'], { cwd: root }).sort();

const project = new ESLint({ cwd: root });
const n8n = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: n8nConfig });

const report = [];
for (const file of files) {
	const ours = await project.calculateConfigForFile(file);
	const theirs = await n8n.calculateConfigForFile(file);
	report.push({ file, project: ours?.rules ?? null, n8n: theirs?.rules ?? null });
}
process.stdout.write(JSON.stringify(report));
