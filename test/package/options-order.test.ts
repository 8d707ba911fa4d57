/**
 * n8n's community-node lint (its main branch) asks for the options of every choice in
 * alphabetical order. Every list of the three nodes and the credential meets it, except the few
 * whose order says something a user needs; each of those is named here with its reason, so a new
 * unsorted list fails until it is sorted or given a reason of its own.
 */
import type { INodeProperties } from 'n8n-workflow';
import { PANELS } from '../support/panels';

/** Lists kept in their own order, by label, with why. */
const DELIBERATE_ORDER: Record<string, string> = {
	Output:
		'the default first, then by how much each gives (Simplified, Raw, Selected Fields), as n8n’s own Microsoft Outlook and Gmail nodes order it',
	'Job Status': 'the order a job goes through in Trio: Open, On Hold, Closed',
	Changes: 'the order a job goes through: opened, updated, closed, then a change of open positions',
	Environment:
		'the one almost everybody picks first (Production), the test account next, the escape hatch last',
};

interface Choice {
	where: string;
	label: string;
	names: string[];
}

function choices(where: string, properties: INodeProperties[]): Choice[] {
	const found: Choice[] = [];
	for (const property of properties) {
		const options = (property.options ?? []) as unknown as Array<Record<string, unknown>>;
		if (property.type === 'options' || property.type === 'multiOptions') {
			if (options.every((option) => typeof option.name === 'string'))
				found.push({
					where,
					label: property.displayName,
					names: options.map((option) => option.name as string),
				});
		} else if (property.type === 'collection') {
			found.push(...choices(`${where} > ${property.displayName}`, options as never));
		} else if (property.type === 'fixedCollection') {
			for (const group of options)
				found.push(...choices(`${where} > ${property.displayName}`, group.values as never));
		}
	}
	return found;
}

const ALL = PANELS.flatMap(([where, properties]) => choices(where, properties));

const alphabetical = (names: string[]) =>
	[...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));

describe('the order of every choice', () => {
	it('finds the lists to judge', () => {
		expect(ALL.length).toBeGreaterThan(20);
	});

	it.each(ALL.filter(({ label }) => !(label in DELIBERATE_ORDER)))(
		'$where > $label is alphabetical',
		({ names }) => {
			expect(names).toEqual(alphabetical(names));
		},
	);

	it('keeps an exception only where the list really is out of alphabetical order', () => {
		for (const label of Object.keys(DELIBERATE_ORDER)) {
			const lists = ALL.filter((choice) => choice.label === label);
			expect(lists.length).toBeGreaterThan(0);
			expect(lists.some(({ names }) => names.join() !== alphabetical(names).join())).toBe(true);
		}
	});
});
