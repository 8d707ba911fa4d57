import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { PATHS } from '../../../shared/service';
import type { TrioClient } from '../../../shared/transport';
import { objectOf } from '../../helpers/output';
import { shapeSubmission } from '../../helpers/outputChoices';
import { optionalText, positiveInteger } from '../../helpers/validation';
import {
	optionsCollection,
	submissionNumberField,
	submissionOutputProperty,
} from '../common.descriptions';

const properties: INodeProperties[] = [
	submissionNumberField('The submission to accept; it must be in the Offered status'),
	{
		displayName: 'Reason',
		name: 'reason',
		type: 'string',
		default: '',
		description: 'Optional free text saying why the offer is accepted',
	},
	submissionOutputProperty(),
	optionsCollection(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['submission'], operation: ['accept'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject> {
	const submissionNumber = positiveInteger(
		this.getNodeParameter('submissionNumber', itemIndex, ''),
		'Submission Number',
	);
	const reason = optionalText(this.getNodeParameter('reason', itemIndex, ''), 'Reason');
	const body: IDataObject = { submissionNumber };
	if (reason !== undefined) body.reason = reason;
	const response = await client.request({
		method: 'POST',
		path: PATHS.submissionAccept,
		body,
		itemIndex,
		context: { subject: `submission ${submissionNumber}` },
	});
	return shapeSubmission(
		this,
		itemIndex,
		objectOf(response, { Number: submissionNumber, accepted: true }),
	);
}
