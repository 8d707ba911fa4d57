/**
 * The rooms stay in proportion (docs/development.md, Layout): no module under nodes/ is over 350
 * lines and no function in one is over 60, read with the TypeScript compiler. The one exception
 * is the size of helpers/createMemory.ts, one concern whose header says why it stays one module.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const MAX_MODULE_LINES = 350;
const MAX_FUNCTION_LINES = 60;
const LARGER_MODULES = new Set(['nodes/TrioVms/helpers/createMemory.ts']);

function modules(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return modules(path);
		return entry.name.endsWith('.ts') ? [relative(ROOT, path)] : [];
	});
}

const sources = modules(join(ROOT, 'nodes')).map((path) => {
	const text = readFileSync(join(ROOT, path), 'utf8');
	return { path, source: ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true) };
});

/** Lines as `wc -l` counts them: a last line without its newline counts too. */
function lineCount(text: string): number {
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function lineOf(source: ts.SourceFile, position: number): number {
	return source.getLineAndCharacterOfPosition(position).line + 1;
}

/** Each function, method, accessor or arrow with a body: where it starts and how many lines it spans. */
function functions(source: ts.SourceFile): Array<{ at: string; lines: number }> {
	const found: Array<{ at: string; lines: number }> = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const first = lineOf(source, node.getStart(source));
			const lines = lineOf(source, node.getEnd()) - first + 1;
			found.push({ at: `${source.fileName}:${first}`, lines });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

describe('the proportions of nodes/', () => {
	it('reads modules and functions', () => {
		expect(sources.length).toBeGreaterThan(50);
		expect(functions(sources[0].source).length).toBeGreaterThan(0);
	});

	it(`has no module over ${MAX_MODULE_LINES} lines (createMemory.ts excepted)`, () => {
		const over = sources
			.filter(({ path }) => !LARGER_MODULES.has(path))
			.map(({ path, source }) => ({ path, lines: lineCount(source.text) }))
			.filter(({ lines }) => lines > MAX_MODULE_LINES);
		expect(over).toEqual([]);
	});

	it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
		const over = sources
			.flatMap(({ source }) => functions(source))
			.filter(({ lines }) => lines > MAX_FUNCTION_LINES);
		expect(over).toEqual([]);
	});

	it('keeps the exception explained in the module itself', () => {
		const text = readFileSync(join(ROOT, 'nodes/TrioVms/helpers/createMemory.ts'), 'utf8');
		expect(text.slice(0, text.indexOf('*/'))).toMatch(/Why one module/);
	});
});
