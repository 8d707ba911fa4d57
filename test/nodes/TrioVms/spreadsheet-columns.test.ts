/**
 * Spreadsheet rows as the resource mapper gives them (issue 34): Submission Create and Candidate
 * Find or Create with Values From = Spreadsheet Columns, through n8n's engine against the sandbox.
 * Map Automatically matches columns by name in any letter case and spacing; nothing typed reaches
 * back to another node; a bad row is named by column and row before anything is sent.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SecurityConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import { InstanceSettings } from 'n8n-core';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PATHS } from '../../../nodes/shared/serviceFacts';
import {
	PDF,
	PDF_FILE,
	errorText,
	readableResumeFolders,
	submitRowsFrom,
	useSandbox,
} from '../../support/sandbox-harness';

const t = useSandbox({ jobs: 20 });

/**
 * n8n may read everything under `readable`; the resumes are one folder of it and another folder
 * beside it holds a file n8n may read but that is no resume: no cell may reach it.
 */
const { readable, folder, otherFolder } = readableResumeFolders('trio-readable-');
writeFileSync(join(folder, 'jane.pdf'), PDF);
writeFileSync(join(folder, 'omar.pdf'), PDF);
writeFileSync(join(otherFolder, 'secret.pdf'), PDF);
symlinkSync(join(otherFolder, 'secret.pdf'), join(folder, 'link-out.pdf'));

function openJobs(): number[] {
	return t.sandbox.store
		.listJobs()
		.filter((job) => job.JobStatus === 'Open')
		.map((job) => job.Number);
}

