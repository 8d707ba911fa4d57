import { fieldOf } from '../../../shared/recordFields';
import { PATHS } from '../../../shared/serviceFacts';
import { shapeSubmission } from '../../helpers/outputChoices';
import { isBlank, optionalText, positiveInteger } from '../../helpers/validation';
import {
	modifiedAfterFilter,
	optionsCollection,
	shownUnder,
	submissionOutputProperty,
} from '../common.descriptions';
import { getMany, getManyProperties } from '../reads';
import type { OperationExecute } from '../node.type';

export const description = shownUnder('submission', 'getAll', [
	...getManyProperties('submission', [
		{
			displayName: 'Candidate Number',
			name: 'candidateNumber',
			type: 'string',
			default: '',
			placeholder: 'e.g. 20511',
			description: 'Only return submissions of this candidate',
		},
		{
			displayName: 'Job Number',
			name: 'jobNumber',
			type: 'string',
			default: '',
			placeholder: 'e.g. 48213',
			description: 'Only return submissions to this job',
		},
		modifiedAfterFilter('submissions'),
		{
			displayName: 'Status',
			name: 'status',
			type: 'string',
			default: '',
			placeholder: 'e.g. Offered',
			description: 'Only return submissions with this status (as Trio writes it, e.g. Offered)',
		},
	]),
	submissionOutputProperty(),
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const submissions = await getMany(this, itemIndex, client, PATHS.submissions, (filters) => {
		const jobNumber = isBlank(filters.jobNumber)
			? undefined
			: positiveInteger(filters.jobNumber, 'Job Number');
		const candidateNumber = isBlank(filters.candidateNumber)
			? undefined
			: positiveInteger(filters.candidateNumber, 'Candidate Number');
		const status = optionalText(filters.status, 'Status')?.toLowerCase();
		return (submission) =>
			(jobNumber === undefined || Number(fieldOf(submission, 'JobNumber')) === jobNumber) &&
			(candidateNumber === undefined ||
				Number(fieldOf(submission, 'CandidateNumber')) === candidateNumber) &&
			(!status || String(fieldOf(submission, 'Status') ?? '').toLowerCase() === status);
	});
	return submissions.map((submission) => shapeSubmission(this, itemIndex, submission));
};
