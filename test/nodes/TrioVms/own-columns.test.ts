/**
 * Issue 46: with Columns Matching No Field = Ignore Them Unless Misspelt (the default), columns
 * recruiters keep beside the fields ("Phone 2", "Second Email", "License State") stopped every row
 * as if misspelt. A column stops a row only when it is a field's name with a word misspelt, and the
 * advice then never sends the user to Ignore Them, which would drop the column's values unseen.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { CANDIDATE_COLUMNS } from '../../../nodes/TrioVms/actions/candidate/candidateParameters';
import { SUBMISSION_COLUMNS } from '../../../nodes/TrioVms/actions/submission/submissionParameters';
import { readRow, type ColumnField } from '../../../nodes/TrioVms/helpers/columns';
import { fieldsByName, resembledField } from '../../../nodes/TrioVms/helpers/misspelling';
import { ParameterError } from '../../../nodes/TrioVms/helpers/validation';

const SUBMISSION = fieldsByName(SUBMISSION_COLUMNS);
const CANDIDATE = fieldsByName(CANDIDATE_COLUMNS);

const OWN = [
	'Phone 2',
	'Email 2',
	'Email2',
	'Second Email',
	'Other Phone',
	'Alt Email',
	'Phone (home)',
	'Lastname1',
	'FirstName2',
	'License State',
	'Recruiter',
	'Notes',
	'Phone A',
	'Work Email',
];

const MISSPELT: Array<[string, string]> = [
	['Emial', 'Email'],
	['Frist Name', 'First Name'],
	['Job Nmber', 'Job Number'],
	['Strat Date', 'Start Date'],
	['Resme', 'Resume File'],
	['Resume Fiel', 'Resume File'],
	['Bill Rat', 'Bill Rate'],
	['Canddate Number', 'Candidate Number'],
	['Jobnumbre', 'Job Number'],
	['Email Adress', 'Email'],
];

describe('columns of your own (issue 46)', () => {
	it.each(OWN)('takes "%s" as a column of your own, never a misspelling', (column) => {
		expect(resembledField(column, SUBMISSION)).toBeUndefined();
		expect(resembledField(column, CANDIDATE)).toBeUndefined();
	});

	it.each(MISSPELT)('takes "%s" as a misspelling of %s', (column, field) => {
		expect(resembledField(column, SUBMISSION)?.displayName).toBe(field);
	});

	it("takes the candidate's fields misspelt as misspelt in Candidate Find or Create too", () => {
		for (const [column, field] of MISSPELT.filter(([, name]) =>
			CANDIDATE_COLUMNS.some((candidate) => candidate.displayName === name),
		))
			expect(resembledField(column, CANDIDATE)?.displayName).toBe(field);
	});
});

/** A context giving one row to Map Automatically. */
function contextFor(row: IDataObject): IExecuteFunctions {
	return {
		getInputData: () => [{ json: row }],
		getNodeParameter: (_name: string, _index: number, fallback: unknown) => fallback,
	} as unknown as IExecuteFunctions;
}

function stopOf(
	row: IDataObject,
	otherColumns: string,
	fields: ColumnField[] = SUBMISSION_COLUMNS,
) {
	try {
		readRow(contextFor(row), 0, fields, otherColumns);
	} catch (error) {
		if (error instanceof ParameterError) return error;
		throw error;
	}
	throw new Error('The row did not stop');
}

describe('what a stopped row advises (issue 46)', () => {
	const row = {
		'Job Number': '100001',
		Email: 'a@example.com',
		'First Name': 'A',
		'Last Name': 'B',
	};

	it('reads a row with columns of its own, leaving them out', () => {
		const own = { 'Phone 2': '1', 'Email 2': 'b@example.com', 'License State': 'TX', Notes: 'x' };
		const values = readRow(contextFor({ ...row, ...own }), 0, SUBMISSION_COLUMNS, 'unlessMisspelt');
		expect(values.values).toEqual({
			jobNumber: '100001',
			email: 'a@example.com',
			firstName: 'A',
			lastName: 'B',
		});
	});

	it('advises renaming a misspelt column or mapping by hand, never Ignore Them', () => {
		const stop = stopOf({ ...row, 'Strat Date': '2027-03-01' }, 'unlessMisspelt');
		expect(stop.message).toContain('"Strat Date" matches no field (is it "Start Date"?)');
		expect(stop.hint).toBe(
			'Rename the column to the field it holds (letter case and spaces do not matter), or choose Map Each Column Manually.',
		);
		expect(stop.hint).not.toContain('Ignore Them');
	});

	it('with Stop With an Error, offers only Ignore Them Unless Misspelt for columns of your own', () => {
		const stop = stopOf({ ...row, Recruiter: 'Dana' }, 'error');
		expect(stop.hint).toContain('Rename the column to the field it holds');
		expect(stop.hint).toContain('set Columns Matching No Field to Ignore Them Unless Misspelt');
		expect(stop.hint).not.toMatch(/Ignore Them(?! Unless Misspelt)/);
	});
});
