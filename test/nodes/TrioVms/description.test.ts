/** The node's description as n8n and an AI agent read it, and its codex file. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import codex from '../../../nodes/TrioVms/TrioVms.node.json';
import { TrioVms } from '../../../nodes/TrioVms/TrioVms.node';

const node = new TrioVms();
const { description } = node;

const resourceProperty = description.properties.find(
	(p) => p.name === 'resource',
) as INodeProperties;
const resources = (resourceProperty.options as INodePropertyOptions[]).map(
	(o) => o.value as string,
);

function operationsOf(resource: string): INodePropertyOptions[] {
	const property = description.properties.find(
		(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
	);
	return (property?.options ?? []) as INodePropertyOptions[];
}

const EXPECTED: Record<string, string[]> = {
	job: ['get', 'getAll'],
	candidate: ['create', 'findByEmail', 'findOrCreate'],
	submission: ['accept', 'create', 'decline', 'get', 'getAll', 'getWithdrawReasons', 'withdraw'],
	webhook: ['create', 'deactivate', 'getAll', 'getEvents', 'update'],
};

describe('node description', () => {
	it('is a tool-usable action node with the conventional subtitle, icons and credential', () => {
		expect(description).toMatchObject({
			name: 'trioVms',
			displayName: 'Trio VMS',
			usableAsTool: true,
			subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
			icon: { light: 'file:../shared/trioVms.svg', dark: 'file:../shared/trioVms.dark.svg' },
			credentials: [{ name: 'trioVmsApi', required: true }],
		});
	});

	it('offers every operation of the issue, each with an action and a description', () => {
		expect(resources.sort()).toEqual(Object.keys(EXPECTED).sort());
		for (const resource of resources) {
			const operations = operationsOf(resource);
			expect(operations.map((o) => o.value).sort()).toEqual(EXPECTED[resource]);
			for (const operation of operations) {
				expect(operation.action).toMatch(/^[A-Z]/);
				expect((operation.description ?? '').length).toBeGreaterThan(20);
			}
		}
	});

	it('shows each field name once per operation, with options and a pause for every operation', () => {
		for (const resource of resources) {
			for (const operation of operationsOf(resource)) {
				const values = { resource, operation: operation.value };
				const shown = description.properties.filter(
					(p) =>
						p.name !== 'resource' &&
						p.name !== 'operation' &&
						NodeHelpers.displayParameter(values, p, { typeVersion: 1 } as never, description),
				);
				const names = shown.map((p) => p.name);
				expect({
					resource,
					operation: operation.value,
					duplicates: names.filter((n, i) => names.indexOf(n) !== i),
				}).toEqual({
					resource,
					operation: operation.value,
					duplicates: [],
				});
				const options = shown.find((p) => p.name === 'options');
				expect((options?.options as INodeProperties[]).map((o) => o.name)).toContain(
					'pauseBetweenCallsMs',
				);
			}
		}
	});

	it('has a codex with documentation links', () => {
		expect(codex.node).toBe('n8n-nodes-trio-vms.trioVms');
		// Where they lead is the link test's (test/docs/links.test.ts): every anchor resolves.
		expect(codex.resources.primaryDocumentation[0].url).toMatch(
			/^https:\/\/github\.com\/n8n-nodes-trio-vms\/n8n-nodes-trio-vms\/blob\/main\/docs\/operations\.md$/,
		);
		expect(codex.resources.credentialDocumentation[0].url).toMatch(/#credentials$/);
	});

	it('has the loaders the fields name', () => {
		expect(Object.keys(node.methods.loadOptions).sort()).toEqual(['getWebhookEvents']);
		expect(Object.keys(node.methods.listSearch).sort()).toEqual([
			'searchJobs',
			'searchWebhooks',
			'searchWithdrawReasons',
		]);
	});
});

describe('what an AI agent is told about each operation', () => {
	it('says in its action what the operation needs or returns, not only its name', () => {
		const actions = resources.flatMap((resource) =>
			operationsOf(resource).map((operation) => String(operation.action)),
		);
		expect(new Set(actions).size).toBe(actions.length);
		for (const action of actions) expect(action.split(' ').length).toBeGreaterThanOrEqual(4);
		expect(actions).toContain('Submit candidate to job with resume');
		expect(actions).toContain('Find or create candidate by email');
	});

	// Issue 26 point 7: n8n's style ("Update row in sheet"): no articles, short, sentence case.
	it('names actions the n8n way: no articles, at most seven words, sentence case', () => {
		const actions = resources.flatMap((resource) =>
			operationsOf(resource).map((operation) => String(operation.action)),
		);
		for (const action of actions) {
			expect({ action, articles: action.match(/\b(a|an|the|their|its|them)\b/gi) }).toEqual({
				action,
				articles: null,
			});
			expect(action.split(' ').length).toBeLessThanOrEqual(7);
			expect(action.length).toBeLessThanOrEqual(45);
			// Sentence case: only the first letter is a capital.
			expect(action.slice(1)).toBe(action.slice(1).toLowerCase());
		}
	});

	it('starts each action with its operation verb, so no two read alike', () => {
		for (const resource of resources) {
			for (const operation of operationsOf(resource)) {
				const verb = String(operation.name).split(' ')[0].toLowerCase();
				const action = String(operation.action).toLowerCase();
				const expected: Record<string, string> = {
					create:
						resource === 'submission' ? 'submit' : resource === 'webhook' ? 'register' : 'create',
					find: 'find',
					deactivate: 'switch',
				};
				expect({ operation: operation.name, starts: action.split(' ')[0] }).toEqual({
					operation: operation.name,
					starts: expected[verb] ?? verb,
				});
			}
		}
	});
});

// n8n 2.50's AI builder refuses a typed locator value its mode's validation rejects, and n8n runs
// the same check when the node runs: every typed mode of a record says what a real value is.
describe('the typed modes of every locator', () => {
	const typedModes = description.properties
		.filter((property) => property.type === 'resourceLocator')
		.flatMap((property) =>
			(property.modes ?? [])
				.filter((mode) => mode.type === 'string' && mode.name !== 'text')
				.map((mode) => ({ locator: property.displayName, mode })),
		);
	const accepts = (regex: string, value: string) => new RegExp(regex).test(value);
	const regexOf = (locator: string) => {
		const found = typedModes.find((typed) => typed.locator === locator)?.mode.validation?.[0];
		return (found as unknown as { properties: { regex: string } }).properties.regex;
	};

	it('each carry a regex validation', () => {
		expect(new Set(typedModes.map(({ locator }) => locator))).toEqual(
			new Set(['Job', 'Webhook Registration']),
		);
		for (const { mode } of typedModes)
			expect(mode.validation).toEqual([
				{
					type: 'regex',
					properties: { regex: expect.any(String), errorMessage: expect.any(String) },
				},
			]);
	});

	it('By Number takes a job number, 1 or more, and nothing else', () => {
		const regex = regexOf('Job');
		for (const good of ['48213', ' 48213 ', '1', '0048213'])
			expect(accepts(regex, good)).toBe(true);
		for (const bad of ['0', '000', '-5', '48-213', '4.5', 'J48213', '', ' '])
			expect(accepts(regex, bad)).toBe(false);
	});

	it("By ID takes a registration's ID as Trio lists it, and no blank or sentence", () => {
		const regex = regexOf('Webhook Registration');
		for (const good of ['7d0c2b1e-4b0f-4a8e-9a5e-2f3c1d0e9b7a', ' 42 ', 'wh_01HZX'])
			expect(accepts(regex, good)).toBe(true);
		for (const bad of ['', '   ', 'my webhook']) expect(accepts(regex, bad)).toBe(false);
	});
});
