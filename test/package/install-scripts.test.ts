/* eslint
	"@n8n/community-nodes/no-restricted-imports": "off"
	-- not in the package: n8n's rules for the code users install do not apply here */
/**
 * A plain `npm ci` installs the dev dependencies: every package in the lockfile that has an install
 * script is reviewed in package.json's `allowScripts` (npm 11.16+), and the README's commands and
 * CI's use that plain `npm ci`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { REPO_ROOT } from '../support/harness/pack';

interface Manifest {
	allowScripts?: Record<string, boolean>;
	devEngines?: { packageManager?: { name: string; version: string } };
}
interface Lockfile {
	packages: Record<string, { hasInstallScript?: boolean }>;
}

const read = (file: string): string => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const manifest = JSON.parse(read('package.json')) as Manifest;
const lockfile = JSON.parse(read('package-lock.json')) as Lockfile;

/** `node_modules/a/node_modules/@scope/b` -> `@scope/b` */
const packageName = (location: string): string =>
	location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('installing the dev dependencies', () => {
	it('has every install script in the lockfile reviewed in allowScripts', () => {
		const withScripts = Object.entries(lockfile.packages)
			.filter(([location, entry]) => location !== '' && entry.hasInstallScript)
			.map(([location]) => packageName(location));
		expect(withScripts.length).toBeGreaterThan(0);

		const unreviewed = [...new Set(withScripts)].filter(
			(name) => typeof manifest.allowScripts?.[name] !== 'boolean',
		);
		expect(unreviewed).toEqual([]);
	});

	it('asks for an npm that reads allowScripts', () => {
		expect(manifest.devEngines?.packageManager).toMatchObject({
			name: 'npm',
			version: '>=11.16.0',
		});
	});

	it('gives the same plain commands in the README and in CI', () => {
		const readmeCommands = read('README.md')
			.split('\n')
			.slice(0, 6)
			.map((line) => /^- \*\*[^*]+\*\* \([^)]*\): `([^`]+)`$/.exec(line)?.[1])
			.filter((command): command is string => command !== undefined);
		expect(readmeCommands).toEqual(['npm ci && npm run demo', 'npm ci && npm test']);

		const ciLines = read('.ci/run')
			.split('\n')
			.map((line) => line.trim());
		expect(ciLines).toContain('npm ci && npm test');
	});
});
