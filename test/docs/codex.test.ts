/**
 * The codex files n8n reads beside each node: categories from the list n8n's node panel knows
 * (n8n-io/n8n, packages/@n8n/eslint-plugin-community-nodes/src/utils/codex-taxonomy.ts: an
 * unknown one, such as "HR", silently misfiles the node and its next lint release rejects it),
 * and the node version the editor adds today. Links are checked in links.test.ts.
 */
import type { INodeTypeDescription } from 'n8n-workflow';

import { TrioVms } from '../../nodes/TrioVms/TrioVms.node';
import { TrioVmsSyncTrigger } from '../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node';
import { TrioVmsTrigger } from '../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';
import { readRepoFile } from './markdown';

/** n8n's known codex categories, less "AI" (reserved for nodes built with n8n's AI SDK). */
const N8N_CODEX_CATEGORIES = [
	'Analytics',
	'Communication',
	'Core Nodes',
	'Data & Storage',
	'Developer Tools',
	'Development',
	'ECM',
	'Finance & Accounting',
	'HITL',
	'Marketing & Content',
	'Miscellaneous',
	'Productivity',
	'Sales',
	'Utility',
];

/** The version n8n's editor gives a node dragged onto the canvas. */
function editorVersion(description: INodeTypeDescription): number {
	if (description.defaultVersion !== undefined) return description.defaultVersion;
	const versions = Array.isArray(description.version) ? description.version : [description.version];
	return Math.max(...versions);
}

describe.each([
	['TrioVms', new TrioVms().description],
	['TrioVmsSyncTrigger', new TrioVmsSyncTrigger().description],
	['TrioVmsTrigger', new TrioVmsTrigger().description],
])('codex file of %s', (folder, description) => {
	const codex = JSON.parse(readRepoFile(`nodes/${folder}/${folder}.node.json`)) as {
		node: string;
		nodeVersion: string;
		categories: string[];
	};

	it('names the node', () => {
		expect(codex.node).toBe(`n8n-nodes-trio-vms.${description.name}`);
	});

	it("uses only categories from n8n's list", () => {
		expect(codex.categories.length).toBeGreaterThan(0);
		for (const category of codex.categories) expect(N8N_CODEX_CATEGORIES).toContain(category);
	});

	it('gives the version the editor adds today', () => {
		expect(Number(codex.nodeVersion)).toBe(editorVersion(description));
		expect(codex.nodeVersion).toMatch(/^\d+\.\d+$/);
	});
});
