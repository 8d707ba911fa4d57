/**
 * Spreadsheet rows as the resource mapper gives them (issue 34): Submission Create and Candidate
 * Find or Create with Values From = Spreadsheet Columns, through n8n's engine against the sandbox.
 * Map Automatically matches columns by name in any letter case and spacing; nothing typed reaches
 * back to another node; a bad row is named by column and row before anything is sent.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SecurityConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PATHS } from '../../../nodes/shared/service';
import { PDF, PDF_FILE, errorText, useSandbox } from '../../support/sandbox-harness';

const t = useSandbox({ jobs: 20 });

const folder = mkdtempSync(join(tmpdir(), 'trio-resumes-'));
writeFileSync(join(folder, 'jane.pdf'), PDF);
writeFileSync(join(folder, 'omar.pdf'), PDF);

let restrictBefore: string;
beforeAll(() => {
	const security = Container.get(SecurityConfig);
	restrictBefore = security.restrictFileAccessTo;
	security.restrictFileAccessTo = folder;
});
afterAll(() => {
	Container.get(SecurityConfig).restrictFileAccessTo = restrictBefore;
});

function openJobs(): number[] {
	return t.sandbox.store
		.listJobs()
		.filter((job) => job.JobStatus === 'Open')
		.map((job) => job.Number);
}

const SUBMIT_ROWS: INodeParameters = {
	resource: 'submission',
	operation: 'create',
	valuesFrom: 'columns',
	columns: { mappingMode: 'autoMapInputData', value: null },
	resumeFrom: 'folder',
	resumeFolder: folder,
};

function rows(): IDataObject[] {
	const [jobA, jobB] = openJobs();
	return [
		{
			'First Name': 'Jane',
			'Last Name': 'Sheetrow',
			Email: 'jane.sheetrow@example.com',
			Phone: '(512) 555-0142',
			'Job Number': String(jobA),
			'Bill Rate': '$65.50',
			'Start Date': '2027-03-01',
			'Resume File': 'jane.pdf',
		},
		{
			first_name: 'Omar',
			LASTNAME: 'Sheetrow',
			email: 'omar.sheetrow@example.com',
			phone: '',
			'job number': jobB,
			'bill rate': 70,
			'start date': '2027-03-08',
			'resume file': 'omar.pdf',
		},
	];
}

describe('Submission Create from spreadsheet columns', () => {
	it('submits each row once, finding or creating its candidate by email, with the resume the row names', async () => {
		const input = rows();
		const first = await t.run(SUBMIT_ROWS, { input });
		expect(first.error).toBeUndefined();
		expect(first.output).toHaveLength(2);
		const submitted = [...t.sandbox.store.submissions.values()].map((record) => record.submission);
		for (const [index, row] of input.entries()) {
			const email = String(row.Email ?? row.email);
			const candidate = [...t.sandbox.store.candidates.values()].find(
				(entry) => entry.email1 === email,
			);
			expect(candidate).toBeDefined();
			const mine = submitted.filter(
				(submission) =>
					submission.CandidateNumber === candidate?.number &&
					submission.JobNumber === Number(row['Job Number'] ?? row['job number']),
			);
			expect(mine).toHaveLength(1);
			expect(first.output[index].json).toMatchObject({ _trio: { action: 'created' } });
		}
		const posts = t.apiRequests().filter((request) => request.method === 'POST');
		expect(posts.map((request) => request.path)).toEqual([
			`/api/v3${PATHS.candidates}`,
			`/api/v3${PATHS.submissions}`,
			`/api/v3${PATHS.candidates}`,
			`/api/v3${PATHS.submissions}`,
		]);

		t.clearRequests();
		const again = await t.run(SUBMIT_ROWS, { input });
		expect(again.error).toBeUndefined();
		expect(again.output.map((item) => (item.json._trio as IDataObject).action)).toEqual([
			'alreadySubmitted',
			'alreadySubmitted',
		]);
		expect(t.apiRequests().filter((request) => request.method === 'POST')).toEqual([]);
	});

	it('names a column that matches no field, and sends nothing', async () => {
		t.clearRequests();
		const [row] = rows();
		const { error } = await t.run(SUBMIT_ROWS, { input: [{ ...row, 'Recruiter Notes': 'x' }] });
		expect(errorText(error).message).toContain('"Recruiter Notes" matches no field (item 1');
		expect(t.apiRequests()).toEqual([]);
		const ignored = await t.run(
			{ ...SUBMIT_ROWS, options: { otherColumns: 'ignore' } },
			{ input: [{ ...row, 'Recruiter Notes': 'x' }] },
		);
		expect(ignored.error).toBeUndefined();
	});

	it('names the column and the row of an empty required cell, and sends nothing', async () => {
		t.clearRequests();
		const [rowA, rowB] = rows();
		const { error } = await t.run(SUBMIT_ROWS, {
			input: [rowA, { ...rowB, 'job number': ' ', row_number: 3 }],
		});
		expect(errorText(error).message).toBe(
			'"job number" is required but empty (sheet row 3, item 2)',
		);
	});

	it('names a field no column gives, with the columns the row has', async () => {
		const [row] = rows();
		const withoutJob = { ...row };
		delete withoutJob['Job Number'];
		const { error } = await t.run(SUBMIT_ROWS, { input: [withoutJob] });
		expect(errorText(error).message).toContain(
			'"Job Number" is required but empty (item 1, sheet row 2 under a header row: no column is named so; the row\'s columns are "First Name"',
		);
	});

	it('says which file is missing from the resume folder', async () => {
		const [row] = rows();
		const { error } = await t.run(SUBMIT_ROWS, {
			input: [{ ...row, Email: 'missing.file@example.com', 'Resume File': 'nobody.pdf' }],
		});
		expect(errorText(error).message).toContain(
			`"Resume File" names "nobody.pdf", but n8n finds no file ${folder}/nobody.pdf`,
		);
	});

	it("refuses a resume outside the folders n8n may read, in n8n's words", async () => {
		const outside = mkdtempSync(join(tmpdir(), 'trio-outside-'));
		writeFileSync(join(outside, 'x.pdf'), PDF);
		const [row] = rows();
		const { error } = await t.run(
			{ ...SUBMIT_ROWS, resumeFolder: outside },
			{ input: [{ ...row, Email: 'outside@example.com', 'Resume File': 'x.pdf' }] },
		);
		expect(errorText(error).message).toContain('("Access to the file is not allowed.")');
		expect(
			[...t.sandbox.store.candidates.values()].some(
				(entry) => entry.email1 === 'outside@example.com',
			),
		).toBe(false);
	});

	it('takes the resume from a file field with Resume From = A File Field of the Input (as after Google Drive: Download)', async () => {
		const [, jobB] = openJobs();
		const { error, output } = await t.run(
			{ ...SUBMIT_ROWS, resumeFrom: 'binary' },
			{
				input: [
					{
						'First Name': 'Drive',
						'Last Name': 'Row',
						Email: 'drive.row@example.com',
						'Job Number': jobB,
						'Resume File': '1AbCdEfGhIjK',
					},
				],
				inputBinary: [PDF_FILE],
			},
		);
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({ JobNumber: jobB });
	});

	it('takes the values mapped by hand with Map Each Column Manually', async () => {
		const [jobA] = openJobs();
		const { error, output } = await t.run(
			{
				...SUBMIT_ROWS,
				columns: {
					mappingMode: 'defineBelow',
					value: {
						jobNumber: '={{ $json.job }}',
						email: '={{ $json.mail }}',
						firstName: 'Manual',
						lastName: 'Mapping',
						resumeFile: 'jane.pdf',
					},
				},
			},
			{ input: [{ job: jobA, mail: 'manual.mapping@example.com' }] },
		);
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({ JobNumber: jobA });
	});
});

describe('Candidate Find or Create from spreadsheet columns', () => {
	it('finds or creates the candidate from the columns, names cleaned', async () => {
		const { error, output } = await t.run(
			{
				resource: 'candidate',
				operation: 'findOrCreate',
				valuesFrom: 'columns',
				columns: { mappingMode: 'autoMapInputData', value: null },
			},
			{
				input: [
					{
						EMAIL: 'columns.only@example.com',
						'first name': 'Ada\u0000\u202E',
						'Last-Name': 'Lovelace',
						'State Licenses': 'TX, CA',
					},
				],
			},
		);
		expect(error).toBeUndefined();
		const created = [...t.sandbox.store.candidates.values()].find(
			(entry) => entry.email1 === 'columns.only@example.com',
		);
		expect(created).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
		expect(output[0].json).toMatchObject({ _trio: { action: 'created' } });
	});
});

describe('candidate names (issue 33 point 10)', () => {
	it('refuses a name longer than 100 characters, naming the field, and sends nothing', async () => {
		t.clearRequests();
		const { error } = await t.run({
			resource: 'candidate',
			operation: 'findOrCreate',
			email: 'long.name@example.com',
			firstName: 'A'.repeat(101),
			lastName: 'B',
		});
		expect(errorText(error).message).toContain(
			'"First Name" is 101 characters long; a name has at most 100',
		);
		expect(t.apiRequests()).toEqual([]);
	});

	it('sends names without NUL, line breaks or bidi controls', async () => {
		const { error } = await t.run({
			resource: 'candidate',
			operation: 'findOrCreate',
			email: 'clean.name@example.com',
			firstName: '\u2066Mary\u0000\n Ann\u2069',
			lastName: 'O\u200FBrien\u001B',
		});
		expect(error).toBeUndefined();
		const created = [...t.sandbox.store.candidates.values()].find(
			(entry) => entry.email1 === 'clean.name@example.com',
		);
		expect(created).toMatchObject({ firstName: 'Mary Ann', lastName: 'OBrien' });
	});
});
