import type { IDataObject } from 'n8n-workflow';

import { optionsCollection, shownUnder } from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import { candidateParameters, emailParameter, readCandidate } from './candidateParameters';
import { createCandidate, findOrCreateCandidate } from './candidateRequests';

export const description = shownUnder('candidate', 'create', [
	emailParameter,
	...candidateParameters,
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
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const body = readCandidate.call(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	if (options.skipIfEmailExists === false) {
		return await createCandidate(client, body, itemIndex);
	}
	return await findOrCreateCandidate(client, body, itemIndex);
};
