/**
 * The docs draw the house as it is:
 * - docs/development.md's layout names every module under nodes/ (by its file name, or its
 *   folder's pattern for the one-file-per-operation folders);
 * - docs/real-n8n.md's harness table names exactly the modules under harness/: each one, and
 *   no file that is not there.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

import { codeSpans, readRepoFile, section, tableRows } from './markdown';

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

/** The harness table: its first column, and the `*.ts` files each row names. */
const harnessTable = tableRows(
	section(readRepoFile('docs/real-n8n.md'), 'How it works (harness/)'),
).map(([file, does]) => ({
	file: codeSpans(file)[0],
	named: codeSpans(does).filter((span) => /^[\w.-]+\.ts$/.test(span)),
}));

describe('the harness table in docs/real-n8n.md', () => {
	const harness = join(ROOT, 'harness');

	it.each(modules(harness).map((path) => path.slice('harness/'.length)))('names %s', (path) => {
		const [folder, file] = path.includes('/') ? path.split('/') : ['', path];
		const row = harnessTable.find((entry) => entry.file === (folder ? `${folder}/` : file));
		expect(row).toBeDefined();
		if (folder) expect(row?.named).toContain(file);
	});

	it('names no module harness/ does not have', () => {
		const named = harnessTable.flatMap(({ file, named }) =>
			file.endsWith('/') ? named.map((name) => file + name) : [file],
		);
		expect(named.filter((path) => !existsSync(join(harness, path)))).toEqual([]);
	});
});
