/**
 * The contract between the node's dropdowns and its operation modules: every operation a user can
 * pick has a module the router runs, every module is reachable from a dropdown, each module's file
 * is named after its operation value, and its fields show only under its own resource and
 * operation. A missing map entry would otherwise fail only when a user runs the node.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { OPERATIONS } from '../../../nodes/TrioVms/actions/router';
import { TrioVms } from '../../../nodes/TrioVms/TrioVms.node';

const { description } = new TrioVms();
const ACTIONS_DIR = path.join(__dirname, '../../../nodes/TrioVms/actions');

function optionsOf(property: INodeProperties | undefined): string[] {
	return ((property?.options ?? []) as INodePropertyOptions[]).map((option) =>
		String(option.value),
	);
}

const resources = optionsOf(description.properties.find((p) => p.name === 'resource'));

describe.each(resources)('resource %s', (resource) => {
	const dropdown = optionsOf(
		description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
		),
	);
	const modules = OPERATIONS[resource as keyof typeof OPERATIONS];

	it('has a module for every operation in its dropdown, and no module the dropdown cannot reach', () => {
		expect(dropdown.length).toBeGreaterThan(0);
		expect(Object.keys(modules).sort()).toEqual([...dropdown].sort());
		for (const operation of dropdown) expect(typeof modules[operation].execute).toBe('function');
	});

	it('names each operation file after its operation value', () => {
		const files = readdirSync(path.join(ACTIONS_DIR, resource))
			.filter((file) => file.endsWith('.operation.ts'))
			.map((file) => file.replace(/\.operation\.ts$/, ''));
		expect(files.sort()).toEqual([...dropdown].sort());
	});

	it("shows each operation's fields only under its own resource and operation", () => {
		for (const operation of dropdown) {
			for (const field of modules[operation].description) {
				expect([field.name, field.displayOptions?.show?.resource]).toEqual([
					field.name,
					[resource],
				]);
				expect([field.name, field.displayOptions?.show?.operation]).toEqual([
					field.name,
					[operation],
				]);
			}
		}
	});
});
