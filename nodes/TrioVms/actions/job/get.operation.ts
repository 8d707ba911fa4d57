import { PATHS } from '../../../shared/service';
import { objectOf } from '../../helpers/output';
import { shapeJobs } from '../../helpers/outputChoices';
import { locatorNumber } from '../../helpers/locators';
import {
	jobLocator,
	jobOutputProperties,
	optionsCollection,
	shownUnder,
} from '../common.descriptions';
import type { OperationExecute } from '../node.type';

export const description = shownUnder('job', 'get', [
	jobLocator('The job to read: pick an Open or On Hold job from the list, or give its number'),
	...jobOutputProperties(),
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const number = locatorNumber(this, itemIndex, 'job', 'Job');
	const job = await client.request({
		method: 'GET',
		path: PATHS.job,
		pathParams: { number },
		itemIndex,
		context: { subject: `job ${number}` },
	});
	return shapeJobs(this, itemIndex, [objectOf(job, { Number: number })])[0];
};
