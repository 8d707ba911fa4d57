import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as findByEmail from './findByEmail.operation';
import * as findOrCreate from './findOrCreate.operation';

export const operations = { create, findByEmail, findOrCreate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['candidate'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description:
					'Create a new candidate (name, e-mail, phone, state licenses); returns the candidate number',
				action: 'Create a candidate',
			},
			{
				name: 'Find by Email',
				value: 'findByEmail',
				description:
					'Find the candidates that have an e-mail address; returns nothing when none matches',
				action: 'Find candidates by email',
			},
			{
				name: 'Find or Create',
				value: 'findOrCreate',
				description:
					'Find a candidate by e-mail, or create one when none matches; returns the candidate number either way',
				action: 'Find or create a candidate',
			},
		],
		default: 'findOrCreate',
	},
	...create.description,
	...findByEmail.description,
	...findOrCreate.description,
];
