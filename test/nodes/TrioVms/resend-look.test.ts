/**
 * A 429 after Trio stored the create (issue 47 item 7): a gateway that rate-limits after it
 * passed the request on. The sandbox's failAfterHandlerNext with failStatus 429 stores the record,
 * then answers 429 with Retry-After. Once the wait is over the node looks, with one request per
 * 429, whether Trio has it (retry.ts states the rule), through n8n's engine against the sandbox:
 * found, it is not sent again; not found (a plain 429), it is sent again; the look failing, it is
 * not sent again and the row says so. Creates and looks are counted in the sandbox's request log.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { PATHS } from '../../../nodes/shared/serviceFacts';
import { ROW_WITH_RESULT } from '../../../nodes/TrioVms/helpers/rowResult';
import type { RequestRecord } from '../../../sandbox';
import {
	PDF,
	PDF_FILE,
	pairSource,
	readableResumeFolders,
	storedSubmissions,
	SUBMIT_PAIRS,
	submissionPosts,
	submitRowsFrom,
	useSandbox,
} from '../../support/sandbox-harness';

const t = useSandbox({ jobs: 40 });

const { folder } = readableResumeFolders('trio-resend-look-');
writeFileSync(join(folder, 'resume.pdf'), PDF);

const SUBMISSIONS = `/api/v3${PATHS.submissions}`;
const CANDIDATES = `/api/v3${PATHS.candidates}`;

/** A 429 stored first: each of the next `count` requests to `endpoint` is stored, then refused. */
const storedThen429 = (endpoint: string, count: number) =>
	t.sandbox.setFaults({
		endpoints: { [endpoint]: { failAfterHandlerNext: count, failStatus: 429 } },
	});

const requests = (
	method: string,
	path: string,
	where: (r: RequestRecord) => boolean = () => true,
) => t.apiRequests().filter((r) => r.method === method && r.path === path && where(r));

/** The looks of Submission Create: its reads of the list with a modifiedDate. */
const submissionLooks = () => requests('GET', SUBMISSIONS, (r) => 'modifiedDate' in r.query);

const FOUND_AFTER_429 =
	'Trio VMS answered 429 (Too Many Requests) after storing it: the node found it in Trio before sending it again, so it was not sent twice';

const freshPairs = pairSource(
	t,
	(turn) => turn * 5 + 1,
	(turn) => turn * 7 + 3,
);

function openJobs(): number[] {
	return t.sandbox.store
		.listJobs()
		.filter((job) => job.JobStatus === 'Open')
		.map((job) => job.Number);
}

let sheets = 0;
/** `count` rows of new candidates, each to its own open job, all with one resume. */
function sheet(count: number): IDataObject[] {
	const sheetNumber = ++sheets;
	return openJobs()
		.slice(0, count)
		.map((job, index) => ({
			'First Name': `Row${index}`,
			'Last Name': `Sheet${sheetNumber}`,
			Email: `row${index}.sheet${sheetNumber}@resend.example`,
			'Job Number': String(job),
			'Start Date': '2027-03-01',
			'Resume File': 'resume.pdf',
		}));
}

/** Output Row With Result, the default with spreadsheet columns: each row's outcome beside it. */
const SUBMIT_SHEET: INodeParameters = { ...submitRowsFrom(folder), output: ROW_WITH_RESULT };

const candidateOf = (email: string) =>
	[...t.sandbox.store.candidates.values()].filter((entry) => entry.email1 === email);

/** Submissions stored for a sheet's row: its candidate (by e-mail) to its job. */
const storedForRow = (row: IDataObject) =>
	candidateOf(String(row.Email)).reduce(
		(sum, candidate) => sum + storedSubmissions(t, Number(row['Job Number']), candidate.number),
		0,
	);

