import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import { optionsCollection } from '../common.descriptions';
import { candidateFields, emailField, readCandidate } from './candidateFields';
import { candidateNumber, createCandidate, findCandidates } from './candidateRequests';

const properties: INodeProperties[] = [
	{
		displayName:
			'Looks the e-mail up first and creates the candidate only when nobody has it, so re-running a sheet never makes duplicates. The output\'s _trio.action says "found" or "created".',
		name: 'findOrCreateNotice',
		type: 'notice',
		default: '',
	},
	{
		...emailField,
		description:
			"The candidate's e-mail address: looked up first, and used for the new candidate if none matches",
	},
	...candidateFields,
	optionsCollection(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['candidate'], operation: ['findOrCreate'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject> {
	// Every field is checked first, so a bad row fails the same way whether or not the candidate exists.
	const body = readCandidate.call(this, itemIndex);
	const matches = await findCandidates(client, body.email1, itemIndex);
	if (matches.length) {
		// Several records can share an address; the lowest number is the oldest, the usual one to keep.
		const [found] = [...matches].sort(
			(a, b) => (candidateNumber(a) ?? Infinity) - (candidateNumber(b) ?? Infinity),
		);
		return { ...found, _trio: { action: 'found', matchCount: matches.length } };
	}
	const created = await createCandidate(client, body, itemIndex);
	return { ...created, _trio: { action: 'created', matchCount: 0 } };
}
