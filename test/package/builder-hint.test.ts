/**
 * n8n's AI workflow builder composes workflows from the node descriptions n8n loads, and reads
 * each one's builderHint (a searchHint and related nodes). The built nodes, the files n8n
 * requires from dist/, must carry the three hints that steer it to the package's intended flows:
 * new jobs from the Sync Trigger with Changes = Opened, candidates through Find or Create, and no
 * Webhook resource in an agent's hands. `npm run build` runs first in the test command.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { IBuilderHint, INodeType } from 'n8n-workflow';

import { REPO_ROOT } from '../../harness/pack';

const PACKAGE = 'n8n-nodes-trio-vms';

function built(relative: string, exported: string): INodeType {
	const file = path.join(REPO_ROOT, 'dist', 'nodes', relative);
	if (!fs.existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first`);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const module = require(file) as Record<string, new () => INodeType>;
	return new module[exported]();
}

/** Every parameter `name` of the node is shown as `displayName` and offers `option` by that name. */
function expectOptionUnder(node: INodeType, name: string, displayName: string, option: string) {
	const properties = node.description.properties.filter((property) => property.name === name);
	expect(properties.length).toBeGreaterThan(0);
	for (const property of properties) {
		expect(property.displayName).toBe(displayName);
		expect(property.options?.map((each) => each.name)).toContain(option);
	}
}

const hintOf = (node: INodeType): IBuilderHint => {
	const hint = node.description.builderHint;
	if (!hint) throw new Error(`${node.description.name} has no builderHint`);
	return hint;
};

const NODES = {
	action: built('TrioVms/TrioVms.node.js', 'TrioVms'),
	sync: built('TrioVmsSyncTrigger/TrioVmsSyncTrigger.node.js', 'TrioVmsSyncTrigger'),
	trigger: built('TrioVmsTrigger/TrioVmsTrigger.node.js', 'TrioVmsTrigger'),
};

describe('builderHint in the built node descriptions', () => {
	it('the action node sends new jobs to the Sync Trigger, candidates to Find or Create, and keeps agents off the Webhook resource', () => {
		const hint = hintOf(NODES.action);
		expect(hint.searchHint).toContain('Trio VMS Sync Trigger');
		expect(hint.searchHint).toContain('Changes: Opened');
		expect(hint.searchHint).toContain('Candidate > Find or Create');
		// Issue 40 point 11: the one-node flow the README teaches for sheet rows.
		expect(hint.searchHint).toContain('Submission > Create with Values From: Spreadsheet Columns');
		expect(hint.searchHint).toMatch(/Never give the Webhook resource to an AI agent/);
	});

	// Issue 40 point 11: an AI-built "new jobs -> Slack" must not grow a submit step.
	it('the Sync Trigger names itself the trigger for new jobs, and suggests no submission after it', () => {
		const hint = hintOf(NODES.sync);
		expect(hint.searchHint).toMatch(/new Trio jobs: Watch Jobs with Changes set to Opened/);
		const words = [hint.searchHint, ...(hint.relatedNodes ?? []).map((node) => node.relationHint)];
		for (const text of words) expect(text).not.toMatch(/submi(t|ssion >)|Find or Create/i);
		expect(hint.searchHint).toMatch(/add no Trio VMS node after it unless the user asks/);
	});

	it('the Trio VMS Trigger says what it needs and points to the Sync Trigger without it', () => {
		const hint = hintOf(NODES.trigger);
		expect(hint.searchHint).toMatch(/public https:\/\/ address and an administrator API key/);
		expect(hint.searchHint).toContain('Trio VMS Sync Trigger with Changes set to Opened');
	});

	it('names, in the words of what the editor shows, option values and nodes that exist', () => {
		const types = new Set(
			Object.values(NODES).map((node) => `${PACKAGE}.${node.description.name}`),
		);
		for (const node of Object.values(NODES)) {
			const hint = hintOf(node);
			expect(hint.searchHint?.length).toBeLessThanOrEqual(400);
			for (const related of hint.relatedNodes ?? []) {
				expect(types).toContain(related.nodeType);
				expect(related.nodeType).not.toBe(`${PACKAGE}.${node.description.name}`);
				expect(related.relationHint).toMatch(/^[A-Z]/);
			}
		}
		// The option the hints name exists under that name in the Sync Trigger and the action node.
		expectOptionUnder(NODES.sync, 'jobChanges', 'Changes', 'Opened');
		const candidateOperations = NODES.action.description.properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes('candidate'),
		);
		expect(candidateOperations?.options?.map((option) => option.name)).toContain('Find or Create');
		expectOptionUnder(NODES.action, 'valuesFrom', 'Values From', 'Spreadsheet Columns');
	});
});
