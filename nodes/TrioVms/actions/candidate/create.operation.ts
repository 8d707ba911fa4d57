import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import { optionsCollection } from '../common.descriptions';
import { candidateFields, emailField, readCandidate } from './candidateFields';
import { createCandidate, findOrCreateCandidate } from './candidateRequests';

const properties: INodeProperties[] = [
	emailField,
	...candidateFields,
	optionsCollection([
		{
			displayName: 'Skip If Email Exists',
			name: 'skipIfEmailExists',
			type: 'boolean',
			default: true,
			description:
				'Whether to look the email up first and output the existing candidate (the oldest when several share it) instead of creating another, so a re-run or a retry creates nobody twice. Turn off only to create a new candidate every time.',
		},
	]),
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
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	if (options.skipIfEmailExists === false) {
		return { ...(await createCandidate(client, body, itemIndex)), _trio: { action: 'created' } };
	}
	return await findOrCreateCandidate(client, body, itemIndex);
}
