/**
 * Issue 26 point 11: what users read in the three nodes' panels and the credential, in their
 * words: placeholders that say "e.g.", no API or n8n-internal words, and optional fields that
 * send nothing until the user gives a value.
 */
import type { INodeProperties } from 'n8n-workflow';

import { optionalAmount } from '../../../nodes/TrioVms/helpers/validation';
import { PANELS } from '../../support/panels';

interface Found {
	owner: string;
	property: INodeProperties;
}

/** Every property, collection and fixed-collection entries included. */
function allProperties(owner: string, properties: INodeProperties[]): Found[] {
	const found: Found[] = [];
	const walk = (list: unknown[]) => {
		for (const entry of list as Array<Record<string, unknown>>) {
			if (typeof entry.displayName === 'string' && typeof entry.type === 'string')
				found.push({ owner, property: entry as unknown as INodeProperties });
			if (Array.isArray(entry.options)) walk(entry.options);
			if (Array.isArray(entry.values)) walk(entry.values);
		}
	};
	walk(properties);
	return found;
}

const EVERY = PANELS.flatMap(([owner, properties]) => allProperties(owner, properties));

function find(owner: string, name: string, resourceOperation?: [string, string]) {
	return EVERY.find(
		(entry) =>
			entry.owner === owner &&
			entry.property.name === name &&
			(!resourceOperation ||
				(entry.property.displayOptions?.show?.resource?.includes(resourceOperation[0]) &&
					entry.property.displayOptions?.show?.operation?.includes(resourceOperation[1]))),
	)?.property;
}

describe("the nodes' words", () => {
	it('gives every example placeholder as "e.g. ..." (list and collection prompts aside)', () => {
		const placeholders = EVERY.filter(({ property }) => typeof property.placeholder === 'string')
			.filter(({ property }) => !['collection', 'fixedCollection'].includes(property.type))
			.map(({ owner, property }) => ({
				owner,
				field: property.displayName,
				placeholder: property.placeholder,
			}));
		expect(placeholders.length).toBeGreaterThan(5);
		for (const entry of placeholders) {
			expect({ ...entry, ok: /^(e\.g\. |Select a )/.test(String(entry.placeholder)) }).toEqual({
				...entry,
				ok: true,
			});
		}
	});

	it('uses no word users do not use in labels: poll, emit, input binary, calls', () => {
		for (const { owner, property } of EVERY) {
			expect({
				owner,
				label: property.displayName,
				bad: /Poll|Emit|Input Binary|Calls/.test(property.displayName),
			}).toEqual({
				owner,
				label: property.displayName,
				bad: false,
			});
		}
	});

	it('does not preselect a state when the State filter of Job Get Many is added', () => {
		const filters = find('Trio VMS', 'filters', ['job', 'getAll']);
		const state = (filters?.options as INodeProperties[]).find((option) => option.name === 'state');
		expect(state?.default).toBe('');
	});

	it('sends no bill rate when Bill Rate is added and left empty', () => {
		const additional = find('Trio VMS', 'additionalFields', ['submission', 'create']);
		const billRate = (additional?.options as INodeProperties[]).find(
			(option) => option.name === 'billRateAmount',
		);
		expect(billRate).toMatchObject({ displayName: 'Bill Rate', default: '' });
		expect(optionalAmount(billRate?.default, 'Bill Rate')).toBeUndefined();
		expect(optionalAmount('$65.50', 'Bill Rate')).toBe(65.5);
	});

	it('calls the resume field by what it holds', () => {
		expect(find('Trio VMS', 'binaryPropertyName')?.displayName).toBe('Input Field With the Resume');
	});
});
