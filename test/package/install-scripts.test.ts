/**
 * A plain `npm ci` installs the dev dependencies with the npm that Node 20, 22 and 24 ship (10.x
 * and 11.x): the repository's .npmrc turns dependencies' install scripts off on every npm (npm 10
 * reads no allowScripts), every package in the lockfile that has one is reviewed in package.json's
 * `allowScripts` (what npm 11.16+ would read) as not needed, nothing asks for a newer npm, and
 * the README's commands and CI's are that plain `npm ci`, CI's with npm 10 first on PATH.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { npmEnv } from '../../harness/install';
import { REPO_ROOT } from '../../harness/pack';

interface Manifest {
	allowScripts?: Record<string, boolean>;
	devEngines?: { packageManager?: unknown };
	engines?: Record<string, string>;
	scripts?: Record<string, string>;
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

/** The settings of an .npmrc, comments dropped. */
function npmrc(file: string): Record<string, string> {
	const settings: Record<string, string> = {};
	for (const line of read(file).split('\n')) {
		const match = /^\s*([^#;=\s][^=]*?)\s*=\s*(.*?)\s*$/.exec(line);
		if (match) settings[match[1]] = match[2];
	}
	return settings;
}

describe('installing the dev dependencies', () => {
	it("keeps every dependency's install script off, on npm 10 as on npm 11", () => {
		expect(npmrc('.npmrc')).toMatchObject({ 'ignore-scripts': 'true' });
	});

	it("leaves the harness's own installs (n8n's sqlite3 rebuild) their install scripts", () => {
		// `npm test` passes the .npmrc setting down as npm_config_ignore_scripts.
		const saved = process.env.npm_config_ignore_scripts;
		process.env.npm_config_ignore_scripts = 'true';
		try {
			expect(npmEnv()).not.toHaveProperty('npm_config_ignore_scripts');
		} finally {
			if (saved === undefined) delete process.env.npm_config_ignore_scripts;
			else process.env.npm_config_ignore_scripts = saved;
		}
	});

	it('has every install script in the lockfile reviewed as not needed', () => {
		const withScripts = Object.entries(lockfile.packages)
			.filter(([location, entry]) => location !== '' && entry.hasInstallScript)
			.map(([location]) => packageName(location));
		expect(withScripts.length).toBeGreaterThan(0);

		const unreviewed = [...new Set(withScripts)].filter(
			(name) => manifest.allowScripts?.[name] !== false,
		);
		expect(unreviewed).toEqual([]);
	});

	it('needs no script of its own around an install and asks for no npm newer than 10', () => {
		// ignore-scripts would skip these silently: nothing may depend on them.
		const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare'];
		expect(Object.keys(manifest.scripts ?? {}).filter((name) => lifecycle.includes(name))).toEqual(
			[],
		);
		const pre = Object.keys(manifest.scripts ?? {}).filter(
			(name) => /^(pre|post)/.test(name) && manifest.scripts?.[name.replace(/^(pre|post)/, '')],
		);
		expect(pre).toEqual([]);
		expect(manifest.devEngines?.packageManager).toBeUndefined();
		expect(manifest.engines?.npm).toBeUndefined();
	});

	it('gives the same plain commands in the README and in CI, for the npm Node ships', () => {
		// The README's first section after the introduction, for people trying or developing it.
		const readme = read('README.md');
		const firstSection = readme.split(/^## /m)[1] ?? '';
		expect(readme.split(/^## /m)[0].split('\n').length).toBeLessThan(20);
		const readmeLines = firstSection.split('\n');
		const readmeCommands = readmeLines
			.map((line) => /^- \*\*[^*]+\*\* \(([^)]*)\): `([^`]+)`$/.exec(line))
			.filter((match): match is RegExpExecArray => match !== null);
		expect(readmeCommands.map((match) => match[2])).toEqual([
			'npm ci && npm run demo',
			'npm ci && npm test',
		]);
		for (const [, requirements] of readmeCommands) {
			expect(requirements).toContain('Node 20, 22 or 24 with the npm it ships');
		}

		const ciLines = read('.ci/run')
			.split('\n')
			.map((line) => line.trim());
		const testCommand = ciLines.indexOf('npm ci && npm test');
		expect(testCommand).toBeGreaterThan(-1);
		const npm10OnPath = ciLines.findIndex((line) =>
			/^export PATH="\$npm10\/bin:\$PATH"$/.test(line),
		);
		expect(npm10OnPath).toBeGreaterThan(-1);
		expect(npm10OnPath).toBeLessThan(testCommand);
		expect(
			ciLines.some((line) => /npm install .*--prefix "\$npm10\.\$\$" .*npm@10$/.test(line)),
		).toBe(true);
	});
});
