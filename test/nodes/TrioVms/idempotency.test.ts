/**
 * Re-runs never create twice (issue #10): n8n runs the whole node again under Retry On Fail
 * (after a thrown error, or when the first output item is an error under continue-on-fail), and
 * users re-run failed executions. Submission Create and the candidate creates look for what is
 * already there first, and look again after a failure that leaves the outcome unknown.
 * Through n8n's engine against the sandbox; creates are counted at the sandbox.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	errorText,
	pairSource,
	PDF_FILE,
	RETRY_ON_FAIL,
	storedSubmissions,
	SUBMIT_PAIRS,
	submitPairs,
	submissionPosts,
	useSandbox,
} from '../../support/sandbox-harness';

const t = useSandbox({ jobs: 40 });

/** Pairs never submitted, different in every test. */
const freshPairs = pairSource(
	t,
	(turn) => turn,
	(turn) => turn * 7 + 3,
);

function actions(output: Array<{ json: IDataObject }>): unknown[] {
	return output.map((item) => (item.json._trio as IDataObject | undefined)?.action ?? item.json);
}

describe('Submission: Create is idempotent across runs', () => {
	// Issue 27 point 3 changed the failure in this test and the next: a 500 to a create is now an
	// unknown outcome (Trio may have stored it), so "Trio stored nothing" is a refusal (400).
	it('under Retry On Fail, the retry skips the rows the failed try submitted', async () => {
		const pairs = freshPairs(3);
		// The second row's POST is refused before Trio stores anything; the node's retry runs
		// all three rows again.
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { failAfter: 1, failStatus: 400 } },
		});
		const { output, error } = await submitPairs(t, pairs, { settings: RETRY_ON_FAIL });
		for (const pair of pairs) expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
		expect(error).toBeUndefined();
		expect(actions(output)).toEqual(['already submitted', 'created', 'created']);
		expect(output.map((item) => item.json.CandidateNumber)).toEqual(
			pairs.map((pair) => pair.candidate),
		);
		// First try: row 1 stored, row 2 refused. Second try: rows 2 and 3 only.
		expect(submissionPosts(t)).toBe(4);
		// One read of the list per try; a refusal needs no look afterwards.
		expect(
			t.apiRequests().filter((r) => r.method === 'GET' && r.path === '/api/v3/Submission'),
		).toHaveLength(2);
	});

	// Issue 22 point 5 changed this test: a 502 used to count as "did not run", so the retry
	// submitted the first pair again. A gateway's 502 says nothing about the service behind it,
	// so the pair is now refused until its outcome can be known.
	it('under Retry On Fail with continue-on-fail, a 502 on the first item is not sent again, nor are the others', async () => {
		const pairs = freshPairs(2);
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { failNext: 1, failStatus: 502 } },
		});
		const { output, error } = await submitPairs(t, pairs, {
			settings: RETRY_ON_FAIL,
			continueOnFail: true,
		});
		expect(storedSubmissions(t, pairs[0].job, pairs[0].candidate)).toBe(0);
		expect(storedSubmissions(t, pairs[1].job, pairs[1].candidate)).toBe(1);
		expect(error).toBeUndefined();
		expect(String(output[0].json.error)).toContain(
			'Not sent: this node holds a create of the same submission of candidate',
		);
		expect(actions(output)[1]).toBe('already submitted');
		expect(submissionPosts(t)).toBe(2);
	});

	it('a re-run of a failed execution submits only what the failed run did not', async () => {
		const pairs = freshPairs(2);
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { failAfter: 1, failStatus: 400 } },
		});
		const failed = await submitPairs(t, pairs, {});
		expect(storedSubmissions(t, pairs[0].job, pairs[0].candidate)).toBe(1);
		expect(storedSubmissions(t, pairs[1].job, pairs[1].candidate)).toBe(0);

		t.clearRequests();
		const rerun = await submitPairs(t, pairs, {});
		for (const pair of pairs) expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
		expect(submissionPosts(t)).toBe(1);
		expect(rerun.error).toBeUndefined();
		expect(actions(rerun.output)).toEqual(['already submitted', 'created']);
		// What the failed run said about its failed row.
		expect(errorText(failed.error).message).toMatch(/^Trio VMS refused it: /);
		expect(errorText(failed.error).httpCode).toBe('400');
		expect(errorText(failed.error).itemIndex).toBe(1);
		expect(errorText(failed.error).description).not.toMatch(/unknown|may have been created/);
	});

	it('when the connection drops after Trio stored the submission, it says so, and a re-run sends nothing', async () => {
		const [pair] = freshPairs(1);
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { dropAfterHandlerNext: 1 } },
		});
		const { output, error } = await submitPairs(t, [pair], { settings: RETRY_ON_FAIL });
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({
			JobNumber: pair.job,
			CandidateNumber: pair.candidate,
			Status: 'Submitted',
			_trio: { action: 'created despite an error' },
		});
		expect(String((output[0].json._trio as IDataObject).error)).toMatch(/ECONNRESET|connection/i);
		expect(submissionPosts(t)).toBe(1);

		t.clearRequests();
		const rerun = await submitPairs(t, [pair], {});
		expect(actions(rerun.output)).toEqual(['already submitted']);
		expect(submissionPosts(t)).toBe(0);
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
	});

	it.each([502, 504])(
		'a %i after Trio stored the submission is never followed by a second POST (Retry On Fail, re-run, check off)',
		async (status) => {
			const [pair] = freshPairs(1);
			const options = { skipIfAlreadySubmitted: false };
			t.sandbox.setFaults({
				endpoints: {
					'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: status },
				},
			});
			const run = async () =>
				await t.run(
					{ ...SUBMIT_PAIRS, options },
					{ input: [pair], inputBinary: [PDF_FILE], settings: RETRY_ON_FAIL },
				);
			const first = await run();
			const rerun = await run();
			expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
			expect(submissionPosts(t)).toBe(1);
			const said = errorText(first.error);
			expect(said.message).toContain(
				`Not sent: this node holds a create of the same submission of candidate ${pair.candidate} to job ${pair.job} since`,
			);
			expect(said.description).toMatch(/may have been created/);
			expect(said.description).toMatch(/Get Many/);
			expect(said.description).toMatch(/this refusal ends by \d\d:\d\d UTC at the latest/);
			expect(errorText(rerun.error).message).toContain('Not sent');
		},
	);

	it('a 504 after Trio stored the submission: the look finds it, and the error of the first try says what the retry will do', async () => {
		const [pair] = freshPairs(1);
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: 504 } },
		});
		const { output, error } = await submitPairs(t, [pair], { settings: RETRY_ON_FAIL });
		expect(error).toBeUndefined();
		expect(actions(output)).toEqual(['created despite an error']);
		expect(String((output[0].json._trio as IDataObject).error)).toMatch(
			/^Trio VMS failed \(its error, not yours\)/,
		);
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
		expect(submissionPosts(t)).toBe(1);
	});

	it('submits a row only once when the same pair appears twice in one run', async () => {
		const [pair] = freshPairs(1);
		const { output, error } = await submitPairs(t, [pair, pair], {});
		expect(error).toBeUndefined();
		expect(actions(output)).toEqual(['created', 'already submitted']);
		expect(output[1].json.Number).toBe(output[0].json.Number);
		expect(submissionPosts(t)).toBe(1);
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
	});

	it('submits again on purpose with Skip If Already Submitted off', async () => {
		const [pair] = freshPairs(1);
		const options = { skipIfAlreadySubmitted: false };
		await submitPairs(t, [pair], {});
		const again = await t.run(
			{ ...SUBMIT_PAIRS, options },
			{ input: [pair], inputBinary: [PDF_FILE] },
		);
		expect(actions(again.output)).toEqual(['created']);
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(2);
	});
});

