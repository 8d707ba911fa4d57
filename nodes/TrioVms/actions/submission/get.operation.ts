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
import { positiveInteger } from '../../helpers/validation';
import {
	optionsCollection,
	submissionNumberField,
	submissionOutputProperty,
} from '../common.descriptions';

const properties: INodeProperties[] = [
	submissionNumberField('The submission to read'),
	submissionOutputProperty(),
	optionsCollection(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['submission'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject> {
	const number = positiveInteger(
		this.getNodeParameter('submissionNumber', itemIndex, ''),
		'Submission Number',
	);
	const submission = await client.request({
		method: 'GET',
		path: PATHS.submission,
		pathParams: { number },
		itemIndex,
		context: { subject: `submission ${number}` },
	});
	return shapeSubmission(this, itemIndex, objectOf(submission, { Number: number }));
}
