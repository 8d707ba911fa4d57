import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { CandidateCreateRequest } from '../../../shared/schemas';
import { PATHS } from '../../../shared/service';
import type { TrioClient } from '../../../shared/transport';
import { objectOf } from '../../helpers/output';
import { optionsCollection, showOnlyFor } from '../common.descriptions';
import { candidateFields, emailField, readCandidate } from './candidateFields';

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

export const description = showOnlyFor('candidate', ['create'], properties);

/** Sends the creation request once (never retried after it may have reached the service). */
export async function createCandidate(
	client: TrioClient,
	body: CandidateCreateRequest,
	itemIndex: number,
): Promise<IDataObject> {
	const created = await client.request({
		method: 'POST',
		path: PATHS.candidates,
		body,
		idempotent: false,
		itemIndex,
	});
	return objectOf(created, { ...(body as unknown as IDataObject) });
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject> {
	const body = readCandidate.call(this, itemIndex);
	return await createCandidate(client, body, itemIndex);
}
