/**
 * The example workflows are templates a recruiter imports: each has a name, a description and
 * sticky notes that say what to set up and what each step does. Whether they still import and
 * run is the real-n8n examples suite's job.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodeTypeDescription } from 'n8n-workflow';

import { SIMPLE_SUBMISSION_FIELDS } from '../../nodes/shared/submissionOutput';
import { TrioVms } from '../../nodes/TrioVms/TrioVms.node';
import { TrioVmsSyncTrigger } from '../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node';
import { TrioVmsTrigger } from '../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';

/** The version n8n's editor gives each Trio node dragged onto the canvas today. */
const editorVersions = new Map(
	[new TrioVms(), new TrioVmsSyncTrigger(), new TrioVmsTrigger()].map(({ description }) => [
		`n8n-nodes-trio-vms.${description.name}`,
		(description as INodeTypeDescription).defaultVersion ??
			Math.max(...[description.version].flat()),
	]),
);

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const files = fs.readdirSync(EXAMPLES).filter((file) => /^\d\d-.*\.json$/.test(file));

interface Template {
	name?: string;
	description?: string;
	nodes: Array<{
		type: string;
		typeVersion: number;
		name: string;
		position: [number, number];
		parameters: { content?: string; width?: number; height?: number };
	}>;
}

describe.each(files)('example %s', (file) => {
	const template = JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8')) as Template;
	const stickies = template.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
	const notes = stickies.map((node) => node.parameters.content ?? '');
	const steps = template.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote');

	it('has a name and a description in words', () => {
		expect(template.name).toMatch(/^Trio VMS: /);
		expect((template.description ?? '').length).toBeGreaterThan(60);
		expect(template.description).not.toMatch(/ModifiedDate|NumberOf|api\/v3/);
	});

	it('carries sticky notes that say what to set up, and every step sits on a note explaining it', () => {
		expect(notes.join('\n')).toMatch(/credential/i);
		for (const note of notes) expect(note).toMatch(/^## /);
		// n8n's defaults for a sticky note without a size: 240 x 160.
		const onNote = (x: number, y: number) =>
			stickies.some(({ position: [left, top], parameters }) => {
				const width = parameters.width ?? 240;
				const height = parameters.height ?? 160;
				return x >= left && x <= left + width && y >= top && y <= top + height;
			});
		expect(steps.filter((step) => !onNote(...step.position)).map((step) => step.name)).toEqual([]);
	});

	it('uses the Trio VMS nodes with the credential placeholder a user replaces', () => {
		const trio = steps.filter((node) => node.type.startsWith('n8n-nodes-trio-vms.'));
		expect(trio.length).toBeGreaterThan(0);
	});

	it("uses each Trio node at the version the editor adds today, so an import shows today's fields", () => {
		const trio = steps.filter((node) => node.type.startsWith('n8n-nodes-trio-vms.'));
		expect(trio.map((node) => `${node.name}: ${node.typeVersion}`)).toEqual(
			trio.map((node) => `${node.name}: ${editorVersions.get(node.type)}`),
		);
	});
});

it('finds the five examples', () => {
	expect(files).toHaveLength(5);
});

describe('example 3 without an administrator key (README, "Accept an offer after an approval")', () => {
	it("reads only fields the Sync Trigger's simplified submission has, so its trigger can be swapped", () => {
		const text = fs.readFileSync(path.join(EXAMPLES, '03-offer-approval-then-accept.json'), 'utf8');
		const filter = (JSON.parse(text) as Template).nodes.find((node) => node.name === 'Only offers');
		const read = new Set(
			[
				...text.matchAll(/\$\('Only offers'\)\.item\.json\.(\w+)/g),
				...JSON.stringify(filter).matchAll(/\$json\.(\w+)/g),
			].map((match) => match[1]),
		);
		expect([...read]).toEqual(expect.arrayContaining(['Number', 'Status', 'CandidateNumber']));
		expect([...read].filter((field) => !SIMPLE_SUBMISSION_FIELDS.includes(field as never))).toEqual(
			[],
		);
		const description = new TrioVmsSyncTrigger().description;
		const changes = description.properties.find(
			(property) => property.name === 'submissionChanges',
		);
		expect(changes?.options?.map((option) => (option as { name: string }).name)).toContain(
			'Status Changed',
		);
	});
});
