import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PATHS } from '../../../shared/service';
import type { TrioClient } from '../../../shared/transport';
import { objectsOf } from '../../helpers/output';
import { requiredEmail } from '../../helpers/validation';
import { optionsCollection, showOnlyFor } from '../common.descriptions';
import { emailField } from './candidateFields';

const properties: INodeProperties[] = [
	{ ...emailField, description: 'The e-mail address to look up' },
	{
		displayName:
			'Outputs one item per matching candidate and nothing when none matches. Turn on "Always Output Data" in the node settings to continue with an empty item instead.',
		name: 'findNotice',
		type: 'notice',
		default: '',
	},
	optionsCollection(),
];

export const description = showOnlyFor('candidate', ['findByEmail'], properties);

/** Looks candidates up by e-mail (shared with Find or Create). */
export async function findCandidates(
	client: TrioClient,
	email: string,
	itemIndex: number,
): Promise<IDataObject[]> {
	const response = await client.request({
		method: 'GET',
		path: PATHS.candidates,
		query: { email },
		itemIndex,
		context: { subject: `candidate with e-mail ${email}` },
	});
	return objectsOf(response);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject[]> {
	const email = requiredEmail(this.getNodeParameter('email', itemIndex, ''), 'Email');
	return await findCandidates(client, email, itemIndex);
}
