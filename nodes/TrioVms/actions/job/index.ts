import { resourceProperties } from '../common.descriptions';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const operations = { get, getAll };

export const description = resourceProperties('job', operations, {
	options: [
		{
			name: 'Get',
			value: 'get',
			description:
				'Get one job by its number, with every detail Trio holds (facility, rates, shift, requirements)',
			action: 'Get job by number',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'Get many Open and On Hold jobs, optionally only those modified after a date',
			action: 'Get many posted jobs',
		},
	],
	default: 'getAll',
});
