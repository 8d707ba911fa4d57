/**
 * docs/development.md draws the house as it is: every module under nodes/ is named in its
 * layout (by its file name, or its folder's pattern for the one-file-per-operation folders).
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

import { readRepoFile } from './markdown';

const ROOT = join(__dirname, '..', '..');

function modules(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return modules(path);
		return entry.name.endsWith('.ts') ? [relative(ROOT, path)] : [];
	});
}

const layout = (() => {
	const text = readRepoFile('docs/development.md');
	const start = text.indexOf('**Layout**');
	return text.slice(start, text.indexOf('```', text.indexOf('```', start) + 3));
})();

describe('the layout in docs/development.md', () => {
	it.each(modules(join(ROOT, 'nodes')).filter((path) => !path.endsWith('.operation.ts')))(
		'names %s',
		(path) => {
			const file = path.split('/').pop() as string;
			expect(layout).toContain(file);
		},
	);

	it('names the one-file-per-operation pattern', () => {
		expect(layout).toContain('actions/<resource>/<operation>.operation.ts');
	});
});
