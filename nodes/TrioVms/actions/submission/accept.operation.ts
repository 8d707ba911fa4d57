import type { IDataObject } from 'n8n-workflow';

import { PATHS } from '../../../shared/serviceFacts';
import { optionalText } from '../../helpers/validation';
import {
	optionsCollection,
	shownUnder,
	submissionNumberParameter,
	submissionOutputProperty,
} from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import { answerSubmission, readSubmissionNumber } from './submissionRequests';

export const description = shownUnder('submission', 'accept', [
	submissionNumberParameter('The submission to accept; it must be in the Offered status'),
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'string',
		default: '',
		description: 'Optional free text saying why the offer is accepted',
	},
	submissionOutputProperty(),
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const submissionNumber = readSubmissionNumber(this, itemIndex);
	const reason = optionalText(this.getNodeParameter('reason', itemIndex, ''), 'Reason');
	const body: IDataObject & { submissionNumber: number } = { submissionNumber };
	if (reason !== undefined) body.reason = reason;
	return await answerSubmission(this, itemIndex, client, {
		path: PATHS.submissionAccept,
		body,
		outcome: 'accepted',
	});
};
