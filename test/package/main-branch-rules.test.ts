/**
 * A stand-in for three rules of n8n's community-node lint as it stands on n8n's main branch, which
 * the installed @n8n/eslint-plugin-community-nodes 0.32.0 does not have yet, so `n8n-node lint`
 * cannot hold the package to them. Each is checked twice: on the `*.node.ts` sources the way the
 * rule reads them (an object or array written out in the file; a spread or a call it cannot see),
 * and on the descriptions the nodes build at run time, where every field and hint is present.
 * Remove a check once the plugin that carries its rule is installed (docs/development.md).
 *
 * - require-continue-on-fail: execute() calls this.continueOnFail() in its own body.
 * - hint-max-length: no hint is longer than 120 characters.
 * - non-required-fields-in-collection: a top-level field that is not required sits in a
 *   collection (Options, Filters), unless it picks the resource, operation or authentication.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodeProperties, INodeType } from 'n8n-workflow';
import * as ts from 'typescript';

import { REPO_ROOT } from '../../harness/pack';
import { TrioVms } from '../../nodes/TrioVms/TrioVms.node';
import { TrioVmsSyncTrigger } from '../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node';
import { TrioVmsTrigger } from '../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';

const MAX_HINT_LENGTH = 120;
const CONTAINER_TYPES = new Set(['collection', 'fixedCollection']);
const NON_INPUT_TYPES = new Set(['notice', 'callout', 'hidden', 'curlImport']);
const SELECTOR_NAMES = new Set(['resource', 'operation', 'authentication']);

// ------------------------------------------------------------------ the rules on a source file

/** The name a property key stands for, when it is written out. */
function keyName(name: ts.PropertyName): string | null {
	if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name))
		return name.text;
	if (ts.isComputedPropertyName(name) && ts.isStringLiteralLike(name.expression))
		return name.expression.text;
	return null;
}

/** The object behind `{ … }`, `{ … } as T` and `{ … } satisfies T`. */
function objectOf(node: ts.Expression | undefined): ts.ObjectLiteralExpression | null {
	let current = node;
	while (
		current &&
		(ts.isAsExpression(current) ||
			ts.isSatisfiesExpression(current) ||
			ts.isTypeAssertionExpression(current) ||
			ts.isNonNullExpression(current) ||
			ts.isParenthesizedExpression(current))
	)
		current = current.expression;
	return current && ts.isObjectLiteralExpression(current) ? current : null;
}

function propertyOf(
	object: ts.ObjectLiteralExpression,
	name: string,
): ts.PropertyAssignment | null {
	for (const property of object.properties)
		if (ts.isPropertyAssignment(property) && keyName(property.name) === name) return property;
	return null;
}

function stringOf(node: ts.Expression): string | null {
	return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : null;
}

function isNodeTypeClass(node: ts.ClassDeclaration): boolean {
	return (node.heritageClauses ?? []).some((clause) =>
		clause.types.some(
			(type) =>
				ts.isIdentifier(type.expression) &&
				((clause.token === ts.SyntaxKind.ImplementsKeyword &&
					type.expression.text === 'INodeType') ||
					(clause.token === ts.SyntaxKind.ExtendsKeyword && type.expression.text === 'Node')),
		),
	);
}

function callsContinueOnFail(node: ts.Node): boolean {
	if (
		ts.isCallExpression(node) &&
		ts.isPropertyAccessExpression(node.expression) &&
		node.expression.expression.kind === ts.SyntaxKind.ThisKeyword &&
		node.expression.name.text === 'continueOnFail'
	)
		return true;
	return ts.forEachChild(node, (child) => (callsContinueOnFail(child) ? true : undefined)) ?? false;
}

/** Every hint written out in the description, through nested objects and arrays. */
function longHints(node: ts.Node, found: string[]): void {
	if (ts.isObjectLiteralExpression(node)) {
		for (const property of node.properties) {
			if (!ts.isPropertyAssignment(property)) continue;
			const hint = keyName(property.name) === 'hint' ? stringOf(property.initializer) : null;
			if (hint !== null && hint.length > MAX_HINT_LENGTH)
				found.push(`hint of ${hint.length} characters: "${hint}"`);
			longHints(property.initializer, found);
		}
	} else if (ts.isArrayLiteralExpression(node)) {
		for (const element of node.elements) longHints(element, found);
	}
}

function isRequired(field: ts.ObjectLiteralExpression): boolean {
	const required = propertyOf(field, 'required');
	if (!required) return false;
	// A value only known at run time counts as required, as the rule counts it.
	return required.initializer.kind !== ts.SyntaxKind.FalseKeyword;
}

function optionalTopLevelFields(description: ts.ObjectLiteralExpression): string[] {
	const properties = propertyOf(description, 'properties')?.initializer;
	if (!properties || !ts.isArrayLiteralExpression(properties)) return [];
	const found: string[] = [];
	for (const element of properties.elements) {
		if (!ts.isObjectLiteralExpression(element)) continue;
		const nameProperty = propertyOf(element, 'name');
		const name = nameProperty ? stringOf(nameProperty.initializer) : null;
		if (!name || SELECTOR_NAMES.has(name)) continue;
		const typeProperty = propertyOf(element, 'type');
		const type = typeProperty ? stringOf(typeProperty.initializer) : null;
		if (type && (CONTAINER_TYPES.has(type) || NON_INPUT_TYPES.has(type))) continue;
		if (!isRequired(element)) found.push(`"${name}" is not required and not in a collection`);
	}
	return found;
}

interface Finding {
	rule: string;
	message: string;
}

