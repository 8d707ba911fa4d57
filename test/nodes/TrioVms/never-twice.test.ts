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
	onWorker,
	ProcessedDataStorage,
	useProcessedDataStorage,
} from '../../../harness/engine/engine';
import { waitUntil } from '../../../harness/wait';
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
					`Not sent: this node holds a create of the same submission of candidate ${pair.candidate} to job ${pair.job} since`,
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
		expect(errorText(first.error).message).toMatch(/^Trio VMS failed \(its error, not yours\)/);
		expect(errorText(first.error).httpCode).toBe('500');
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
		expect(actions(first.output)).toEqual(['created despite an error']);
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
				action: 'already submitted',
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
		for (const run of burst) {
			expect(errorText(run.error).message).toMatch(/^Trio VMS failed \(its error, not yours\)/);
			expect(errorText(run.error).httpCode).toBe('502');
		}
		forgetProcessMemory();
		const again = await Promise.all(pairs.map(once));
		for (const run of again)
			expect(errorText(run.error).message).toContain(
				'Not sent: this node holds a create of the same submission',
			);
		for (const pair of pairs) expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
	});
});

describe("held creates and Trio's clock", () => {
	// Trio's (or a gateway's) Date header is wrong: an hour ahead, or 1970 (the epoch).
	it.each([
		['an hour ahead', 3_600_000],
		['1970', -Date.now()],
	])(
		'a create Trio stored before a 502 dated %s, then a restart, then the same row behind another: stored once',
		async (_clock, dateOffsetMs) => {
			const [held, other] = freshPairs(2);
			t.sandbox.setFaults({
				dateOffsetMs,
				endpoints: { 'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: 502 } },
			});
			const first = await t.run(
				{ ...SUBMIT_PAIRS, options: { skipIfAlreadySubmitted: false } },
				{ input: [held], inputBinary: [PDF_FILE], workflowId },
			);
			expect(errorText(first.error).message).toMatch(/^Trio VMS failed \(its error, not yours\)/);
			expect(errorText(first.error).httpCode).toBe('502');
			forgetProcessMemory();
			t.sandbox.setFaults({ dateOffsetMs });
			const again = await t.run(
				{ ...SUBMIT_PAIRS, options: { skipIfAlreadySubmitted: false } },
				{
					input: [other, held],
					inputBinary: [PDF_FILE, PDF_FILE],
					workflowId,
					continueOnFail: true,
				},
			);
			expect((again.output[0].json._trio as IDataObject | undefined)?.action).toBe('created');
			expect(String(again.output[1].json.error)).toContain('Not sent: this node holds a create');
			expect(storedSubmissions(t, held.job, held.candidate)).toBe(1);
		},
	);
});

describe('several workers at once over a database with round trips', () => {
	const WORKERS = 3;
	const ROUNDS = 10;
	const AT_ONCE = 10;

	it('each round: one create Trio stored before a 502 while nine others are refused (400); all arrive again on fresh workers', async () => {
		storage.roundTripMs = [20, 30];
		const heldJobs = t.sandbox.store
			.listJobs()
			.filter((each) => each.JobStatus === 'Open')
			.slice(-ROUNDS)
			.map((each) => each.Number);
		const once = (pair: { job: number; candidate: number }) =>
			t.run(
				{ ...SUBMIT_PAIRS, options: { skipIfAlreadySubmitted: false } },
				{ input: [pair], inputBinary: [PDF_FILE], workflowId, continueOnFail: true },
			);
		const outcome = (run: Awaited<ReturnType<typeof once>>) =>
			(run.output[0].json._trio as IDataObject | undefined)?.action ??
			String(run.output[0].json.error);
		let refusedPairs = 0;
		let blocked = 0;
		let storedTwice = 0;
		for (let round = 0; round < ROUNDS; round++) {
			const job = heldJobs[round];
			const [held] = freshPairs(5).filter((pair) => !heldJobs.includes(pair.job));
			if (!held) throw new Error('no pair outside the held jobs');
			const refused = [...t.sandbox.store.candidates.keys()]
				.filter((candidate) => storedSubmissions(t, job, candidate) === 0)
				.slice(0, AT_ONCE - 1)
				.map((candidate) => ({ job, candidate }));
			expect(refused).toHaveLength(AT_ONCE - 1);
			refusedPairs += refused.length;
			const workers = Array.from({ length: WORKERS }, () => onWorker());
			// Trio refuses every submission to this job for now (as it does while a job is On Hold).
			t.sandbox.store.holdJob(job);
			t.sandbox.setFaults({
				endpoints: { 'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: 502 } },
			});
			const heldRun = workers[0](async () => await once(held));
			await waitUntil(
				'the create Trio stores before its 502',
				() => storedSubmissions(t, held.job, held.candidate) || undefined,
				{ timeoutMs: 30_000, intervalMs: 5 },
			);
			const first = await Promise.all([
				heldRun,
				...refused.map((pair, n) => workers[(n + 1) % WORKERS](async () => await once(pair))),
			]);
			expect(outcome(first[0])).toMatch(/^Trio VMS failed \(its error, not yours\)/);
			expect(first[0].output[0].json.details).toContain('Status: 502 Bad Gateway');
			for (const run of first.slice(1)) expect(outcome(run)).toMatch(/only Open jobs|400/);

			t.sandbox.store.reopenJob(job);
			t.sandbox.clearFaults();
			const fresh = Array.from({ length: WORKERS }, () => onWorker());
			const again = await Promise.all(
				[held, ...refused].map((pair, n) => fresh[n % WORKERS](async () => await once(pair))),
			);
			expect(outcome(again[0])).toContain('Not sent: this node holds a create');
			blocked += again.slice(1).filter((run) => outcome(run) !== 'created').length;
			if (storedSubmissions(t, held.job, held.candidate) > 1) storedTwice++;
		}
		process.stderr.write(
			`[never-twice] ${WORKERS} workers, ${ROUNDS} rounds: refused pairs blocked on their second arrival ${blocked} of ${refusedPairs}; held creates stored twice ${storedTwice} of ${ROUNDS}; row writes ${storage.writes} for ${ROUNDS} holds (${(storage.writes / ROUNDS).toFixed(1)} per hold), calls ${JSON.stringify(storage.calls)}\n`,
		);
		expect(storedTwice).toBe(0);
		expect(blocked).toBe(0);
	}, 300_000);
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
		expect(errorText(first.error).message).toContain(
			'Not sent: this node holds a create of the same submission',
		);
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

	it("a hold n8n's database fails to write: the error says so, and that other workers and restarts will not hold it back", async () => {
		const [pair] = freshPairs(1);
		storage.writeFailure = new Error('could not extend file: No space left on device');
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: 502 } },
		});
		const first = await t.run(
			{ ...SUBMIT_PAIRS, options: { skipIfAlreadySubmitted: false } },
			{ input: [pair], inputBinary: [PDF_FILE], workflowId },
		);
		const { description } = errorText(first.error);
		expect(description).toContain(
			"n8n's database failed while this node wrote its memory of it (could not extend file: No space left on device), so only this n8n remembers it while it runs: other workers and a restart of n8n will not hold it back.",
		);
		expect(description).not.toMatch(/older n8n/);
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
	});

	it("a Remove Duplicates node's workflow row in another mode does not touch the memory", async () => {
		const [pair] = freshPairs(1);
		storage.rows.set(`${workflowId}\n`, { mode: 'latestIncrementalKey', entries: [] });
		const run = await submitWithCheckOff(pair);
		expect(run.error).toBeUndefined();
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(1);
	});
});
