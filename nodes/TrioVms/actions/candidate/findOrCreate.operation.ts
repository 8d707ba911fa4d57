import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import { optionsCollection } from '../common.descriptions';
import { candidateFields, emailField, readCandidate } from './candidateFields';
import { findOrCreateCandidate } from './candidateRequests';

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
	// The same code Create runs with Skip If Email Exists on (its default).
	return await findOrCreateCandidate(client, readCandidate.call(this, itemIndex), itemIndex);
}
