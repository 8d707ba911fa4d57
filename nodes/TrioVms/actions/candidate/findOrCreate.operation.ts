import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import { optionsCollection } from '../common.descriptions';
import { candidateFields, emailField, readCandidate } from './candidateFields';
import { createCandidateLookingAgain, findCandidates, oldestCandidate } from './candidateRequests';

const properties: INodeProperties[] = [
	{
		...emailField,
		description:
			"The candidate's email address: looked up first, and used for the new candidate if none matches",
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
		return { ...oldestCandidate(matches), _trio: { action: 'found', matchCount: matches.length } };
	}
	return await createCandidateLookingAgain(client, body, itemIndex);
}
