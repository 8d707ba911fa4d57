import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { PATHS } from '../../../shared/service';
import type { TrioClient } from '../../../shared/transport';
import { toModifiedDateQuery } from '../../helpers/dates';
import { objectsOf } from '../../helpers/output';
import { simplifyJob } from '../../../shared/jobOutput';
import { optionalText, stateAbbreviation } from '../../helpers/validation';
import {
	applyReturnAllOrLimit,
	modifiedAfterFilter,
	optionsCollection,
	returnAllAndLimit,
} from '../common.descriptions';

const properties: INodeProperties[] = [
	...returnAllAndLimit('job'),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			modifiedAfterFilter('jobs'),
			{
				displayName: 'Job Status',
				name: 'jobStatus',
				type: 'options',
				options: [
					{ name: 'Open', value: 'Open' },
					{ name: 'On Hold', value: 'OnHold' },
				],
				default: 'Open',
				description:
					'Only return jobs with this status (Trio lists open and on-hold jobs; a job no longer listed is closed)',
			},
			{
				displayName: 'State',
				name: 'state',
				type: 'string',
				default: '',
				placeholder: 'e.g. TX',
				description: 'Only return jobs in this US state (abbreviation or name)',
			},
		],
	},
	{
		displayName:
			'Open-position counts are only current when Modified After is empty: Trio does not count a change of open positions as a modification.',
		name: 'openPositionsNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Simplify',
		name: 'simplify',
		type: 'boolean',
		default: true,
		description: 'Whether to return a simplified version of the response instead of the raw data',
		hint: 'Simplified: number, title, status, facility, client, city, state, profession, specialties, start date, shift, rate, positions and modified date',
	},
	optionsCollection(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['job'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject[]> {
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;

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
			(job) => String(job.JobStatus ?? '').toLowerCase() === jobStatus.toLowerCase(),
		);
	if (state)
		jobs = jobs.filter((job) => String(job.StateAbbreviation ?? '').toUpperCase() === state);
	jobs = applyReturnAllOrLimit(this, itemIndex, jobs);
	return simplify ? jobs.map(simplifyJob) : jobs;
}
