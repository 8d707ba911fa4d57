/** The Sync Trigger as n8n loads it: description, parameter defaults, codex, icons, registration. */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import codex from '../../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node.json';
import { TrioVmsSyncTrigger } from '../../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node';
import {
	DEFAULT_FULL_LIST_EVERY,
	DEFAULT_OVERLAP_SECONDS,
} from '../../../nodes/TrioVmsSyncTrigger/watermark';
import packageJson from '../../../package.json';

const ROOT = path.join(__dirname, '..', '..', '..');
const { description } = new TrioVmsSyncTrigger();

/** The parameters n8n gives a node at this version with these values, defaults added. */
function defaultsAt(typeVersion: number, values: INodeParameters = {}): INodeParameters {
	const node = { typeVersion, parameters: values } as unknown as INode;
	return (
		NodeHelpers.getNodeParameters(description.properties, values, true, false, node, description) ??
		{}
	);
}

describe('Sync Trigger description', () => {
	it('is a polling trigger on the Trio credential, with the light and dark icons all three nodes share', () => {
		expect(description).toMatchObject({
			name: 'trioVmsSyncTrigger',
			displayName: 'Trio VMS Sync Trigger',
			group: ['trigger'],
			polling: true,
			inputs: [],
			credentials: [{ name: 'trioVmsApi', required: true }],
			icon: { light: 'file:../shared/trioVms.svg', dark: 'file:../shared/trioVms.dark.svg' },
		});
		for (const file of ['trioVms.svg', 'trioVms.dark.svg'])
			expect(fs.existsSync(path.join(ROOT, 'nodes/shared', file))).toBe(true);
	});

	// Issue 26 point 6: new jobs, the common flow, with the fewest clicks.
	it('defaults to new jobs only, simplified Output, no first-run flood, and the documented cadence', () => {
		expect(description.version).toBe(1);
		const defaults = defaultsAt(1);
		expect(defaults).toMatchObject({
			watch: 'jobs',
			jobChanges: ['opened'],
			output: 'simple',
			filters: {},
			options: {},
		});
		expect(defaults).not.toHaveProperty('simplify');
		const options = description.properties.find((p) => p.name === 'options') as INodeProperties;
		const defaultOf = (name: string) =>
			(options.options as INodeProperties[]).find((option) => option.name === name)?.default;
		// Off unless added under Options: the first check only notes what is there.
		expect(defaultOf('emitExisting')).toBe(false);
		expect(defaultOf('fullListEvery')).toBe(DEFAULT_FULL_LIST_EVERY);
		expect(defaultOf('overlapSeconds')).toBe(DEFAULT_OVERLAP_SECONDS);
		expect(defaultsAt(1, { watch: 'submissions' })).toMatchObject({
			submissionChanges: ['created', 'statusChanged'],
			output: 'simple',
		});
	});

	it("says what it is for in a recruiter's words: new jobs, on a schedule, any key, no public address", () => {
		expect(description.description).toMatch(/new jobs/);
		expect(description.description).toMatch(/checking Trio VMS on a schedule/);
		expect(description.description).toMatch(/any API key/);
		expect(description.description).toMatch(/no public address/);
		expect(description.description).not.toMatch(/[Pp]oll/);
		const subtitle = String(description.subtitle);
		expect(subtitle).toMatch(/New jobs/);
		expect(subtitle).toMatch(/Job changes/);
		expect(subtitle).toMatch(/Submission changes/);
	});

	it('is registered in package.json and has a codex naming it, which the build copies', () => {
		expect(packageJson.n8n.nodes).toContain(
			'dist/nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node.js',
		);
		expect(codex.node).toBe('n8n-nodes-trio-vms.trioVmsSyncTrigger');
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/\/docs\/sync-trigger\.md$/);
		// gulpfile.js copies nodes/**/*.node.json and nodes/**/*.svg into dist/.
		expect(fs.readFileSync(path.join(ROOT, 'gulpfile.js'), 'utf8')).toContain(
			"'nodes/**/*.node.json'",
		);
	});

	it('imports nothing from the other nodes: only nodes/shared and its own room', () => {
		const room = path.join(ROOT, 'nodes/TrioVmsSyncTrigger');
		for (const file of fs.readdirSync(room).filter((name) => name.endsWith('.ts'))) {
			const source = fs.readFileSync(path.join(room, file), 'utf8');
			const imports = [...source.matchAll(/from '(\.[^']+)'/g)].map((match) => match[1]);
			for (const target of imports) expect(target).toMatch(/^(\.\/|\.\.\/shared\/)/);
		}
	});
});

describe("Sync Trigger in a recruiter's words", () => {
	const texts: string[] = [];
	const collect = (properties: INodeProperties[]) => {
		for (const property of properties) {
			texts.push(property.displayName, property.description ?? '', property.hint ?? '');
			for (const option of (property.options ?? []) as unknown as Array<Record<string, unknown>>) {
				// A choice's label is its name; a collection's field has a label of its own and an
				// internal name the user does not read.
				texts.push(
					String(option.displayName ?? option.name ?? ''),
					String(option.description ?? ''),
				);
				if (Array.isArray(option.options)) collect([option as unknown as INodeProperties]);
			}
		}
	};
	collect(description.properties);
	collect(
		description.properties.flatMap((p) =>
			p.type === 'collection' ? (p.options as INodeProperties[]) : [],
		),
	);

	it('names no API field and shows job statuses as words', () => {
		for (const text of texts)
			expect(text).not.toMatch(/ModifiedDate|NumberOf|StatusCode|OnHold|JobStatus/);
		expect(texts).toContain('On Hold');
	});

	it('says "check", not "poll" or "emit" (issue 26 point 11)', () => {
		for (const text of texts) expect(text).not.toMatch(/\b([Pp]oll|[Ee]mit)/);
	});

	it('warns, beside Output Current Jobs on First Check, that every open job would be posted', () => {
		const options = description.properties.find((p) => p.name === 'options');
		const jobs = (options?.options as INodeProperties[]).find(
			(p) => p.name === 'emitExisting' && p.displayOptions?.show?.['/watch']?.includes('jobs'),
		);
		expect(jobs?.displayName).toBe('Output Current Jobs on First Check');
		expect(jobs?.hint).toMatch(/posts every open job once/);
	});

	it('simplifies by default, picks states from the one US state list and shows no notice', () => {
		const output = description.properties.find((p) => p.name === 'output');
		expect(output).toMatchObject({ type: 'options', default: 'simple' });
		const filters = description.properties.find((p) => p.name === 'filters');
		const states = (filters?.options as INodeProperties[]).find((p) => p.name === 'states');
		expect(states).toMatchObject({ type: 'multiOptions', default: [] });
		expect((states?.options as unknown[]).length).toBeGreaterThanOrEqual(50);
		expect(description.properties.filter((p) => p.type === 'notice')).toEqual([]);
		const options = description.properties.find((p) => p.name === 'options');
		expect((options?.options as INodeProperties[]).map((p) => p.name)).toContain('maxDropPercent');
	});
});
