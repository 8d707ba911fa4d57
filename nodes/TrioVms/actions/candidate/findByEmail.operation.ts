import { requiredEmail } from '../../helpers/validation';
import { optionsCollection, shownUnder } from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import { emailParameter } from './candidateParameters';
import { findCandidates } from './candidateRequests';

export const description = shownUnder('candidate', 'findByEmail', [
	{ ...emailParameter, description: 'The email address to look up' },
	{
		displayName:
			"When nobody has the email, this outputs nothing and the workflow stops here. To go on with an empty item, turn on Always Output Data in the node's settings.",
		name: 'findNotice',
		type: 'notice',
		default: '',
	},
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const email = requiredEmail(this.getNodeParameter('email', itemIndex, ''), 'Email');
	return await findCandidates(client, email, itemIndex);
};
