/* eslint
	"@n8n/community-nodes/no-restricted-globals": "off",
	"@n8n/community-nodes/no-restricted-imports": "off"
	-- not in the package: n8n's rules for the code users install do not apply here */
/** The Sync Trigger as n8n loads it: description, parameter defaults, codex, icons, registration. */
import * as fs from 'node:fs';
import * as path from 'node:path';

import type { INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import codex from '../../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node.json';
import { TrioVmsSyncTrigger } from '../../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node';
import {
	DEFAULT_FULL_LIST_EVERY,
	DEFAULT_OVERLAP_SECONDS,
} from '../../../nodes/TrioVmsSyncTrigger/diff';
import packageJson from '../../../package.json';

const ROOT = path.join(__dirname, '..', '..', '..');
const { description } = new TrioVmsSyncTrigger();

describe('Sync Trigger description', () => {
	it('is a polling trigger on the Trio credential, with light and dark icons beside it', () => {
		expect(description).toMatchObject({
			name: 'trioVmsSyncTrigger',
			displayName: 'Trio VMS Sync Trigger',
			group: ['trigger'],
			polling: true,
			inputs: [],
			credentials: [{ name: 'trioVmsApi', required: true }],
			icon: { light: 'file:trioVms.svg', dark: 'file:trioVms.dark.svg' },
		});
		for (const file of ['trioVms.svg', 'trioVms.dark.svg'])
			expect(fs.existsSync(path.join(ROOT, 'nodes/TrioVmsSyncTrigger', file))).toBe(true);
	});

	it('defaults to jobs, every change type, no first-run flood, and the documented cadence', () => {
		const defaults = NodeHelpers.getNodeParameters(
			description.properties,
			{},
			true,
			false,
			null,
			null,
		);
		expect(defaults).toMatchObject({
			watch: 'jobs',
			jobChanges: ['opened', 'updated', 'closed', 'openPositionsChanged'],
			emitExisting: false,
			filters: {},
			options: {},
		});
		const options = description.properties.find((p) => p.name === 'options') as INodeProperties;
		const defaultOf = (name: string) =>
			(options.options as INodeProperties[]).find((option) => option.name === name)?.default;
		expect(defaultOf('fullListEvery')).toBe(DEFAULT_FULL_LIST_EVERY);
		expect(defaultOf('overlapSeconds')).toBe(DEFAULT_OVERLAP_SECONDS);
		const submissions = NodeHelpers.getNodeParameters(
			description.properties,
			{ watch: 'submissions' },
			true,
			false,
			null,
			null,
		);
		expect(submissions).toMatchObject({ submissionChanges: ['created', 'statusChanged'] });
	});

	it('is registered in package.json and has a codex naming it, which the build copies', () => {
		expect(packageJson.n8n.nodes).toContain(
			'dist/nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node.js',
		);
		expect(codex.node).toBe('n8n-nodes-trio-vms.trioVmsSyncTrigger');
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/#sync-trigger$/);
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
				texts.push(
					String(option.name ?? option.displayName ?? ''),
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

	it('simplifies by default, picks states from the one US state list and shows no notice', () => {
		const simplify = description.properties.find((p) => p.name === 'simplify');
		expect(simplify).toMatchObject({ type: 'boolean', default: true });
		const filters = description.properties.find((p) => p.name === 'filters');
		const states = (filters?.options as INodeProperties[]).find((p) => p.name === 'states');
		expect(states).toMatchObject({ type: 'multiOptions', default: [] });
		expect((states?.options as unknown[]).length).toBeGreaterThanOrEqual(50);
		expect(description.properties.filter((p) => p.type === 'notice')).toEqual([]);
		const options = description.properties.find((p) => p.name === 'options');
		expect((options?.options as INodeProperties[]).map((p) => p.name)).toContain('maxDropPercent');
	});
});
