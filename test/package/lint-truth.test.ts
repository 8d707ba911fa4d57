/**
 * One lint truth wherever a contributor looks (issue 48): `npm run lint` (CI's), VS Code's ESLint
 * (the settings the repository ships) and the documented command all look ESLint configurations
 * up from each file with one flag, and ESLint is pinned where that flag has this name. The day
 * ESLint is moved to 9.30 (where the flag is renamed v10_config_lookup_from_file and the old
 * name only warns) or to 10 (where the flag is refused and the lookup is the default), this test
 * fails and says what to change, instead of the editor and CI quietly disagreeing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { REPO_ROOT } from '../../harness/pack';

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const FLAG = 'unstable_config_lookup_from_file';

describe('one lint truth', () => {
	const manifest = JSON.parse(read('package.json')) as {
		scripts: Record<string, string>;
		devDependencies: Record<string, string>;
	};

	it('pins ESLint exactly, below 9.30, where the flag the commands pass has its name', () => {
		const pinned = manifest.devDependencies.eslint;
		expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
		const [major, minor] = pinned.split('.').map(Number);
		const installed = (JSON.parse(read('node_modules/eslint/package.json')) as { version: string })
			.version;
		expect(installed).toBe(pinned);
		// Moving ESLint on: 9.30+ renames the flag (v10_config_lookup_from_file); 10 drops it and
		// looks configurations up from each file by default. Change the scripts, .vscode/settings.json,
		// docs/development.md and this test together.
		expect(major === 9 && minor < 30).toBe(true);
	});

	it('passes the same flag in npm run lint, lint:fix and the editor settings the repository ships', () => {
		expect(manifest.scripts.lint).toContain(`ESLINT_FLAGS=${FLAG} n8n-node lint`);
		expect(manifest.scripts.lint).toContain(`eslint --flag ${FLAG} .`);
		expect(manifest.scripts['lint:fix']).toContain(`ESLINT_FLAGS=${FLAG} n8n-node lint --fix`);
		const settings = JSON.parse(read('.vscode/settings.json')) as Record<string, unknown>;
		expect(settings['eslint.options']).toEqual({ flags: [FLAG] });
		expect(settings['eslint.useFlatConfig']).toBe(true);
	});

	it('documents the commands a contributor runs, and why plain n8n-node lint is not one', () => {
		const development = read('docs/development.md');
		expect(development).toContain('.vscode/settings.json');
		expect(development).toContain('`npm run lint`');
		expect(development).toContain('plain `npx n8n-node lint`');
	});
});
