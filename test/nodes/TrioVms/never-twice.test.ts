/**
 * "Never twice" across processes (issue 27 points 2 and 3): Submission Create remembers, in n8n's
 * duplicate store for the workflow, which creates it sent and which have an unknown outcome. The
 * engine runs n8n-core's DataDeduplicationService over one storage that stands for n8n's database;
 * `forgetProcessMemory()` between runs is another queue-mode worker, or a restart, which starts
 * without the previous process's memory. Creates are counted at the sandbox.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	forgetProcessMemory,
	ProcessedDataStorage,
	useProcessedDataStorage,
	type RunNodeOptions,
} from '../../support/engine/engine';
import {
	errorText,
	PDF_FILE,
	SUBMIT_PAIRS,
	submitPairs,
	useSandbox,
} from '../../support/sandbox-harness';

const t = useSandbox({ jobs: 40 });

const RETRY_ON_FAIL: RunNodeOptions['settings'] = {
	retryOnFail: true,
	maxTries: 3,
	waitBetweenTries: 1,
};

let storage: ProcessedDataStorage;
let workflows = 0;
let workflowId: string;
beforeEach(() => {
	storage = new ProcessedDataStorage();
	useProcessedDataStorage(storage);
	workflowId = `never-twice-${++workflows}`;
});
afterAll(() => useProcessedDataStorage(new ProcessedDataStorage()));

let used = 0;
function freshPairs(count: number): Array<{ job: number; candidate: number }> {
	const jobs = t.sandbox.store.listJobs().filter((job) => job.JobStatus === 'Open');
	const candidates = [...t.sandbox.store.candidates.keys()];
	const pairs: Array<{ job: number; candidate: number }> = [];
	while (pairs.length < count) {
		const job = jobs[(used * 3) % jobs.length].Number;
		const candidate = candidates[(used * 11 + 5) % candidates.length];
		used++;
		if (
			stored(job, candidate) === 0 &&
			!pairs.some((pair) => pair.job === job && pair.candidate === candidate)
		)
			pairs.push({ job, candidate });
	}
	return pairs;
}

function stored(job: number, candidate: number): number {
	return [...t.sandbox.store.submissions.values()].filter(
		(record) =>
			record.submission.JobNumber === job && record.submission.CandidateNumber === candidate,
	).length;
}

function posts(): number {
	return t
		.apiRequests()
		.filter((request) => request.method === 'POST' && request.path === '/api/v3/Submission').length;
}

const actions = (output: Array<{ json: IDataObject }>) =>
	output.map((item) => (item.json._trio as IDataObject | undefined)?.action ?? item.json.error);

const submitWithCheckOff = async (pair: { job: number; candidate: number }) =>
	await t.run(
		{ ...SUBMIT_PAIRS, options: { skipIfAlreadySubmitted: false } },
		{ input: [pair], inputBinary: [PDF_FILE], settings: RETRY_ON_FAIL, workflowId },
	);

describe('an unknown outcome holds on every worker and after a restart', () => {
	it.each([500, 502, 503, 504])(
		'a %i after Trio stored it, duplicate check off: the retry, another worker and a restarted n8n all refuse it',
		async (status) => {
			const [pair] = freshPairs(1);
			t.sandbox.setFaults({
				endpoints: { 'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: status } },
			});
			const first = await submitWithCheckOff(pair);
			forgetProcessMemory();
			const otherWorker = await submitWithCheckOff(pair);
			forgetProcessMemory();
			const afterRestart = await submitWithCheckOff(pair);

			expect(stored(pair.job, pair.candidate)).toBe(1);
			expect(posts()).toBe(1);
			for (const run of [first, otherWorker, afterRestart]) {
				expect(errorText(run.error).message).toContain(
					`Not sent: the same submission of candidate ${pair.candidate} to job ${pair.job} failed`,
				);
				expect(errorText(run.error).description).toContain(
					"kept in n8n's database, so the refusal holds on every worker and after a restart",
				);
			}
		},
	);

	it('a 500 with the duplicate check on, while the list does not show it yet: unknown, never "safe", not sent again', async () => {
		const [pair] = freshPairs(1);
		t.sandbox.setFaults({
			endpoints: {
				'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: 500 },
				// The list lags behind the create: its reads fail, as a list Trio does not offer.
				'GET /api/v3/Submission': { failAfter: 1, failStatus: 404 },
			},
		});
		const first = await submitPairs(t, [pair], { workflowId });
		expect(errorText(first.error).message).toContain('Trio VMS answered 500');
		expect(errorText(first.error).description).toMatch(/unknown/);
		expect(errorText(first.error).description).not.toMatch(/safe to run/);
		expect(errorText(first.error).description).toMatch(/refuses to send the same submission/);

		t.sandbox.clearFaults();
		forgetProcessMemory();
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Submission': { failNext: 1, failStatus: 404 } },
		});
		await submitWithCheckOff(pair);
		expect(stored(pair.job, pair.candidate)).toBe(1);
		expect(posts()).toBe(1);
	});

	it('once the record is found, it counts as submitted by this workflow and the hold ends', async () => {
		const [pair] = freshPairs(1);
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: 504 } },
		});
		const first = await submitPairs(t, [pair], { workflowId });
		expect(actions(first.output)).toEqual(['createdDespiteError']);
		forgetProcessMemory();
		// The list is not offered now: this workflow's memory answers.
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Submission': { failNext: 5, failStatus: 404 } },
		});
		const again = await submitPairs(t, [pair], { workflowId });
		expect(again.error).toBeUndefined();
		expect(again.output[0].json).toMatchObject({
			JobNumber: pair.job,
			CandidateNumber: pair.candidate,
			_trio: { action: 'alreadySubmitted', submittedByThisWorkflow: true },
		});
		expect(stored(pair.job, pair.candidate)).toBe(1);
		expect(posts()).toBe(1);
	});
});

describe("Skip If Already Submitted answers from the workflow's memory", () => {
	it('a sheet run twice, on two workers, while the list is not offered: each row submitted once', async () => {
		const pairs = freshPairs(4);
		// First run: the list is read, nothing is there, every row is submitted.
		const first = await submitPairs(t, pairs, { workflowId });
		expect(actions(first.output)).toEqual(['created', 'created', 'created', 'created']);

		forgetProcessMemory();
		t.clearRequests();
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Submission': { failNext: 5, failStatus: 404 } },
		});
		const second = await submitPairs(t, pairs, { workflowId });
		expect(second.error).toBeUndefined();
		expect(actions(second.output)).toEqual([
			'alreadySubmitted',
			'alreadySubmitted',
			'alreadySubmitted',
			'alreadySubmitted',
		]);
		expect(posts()).toBe(0);
		for (const pair of pairs) expect(stored(pair.job, pair.candidate)).toBe(1);
	});

	it("another workflow's submissions are not in this workflow's memory: the list decides", async () => {
		const [pair] = freshPairs(1);
		await submitPairs(t, [pair], { workflowId });
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Submission': { failNext: 1, failStatus: 404 } },
		});
		const other = await submitPairs(t, [pair], { workflowId: `${workflowId}-other` });
		expect(errorText(other.error).message).toContain('Could not check whether candidate');
		expect(stored(pair.job, pair.candidate)).toBe(1);
	});
});

describe("without n8n's duplicate store (older n8n, or none started)", () => {
	it("falls back to this process's memory, and says a re-run elsewhere is not held back", async () => {
		useProcessedDataStorage(undefined);
		const [pair] = freshPairs(1);
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: 504 } },
		});
		const first = await submitWithCheckOff(pair);
		expect(posts()).toBe(1);
		expect(errorText(first.error).message).toContain('Not sent: the same submission');
		expect(errorText(first.error).description).toContain(
			'only this n8n process remembers it: a re-run on another worker or after a restart is not held back',
		);
		expect(stored(pair.job, pair.candidate)).toBe(1);
	});

	it('a store that fails (not merely absent) stops the create: nothing is sent', async () => {
		const [pair] = freshPairs(1);
		// A row of this workflow written in another mode, as a Remove Duplicates node could leave.
		storage.rows.set(`${workflowId}\n`, { mode: 'latestIncrementalKey', entries: [] });
		const run = await submitWithCheckOff(pair);
		expect(errorText(run.error).message).toContain(
			"Not sent: this workflow's memory of what it sent could not be read",
		);
		expect(posts()).toBe(0);
	});
});
