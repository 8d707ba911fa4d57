import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { PATHS } from '../../../shared/service';
import type { TrioClient } from '../../../shared/transport';
import { objectOf } from '../../helpers/output';
import { shapeJobs } from '../../helpers/outputChoices';
import { positiveInteger } from '../../helpers/validation';
import { jobLocator, jobOutputProperties, optionsCollection } from '../common.descriptions';

const properties: INodeProperties[] = [
	jobLocator('The job to read: pick an Open or On Hold job from the list, or give its number'),
	...jobOutputProperties(),
	optionsCollection(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['get'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject> {
	const number = positiveInteger(
		this.getNodeParameter('job', itemIndex, '', { extractValue: true }),
		'Job',
	);
	const job = await client.request({
		method: 'GET',
		path: PATHS.job,
		pathParams: { number },
		itemIndex,
		context: { subject: `job ${number}` },
	});
	return shapeJobs(this, itemIndex, [objectOf(job, { Number: number })])[0];
}
