import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import { requiredEmail } from '../../helpers/validation';
import { optionsCollection } from '../common.descriptions';
import { emailField } from './candidateFields';
import { findCandidates } from './candidateRequests';

const properties: INodeProperties[] = [
	{ ...emailField, description: 'The email address to look up' },
	{
		displayName:
			"When nobody has the email, this outputs nothing and the workflow stops here. To go on with an empty item, turn on Always Output Data in the node's settings.",
		name: 'findNotice',
		type: 'notice',
		default: '',
	},
	optionsCollection(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['candidate'], operation: ['findByEmail'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject[]> {
	const email = requiredEmail(this.getNodeParameter('email', itemIndex, ''), 'Email');
	return await findCandidates(client, email, itemIndex);
}
