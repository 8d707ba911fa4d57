import type { IDataObject } from 'n8n-workflow';

import { fieldOf } from '../../../shared/fields';
import { JOB_STATUS_OPTIONS, PATHS, US_STATE_OPTIONS } from '../../../shared/service';
import { toModifiedDateQuery } from '../../helpers/dates';
import { objectsOf } from '../../helpers/output';
import { applyReturnAllOrLimit, shapeJobs } from '../../helpers/outputChoices';
import { optionalText, stateAbbreviation } from '../../helpers/validation';
import {
	jobOutputProperties,
	modifiedAfterFilter,
	optionsCollection,
	returnAllAndLimit,
	shownUnder,
} from '../common.descriptions';
import type { OperationExecute } from '../node.type';

export const description = shownUnder('job', 'getAll', [
	...returnAllAndLimit('job'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			modifiedAfterFilter(
				'jobs',
				'Open-position counts are current only without this filter: Trio does not count a change of open positions as a modification.',
			),
			{
				displayName: 'Job Status',
				name: 'jobStatus',
				type: 'options',
				// The job list holds open and on-hold jobs only (spec 3.1).
				options: JOB_STATUS_OPTIONS.filter((option) => option.value !== 'Closed'),
				default: 'Open',
				description:
					'Only return jobs with this status (Trio lists Open and On Hold jobs; a job no longer listed is Closed)',
			},
			{
				displayName: 'State',
				name: 'state',
				type: 'options',
				options: [...US_STATE_OPTIONS],
				default: '',
				description: 'Only return jobs in this US state; left empty, jobs in every state',
			},
		],
	},
	...jobOutputProperties(),
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;

	const modifiedDate = toModifiedDateQuery(
		filters.modifiedAfter,
		'Modified After',
		this.getTimezone(),
	);
	const jobStatus = optionalText(filters.jobStatus, 'Job Status');
	const state =
		optionalText(filters.state, 'State') === undefined
			? undefined
			: stateAbbreviation(filters.state, 'State');

	const response = await client.request({
		method: 'GET',
		path: PATHS.jobs,
		query: { modifiedDate },
		itemIndex,
	});
	let jobs = objectsOf(response);
	if (jobStatus)
		jobs = jobs.filter(
			(job) => String(fieldOf(job, 'JobStatus') ?? '').toLowerCase() === jobStatus.toLowerCase(),
		);
	if (state)
		jobs = jobs.filter(
			(job) => String(fieldOf(job, 'StateAbbreviation') ?? '').toUpperCase() === state,
		);
	return shapeJobs(this, itemIndex, applyReturnAllOrLimit(this, itemIndex, jobs));
};
