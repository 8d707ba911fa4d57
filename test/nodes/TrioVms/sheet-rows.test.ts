/**
 * A sheet as recruiters keep one (issue 46): columns of their own, a job that stopped taking
 * submissions, a missing resume, a mistyped email among good rows. With Output = Row With Result
 * (the default of Values From = Spreadsheet Columns), through n8n's engine against the sandbox:
 * every good row is submitted once, every bad one comes out with its reason beside its own
 * columns, the run never stops on a row, a re-run sends nothing again, and once the bad rows are
 * fixed only they are sent.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { NODE_UNDER_TEST } from '../../../harness/engine/engine';
import { PATHS } from '../../../nodes/shared/serviceFacts';
import { PDF, restrictFileAccessTo, useSandbox } from '../../support/sandbox-harness';

const t = useSandbox({ jobs: 20 });

const readable = mkdtempSync(join(tmpdir(), 'trio-sheet-'));
const folder = join(readable, 'resumes');
mkdirSync(folder);
for (const name of ['ana.pdf', 'ben.pdf', 'cruz.pdf', 'dee.pdf', 'eli.pdf', 'fay.pdf', 'gus.pdf'])
	writeFileSync(join(folder, name), PDF);

restrictFileAccessTo(readable);

const SUBMIT_SHEET: INodeParameters = {
	resource: 'submission',
	operation: 'create',
	valuesFrom: 'columns',
	columns: { mappingMode: 'autoMapInputData', value: null },
	resumeFrom: 'folder',
	resumeFolder: folder,
};

function openJobs(): number[] {
	return t.sandbox.store
		.listJobs()
		.filter((job) => job.JobStatus === 'Open')
		.map((job) => job.Number);
}

/** Eight rows; rows 3, 5 and 7 (items 2, 4, 6) are bad, each in its own way. */
function sheet(onHold: number, open: number[]): IDataObject[] {
	const row = (name: string, job: number, extra: IDataObject = {}): IDataObject => ({
		row_number: 0,
		'First Name': name,
		'Last Name': 'Sheetrow',
		Email: `${name.toLowerCase()}.sheet@example.com`,
		Phone: '(512) 555-0142',
		'Job Number': String(job),
		'Bill Rate': '$65.50',
		'Start Date': '2027-03-01',
		'Resume File': `${name.toLowerCase()}.pdf`,
		Recruiter: 'Pat',
		Notes: 'called Monday',
		...extra,
	});
	const rows = [
		row('Ana', open[0]),
		row('Ben', open[1]),
		row('Cruz', onHold),
		row('Dee', open[2]),
		row('Eli', open[3], { 'Resume File': 'eli-missing.pdf' }),
		row('Fay', open[4]),
		row('Gus', open[5], { Email: 'gus.sheet@example' }),
		row('Hal', open[6], { 'Resume File': 'ana.pdf' }),
	];
	return rows.map((entry, index) => ({ ...entry, row_number: index + 2 }));
}

/** Submissions Trio took since the requests were last cleared (a refused one is not counted). */
function submissionPosts(): number {
	return t
		.apiRequests()
		.filter(
			(request) =>
				request.method === 'POST' &&
				request.path === `/api/v3${PATHS.submissions}` &&
				request.status !== null &&
				request.status < 300,
		).length;
}

/**
 * Runs the sheet again from cleared requests: it succeeds with `posts` submissions taken. Gives
 * the rows and each one's Trio Result.
 */
async function rerun(rows: IDataObject[], posts: number) {
	t.clearRequests();
	const { error, output } = await t.run(SUBMIT_SHEET, { input: rows });
	expect(error).toBeUndefined();
	expect(submissionPosts()).toBe(posts);
	return { output, trioResults: output.map((item) => item.json['Trio Result']) };
}

