/**
 * The nodes use the zod n8n ships (no runtime dependencies), so a zod major change in n8n must not
 * change what nodes/shared/schemas.ts means. They import `zod/v3`, the entry both majors offer:
 * zod 3.25 and later (n8n 1.123 ships 3.25.67, n8n 2.41 ships 3.25.76) and zod 4, which keeps the
 * zod 3 API there. n8n's import rule allows it (it judges the package name, `zod`). A zod that
 * lacks the entry fails to load the package at once, naming `zod/v3`, instead of misreading data.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { REPO_ROOT } from '../../harness/pack';
import { cacheRoot } from '../../harness/install';

/**
 * Every zod import of the repository's TypeScript, as written. The sandbox and the tests use the
 * same entry as the nodes: under the repository's module resolution `zod` and `zod/v3` are two
 * sets of declarations, and a schema of one checked against types of the other exhausts tsc.
 */
function zodImports(): Array<{ file: string; entry: string }> {
	const found: Array<{ file: string; entry: string }> = [];
	for (const folder of ['nodes', 'credentials', 'sandbox', 'harness', 'test', 'scripts', 'bench']) {
		const root = path.join(REPO_ROOT, folder);
		if (!fs.existsSync(root)) continue;
		for (const file of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
			if (!file.endsWith('.ts') || file.split(path.sep).includes('node_modules')) continue;
			const text = fs.readFileSync(path.join(root, file), 'utf8');
			for (const match of text.matchAll(
				/^\s*(?:import|export)\b[^;]*?from\s*'(zod(?:\/[^']*)?)'/gm,
			))
				found.push({ file: path.join(folder, file), entry: match[1] });
		}
	}
	return found;
}

/** The zod at the top of a pinned n8n line's tree: the one a community package resolves. */
function n8nZod(line: string): string | undefined {
	const lock = JSON.parse(
		fs.readFileSync(path.join(REPO_ROOT, 'test/n8n-versions', line, 'package-lock.json'), 'utf8'),
	) as { packages: Record<string, { version?: string }> };
	return lock.packages['node_modules/zod']?.version;
}

/** A zod 4 somewhere in the cached n8n 2.x tree (n8n's own dependencies carry one), if installed. */
function cachedZod4(): string | undefined {
	const root = cacheRoot();
	if (!fs.existsSync(root)) return undefined;
	const lock = JSON.parse(
		fs.readFileSync(path.join(REPO_ROOT, 'test/n8n-versions/2.x/package-lock.json'), 'utf8'),
	) as { packages: Record<string, { version?: string }> };
	const nested = Object.entries(lock.packages)
		.filter(
			([where, entry]) => where.endsWith('/node_modules/zod') && entry.version?.startsWith('4.'),
		)
		.map(([where]) => where);
	for (const tree of fs.readdirSync(root).filter((name) => name.startsWith('n8n-2.x-')))
		for (const where of nested) {
			const folder = path.join(root, tree, where);
			if (fs.existsSync(path.join(folder, 'package.json'))) return folder;
		}
	return undefined;
}

describe('the zod the nodes are given', () => {
	it('is imported through zod/v3 only, in the nodes and everywhere else', () => {
		const imports = zodImports();
		expect(imports.filter(({ file }) => file.startsWith('nodes')).length).toBeGreaterThanOrEqual(4);
		expect(imports.filter(({ file }) => file.startsWith('sandbox')).length).toBeGreaterThanOrEqual(
			4,
		);
		expect(imports.filter(({ entry }) => entry !== 'zod/v3')).toEqual([]);
	});

	it.each(['1.x', '2.x'])(
		'offers zod/v3 in the pinned n8n %s (zod 3.25 or later at the top of its tree)',
		(line) => {
			const version = n8nZod(line);
			expect(version).toBeDefined();
			const [major, minor] = version!.split('.').map(Number);
			expect(major > 3 || (major === 3 && minor >= 25)).toBe(true);
		},
	);

	it('reads the same through the zod 3 this package is built and tested with', () => {
		const manifest = JSON.parse(fs.readFileSync(require.resolve('zod/package.json'), 'utf8')) as {
			version: string;
			exports: object;
		};
		expect(manifest.version).toMatch(/^3\./);
		expect(Object.keys(manifest.exports)).toContain('./v3');
	});

	const zod4 = cachedZod4();
	// The cached n8n 2.x tree is there once the real-n8n tier or `npm run n8n:install` has run.
	(zod4 ? it : it.skip)("means the same with zod 4's zod/v3 (from the cached n8n 2.x tree)", () => {
		const manifest = JSON.parse(fs.readFileSync(path.join(zod4!, 'package.json'), 'utf8')) as {
			version: string;
		};
		expect(manifest.version).toMatch(/^4\./);
		jest.isolateModules(() => {
			jest.doMock('zod/v3', () => jest.requireActual(path.join(zod4!, 'v3')));
			const schemas = jest.requireActual<typeof import('../../nodes/shared/schemas')>(
				'../../nodes/shared/schemas',
			);
			const good = schemas.submissionCreateFieldsSchema.safeParse({
				JobNumber: 100001,
				CandidateNumber: 7,
				StartDate: '2026-03-01T07:00:00Z',
			});
			expect(good.success).toBe(true);
			const bad = schemas.submissionCreateFieldsSchema.safeParse({
				JobNumber: 0,
				CandidateNumber: 7,
				StartDate: '2026-02-30T07:00:00Z',
			});
			expect(bad.success).toBe(false);
			// The schemas were built by zod 4's module, not by the zod 3 beside this repository.
			const { ZodError } = jest.requireActual<typeof import('zod/v3')>(path.join(zod4!, 'v3'));
			expect(bad.error).toBeInstanceOf(ZodError);
			expect(schemas.describeIssues(bad.error!)).toEqual([
				'JobNumber: must be a positive number',
				'StartDate: is not a real date-time',
			]);
			jest.dontMock('zod/v3');
		});
	});
});
