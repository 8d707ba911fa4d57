/**
 * The counted faults suite (issue #10): the sandbox injects faults (5xx at a share of requests,
 * 429 with Retry-After, latency past the deadline, connections dropped before and after the
 * handler, the service down while the trigger activates and deactivates) and the nodes run
 * through n8n's engine against it. Reads recover; creates are never duplicated (counted at the
 * sandbox); what fails says what happened.
 *
 * Counting: every operation run while faults are set (an input item of the node, a request of
 * the transport probe, an activation or deactivation) is "attempted", and ends either
 * "recovered" (it did its work despite the faults) or "failed clearly" (its error names the
 * status or the broken connection and says whether running it again is safe; each is asserted).
 * "Faults injected" are the requests the sandbox logged with a fault. "Duplicated" counts
 * records stored more than once for one intended create. The line is printed after the suite.
 *
 * Reads go through the node with its built-in retry policy (first retry after 250-500 ms), so
 * the 5xx faults here are few and deterministic; latency past the deadline uses the transport
 * probe, because the node's 60 s timeout is not an option.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunNodeOptions } from '../../../harness/engine/engine';
import { trioCredentials } from '../../../harness/engine/engine';
import { triggerHooks, type TriggerHooks } from '../../../harness/engine/trigger-hooks';
import { waitUntil } from '../../../harness/wait';
import { probe } from '../../support/probe';
import {
	byNumber,
	errorText,
	pairSource,
	PDF_FILE,
	storedSubmissions,
	SUBMIT_PAIRS,
	submitPairs,
	useSandbox,
} from '../../support/sandbox-harness';

const t = useSandbox({ jobs: 40 });

const tally = { faults: 0, attempted: 0, recovered: 0, failedClearly: 0, duplicated: 0 };

/** Counts the sandbox's faulted requests since the last clear (each test starts cleared). */
function countFaults(): void {
	tally.faults += t.sandbox.requests().filter((request) => request.fault).length;
}
afterEach(countFaults);

/** A share-based fault is drawn from the sandbox's seeded PRNG: make sure it drew some. */
function expectFaulted(): void {
	expect(t.sandbox.requests().filter((request) => request.fault).length).toBeGreaterThan(0);
}

function recovered(count = 1): void {
	tally.attempted += count;
	tally.recovered += count;
}
function failedClearly(count = 1): void {
	tally.attempted += count;
	tally.failedClearly += count;
}

afterAll(() => {
	console.log(
		`faults suite: faults injected ${tally.faults}, operations attempted ${tally.attempted}, recovered ${tally.recovered}, failed clearly ${tally.failedClearly}, duplicated ${tally.duplicated}`,
	);
});

function openJobs(): number[] {
	return t.sandbox.store
		.listJobs()
		.filter((job) => job.JobStatus === 'Open')
		.map((job) => job.Number);
}

/** Pairs never submitted, different in every test. */
const freshPairs = pairSource(
	t,
	(turn) => turn * 3 + 1,
	(turn) => turn * 11 + 5,
);

function storedCandidates(email: string): number {
	return [...t.sandbox.store.candidates.values()].filter(
		(candidate) => candidate.email1.toLowerCase() === email.toLowerCase(),
	).length;
}

/** Expects each intended record stored exactly once; a second copy counts as duplicated. */
function expectOnce(counts: number[]): void {
	tally.duplicated += counts.filter((count) => count > 1).length;
	for (const count of counts) expect(count).toBe(1);
}

function getJobs(numbers: number[], options: Partial<RunNodeOptions> = {}) {
	return t.run(
		{ resource: 'job', operation: 'get', job: byNumber('={{ $json.job }}') },
		{ input: numbers.map((job) => ({ job })), ...options },
	);
}

// Issue 27 point 3: the look after any 5xx or broken connection says the outcome is unknown;
// "it is safe to run this item again" is never said any more.
const STILL_WORKING = 'does not show it was not created: Trio may still be working on the request';

