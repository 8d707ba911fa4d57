/**
 * What the operations on one submission share, so that no operation file imports another: the
 * Submission Number they act on, and the request of Accept, Decline and Withdraw.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import { objectOf } from '../../helpers/output';
import { shapeSubmission } from '../../helpers/outputChoices';
import { positiveInteger } from '../../helpers/validation';

export function readSubmissionNumber(context: IExecuteFunctions, itemIndex: number): number {
	return positiveInteger(
		context.getNodeParameter('submissionNumber', itemIndex, ''),
		'Submission Number',
	);
}

/**
 * Accept, Decline or Withdraw: one POST about a submission. The spec shows no answer for them,
 * so an empty one is output as the submission's number and what became of it
 * (`accepted: true`, `declined: true` or `withdrawn: true`), never as nothing.
 */
export async function answerSubmission(
	context: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
	answer: {
		path: string;
		body: IDataObject & { submissionNumber: number };
		outcome: 'accepted' | 'declined' | 'withdrawn';
	},
): Promise<IDataObject> {
	const { submissionNumber } = answer.body;
	const response = await client.request({
		method: 'POST',
		path: answer.path,
		body: answer.body,
		itemIndex,
		context: { subject: `submission ${submissionNumber}` },
	});
	return shapeSubmission(
		context,
		itemIndex,
		objectOf(response, { Number: submissionNumber, [answer.outcome]: true }),
	);
}
