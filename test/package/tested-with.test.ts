/**
 * The README's "Tested with" line is a promise about what CI runs: the real-n8n suites install
 * exactly the releases pinned in test/n8n-versions/<line>/package.json, so the line names exactly
 * those releases, no fewer and no rounder ("2.41" would also claim 2.41.3, which cannot be
 * installed from the registry mirror CI uses; see docs/real-n8n.md).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { N8N_LINES } from '../../harness/install';
import { REPO_ROOT } from '../../harness/pack';

function pinned(line: string): string {
	const manifest = JSON.parse(
		fs.readFileSync(path.join(REPO_ROOT, 'test', 'n8n-versions', line, 'package.json'), 'utf8'),
	) as { dependencies: { n8n: string } };
	return manifest.dependencies.n8n;
}

describe("the README's Tested with line", () => {
	it('names exactly the n8n releases the real-n8n suites install', () => {
		const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
		const lines = readme.split('\n').filter((text) => /Tested with n8n/i.test(text));
		expect(lines).toHaveLength(1);

		const named = [...lines[0].matchAll(/\b\d+\.\d+(?:\.\d+)?\b/g)].map((match) => match[0]);
		expect(named.sort()).toEqual(N8N_LINES.map(pinned).sort());
	});
});