describe('Row With Result: a sheet with bad rows among good ones', () => {
	let input: IDataObject[];
	let open: number[];
	/** The first run's output: the rows with their results, as README's step 5 keeps them. */
	let results: IDataObject[];
	beforeAll(() => {
		const [onHold, ...others] = openJobs();
		open = others;
		t.sandbox.store.holdJob(onHold);
		input = sheet(onHold, open);
	});

	it('submits every good row, reports every bad one beside its own columns, and never stops on a row', async () => {
		const { error, output, run } = await t.run(SUBMIT_SHEET, { input });
		expect(error).toBeUndefined();
		results = output.map((item) => item.json);
		expect(output.map((item) => item.pairedItem)).toEqual(input.map((_, item) => ({ item })));
		expect(output.map((item) => item.json['Trio Result'])).toEqual([
			'submitted',
			'submitted',
			'not submitted',
			'submitted',
			'not submitted',
			'submitted',
			'not submitted',
			'submitted',
		]);
		for (const [index, item] of output.entries()) {
			// The row's own columns come back as they were, its own Recruiter and Notes too.
			expect(item.json).toMatchObject(input[index]);
			const submitted = item.json['Trio Result'] === 'submitted';
			expect(item.json['Trio Problem'] === '').toBe(submitted);
			expect(typeof item.json['Submission Number'] === 'number').toBe(submitted);
		}
		expect(submissionPosts()).toBe(5);

		const problems = output.map((item) => String(item.json['Trio Problem']));
		expect(problems[2]).toMatch(/on ?hold/i);
		expect(problems[4]).toMatch(/eli-missing\.pdf/);
		expect(problems[6]).toMatch(/"Email"/);
		for (const problem of [problems[4], problems[6]]) expect(problem).toMatch(/nothing was sent/i);
		const hints = run.data.resultData.runData[NODE_UNDER_TEST][0].hints ?? [];
		expect(hints.map((hint) => hint.message)).toEqual([
			expect.stringMatching(/^3 of 8 rows were not submitted/),
		]);
	});

	it('sends nothing again on a re-run: the good rows come out as already submitted, the bad ones as before', async () => {
		expect((await rerun(input, 0)).trioResults).toEqual([
			'already submitted',
			'already submitted',
			'not submitted',
			'already submitted',
			'not submitted',
			'already submitted',
			'not submitted',
			'already submitted',
		]);
	});

	it('sends only the three rows once they are fixed in the file of results and run again', async () => {
		const fixed = results.map((row, index) =>
			index === 2
				? { ...row, 'Job Number': String(open[7]) }
				: index === 4
					? { ...row, 'Resume File': 'eli.pdf' }
					: index === 6
						? { ...row, Email: 'gus.sheet@example.com' }
						: row,
		);
		const { output, trioResults } = await rerun(fixed, 3);
		expect(trioResults).toEqual([
			'already submitted',
			'already submitted',
			'submitted',
			'already submitted',
			'submitted',
			'already submitted',
			'submitted',
			'already submitted',
		]);
		// The numbers a good row came back with are the ones it keeps.
		for (const index of [0, 1, 3, 5, 7])
			expect(output[index].json['Submission Number']).toBe(results[index]['Submission Number']);
	});
});

describe("Row With Result under n8n's own error settings", () => {
	it('sends the bad rows to the error output with their columns under Continue (using error output)', async () => {
		const [jobA, jobB] = openJobs();
		const input = [
			{
				'First Name': 'Ivy',
				'Last Name': 'Out',
				Email: 'ivy.out@example.com',
				'Job Number': String(jobA),
				'Resume File': 'ana.pdf',
				Recruiter: 'Pat',
			},
			{
				'First Name': 'Jo',
				'Last Name': 'Out',
				Email: 'jo.out@',
				'Job Number': String(jobB),
				'Resume File': 'ben.pdf',
				Recruiter: 'Sam',
			},
		];
		const result = await t.run(SUBMIT_SHEET, {
			input,
			settings: { onError: 'continueErrorOutput' } as Pick<INode, 'alwaysOutputData'>,
		});
		expect(result.error).toBeUndefined();
		const good = result.items(NODE_UNDER_TEST, 0);
		const bad = result.items(NODE_UNDER_TEST, 1);
		expect(good.map((item) => item.json['Trio Result'])).toEqual(['submitted']);
		expect(bad).toHaveLength(1);
		// n8n's error output: the row's own columns, beside the error and what to do.
		expect(bad[0].json).toMatchObject(input[1]);
		expect(String(bad[0].json.error)).toMatch(/"Email"/);
		expect(String(bad[0].json.details)).toMatch(/nothing was sent/i);
	});

	it("stops on a failure that is the whole run's (the key refused), saying the rows before were handled", async () => {
		const [jobA, jobB] = openJobs();
		const row = (name: string, job: number) => ({
			'First Name': name,
			'Last Name': 'Keyless',
			Email: `${name}.keyless@example.com`,
			'Job Number': String(job),
			'Resume File': 'ana.pdf',
		});
		t.sandbox.setFaults({
			endpoints: { [`POST /api/v3${PATHS.submissions}`]: { failAfter: 1, failStatus: 403 } },
		});
		const { error } = await t.run(SUBMIT_SHEET, { input: [row('kim', jobA), row('lee', jobB)] });
		expect((error as { httpCode?: string } | undefined)?.httpCode).toBe('403');
		expect(String(error?.description)).toMatch(/The row before this one was handled/);
		expect(String(error?.description)).toMatch(/nobody is submitted twice/);
		expect(submissionPosts()).toBe(1);
	});
});
