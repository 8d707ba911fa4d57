import type { IDataObject } from 'n8n-workflow';

import { fieldOf } from '../../../shared/fields';
import { PATHS } from '../../../shared/service';
import { toModifiedDateQuery } from '../../helpers/dates';
import { objectsOf } from '../../helpers/output';
import { applyReturnAllOrLimit, shapeSubmission } from '../../helpers/outputChoices';
import { isBlank, optionalText, positiveInteger } from '../../helpers/validation';
import {
	modifiedAfterFilter,
	optionsCollection,
	returnAllAndLimit,
	shownUnder,
	submissionOutputProperty,
} from '../common.descriptions';
import type { OperationExecute } from '../node.type';

export const description = shownUnder('submission', 'getAll', [
	...returnAllAndLimit('submission'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
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
		],
	},
	submissionOutputProperty(),
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;

	const modifiedDate = toModifiedDateQuery(
		filters.modifiedAfter,
		'Modified After',
		this.getTimezone(),
	);
	const jobNumber = isBlank(filters.jobNumber)
		? undefined
		: positiveInteger(filters.jobNumber, 'Job Number');
	const candidateNumber = isBlank(filters.candidateNumber)
		? undefined
		: positiveInteger(filters.candidateNumber, 'Candidate Number');
	const status = optionalText(filters.status, 'Status')?.toLowerCase();

	const response = await client.request({
		method: 'GET',
		path: PATHS.submissions,
		query: { modifiedDate },
		itemIndex,
	});
	let submissions = objectsOf(response);
	if (jobNumber !== undefined)
		submissions = submissions.filter((s) => Number(fieldOf(s, 'JobNumber')) === jobNumber);
	if (candidateNumber !== undefined)
		submissions = submissions.filter(
			(s) => Number(fieldOf(s, 'CandidateNumber')) === candidateNumber,
		);
	if (status)
		submissions = submissions.filter(
			(s) => String(fieldOf(s, 'Status') ?? '').toLowerCase() === status,
		);
	return applyReturnAllOrLimit(this, itemIndex, submissions).map((submission) =>
		shapeSubmission(this, itemIndex, submission),
	);
};
