import { PATHS } from '../../../shared/serviceFacts';
import { shapeJobs } from '../../helpers/outputChoices';
import { locatorNumber } from '../../helpers/locators';
import {
	jobLocator,
	jobOutputProperties,
	optionsCollection,
	shownUnder,
} from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import { getByNumber } from '../reads';

export const description = shownUnder('job', 'get', [
	jobLocator('The job to read: pick an Open or On Hold job from the list, or give its number'),
	...jobOutputProperties(),
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const number = locatorNumber(this, itemIndex, 'job', 'Job');
	const job = await getByNumber(client, itemIndex, 'job', PATHS.job, number);
	return shapeJobs(this, itemIndex, [job])[0];
};