const SUBMIT_ROWS = submitRowsFrom(folder);

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
			'already submitted',
			'already submitted',
		]);
		expect(t.apiRequests().filter((request) => request.method === 'POST')).toEqual([]);
	});

	// Issue 40 item 2: a sheet's own columns stopped every row.
	it("leaves out the sheet's own columns, and stops on a misspelt one, naming it, and sends nothing", async () => {
		const [row] = rows();
		const own = { Recruiter: 'Dana', Notes: 'x', 'Submitted?': 'no', Date: '11/27/2026' };
		const kept = await t.run(SUBMIT_ROWS, {
			input: [{ ...row, Email: 'own.columns@example.com', ...own }],
		});
		expect(kept.error).toBeUndefined();

		t.clearRequests();
		const misspelt = { ...row, Email: 'misspelt@example.com', 'Job Nmber': '1', Phnoe: '1' };
		const { error } = await t.run(SUBMIT_ROWS, { input: [{ ...misspelt, ...own }] });
		expect(errorText(error).message).toContain(
			'"Job Nmber" and "Phnoe" match no field (is it "Job Number"?) (sheet row 2)',
		);
		expect(t.apiRequests()).toEqual([]);
		const ignored = await t.run(
			{ ...SUBMIT_ROWS, options: { otherColumns: 'ignore' } },
			{ input: [{ ...misspelt, ...own }] },
		);
		expect(ignored.error).toBeUndefined();
	});

	// Issue 46: on a sheet with Phone 2, Email 2 and License State, none of five good rows was sent.
	it('submits every row of a sheet with columns of its own (Phone 2, Email 2, License State), and stops a misspelt one with rename advice, never Ignore Them', async () => {
		const [row] = rows();
		const sheet = ['ada', 'ben', 'cy', 'dee', 'eli'].map((name, index) => ({
			...row,
			Email: `${name}.own.columns@example.com`,
			'Phone 2': `(512) 555-01${10 + index}`,
			'Email 2': `${name}.home@example.com`,
			'License State': 'TX',
			Recruiter: 'Dana',
			Notes: index % 2 ? 'call after 5pm' : '',
			row_number: index + 2,
		}));
		t.clearRequests();
		const { error, output } = await t.run(SUBMIT_ROWS, { input: sheet });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(5);
		const submitted = [...t.sandbox.store.submissions.values()].map((record) => record.submission);
		for (const line of sheet) {
			const candidate = [...t.sandbox.store.candidates.values()].find(
				(entry) => entry.email1 === line.Email,
			);
			expect(candidate).toBeDefined();
			expect(
				submitted.filter((submission) => submission.CandidateNumber === candidate?.number),
			).toHaveLength(1);
		}

		const strat: IDataObject = { ...sheet[0], Email: 'strat.date@example.com' };
		delete strat['Start Date'];
		strat['Strat Date'] = '2027-03-01';
		t.clearRequests();
		const misspelt = await t.run(SUBMIT_ROWS, { input: [strat] });
		const stop = errorText(misspelt.error);
		expect(stop.message).toContain('"Strat Date" matches no field (is it "Start Date"?)');
		expect(stop.description).toContain(
			'Rename the column to the field it holds (letter case and spaces do not matter), or choose Map Each Column Manually.',
		);
		expect(stop.description).not.toContain('Ignore Them');
		expect(t.apiRequests()).toEqual([]);
	});

	it('stops on any column of its own with Columns Matching No Field = Stop With an Error, in one sentence', async () => {
		t.clearRequests();
		const [row] = rows();
		const { error } = await t.run(
			{ ...SUBMIT_ROWS, options: { otherColumns: 'error' } },
			{ input: [{ ...row, Recruiter: 'Dana', Notes: 'x', 'Submitted?': 'no' }] },
		);
		expect(errorText(error).message).toContain(
			'"Recruiter", "Notes" and "Submitted?" match no field (sheet row 2)',
		);
		// The one way to leave them out the advice names still stops on a misspelt column.
		expect(errorText(error).description).toContain(
			'To leave out columns of your own, set Columns Matching No Field to Ignore Them Unless Misspelt under Options.',
		);
		expect(errorText(error).description).not.toMatch(/Ignore Them(?! Unless Misspelt)/);
		expect(t.apiRequests()).toEqual([]);
	});

	// Issue 39 item 10: 5,000 extra columns gave a message of 104,199 characters.
	it('keeps the message short for a row with 5,000 columns of its own', async () => {
		const [row] = rows();
		const extra = Object.fromEntries(
			Array.from({ length: 5000 }, (_, index) => [
				`Extra column ${index} ${'x'.repeat(200)}`,
				index,
			]),
		);
		const stopped = await t.run(
			{ ...SUBMIT_ROWS, options: { otherColumns: 'error' } },
			{ input: [{ ...row, ...extra }] },
		);
		const message = errorText(stopped.error).message;
		expect(message).toContain('and 4,990 more columns match no field');
		expect(message.length).toBeLessThan(1500);
		const withoutJob: IDataObject = { ...row, ...extra };
		delete withoutJob['Job Number'];
		const missing = await t.run(SUBMIT_ROWS, { input: [withoutJob] });
		expect(errorText(missing.error).message).toContain('and 4,997 more columns');
		expect(errorText(missing.error).message.length).toBeLessThan(1500);
	});

	it('names the column and the row of an empty required cell, and sends nothing', async () => {
		t.clearRequests();
		const [rowA, rowB] = rows();
		const { error } = await t.run(SUBMIT_ROWS, {
			input: [rowA, { ...rowB, 'job number': ' ', row_number: 3 }],
		});
		expect(errorText(error).message).toBe('"job number" is required but empty (sheet row 3)');
	});

	it('names a field no column gives, with the columns the row has', async () => {
		const [row] = rows();
		const withoutJob = { ...row };
		delete withoutJob['Job Number'];
		const { error } = await t.run(SUBMIT_ROWS, { input: [withoutJob] });
		expect(errorText(error).message).toContain(
			'"Job Number" is required but empty (sheet row 2: no column is named so; the row\'s columns are "First Name"',
		);
	});

	it('says which file is missing from the resume folder', async () => {
		const [row] = rows();
		const { error } = await t.run(SUBMIT_ROWS, {
			input: [{ ...row, Email: 'missing.file@example.com', 'Resume File': 'nobody.pdf' }],
		});
		expect(errorText(error).message).toContain(
			`"Resume File" names "nobody.pdf", which is no file n8n may read in the Resume Folder ${folder}`,
		);
	});

	it("refuses a Resume Folder outside the folders n8n may read, in n8n's words", async () => {
		const outside = mkdtempSync(join(tmpdir(), 'trio-outside-'));
		writeFileSync(join(outside, 'x.pdf'), PDF);
		const [row] = rows();
		const { error } = await t.run(
			{ ...SUBMIT_ROWS, resumeFolder: outside },
			{ input: [{ ...row, Email: 'outside@example.com', 'Resume File': 'x.pdf' }] },
		);
		expect(errorText(error).message).toContain(
			`"Resume Folder" is ${outside}, where n8n does not let nodes read files ("Access to the file is not allowed.")`,
		);
		expect(
			[...t.sandbox.store.candidates.values()].some(
				(entry) => entry.email1 === 'outside@example.com',
			),
		).toBe(false);
	});

	// Issue 46: a folder problem is the setting's, said once before any row, never a row's file name.
	it('stops once on a Resume Folder that does not exist, about the folder, before any row is sent', async () => {
		const missing = join(readable, 'no-such-folder');
		t.clearRequests();
		const { error } = await t.run(
			{ ...SUBMIT_ROWS, resumeFolder: `${missing}/` },
			{ input: rows() },
		);
		const { message, description, itemIndex } = errorText(error);
		expect(message).toBe(
			`"Resume Folder" is ${missing}/, which does not exist on the machine (or in the container) where n8n runs`,
		);
		expect(description).toContain('Make the folder and put the resumes in it');
		expect(message).not.toContain('Resume File');
		expect(itemIndex).toBeUndefined();
		expect(t.apiRequests()).toEqual([]);
	});

	it('stops once on a Resume Folder n8n may not read or that is a file, before any row is sent', async () => {
		const outside = mkdtempSync(join(tmpdir(), 'trio-outside-'));
		writeFileSync(join(outside, 'jane.pdf'), PDF);
		for (const [resumeFolder, problem] of [
			[outside, 'where n8n does not let nodes read files ("Access to the file is not allowed.")'],
			[join(folder, 'jane.pdf'), 'which is a file, not a folder'],
		]) {
			t.clearRequests();
			const { error } = await t.run({ ...SUBMIT_ROWS, resumeFolder }, { input: rows() });
			expect(errorText(error).message).toBe(`"Resume Folder" is ${resumeFolder}, ${problem}`);
			expect(errorText(error).itemIndex).toBeUndefined();
			expect(t.apiRequests()).toEqual([]);
		}
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

describe('Resume File reads only inside Resume Folder (issue 39 item 7)', () => {
	/** The row of a candidate whose resume cell is `cell`, and whether anything reached Trio. */
	async function submitWith(cell: string, parameters: INodeParameters = {}) {
		const [row] = rows();
		const email = `cell.${Math.random().toString(36).slice(2)}@example.com`;
		t.clearRequests();
		const result = await t.run(
			{ ...SUBMIT_ROWS, ...parameters },
			{ input: [{ ...row, Email: email, 'Resume File': cell }] },
		);
		const posts = t.apiRequests().filter((request) => request.method === 'POST');
		return { ...result, posts };
	}

	/** The message for a cell, with the cell's own text taken out: the same for every refusal. */
	function refusal(error: unknown, cell: string): string {
		return errorText(error).message.replace(`"${cell}"`, '"…"');
	}

	const outsideCells = () => [
		'../other/secret.pdf',
		join(otherFolder, 'secret.pdf'),
		'link-out.pdf',
		'sub/../../other/secret.pdf',
	];

	it('refuses a file outside the folder (../, a full path, a link that leads out), with the message of a missing file, and sends nothing', async () => {
		const missing = await submitWith('nobody.pdf');
		expect(missing.posts).toEqual([]);
		for (const cell of outsideCells()) {
			const { error, posts } = await submitWith(cell);
			expect(posts).toEqual([]);
			expect(refusal(error, cell)).toBe(refusal(missing.error, 'nobody.pdf'));
		}
		expect(errorText(missing.error).message).toContain(
			`which is no file n8n may read in the Resume Folder ${folder}`,
		);
	});

	it('reads a full path or ../ only where the recruiter allows full paths', async () => {
		// Not the last cell: its folder "sub" does not exist, which the system refuses to climb out of.
		for (const cell of outsideCells().slice(0, 3)) {
			const { error, posts } = await submitWith(cell, { options: { fullPaths: true } });
			expect(error).toBeUndefined();
			expect(posts.map((request) => request.path)).toContain(`/api/v3${PATHS.submissions}`);
		}
	});

	it('takes / as the root folder, where n8n lets nodes read it', async () => {
		const security = Container.get(SecurityConfig);
		security.restrictFileAccessTo = '';
		try {
			const root = await submitWith(`${folder.slice(1)}/jane.pdf`, { resumeFolder: '/' });
			expect(root.error).toBeUndefined();
		} finally {
			security.restrictFileAccessTo = readable;
		}
	});
});

// Issue 46: n8n reads ~ in N8N_RESTRICT_FILE_ACCESS_TO as os.homedir() (HOME); a node can learn
// only the folder above n8n's .n8n folder, which is HOME unless N8N_USER_FOLDER is set.
describe('~ in Resume Folder, beside ~ in N8N_RESTRICT_FILE_ACCESS_TO (issue 46)', () => {
	const home = mkdtempSync(join(tmpdir(), 'trio-home-'));
	const userFolder = mkdtempSync(join(tmpdir(), 'trio-user-folder-'));
	const homeResumes = join(home, '.n8n-files', 'resumes');
	mkdirSync(homeResumes, { recursive: true });
	writeFileSync(join(homeResumes, 'jane.pdf'), PDF);

	/**
	 * Runs `run` as n8n runs with HOME at `home`, its .n8n folder in `n8nUserFolder` (HOME, or
	 * N8N_USER_FOLDER where that is set) and N8N_RESTRICT_FILE_ACCESS_TO listing ~/.n8n-files.
	 */
	async function asN8n<T>(n8nUserFolder: string, run: () => Promise<T>): Promise<T> {
		const settings = Container.get(InstanceSettings) as { n8nFolder: string };
		const security = Container.get(SecurityConfig);
		const n8nFolderBefore = settings.n8nFolder;
		// n8n's getAllowedPaths calls os.homedir(), which reads the real process's HOME, not Jest's copy.
		const homedirSpy = jest.spyOn(os, 'homedir').mockReturnValue(home);
		settings.n8nFolder = join(n8nUserFolder, '.n8n');
		security.restrictFileAccessTo = `${readable};~/.n8n-files`;
		try {
			return await run();
		} finally {
			homedirSpy.mockRestore();
			settings.n8nFolder = n8nFolderBefore;
			security.restrictFileAccessTo = readable;
		}
	}

	async function submitFrom(resumeFolder: string) {
		const [row] = rows();
		const email = `tilde.${Math.random().toString(36).slice(2)}@example.com`;
		t.clearRequests();
		const result = await t.run(
			{ ...SUBMIT_ROWS, resumeFolder },
			{ input: [{ ...row, Email: email, 'Resume File': 'jane.pdf' }] },
		);
		return { ...result, posts: t.apiRequests().filter((request) => request.method === 'POST') };
	}

	it("reads ~ as n8n's home folder where N8N_USER_FOLDER is not set", async () => {
		await asN8n(home, async () => {
			for (const typed of ['~/.n8n-files/resumes/', '~/.n8n-files/resumes']) {
				const { error, posts } = await submitFrom(typed);
				expect(error).toBeUndefined();
				expect(posts.map((request) => request.path)).toContain(`/api/v3${PATHS.submissions}`);
			}
		});
	});

	it('where N8N_USER_FOLDER is elsewhere, stops once on a ~ folder that is not there, saying what ~ was read as, and takes the full path', async () => {
		await asN8n(userFolder, async () => {
			const { error, posts } = await submitFrom('~/.n8n-files/resumes');
			const { message, description, itemIndex } = errorText(error);
			expect(message).toBe(
				`"Resume Folder" is ~/.n8n-files/resumes (${join(userFolder, '.n8n-files', 'resumes')}), which does not exist on the machine (or in the container) where n8n runs`,
			);
			expect(description).toContain(`Here ~ is ${userFolder}`);
			expect(description).toContain('write the full path of the folder');
			expect(itemIndex).toBeUndefined();
			expect(posts).toEqual([]);
			const full = await submitFrom(homeResumes);
			expect(full.error).toBeUndefined();
		});
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

	// Issue 39 item 10: tag characters passed the cleaning; 60 emoji were "120 characters".
	it('counts a name in characters, not UTF-16 units, and removes tag characters', async () => {
		const { error } = await t.run({
			resource: 'candidate',
			operation: 'findOrCreate',
			email: 'emoji.name@example.com',
			firstName: `Ann ${'\u{1F60A}'.repeat(60)}`,
			lastName: 'Lee\u{E0041}\u{E0042}\u{E007F}',
		});
		expect(error).toBeUndefined();
		const created = [...t.sandbox.store.candidates.values()].find(
			(entry) => entry.email1 === 'emoji.name@example.com',
		);
		expect(created).toMatchObject({ firstName: `Ann ${'\u{1F60A}'.repeat(60)}`, lastName: 'Lee' });
		const tooLong = await t.run({
			resource: 'candidate',
			operation: 'findOrCreate',
			email: 'emoji.long@example.com',
			firstName: '\u{1F60A}'.repeat(101),
			lastName: 'B',
		});
		expect(errorText(tooLong.error).message).toContain('"First Name" is 101 characters long');
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
