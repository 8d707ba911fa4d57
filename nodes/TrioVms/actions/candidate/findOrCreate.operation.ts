import type { IDataObject } from 'n8n-workflow';

import {
	columnsProperty,
	onlyWith,
	otherColumnsOption,
	readRow,
	valuesFromProperty,
} from '../../helpers/columns';
import { optionsCollection, shownUnder } from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import {
	CANDIDATE_COLUMNS,
	candidateParameters,
	candidateFromRow,
	emailParameter,
	readCandidate,
} from './candidateParameters';
import { findOrCreateCandidate } from './candidateRequests';

export const description = shownUnder('candidate', 'findOrCreate', [
	valuesFromProperty(
		"Each input row's columns, matched to the fields by name (Email, First Name, Last Name, Phone, State Licenses)",
	),
	onlyWith('fields', {
		...emailParameter,
		description:
			"The candidate's email address: looked up first, and used for the new candidate if none matches",
	}),
	...candidateParameters.map((field) => onlyWith('fields', field)),
	onlyWith(
		'columns',
		columnsProperty(
			'getCandidateColumns',
			'Map Automatically takes each column whose name is a field\'s name, in any letter case and spacing ("First Name", "first_name"). Map Each Column Manually lets you drag a column into each field.',
		),
	),
	optionsCollection([otherColumnsOption]),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	// Every field is checked first, so a bad row fails the same way whether or not the candidate exists.
	// The same code Create runs with Skip If Email Exists on (its default).
	const body =
		this.getNodeParameter('valuesFrom', itemIndex, 'fields') === 'columns'
			? candidateFromRow(
					readRow(
						this,
						itemIndex,
						CANDIDATE_COLUMNS,
						(this.getNodeParameter('options', itemIndex, {}) as IDataObject).otherColumns,
					),
				)
			: readCandidate.call(this, itemIndex);
	return await findOrCreateCandidate(client, body, itemIndex);
};