/**
 * "No answer in time" for `request`, from either of the transport's two timers: the HTTP
 * library's idle timeout (ECONNABORTED) or the client's own deadline for the headers (ETIMEDOUT).
 * Which fires first depends on how soon the busy machine connects; both are the same outcome.
 */
function noAnswerInTime(request: string): RegExp {
	return new RegExp(`^Trio VMS did not answer ${request} in time \\((ECONNABORTED|ETIMEDOUT)\\)$`);
}

describe('reads recover', () => {
	it('502 and 503 on a share of job reads: every job arrives', async () => {
		const numbers = openJobs().slice(0, 8);
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Job/{number}': { failRate: 0.35, failStatus: [502, 503] } },
		});
		const { output, error } = await getJobs(numbers);
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.Number)).toEqual(numbers);
		expectFaulted();
		recovered(numbers.length);
	});

	it('a 500 on a read is not retried by the transport and says so', async () => {
		const [job] = openJobs();
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Job/{number}': { failNext: 1, failStatus: 500 } },
		});
		const { error } = await getJobs([job]);
		expect(errorText(error).message).toMatch(/^Trio VMS failed \(its error, not yours\)/);
		expect(errorText(error).description).toContain('Trio VMS failed or is unavailable');
		expect(errorText(error).description).toContain('Status: 500 Internal Server Error');
		failedClearly();
	});

	it('429 with Retry-After: the read waits as told and goes through', async () => {
		const numbers = openJobs().slice(0, 2);
		t.sandbox.setFaults({
			endpoints: {
				'GET /api/v3/Job/{number}': {
					rateLimit: { limit: 1, windowMs: 500, retryAfterSeconds: 1 },
				},
			},
		});
		const { output, error } = await getJobs(numbers);
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.Number)).toEqual(numbers);
		expect(t.apiRequests().map((request) => request.status)).toEqual([200, 429, 200]);
		recovered(numbers.length);
	});

	it('a connection dropped before the handler: the read is sent again', async () => {
		const [job] = openJobs();
		t.sandbox.setFaults({ endpoints: { 'GET /api/v3/Job/{number}': { dropNext: 1 } } });
		const { output, error } = await getJobs([job]);
		expect(error).toBeUndefined();
		expect(output[0].json.Number).toBe(job);
		expect(t.apiRequests().map((request) => request.outcome)).toEqual(['dropped', 'answered']);
		recovered();
	});

	it('Find or Create with 502/503 on a share of its lookups: every candidate found, none created', async () => {
		const emails = [...t.sandbox.store.candidates.values()].slice(0, 6).map((c) => c.email1);
		const before = t.sandbox.store.candidates.size;
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/candidates': { failRate: 0.35, failStatus: [502, 503] } },
		});
		const { output, error } = await t.run(
			{
				resource: 'candidate',
				operation: 'findOrCreate',
				firstName: 'Any',
				lastName: 'One',
				email: '={{ $json.email }}',
			},
			{ input: emails.map((email) => ({ email })) },
		);
		expect(error).toBeUndefined();
		expect(output.map((item) => (item.json._trio as IDataObject).action)).toEqual(
			emails.map(() => 'found'),
		);
		expect(t.sandbox.store.candidates.size).toBe(before);
		expectFaulted();
		recovered(emails.length);
	});

	it('latency past the deadline: the read times out, is retried, and says it got no answer in time', async () => {
		t.sandbox.setFaults({ endpoints: { 'GET /api/v3/Job': { latencyMs: 300 } } });
		const { output } = await probe(
			{ method: 'GET', path: '/Job' },
			{
				baseUrl: t.sandbox.url,
				apiKey: t.sandbox.adminKey,
				clientOptions: { timeoutMs: 100, retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 10 } },
				continueOnFail: true,
			},
		);
		expect(String(output[0].json.error)).toMatch(noAnswerInTime('GET /Job'));
		// Both attempts reach the sandbox, which logs them once their latency is over.
		await waitUntil(
			'both attempts in the log',
			() =>
				t.apiRequests().filter((request) => request.path === '/api/v3/Job').length >= 2 ||
				undefined,
			{ timeoutMs: 10_000, intervalMs: 10 },
		);
		expect(t.apiRequests().filter((request) => request.path === '/api/v3/Job').length).toBe(2);
		failedClearly();
	});
});

