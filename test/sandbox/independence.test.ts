/**
 * The sandbox reads the wire from the spec on its own (sandbox/wire.ts): it may take the nodes'
 * data types for its seed, but no value from nodes/, or a path, name or limit the nodes get wrong
 * would be wrong in the sandbox too and no test could see it (test/sandbox/contract.test.ts
 * compares the two sides instead).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';

const SANDBOX_DIR = path.join(__dirname, '../../sandbox');
const NODES_DIR = path.join(__dirname, '../../nodes');

/** Whether a module specifier, written in `file`, points into nodes/. */
function intoNodes(file: string, specifier: string): boolean {
	if (!specifier.startsWith('.')) return false;
	const target = path.resolve(path.dirname(file), specifier);
	return target === NODES_DIR || target.startsWith(`${NODES_DIR}${path.sep}`);
}

/** Every place in a source that takes a runtime value from nodes/, as "file:line text". */
function valueImportsFromNodes(file: string, source: string): string[] {
	const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const report = (node: ts.Node) => {
		const { line } = tree.getLineAndCharacterOfPosition(node.getStart());
		found.push(`${path.basename(file)}:${line + 1} ${node.getText().split('\n')[0]}`);
	};
	const visit = (node: ts.Node) => {
		if (
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
			node.moduleSpecifier &&
			ts.isStringLiteral(node.moduleSpecifier) &&
			intoNodes(file, node.moduleSpecifier.text)
		) {
			let typeOnly: boolean;
			if (ts.isImportDeclaration(node)) {
				const clause = node.importClause;
				const named = clause?.namedBindings;
				typeOnly =
					!!clause &&
					(clause.isTypeOnly ||
						(!clause.name &&
							!!named &&
							ts.isNamedImports(named) &&
							named.elements.length > 0 &&
							named.elements.every((element) => element.isTypeOnly)));
			} else {
				const clause = node.exportClause;
				typeOnly =
					node.isTypeOnly ||
					(!!clause &&
						ts.isNamedExports(clause) &&
						clause.elements.length > 0 &&
						clause.elements.every((element) => element.isTypeOnly));
			}
			if (!typeOnly) report(node);
		} else if (
			ts.isCallExpression(node) &&
			(node.expression.kind === ts.SyntaxKind.ImportKeyword ||
				(ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
			node.arguments.length > 0 &&
			ts.isStringLiteral(node.arguments[0]) &&
			intoNodes(file, node.arguments[0].text)
		) {
			report(node);
		} else if (
			ts.isImportEqualsDeclaration(node) &&
			ts.isExternalModuleReference(node.moduleReference) &&
			ts.isStringLiteral(node.moduleReference.expression) &&
			intoNodes(file, node.moduleReference.expression.text) &&
			!node.isTypeOnly
		) {
			report(node);
		}
		ts.forEachChild(node, visit);
	};
	visit(tree);
	return found;
}

function sandboxSources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return sandboxSources(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

describe('the sandbox takes no runtime value from the nodes', () => {
	test('every import from nodes/ in sandbox/ is `import type`', () => {
		const files = sandboxSources(SANDBOX_DIR);
		expect(files.length).toBeGreaterThan(10);
		const found = files.flatMap((file) => valueImportsFromNodes(file, readFileSync(file, 'utf8')));
		expect(found).toEqual([]);
	});

	/** Each form a line can take, with how many runtime values from nodes/ it takes (0 or 1). */
	const forms: Array<[line: string, values: number]> = [
		// A value import, in each form it can take.
		["import { PATHS } from '../nodes/shared/serviceFacts';", 1],
		["import { type Job, jobSchema } from '../nodes/shared/schemas';", 1],
		["import * as events from '../nodes/shared/events';", 1],
		["import '../nodes/shared/events';", 1],
		["export { API_PREFIX } from '../nodes/shared/serviceFacts';", 1],
		["const service = require('../nodes/shared/serviceFacts');", 1],
		["const later = import('../nodes/shared/serviceFacts');", 1],
		// Types, and values from elsewhere, go through.
		["import type { Job } from '../nodes/shared/schemas';", 0],
		["import { type JobStatus } from '../nodes/shared/serviceFacts';", 0],
		["export type { NamedIdentifier } from '../nodes/shared/schemas';", 0],
		["import { API_PREFIX } from './wire';", 0],
		["import { z } from 'zod';", 0],
	];
	const file = path.join(SANDBOX_DIR, 'example.ts');

	test.each(forms)('the check finds in %s %d value(s) from nodes/', (line, values) => {
		expect(valueImportsFromNodes(file, line)).toHaveLength(values);
	});

	test('the check lets types through, and values from elsewhere, in one source', () => {
		const source = forms
			.filter(([, values]) => values === 0)
			.map(([line]) => line)
			.join('\n');
		expect(valueImportsFromNodes(file, source)).toEqual([]);
	});
});
