import { PATHS } from '../../../shared/service';
import { objectOf } from '../../helpers/output';
import { shapeSubmission } from '../../helpers/outputChoices';
import {
	optionsCollection,
	shownUnder,
	submissionNumberField,
	submissionOutputProperty,
} from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import { readSubmissionNumber } from './submissionRequests';

export const description = shownUnder('submission', 'get', [
	submissionNumberField('The submission to read'),
	submissionOutputProperty(),
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const number = readSubmissionNumber(this, itemIndex);
	const submission = await client.request({
		method: 'GET',
		path: PATHS.submission,
		pathParams: { number },
		itemIndex,
		context: { subject: `submission ${number}` },
	});
	return shapeSubmission(this, itemIndex, objectOf(submission, { Number: number }));
};