describe('creates are never duplicated', () => {
	// Issue 27 point 3 changed this test: it expected "safe to run this item again" after a 503 and
	// the re-run to submit the pair. A 5xx to a create leaves its outcome unknown, so the pair is
	// held back for a while and the re-run refuses it rather than risk a second submission.
	it('503 on a submission (before Trio stored it): the error says the outcome is unknown; the re-run refuses that pair', async () => {
		const pairs = freshPairs(2);
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { failAfter: 1, failStatus: 503 } },
		});
		const failed = await submitPairs(t, pairs, {});
		expect(errorText(failed.error).message).toMatch(/^Trio VMS failed \(its error, not yours\)/);
		expect(errorText(failed.error).description).toContain('Status: 503 Service Unavailable');
		expect(errorText(failed.error).description).toContain(STILL_WORKING);
		expect(errorText(failed.error).description).not.toMatch(/safe to run/);
		recovered();
		failedClearly();

		t.sandbox.clearFaults();
		const rerun = await submitPairs(t, pairs, { continueOnFail: true });
		expect(String(rerun.output[1].json.error)).toContain(
			'Not sent: this node holds a create of the same submission',
		);
		expect(storedSubmissions(t, pairs[0].job, pairs[0].candidate)).toBe(1);
		expect(storedSubmissions(t, pairs[1].job, pairs[1].candidate)).toBe(0);
	});

	it('a connection dropped after Trio stored the submission: output as created despite an error, never re-sent', async () => {
		const [pair] = freshPairs(1);
		t.sandbox.setFaults({ endpoints: { 'POST /api/v3/Submission': { dropAfterHandlerNext: 1 } } });
		const { output, error } = await submitPairs(t, [pair], {});
		expect(error).toBeUndefined();
		expect((output[0].json._trio as IDataObject).action).toBe('created despite an error');
		expect(t.apiRequests().filter((request) => request.method === 'POST')).toHaveLength(1);
		expectOnce([storedSubmissions(t, pair.job, pair.candidate)]);
		recovered();
	});

	// Issue 22 point 5 changed this test (it expected "safe to run again"): the node cannot tell a
	// reset before the handler from one after, so it says Trio may still be working on it and
	// refuses the same submission for a while.
	it('a connection dropped before the handler: nothing stored, and the error says the outcome is unknown and the pair is held back', async () => {
		const [pair] = freshPairs(1);
		t.sandbox.setFaults({ endpoints: { 'POST /api/v3/Submission': { dropNext: 1 } } });
		const { error } = await submitPairs(t, [pair], {});
		expect(errorText(error).message).toMatch(/ECONNRESET/);
		expect(errorText(error).description).toContain(STILL_WORKING);
		expect(errorText(error).description).toContain('this node refuses to send the same submission');
		expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(0);
		failedClearly();
	});

	// Issue 22 point 5: reproduced as 504, then two POSTs (the retry saw nothing yet and re-sent).
	it.each([502, 504])(
		'%i after Trio stored the submission, under Retry On Fail with the duplicate check off: stored once, the retry refused',
		async (status) => {
			const [pair] = freshPairs(1);
			t.sandbox.setFaults({
				endpoints: {
					'POST /api/v3/Submission': { failAfterHandlerNext: 1, failStatus: status },
				},
			});
			const { error } = await t.run(
				{ ...SUBMIT_PAIRS, options: { skipIfAlreadySubmitted: false } },
				{
					input: [pair],
					inputBinary: [PDF_FILE],
					settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 1 },
				},
			);
			expectOnce([storedSubmissions(t, pair.job, pair.candidate)]);
			expect(t.apiRequests().filter((request) => request.method === 'POST')).toHaveLength(1);
			expect(errorText(error).message).toContain(
				'Not sent: this node holds a create of the same submission',
			);
			expect(errorText(error).description).toContain('Get Many');
			failedClearly();
		},
	);

	it('429 with Retry-After on a submission: sent again after the wait, stored once', async () => {
		const pairs = freshPairs(2);
		t.sandbox.setFaults({
			endpoints: {
				'POST /api/v3/Submission': { rateLimit: { limit: 1, windowMs: 500, retryAfterSeconds: 1 } },
			},
		});
		const { output, error } = await submitPairs(t, pairs, {});
		expect(error).toBeUndefined();
		expect(output.map((item) => (item.json._trio as IDataObject).action)).toEqual([
			'created',
			'created',
		]);
		expectOnce(pairs.map((pair) => storedSubmissions(t, pair.job, pair.candidate)));
		recovered(pairs.length);
	});

	it('500/502/503 on a share of submissions, under Retry On Fail and continue-on-fail: each pair stored at most once', async () => {
		const pairs = freshPairs(6);
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/Submission': { failRate: 0.35, failStatus: [500, 502, 503] } },
		});
		const { output, error } = await submitPairs(t, pairs, {
			continueOnFail: true,
			settings: { retryOnFail: true, maxTries: 5, waitBetweenTries: 1 },
		});
		expect(error).toBeUndefined();
		expectFaulted();
		expect(output).toHaveLength(pairs.length);
		output.forEach((item, index) => {
			const pair = pairs[index];
			if (item.json.error !== undefined) {
				// Any 5xx leaves the outcome unknown (issue 27 point 3): looked after and not found
				// yet, or the retry refused instead of sent.
				expect(
					String(item.json.details).includes(STILL_WORKING) ||
						String(item.json.error).startsWith(
							'Not sent: this node holds a create of the same submission',
						),
				).toBe(true);
				expect(storedSubmissions(t, pair.job, pair.candidate)).toBe(0);
				failedClearly();
			} else {
				expect(item.json).toMatchObject({ JobNumber: pair.job, CandidateNumber: pair.candidate });
				expectOnce([storedSubmissions(t, pair.job, pair.candidate)]);
				recovered();
			}
		});
	});

	// Was a 502 before issue 22 point 5, which now leaves the address held back (idempotency.test.ts).
	it('a refused candidate create, then a dropped connection after Trio stored one: one candidate per address', async () => {
		const emails = ['fault.one@agency.example', 'fault.two@agency.example'];
		const parameters: INodeParameters = {
			resource: 'candidate',
			operation: 'create',
			firstName: 'Fault',
			lastName: 'Row',
			email: '={{ $json.email }}',
		};
		// A refusal (400), since issue 27 point 3 made a 503 to a create an unknown outcome that
		// holds the address back.
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/candidates': { failNext: 1, failStatus: 400 } },
		});
		const failed = await t.run(parameters, { input: [{ email: emails[0] }] });
		expect(errorText(failed.error).message).toMatch(/^Trio VMS refused it: /);
		expect(errorText(failed.error).description).toContain('Status: 400 Bad Request');
		failedClearly();

		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/candidates': { dropAfterHandlerNext: 1 } },
		});
		const { output, error } = await t.run(parameters, {
			input: emails.map((email) => ({ email })),
		});
		expect(error).toBeUndefined();
		expect(output.map((item) => (item.json._trio as IDataObject).action)).toEqual([
			'created despite an error',
			'created',
		]);
		expectOnce(emails.map(storedCandidates));
		recovered(emails.length);
	});

	it('latency past the deadline on a create: not sent again, and stored at most once', async () => {
		const email = 'late.create@agency.example';
		t.sandbox.setFaults({ endpoints: { 'POST /api/v3/candidates': { latencyMs: 300 } } });
		const { output } = await probe(
			{
				method: 'POST',
				path: '/candidates',
				body: { firstName: 'Late', lastName: 'Create', email1: email },
				idempotent: false,
			},
			{
				baseUrl: t.sandbox.url,
				apiKey: t.sandbox.adminKey,
				clientOptions: { timeoutMs: 100, retry: { baseDelayMs: 5, maxDelayMs: 10 } },
				continueOnFail: true,
			},
		);
		expect(String(output[0].json.error)).toMatch(noAnswerInTime('POST /candidates'));
		expect(String(output[0].json.description)).toContain('It was not sent again');
		// The sandbox never finishes a request whose client left during its latency (it reads the body
		// after the socket closed), so the late store cannot be shown here; what counts is that the
		// client did not send it again (test/transport covers that with a scripted server).
		const stored = storedCandidates(email);
		expect(stored).toBeLessThanOrEqual(1);
		tally.duplicated += stored > 1 ? 1 : 0;
		failedClearly();
	});
});