describe('Submission Create after a 429 that came after Trio stored it', () => {
	it('spreadsheet rows: every row submitted once, no second POST, one look per such 429', async () => {
		const clean = sheet(6).map((row) => ({ ...row, Email: `clean.${String(row.Email)}` }));
		await t.run(SUBMIT_SHEET, { input: clean });
		const cleanRequests = t.apiRequests().length;
		t.clearRequests();

		const input = sheet(6);
		storedThen429(`POST ${SUBMISSIONS}`, 3);
		const { output, error } = await t.run(SUBMIT_SHEET, { input });

		expect(error).toBeUndefined();
		expect(output.map((item) => item.json['Trio Result'])).toEqual(Array(6).fill('submitted'));
		expect(input.map(storedForRow)).toEqual(Array(6).fill(1));
		expect(requests('POST', SUBMISSIONS)).toHaveLength(6);
		expect(submissionLooks()).toHaveLength(3);
		// The looks are the only requests beyond those of the same sheet without a 429.
		expect(t.apiRequests().length - cleanRequests).toBe(3);
	});

	it('duplicate check off: found by the look, output as created despite the 429', async () => {
		const pairs = freshPairs(3);
		storedThen429(`POST ${SUBMISSIONS}`, 2);
		const { output, error } = await t.run(
			{ ...SUBMIT_PAIRS, options: { skipIfAlreadySubmitted: false } },
			{ input: pairs, inputBinary: pairs.map(() => PDF_FILE) },
		);
		expect(error).toBeUndefined();
		expect(pairs.map((pair) => storedSubmissions(t, pair.job, pair.candidate))).toEqual([1, 1, 1]);
		expect(submissionPosts(t)).toBe(3);
		expect(submissionLooks()).toHaveLength(2);
		expect(output.map((item) => item.json._trio)).toEqual([
			{ action: 'created despite an error', error: FOUND_AFTER_429 },
			{ action: 'created despite an error', error: FOUND_AFTER_429 },
			{ action: 'created' },
		]);
	});

	it.each([
		['9 minutes behind n8n', -9 * 60_000, -9 * 60_000],
		['14 minutes behind n8n, its Date not believed', -14 * 60_000, -14 * 60_000],
		["right, the gateway's 429 dated 1970", 0, -Date.now()],
	])(
		"Trio's clock %s: the look still finds it (the margin is on n8n's clock)",
		async (_label, trioOffsetMs, dateOffsetMs) => {
			const pairs = freshPairs(2);
			t.sandbox.store.clock.set({ offsetMs: trioOffsetMs });
			t.sandbox.setFaults({
				dateOffsetMs,
				endpoints: { [`POST ${SUBMISSIONS}`]: { failAfterHandlerNext: 1, failStatus: 429 } },
			});
			try {
				const { output, error } = await t.run(
					{ ...SUBMIT_PAIRS, options: { skipIfAlreadySubmitted: false } },
					{ input: pairs, inputBinary: pairs.map(() => PDF_FILE) },
				);
				expect(error).toBeUndefined();
				expect(pairs.map((pair) => storedSubmissions(t, pair.job, pair.candidate))).toEqual([1, 1]);
				expect(submissionPosts(t)).toBe(2);
				expect((output[0].json._trio as IDataObject).action).toBe('created despite an error');
			} finally {
				t.sandbox.store.clock.set({ offsetMs: 0 });
			}
		},
	);

	it('a plain 429 (refused before any work): the look finds nothing, and it is sent again once', async () => {
		const pairs = freshPairs(2);
		t.sandbox.setFaults({
			endpoints: {
				[`POST ${SUBMISSIONS}`]: { rateLimit: { limit: 1, windowMs: 500, retryAfterSeconds: 1 } },
			},
		});
		const { output, error } = await t.run(SUBMIT_PAIRS, {
			input: pairs,
			inputBinary: pairs.map(() => PDF_FILE),
		});
		expect(error).toBeUndefined();
		expect(output.map((item) => (item.json._trio as IDataObject).action)).toEqual([
			'created',
			'created',
		]);
		expect(pairs.map((pair) => storedSubmissions(t, pair.job, pair.candidate))).toEqual([1, 1]);
		const posts = requests('POST', SUBMISSIONS);
		expect(posts.map((post) => post.status)).toEqual([200, 429, 200]);
		expect(submissionLooks()).toHaveLength(1);
	});

	it('the look failing: not sent again, the row says whether it was created is unknown, the next row goes on', async () => {
		const input = sheet(2).map((row, index) => ({
			...row,
			Email: `look.fails.${index}@resend.example`,
		}));
		t.sandbox.setFaults({
			endpoints: {
				[`POST ${SUBMISSIONS}`]: { failAfterHandlerNext: 1, failStatus: 429 },
				[`GET ${SUBMISSIONS}`]: { failNext: 1, failStatus: 404 },
			},
		});
		const { output, error } = await t.run(
			{ ...SUBMIT_SHEET, options: { skipIfAlreadySubmitted: false } },
			{ input },
		);
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json['Trio Result'])).toEqual(['not submitted', 'submitted']);
		const problem = String(output[0].json['Trio Problem']);
		expect(problem).toMatch(/^Trio VMS asked the node to slow down/);
		expect(problem).toContain('the look failed');
		expect(problem).toContain('It was not sent again, to avoid creating it twice');
		expect(problem).toContain('whether it was created is unknown');
		expect(problem).not.toContain('did not carry it out');
		expect(input.map(storedForRow)).toEqual([1, 1]);
		expect(requests('POST', SUBMISSIONS)).toHaveLength(2);
		expect(submissionLooks()).toHaveLength(1);
	});
});

