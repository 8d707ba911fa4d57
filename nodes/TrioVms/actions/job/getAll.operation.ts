import { fieldOf } from '../../../shared/recordFields';
import { JOB_STATUS_OPTIONS, PATHS, US_STATE_OPTIONS } from '../../../shared/serviceFacts';
import { shapeJobs } from '../../helpers/outputChoices';
import { optionalText, stateAbbreviation } from '../../helpers/validation';
import {
	jobOutputProperties,
	modifiedAfterFilter,
	optionsCollection,
	shownUnder,
} from '../common.descriptions';
import { getMany, getManyProperties } from '../reads';
import type { OperationExecute } from '../node.type';

export const description = shownUnder('job', 'getAll', [
	...getManyProperties('job', [
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
	]),
	...jobOutputProperties(),
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const jobs = await getMany(this, itemIndex, client, PATHS.jobs, (filters) => {
		const jobStatus = optionalText(filters.jobStatus, 'Job Status')?.toLowerCase();
		const state =
			optionalText(filters.state, 'State') === undefined
				? undefined
				: stateAbbreviation(filters.state, 'State');
		return (job) =>
			(!jobStatus || String(fieldOf(job, 'JobStatus') ?? '').toLowerCase() === jobStatus) &&
			(!state || String(fieldOf(job, 'StateAbbreviation') ?? '').toUpperCase() === state);
	});
	return shapeJobs(this, itemIndex, jobs);
};