describe('the service down while the trigger activates and deactivates', () => {
	const events = ['Job Update', 'Submission Update'];
	/** A trigger for `events`, and a reader of the registrations at its address. */
	async function triggerAndOurs() {
		const trigger = triggerHooks({
			parameters: { events },
			credentials: trioCredentials(t.sandbox.url, t.sandbox.adminKey),
			workflowName: 'Faults',
		});
		const url = await trigger.webhookUrl();
		const ours = async () => (await registrations()).filter((r) => r.Url.startsWith(url));
		return { trigger, ours };
	}
	/** The service is back: the faults counted and cleared, the trigger activates again. */
	async function activateOnceBack(trigger: TriggerHooks): Promise<void> {
		countFaults();
		t.sandbox.clearRequests();
		t.sandbox.clearFaults();
		await trigger.activate();
		recovered();
	}
	/** Each event has exactly one of `registrations`. */
	function expectOnePerEvent(registrations: Array<{ Url: string }>): void {
		expectOnce(
			events.map(
				(event) => registrations.filter((r) => r.Url.includes(encodeURIComponent(event))).length,
			),
		);
	}
	async function registrations(): Promise<Array<{ Url: string; IsActive: boolean }>> {
		const response = await fetch(`${t.sandbox.apiUrl}/Webhooks`, {
			headers: { 'X-API-KEY': t.sandbox.adminKey },
		});
		return (await response.json()) as Array<{ Url: string; IsActive: boolean }>;
	}

	it('activation fails clearly while the service is down, and succeeds once without leftovers when it is back', async () => {
		const { trigger, ours } = await triggerAndOurs();
		t.sandbox.setFaults({ endpoints: { '*': { failRate: 1, failStatus: 500 } } });
		await expect(trigger.activate()).rejects.toMatchObject({
			httpCode: '500',
			message: expect.stringMatching(/Trio VMS failed \(its error, not yours\)/),
		});
		failedClearly();
		await activateOnceBack(trigger);
		expectOnePerEvent((await ours()).filter((r) => r.IsActive));
		await trigger.deactivate();
	});

	it('deactivation while the service is down resolves; the next activation reuses what stayed, piling nothing up', async () => {
		const { trigger, ours } = await triggerAndOurs();
		await trigger.activate();
		t.sandbox.clearRequests();

		t.sandbox.setFaults({ endpoints: { '*': { failRate: 1, failStatus: 500 } } });
		// n8n's own clean-up has no guard, so deactivation must not throw: it logs what it could not
		// switch off and forgets the token (test/trigger/lifecycle.test.ts checks both).
		await expect(trigger.deactivate()).resolves.not.toThrow();
		// (503 here costs the transport's backoff on every request: about 8 s; 500 is not retried.)
		failedClearly();
		await activateOnceBack(trigger);
		const all = await ours();
		expect(all.every((registration) => registration.IsActive)).toBe(true);
		expectOnePerEvent(all);
		await trigger.deactivate();
	});
});