describe('Candidate creates are idempotent across runs', () => {
	function candidatesWith(email: string): number {
		return [...t.sandbox.store.candidates.values()].filter(
			(candidate) => candidate.email1.toLowerCase() === email.toLowerCase(),
		).length;
	}
	function candidatePosts(): number {
		return t
			.apiRequests()
			.filter((request) => request.method === 'POST' && request.path === '/api/v3/candidates')
			.length;
	}
	const rows = (emails: string[]) =>
		emails.map((email, index) => ({ first: 'Row', last: `Number ${index + 1}`, email }));
	const createRows = (operation: string): INodeParameters => ({
		resource: 'candidate',
		operation,
		firstName: '={{ $json.first }}',
		lastName: '={{ $json.last }}',
		email: '={{ $json.email }}',
	});

	// Issue 27 point 3: a 5xx to a create is an unknown outcome, so "nothing created" is a 400 here.
	it('Create under Retry On Fail: the retry finds the candidates the failed try created', async () => {
		const emails = ['retry.one@agency.example', 'retry.two@agency.example'];
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/candidates': { failAfter: 1, failStatus: 400 } },
		});
		const { output, error } = await t.run(createRows('create'), {
			input: rows(emails),
			settings: RETRY_ON_FAIL,
		});
		for (const email of emails) expect(candidatesWith(email)).toBe(1);
		expect(error).toBeUndefined();
		expect(actions(output)).toEqual(['found', 'created']);
		expect(candidatePosts()).toBe(3);
	});

	it('Create, re-run of a failed execution: the second run creates only the missing candidate', async () => {
		const emails = ['rerun.one@agency.example', 'rerun.two@agency.example'];
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/candidates': { failAfter: 1, failStatus: 400 } },
		});
		const failed = await t.run(createRows('create'), { input: rows(emails) });
		const rerun = await t.run(createRows('create'), { input: rows(emails) });
		for (const email of emails) expect(candidatesWith(email)).toBe(1);
		expect(rerun.error).toBeUndefined();
		expect(actions(rerun.output)).toEqual(['found', 'created']);
		expect(errorText(failed.error).message).toMatch(/^Trio VMS refused it: /);
		expect(errorText(failed.error).httpCode).toBe('400');
	});

	it.each(['create', 'findOrCreate'])(
		'%s: when the connection drops after Trio stored the candidate, looks again and says so',
		async (operation) => {
			const email = `dropped.${operation.toLowerCase()}@agency.example`;
			t.sandbox.setFaults({
				endpoints: { 'POST /api/v3/candidates': { dropAfterHandlerNext: 1 } },
			});
			const { output, error } = await t.run(createRows(operation), {
				input: rows([email]),
				settings: RETRY_ON_FAIL,
			});
			expect(candidatesWith(email)).toBe(1);
			expect(error).toBeUndefined();
			expect(output[0].json).toMatchObject({
				email1: email,
				_trio: { action: 'created despite an error', matchCount: 0 },
			});
			expect(candidatePosts()).toBe(1);
		},
	);

	it('Create with Skip If Email Exists off: a 504 after Trio stored the candidate blocks a second POST', async () => {
		const email = 'gateway.gave.up@agency.example';
		const parameters = { ...createRows('create'), options: { skipIfEmailExists: false } };
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/candidates': { failAfterHandlerNext: 1, failStatus: 504 } },
		});
		const first = await t.run(parameters, { input: rows([email]), settings: RETRY_ON_FAIL });
		expect(candidatesWith(email)).toBe(1);
		expect(candidatePosts()).toBe(1);
		expect(errorText(first.error).message).toContain(
			`Not sent: this node holds a create of the same candidate with the email ${email} since`,
		);
	});

	it('Create with Skip If Email Exists off creates every time', async () => {
		const email = 'twice.on.purpose@agency.example';
		const parameters = { ...createRows('create'), options: { skipIfEmailExists: false } };
		await t.run(parameters, { input: rows([email]) });
		const second = await t.run(parameters, { input: rows([email]) });
		expect(actions(second.output)).toEqual(['created']);
		expect(candidatesWith(email)).toBe(2);
		expect(t.apiRequests().map((r) => r.method)).toEqual(['POST', 'POST']);
	});
});
