import { resourceProperties } from '../common.descriptions';
import * as create from './create.operation';
import * as findByEmail from './findByEmail.operation';
import * as findOrCreate from './findOrCreate.operation';

export const operations = { create, findByEmail, findOrCreate };

export const description = resourceProperties('candidate', operations, {
	options: [
		{
			name: 'Create',
			value: 'create',
			description:
				'Create a candidate from name, email, phone and state licenses; returns the candidate number. If the email is already in Trio, outputs that candidate instead (Skip If Email Exists, on by default), so a re-run creates nobody twice.',
			action: 'Create candidate with name and email',
		},
		{
			name: 'Find by Email',
			value: 'findByEmail',
			description:
				'Find the candidates with an email address; returns their numbers, or nothing when none matches',
			action: 'Find candidates by email',
		},
		{
			name: 'Find or Create',
			value: 'findOrCreate',
			description:
				'Find the candidate by email first, and create them only when none matches; returns the candidate number either way. The usual choice for spreadsheet rows.',
			action: 'Find or create candidate by email',
		},
	],
	default: 'findOrCreate',
});
