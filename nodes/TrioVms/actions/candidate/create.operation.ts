import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import { optionsCollection } from '../common.descriptions';
import { candidateFields, emailField, readCandidate } from './candidateFields';
import { createCandidate } from './candidateRequests';

const properties: INodeProperties[] = [
	{
		displayName:
			'Create always asks Trio for a new candidate. Use "Find or Create" when the person may already be in Trio, for example when a sheet is run again.',
		name: 'duplicateNotice',
		type: 'notice',
		default: '',
	},
	emailField,
	...candidateFields,
	optionsCollection(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['candidate'], operation: ['create'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject> {
	const body = readCandidate.call(this, itemIndex);
	return await createCandidate(client, body, itemIndex);
}
