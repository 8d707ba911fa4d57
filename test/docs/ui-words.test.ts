/* eslint
	"@n8n/community-nodes/no-restricted-globals": "off",
	"@n8n/community-nodes/no-restricted-imports": "off"
	-- not in the package: n8n's rules for the code users install do not apply here */
/**
 * Where the docs tell a user to pick "Trio VMS → Resource → Operation", those are the words the
 * node shows: a renamed resource or operation makes this fail until the docs follow.
 */
import type { INodePropertyOptions } from 'n8n-workflow';

import { TrioVms } from '../../nodes/TrioVms/TrioVms.node';
import { filesUnder, readRepoFile } from './markdown';

const description = new TrioVms().description;
const FILES = ['README.md', ...filesUnder('docs', '.md'), 'examples/README.md'];

function optionsOf(name: string, resource?: string): INodePropertyOptions[] {
	return description.properties
		.filter(
			(property) =>
				property.name === name &&
				(resource === undefined ||
					(property.displayOptions?.show?.resource as string[] | undefined)?.includes(resource)),
		)
		.flatMap((property) => (property.options ?? []) as INodePropertyOptions[]);
}

describe('"Trio VMS → Resource → Operation" in the docs', () => {
	const paths = FILES.flatMap((file) =>
		[
			...readRepoFile(file).matchAll(
				/Trio VMS(?:\*\*)?(?: →|:) ([A-Z][a-z]+) → ([A-Z][A-Za-z ]*[a-z])/g,
			),
		].map((match) => ({ file, resource: match[1], operation: match[2] })),
	);

	it('finds them', () => {
		expect(paths.length).toBeGreaterThanOrEqual(5);
	});

	it.each(paths)(
		'$file: Trio VMS → $resource → $operation is what the node shows',
		({ resource, operation }) => {
			const resourceOption = optionsOf('resource').find((option) => option.name === resource);
			expect(resourceOption).toBeDefined();
			const operations = optionsOf('operation', String(resourceOption!.value)).map(
				(option) => option.name,
			);
			expect(operations).toContain(operation);
		},
	);
});
