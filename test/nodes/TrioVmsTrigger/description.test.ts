/** What n8n reads from the trigger's description before the node runs for a delivery. */
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { TRIO_EVENTS } from '../../../nodes/shared/events';
import { TrioVmsTrigger } from '../../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';

const { description } = new TrioVmsTrigger();

/** The parameters n8n shows (with their defaults) for a node with these values. */
function shown(values: INodeParameters): INodeParameters {
	const node = { typeVersion: 1, parameters: values } as unknown as INode;
	return (
		NodeHelpers.getNodeParameters(description.properties, values, true, false, node, description) ??
		{}
	);
}

/** Every description and hint a user reads in the node's panel. */
function userTexts(): string[] {
	const texts: string[] = [];
	const walk = (properties: unknown[]) => {
		for (const property of properties as Array<Record<string, unknown>>) {
			// Option names are event names; n8n's own word "items" may appear in labels.
			for (const key of ['description', 'hint']) {
				if (typeof property[key] === 'string') texts.push(property[key] as string);
			}
			if (Array.isArray(property.options)) walk(property.options);
		}
	};
	walk(description.properties);
	return texts;
}

describe('trigger description', () => {
	it('has one version, 1', () => {
		expect(description.version).toBe(1);
		expect(description.defaultVersion).toBeUndefined();
	});

	it('declares its webhook with fixed values, so n8n evaluates no expression per delivery', () => {
		for (const webhook of description.webhooks ?? []) {
			for (const value of Object.values(webhook)) {
				if (typeof value === 'string') expect(value.startsWith('=')).toBe(false);
			}
		}
		expect(description.webhooks).toHaveLength(1);
	});

	// Issue 26 point 8: one output control, worded as in the other two nodes.
	// Issue 40 point 12: submissions and per diem shifts come out as short as jobs.
	it('offers Output (Simplified or Raw) for every event it shortens, Simplified by default', () => {
		for (const events of [['Job Update'], ['Submission Update'], ['Per Diem Shift Opened']])
			expect(shown({ events }).output).toBe('simple');
		expect(shown({ events: ['Job Update'] })).not.toHaveProperty('simplify');
		expect(shown({ events: ['Non Locums Confirmation Signed'] })).not.toHaveProperty('output');
		const output = description.properties.find(
			(property) => property.name === 'output',
		) as INodeProperties;
		expect(output.displayName).toBe('Output');
		expect((output.options as INodePropertyOptions[]).map((option) => option.name)).toEqual([
			'Simplified',
			'Raw',
		]);
	});

	// Issue 26 point 6: the node creator shows this description on the "Trio VMS" entry.
	// Issue 34: new jobs belong to the Sync Trigger whatever the key, as Job Update fires on every edit.
	it('says what it needs, and points new jobs to the Sync Trigger whatever the key', () => {
		expect(description.description).toMatch(/public https:\/\/ address/);
		expect(description.description).toMatch(/administrator API key/);
		expect(description.description).toMatch(
			/For new jobs, use the Trio VMS Sync Trigger: Job Update fires on every change/,
		);
		expect(description.description).not.toMatch(/without them/);
	});

	it('puts Deliveries to Remember, Ignore Duplicate Deliveries and Split Shifts Into Items under Options', () => {
		const options = description.properties.find((property) => property.name === 'options');
		expect(options).toMatchObject({
			displayName: 'Options',
			type: 'collection',
			placeholder: 'Add Option',
		});
		expect(
			options?.options?.map((option) => (option as { displayName: string }).displayName),
		).toEqual(['Deliveries to Remember', 'Ignore Duplicate Deliveries', 'Split Shifts Into Items']);
		for (const events of [['Job Update'], ['Per Diem Shift Opened']])
			for (const name of ['duplicateWindow', 'ignoreDuplicates', 'splitShifts'])
				expect(shown({ events })).not.toHaveProperty(name);
		// Split Shifts Into Items is offered only while an event that can carry several shifts is on.
		const split = (options?.options as INodeProperties[]).find(
			({ name }) => name === 'splitShifts',
		);
		const offered = (events: string[]) =>
			NodeHelpers.displayParameter({}, split!, { typeVersion: 1 }, description, { events });
		expect(offered(['Job Update'])).toBe(false);
		expect(offered(['Job Update', 'Per Diem Shift Cancelled'])).toBe(true);
		expect(shown({ events: ['Job Update'] })).toHaveProperty('options');
	});

	it('labels the event selector "Events" and keeps one short notice', () => {
		const events = description.properties.find((property) => property.name === 'events');
		expect(events?.displayName).toBe('Events');
		const notices = description.properties.filter((property) => property.type === 'notice');
		expect(notices).toHaveLength(1);
		expect(notices[0].displayName.length).toBeLessThanOrEqual(200);
		expect(notices[0].displayName).toMatch(/Sync Trigger/);
	});

	it('explains in the trigger panel what "Listen for test event" waits for and how to test without waiting', () => {
		const panel = description.triggerPanel;
		expect(panel).toMatchObject({
			header: expect.stringMatching(/only when something changes/),
			executionsHelp: {
				inactive: expect.stringMatching(/Listen for test event.*pin a sample.*sample-payloads/s),
				active: expect.stringMatching(/Executions/),
			},
			activationHint: expect.stringMatching(/publish/),
		});
	});

	it('says that Job Update fires on updates too, and where to go for new jobs only', () => {
		const jobUpdate = TRIO_EVENTS['Job Update'].description;
		expect(jobUpdate).toMatch(/each update while open/);
		expect(jobUpdate).toMatch(/Sync Trigger with Changes set to Opened/);
		const events = description.properties.find((property) => property.name === 'events');
		expect(events?.options).toContainEqual(
			expect.objectContaining({ value: 'Job Update', description: jobUpdate }),
		);
	});

	it('shows no API field names', () => {
		for (const text of userTexts()) {
			expect(text).not.toMatch(
				/\b(Items|Action|ModifiedDateUtc|NumberOfCurrentOpenPositions|IsActive|Url)\b/,
			);
		}
	});
});