/** What the three rules report on one `*.node.ts` file. */
function checkSource(fileName: string, text: string): Finding[] {
	const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
	const findings: Finding[] = [];
	const visit = (node: ts.Node): void => {
		if (ts.isClassDeclaration(node) && isNodeTypeClass(node)) {
			for (const member of node.members) {
				if (
					ts.isMethodDeclaration(member) &&
					member.name &&
					keyName(member.name) === 'execute' &&
					member.body &&
					!callsContinueOnFail(member.body)
				)
					findings.push({
						rule: 'require-continue-on-fail',
						message: 'execute() does not call this.continueOnFail()',
					});
				if (
					ts.isPropertyDeclaration(member) &&
					keyName(member.name) === 'description' &&
					objectOf(member.initializer)
				) {
					const description = objectOf(member.initializer)!;
					const hints: string[] = [];
					longHints(description, hints);
					for (const message of hints) findings.push({ rule: 'hint-max-length', message });
					for (const message of optionalTopLevelFields(description))
						findings.push({ rule: 'non-required-fields-in-collection', message });
				}
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return findings;
}

// ---------------------------------------------------------- the rules on the built descriptions

/** Every field of a description, collections' and fixed collections' fields included. */
function everyField(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		const options = (property.options ?? []) as unknown as Array<Record<string, unknown>>;
		const nested =
			property.type === 'collection'
				? (options as unknown as INodeProperties[])
				: property.type === 'fixedCollection'
					? options.flatMap((group) => (group.values ?? []) as INodeProperties[])
					: [];
		return [property, ...everyField(nested)];
	});
}

const NODES: Array<{ name: string; file: string; node: INodeType }> = [
	{ name: 'Trio VMS', file: 'nodes/TrioVms/TrioVms.node.ts', node: new TrioVms() },
	{
		name: 'Trio VMS Trigger',
		file: 'nodes/TrioVmsTrigger/TrioVmsTrigger.node.ts',
		node: new TrioVmsTrigger(),
	},
	{
		name: 'Trio VMS Sync Trigger',
		file: 'nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node.ts',
		node: new TrioVmsSyncTrigger(),
	},
];

describe("n8n's main-branch lint rules the installed plugin lacks, on the node sources", () => {
	it('finds all three node files and nothing else named *.node.ts', () => {
		const found = fs
			.readdirSync(path.join(REPO_ROOT, 'nodes'), { recursive: true, encoding: 'utf8' })
			.filter((file) => file.endsWith('.node.ts'))
			.map((file) => path.join('nodes', file))
			.sort();
		expect(found).toEqual(NODES.map(({ file }) => file).sort());
	});

	it.each(NODES)(
		'$file passes require-continue-on-fail, hint-max-length and non-required-fields-in-collection',
		({ file }) => {
			expect(checkSource(file, fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'))).toEqual([]);
		},
	);

	it('reports each rule on a node written against it', () => {
		const tooLong = 'x'.repeat(MAX_HINT_LENGTH + 1);
		const bad = `
			class Bad implements INodeType {
				description = {
					properties: [
						{ displayName: 'Resource', name: 'resource', type: 'options', default: 'a' },
						{ displayName: 'Note', name: 'note', type: 'notice', default: '' },
						{ displayName: 'Kept', name: 'kept', type: 'string', default: '', required: true },
						{ displayName: 'Loose', name: 'loose', type: 'boolean', default: false },
						{ displayName: 'Off', name: 'off', type: 'string', default: '', required: false },
						{ displayName: 'Options', name: 'options', type: 'collection', default: {},
							options: [{ displayName: 'Deep', name: 'deep', type: 'string', default: '', hint: '${tooLong}' }] },
					],
				} as INodeTypeDescription;
				async execute() { return await run.call(this); }
			}`;
		expect(checkSource('Bad.node.ts', bad)).toEqual([
			{ rule: 'hint-max-length', message: `hint of 121 characters: "${tooLong}"` },
			{
				rule: 'non-required-fields-in-collection',
				message: '"loose" is not required and not in a collection',
			},
			{
				rule: 'non-required-fields-in-collection',
				message: '"off" is not required and not in a collection',
			},
			{
				rule: 'require-continue-on-fail',
				message: 'execute() does not call this.continueOnFail()',
			},
		]);
		expect(
			checkSource(
				'Good.node.ts',
				'class Good implements INodeType { async execute() { return run(this.continueOnFail()); } }',
			),
		).toEqual([]);
	});
});

describe("n8n's main-branch lint rules the installed plugin lacks, on the built descriptions", () => {
	it.each(NODES)('$name: no hint is longer than 120 characters', ({ node }) => {
		const long = everyField(node.description.properties)
			.filter((field) => (field.hint ?? '').length > MAX_HINT_LENGTH)
			.map((field) => `${field.displayName}: ${field.hint!.length}`);
		expect(long).toEqual([]);
	});

	it('the action node reads Continue On Fail in execute() itself', () => {
		// The compiled method, as n8n's scanner reads dist/: the call must survive compilation too.
		const execute = new TrioVms().execute!.toString();
		expect(execute).toContain('this.continueOnFail()');
	});

	// The two triggers are judged whole. The action node's operation fields come in by spread from
	// actions/, which the rule does not look into; there n8n's own nodes keep each operation's
	// inputs (Return All, Limit, Output) at the top level, shown only for that operation.
	it.each(NODES.filter(({ name }) => name !== 'Trio VMS'))(
		'$name: every top-level field is required, a collection, a notice or a selector',
		({ node }) => {
			const loose = node.description.properties
				.filter(
					(field) =>
						!SELECTOR_NAMES.has(field.name) &&
						!CONTAINER_TYPES.has(field.type) &&
						!NON_INPUT_TYPES.has(field.type) &&
						field.required !== true,
				)
				.map((field) => field.name);
			expect(loose).toEqual([]);
		},
	);
});