describe('Submission Create when the 429 is the last its retries allow', () => {
	const onePair = async (fault: IDataObject) => {
		const pairs = freshPairs(1);
		t.sandbox.setFaults({ endpoints: { [`POST ${SUBMISSIONS}`]: { ...fault, failStatus: 429 } } });
		const result = await t.run(
			{ ...SUBMIT_PAIRS, options: { skipIfAlreadySubmitted: false } },
			{ input: pairs, inputBinary: pairs.map(() => PDF_FILE) },
		);
		return { ...result, stored: storedSubmissions(t, pairs[0].job, pairs[0].candidate) };
	};

	it('stored before that last 429: its look finds it, output as created despite the 429', async () => {
		// Three refused before any work, without a Retry-After, then one stored and refused with
		// one: the fourth and last try. The first three's calls must count as made, or the budget
		// the fourth teaches would hold the look behind them for ever (it did: a timeout here).
		const { output, error, stored } = await onePair({ failNext: 3, failAfterHandlerNext: 1 });
		expect(error).toBeUndefined();
		expect(stored).toBe(1);
		expect(requests('POST', SUBMISSIONS).map((post) => post.status)).toEqual([429, 429, 429, 429]);
		expect(submissionLooks()).toHaveLength(4);
		expect(output.map((item) => item.json._trio)).toEqual([
			{ action: 'created despite an error', error: FOUND_AFTER_429 },
		]);
	});

	it('refused every time before any work: the last look finds nothing, and the 429 is the error', async () => {
		const { error, stored } = await onePair({ failNext: 4 });
		expect(stored).toBe(0);
		expect(requests('POST', SUBMISSIONS)).toHaveLength(4);
		expect(submissionLooks()).toHaveLength(4);
		expect(String(error?.message)).toMatch(/^Trio VMS asked the node to slow down/);
	});
});

describe('Candidate Create after a 429 that came after Trio stored it', () => {
	const people = (label: string, count: number) =>
		Array.from({ length: count }, (_, index) => ({
			first: `Cand${index}`,
			last: label,
			email: `cand${index}.${label}@resend.example`,
		}));
	const CREATE_PEOPLE: INodeParameters = {
		resource: 'candidate',
		operation: 'create',
		firstName: '={{ $json.first }}',
		lastName: '={{ $json.last }}',
		email: '={{ $json.email }}',
	};
	const candidateLooks = (before: number) => requests('GET', CANDIDATES).length - before;

	it.each([
		['Find or Create', { ...CREATE_PEOPLE, operation: 'findOrCreate' }, 'findorcreate', 4],
		['Create (Skip If Email Exists on)', CREATE_PEOPLE, 'createskip', 4],
		[
			'Create (Skip If Email Exists off)',
			{ ...CREATE_PEOPLE, options: { skipIfEmailExists: false } },
			'createplain',
			0,
		],
	])(
		'%s: every candidate stored once, no second POST, one look per such 429',
		async (_name, parameters, label, lookupsBeforeSending) => {
			const input = people(label, 4);
			storedThen429(`POST ${CANDIDATES}`, 2);
			const { output, error } = await t.run(parameters as INodeParameters, { input });
			expect(error).toBeUndefined();
			expect(input.map((person) => candidateOf(person.email).length)).toEqual([1, 1, 1, 1]);
			expect(requests('POST', CANDIDATES)).toHaveLength(4);
			expect(candidateLooks(lookupsBeforeSending)).toBe(2);
			expect(output.map((item) => (item.json._trio as IDataObject).action)).toEqual([
				'created despite an error',
				'created despite an error',
				'created',
				'created',
			]);
			expect(output.map((item) => item.json.number)).toEqual(
				input.map((person) => candidateOf(person.email)[0].number),
			);
		},
	);

	it('a plain 429: the look finds nobody, and the candidate is sent again once', async () => {
		const input = people('plain429', 2);
		t.sandbox.setFaults({
			endpoints: {
				[`POST ${CANDIDATES}`]: { rateLimit: { limit: 1, windowMs: 500, retryAfterSeconds: 1 } },
			},
		});
		const { error } = await t.run(
			{ ...CREATE_PEOPLE, options: { skipIfEmailExists: false } },
			{
				input,
			},
		);
		expect(error).toBeUndefined();
		expect(input.map((person) => candidateOf(person.email).length)).toEqual([1, 1]);
		expect(requests('POST', CANDIDATES).map((post) => post.status)).toEqual([200, 429, 200]);
		expect(requests('GET', CANDIDATES)).toHaveLength(1);
	});
});
