/**
 * docs/operations.md publishes which columns stop a row as misspelt and which are a recruiter's own
 * (issue 46): each example of its table is what the node does, so the page cannot drift from the
 * rule.
 */
import { CANDIDATE_COLUMNS } from '../../nodes/TrioVms/actions/candidate/candidateParameters';
import { SUBMISSION_COLUMNS } from '../../nodes/TrioVms/actions/submission/submissionParameters';
import { fieldsByName, resembledField } from '../../nodes/TrioVms/helpers/misspelling';
import { readRepoFile, section, tableRows } from './markdown';

const examples = tableRows(section(readRepoFile('docs/operations.md'), 'Columns of your own')).map(
	([name, outcome]) => ({
		column: /^`([^`]+)`$/.exec(name)?.[1] ?? name,
		outcome,
		field: /^Stops the row: is it "([^"]+)"\?$/.exec(outcome)?.[1],
	}),
);

describe('docs/operations.md: Columns of your own', () => {
	it('gives columns of your own and misspelt ones, each as "Left out" or "Stops the row"', () => {
		expect(examples.filter(({ field }) => field).length).toBeGreaterThanOrEqual(5);
		expect(examples.filter(({ field }) => !field).length).toBeGreaterThanOrEqual(5);
		for (const { outcome } of examples)
			expect(outcome).toMatch(/^(Left out: a column of your own|Stops the row: is it "[^"]+"\?)$/);
	});

	const submission = fieldsByName(SUBMISSION_COLUMNS);
	const candidate = fieldsByName(CANDIDATE_COLUMNS);

	it.each(examples)('"$column": $outcome', ({ column, field }) => {
		expect(resembledField(column, submission)?.displayName).toBe(field);
		// Candidate Find or Create has the candidate's fields only: no other field may be named.
		const candidateField = resembledField(column, candidate)?.displayName;
		if (field && CANDIDATE_COLUMNS.some((known) => known.displayName === field))
			expect(candidateField).toBe(field);
		else if (!field) expect(candidateField).toBeUndefined();
	});
});
