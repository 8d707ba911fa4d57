/**
 * "Never twice" across processes and concurrent executions (issue 27 points 2 and 3, issue 33
 * point 1): Submission Create holds, in n8n's duplicate store (a row of its node), the creates
 * whose outcome is unknown. The engine runs n8n-core's DataDeduplicationService over one storage
 * that stands for n8n's database and, like it, reads a row and writes it back without a lock;
 * `forgetProcessMemory()` between runs is another queue-mode worker, or a restart, which starts
 * without the previous process's memory. Creates are counted at the sandbox.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	forgetProcessMemory,
	ProcessedDataStorage,
	useProcessedDataStorage,
} from '../../../harness/engine/engine';
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

const freshPairs = pairSource(
	t,
	(turn) => turn * 3,
	(turn) => turn * 11 + 5,
);

let storage: ProcessedDataStorage;
let workflows = 0;
let workflowId: string;
beforeEach(() => {
	storage = new ProcessedDataStorage();
	useProcessedDataStorage(storage);
	workflowId = `never-twice-${++workflows}`;
});
afterAll(() => useProcessedDataStorage(new ProcessedDataStorage()));

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

			expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
			expect(submissionPosts(t)).toBe(1);
			for (const run of [first, otherWorker, afterRestart]) {
				expect(errorText(run.error).message).toContain(
					`Not sent: the same submission of candidate ${pair.candidate} to job ${pair.job} failed`,
				);
				expect(errorText(run.error).description).toContain(
					"memory of it in n8n's database, so the refusal holds on every worker and after a restart",
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
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
		expect(submissionPosts(t)).toBe(1);
	});

	it('found after the failure: on another worker, while the list is not offered, the node says it cannot check (never "already submitted" from a memory that may be wrong)', async () => {
		const [pair] = freshPairs(1);
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: 504 } },
		});
		const first = await submitPairs(t, [pair], { workflowId });
		expect(actions(first.output)).toEqual(['createdDespiteError']);
		forgetProcessMemory();
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Submission': { failNext: 5, failStatus: 404 } },
		});
		const again = await submitPairs(t, [pair], { workflowId });
		expect(errorText(again.error).message).toContain('Could not check whether candidate');
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
		expect(submissionPosts(t)).toBe(1);
	});
});

describe('Skip If Already Submitted while the list is not offered', () => {
	it("on the worker that submitted them, a sheet run again is answered from Trio's answers to this workflow", async () => {
		const pairs = freshPairs(4);
		const first = await submitPairs(t, pairs, { workflowId });
		expect(actions(first.output)).toEqual(['created', 'created', 'created', 'created']);

		t.clearRequests();
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Submission': { failRate: 1, failStatus: 404 } },
		});
		const second = await submitPairs(t, pairs, { workflowId });
		expect(second.error).toBeUndefined();
		expect(second.output.map((item) => item.json._trio)).toEqual(
			pairs.map(() => ({
				action: 'alreadySubmitted',
				matchCount: 0,
				submittedByThisWorkflow: true,
			})),
		);
		expect(submissionPosts(t)).toBe(0);
		for (const pair of pairs) expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
	});

	it('on another worker, the node says it cannot check and submits nothing', async () => {
		const pairs = freshPairs(2);
		await submitPairs(t, pairs, { workflowId });
		forgetProcessMemory();
		t.clearRequests();
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Submission': { failRate: 1, failStatus: 404 } },
		});
		const second = await submitPairs(t, pairs, { workflowId, continueOnFail: true });
		for (const item of second.output)
			expect(String(item.json.error)).toContain('Could not check whether candidate');
		expect(submissionPosts(t)).toBe(0);
		for (const pair of pairs) expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
	});

	it("another workflow's submissions are not this workflow's: the list decides", async () => {
		const [pair] = freshPairs(1);
		await submitPairs(t, [pair], { workflowId });
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Submission': { failNext: 1, failStatus: 404 } },
		});
		const other = await submitPairs(t, [pair], { workflowId: `${workflowId}-other` });
		expect(errorText(other.error).message).toContain('Could not check whether candidate');
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
	});
});

describe('Find or Create while the lookup fails', () => {
	const findOrCreate = async (email: string) =>
		await t.run(
			{
				resource: 'candidate',
				operation: 'findOrCreate',
				firstName: 'Dana',
				lastName: 'Reyes',
				email,
			},
			{ workflowId },
		);
	const candidatePosts = () =>
		t
			.apiRequests()
			.filter((request) => request.method === 'POST' && request.path === '/api/v3/candidates')
			.length;

	it("on the worker that created it, the candidate is answered from Trio's answer to this workflow; elsewhere the lookup's failure stops it", async () => {
		const email = `dana.reyes.${workflowId}@agency.example`;
		const first = await findOrCreate(email);
		expect(first.output[0].json._trio).toEqual({ action: 'created', matchCount: 0 });
		t.clearRequests();
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/candidates': { failRate: 1, failStatus: 404 } },
		});
		const again = await findOrCreate(email);
		expect(again.error).toBeUndefined();
		expect(again.output[0].json).toMatchObject({
			number: first.output[0].json.number,
			_trio: { action: 'found', matchCount: 0, createdByThisWorkflow: true },
		});
		forgetProcessMemory();
		const elsewhere = await findOrCreate(email);
		expect(elsewhere.error).toBeDefined();
		expect(candidatePosts()).toBe(0);
	});
});

describe('executions of one workflow at once, over a store that reads and writes separately', () => {
	const BURST = 10;
	const refusedJob = () => {
		const job = t.sandbox.store.listJobs().find((each) => each.JobStatus === 'Open');
		if (!job) throw new Error('no open job');
		return job.Number;
	};

	it('pairs Trio refused in a burst are submitted when they arrive again', async () => {
		const job = refusedJob();
		const candidates = [...t.sandbox.store.candidates.keys()].filter(
			(each) => storedSubmissions(t, job, each) === 0,
		);
		const pairs = candidates.slice(0, BURST).map((candidate) => ({ job, candidate }));
		const good = freshPairs(3 * BURST)
			.filter((pair) => pair.job !== job)
			.slice(0, BURST);
		// Trio refuses every submission to this job for now (as it does while a job is On Hold).
		t.sandbox.store.holdJob(job);
		const burst = await Promise.all(
			pairs.map(
				async (pair, n) =>
					await submitPairs(t, [pair, good[n]], { workflowId, continueOnFail: true }),
			),
		);
		for (const run of burst) {
			expect(String(run.output[0].json.error)).toMatch(/only Open jobs accept submissions|400/);
			expect(run.output[1].json._trio ?? run.output[1].json.error).toMatchObject({
				action: 'created',
			});
		}
		t.sandbox.store.reopenJob(job);
		const again = await Promise.all(
			pairs.map(async (pair) => await submitPairs(t, [pair], { workflowId, continueOnFail: true })),
		);
		const submitted = again.filter(
			(run) => (run.output[0].json._trio as IDataObject | undefined)?.action === 'created',
		).length;
		expect(submitted).toBe(BURST);
		for (const pair of pairs) expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
	});

	it('creates Trio stored before answering 502 in a burst are refused on a fresh worker: stored once', async () => {
		const pairs = freshPairs(BURST);
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { failAfterHandlerNext: BURST, failStatus: 502 } },
		});
		const once = async (pair: { job: number; candidate: number }) =>
			await t.run(
				{ ...SUBMIT_PAIRS, options: { skipIfAlreadySubmitted: false } },
				{ input: [pair], inputBinary: [PDF_FILE], workflowId },
			);
		const burst = await Promise.all(pairs.map(once));
		t.sandbox.clearFaults();
		for (const run of burst) expect(errorText(run.error).message).toContain('502');
		forgetProcessMemory();
		const again = await Promise.all(pairs.map(once));
		for (const run of again)
			expect(errorText(run.error).message).toContain('Not sent: the same submission');
		for (const pair of pairs) expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
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
		expect(submissionPosts(t)).toBe(1);
		expect(errorText(first.error).message).toContain('Not sent: the same submission');
		expect(errorText(first.error).description).toContain(
			'only this n8n remembers it while it runs: a re-run on another worker or after a restart is not held back',
		);
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
	});

	it('a store that fails (not merely absent) stops the create: nothing is sent', async () => {
		const [pair] = freshPairs(1);
		storage.failure = new Error('Connection terminated unexpectedly');
		const run = await submitWithCheckOff(pair);
		expect(errorText(run.error).message).toContain(
			"Not sent: this node's memory of what it sent could not be read (Connection terminated unexpectedly)",
		);
		expect(submissionPosts(t)).toBe(0);
	});

	it("a Remove Duplicates node's workflow row in another mode does not touch the memory", async () => {
		const [pair] = freshPairs(1);
		storage.rows.set(`${workflowId}\n`, { mode: 'latestIncrementalKey', entries: [] });
		const run = await submitWithCheckOff(pair);
		expect(run.error).toBeUndefined();
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
	});
});
