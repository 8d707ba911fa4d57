import { PATHS } from '../../../shared/serviceFacts';
import { shapeSubmission } from '../../helpers/outputChoices';
import {
	optionsCollection,
	shownUnder,
	submissionNumberParameter,
	submissionOutputProperty,
} from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import { getByNumber } from '../reads';
import { readSubmissionNumber } from './submissionRequests';

export const description = shownUnder('submission', 'get', [
	submissionNumberParameter('The submission to read'),
	submissionOutputProperty(),
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const number = readSubmissionNumber(this, itemIndex);
	const submission = await getByNumber(client, itemIndex, 'submission', PATHS.submission, number);
	return shapeSubmission(this, itemIndex, submission);
};
