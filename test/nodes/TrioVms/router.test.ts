/**
 * What the router owns: per-item errors for every error status of the spec, Continue On Fail,
 * pairedItem on every output item, one client per execution and its pacing.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../../../harness/engine/engine';

import {
	byNumber,
	errorText,
	SMALLEST_CANDIDATE_CREATE,
	useSandbox,
} from '../../support/sandbox-harness';
import { useVirtualClock } from '../../support/virtual-clock';

const t = useSandbox({ jobs: 10 });

function jobNumbers(): number[] {
	return t.sandbox.store.listJobs().map((job) => job.Number);
}

describe('error statuses of the spec', () => {
	it('400: passes on what the service said about the data', async () => {
		t.sandbox.setFaults({
			endpoints: { 'POST /api/v3/candidates': { failNext: 1, failStatus: 400 } },
		});
		const { error } = await t.run(SMALLEST_CANDIDATE_CREATE);
		expect(errorText(error).message).toMatch(/^Trio VMS refused it: /);
		expect(errorText(error).description).toContain(
			'Trio VMS did not carry it out. Check the values in the node, and in the input data mapped into it, then run the node again.',
		);
		expect(errorText(error).description).toContain(
			'Status: 400 Bad Request\nRequest: POST /candidates',
		);
		expect(errorText(error).httpCode).toBe('400');
	});

	it('403 with a wrong key: says what to do about the key', async () => {
		const { error } = await t.run(
			{ resource: 'job', operation: 'getAll' },
			{ credentials: t.wrongKey },
		);
		expect(errorText(error).message).toMatch(/^Trio VMS refused the API key/);
		expect(errorText(error).description).toContain('Status: 403 Forbidden');
		expect(errorText(error).description).toContain(
			'The API key is wrong, expired or lacks permission',
		);
		expect(JSON.stringify(error)).not.toContain('not-a-real-key');
	});

	it('404: names what was not found', async () => {
		const { error } = await t.run({
			resource: 'submission',
			operation: 'get',
			submissionNumber: 77,
		});
		expect(errorText(error).message).toBe('Trio VMS does not know submission 77');
		expect(errorText(error).description).toContain('No submission 77 was found');
		expect(errorText(error).description).toContain('Status: 404 Not Found');
	});

	it('500: says the service failed', async () => {
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Job/{number}': { failNext: 1, failStatus: 500 } },
		});
		const { error } = await t.run({
			resource: 'job',
			operation: 'get',
			job: byNumber(jobNumbers()[0]),
		});
		expect(errorText(error).message).toMatch(/^Trio VMS failed \(its error, not yours\)/);
		expect(errorText(error).description).toContain('Trio VMS failed or is unavailable');
		expect(errorText(error).description).toContain('Status: 500 Internal Server Error');
		expect(t.apiRequests()).toHaveLength(1);
	});

	it('503 on a read is retried and succeeds', async () => {
		t.sandbox.setFaults({ endpoints: { 'GET /api/v3/Job': { failNext: 1, failStatus: 503 } } });
		const { output, error } = await t.run({ resource: 'job', operation: 'getAll', limit: 1 });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(1);
		expect(t.apiRequests().map((r) => r.status)).toEqual([503, 200]);
	});
});

describe('Continue On Fail', () => {
	it('gives an error item for the failed input and still processes the others', async () => {
		const [a, b] = jobNumbers();
		const { output, error } = await t.run(
			{ resource: 'job', operation: 'get', job: byNumber('={{ $json.job }}') },
			{ input: [{ job: a }, { job: 999 }, { job: 'abc' }, { job: b }], continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(output).toHaveLength(4);
		expect(output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(output[0].json.Number).toBe(a);
		expect(Object.keys(output[1].json).sort()).toEqual(['details', 'error']);
		expect(output[1].json.error).toBe('Trio VMS does not know job 999');
		expect(output[1].json.details).toContain('No job 999 was found');
		expect(output[2].json).toEqual({
			error: '"Job" must be a positive whole number such as 1042, got "abc"',
			details: 'Nothing was sent to Trio VMS for this item.',
		});
		expect(output[3].json.Number).toBe(b);
		// The invalid item sent nothing.
		expect(t.apiRequests()).toHaveLength(3);
	});

	it('with "Continue (using error output)", sends failed items with their row to the error branch', async () => {
		const [a] = jobNumbers();
		const run = await runWorkflow({
			nodes: [
				{
					name: 'Sheet',
					type: 'test.start',
					parameters: {
						items: [
							{ row: 1, job: a },
							{ row: 2, job: 999 },
							{ row: 3, job: 'x' },
						] as unknown as INodeParameters[],
					},
				},
				{
					name: 'Trio',
					type: 'trioVms',
					onError: 'continueErrorOutput',
					parameters: { resource: 'job', operation: 'get', job: byNumber('={{ $json.job }}') },
				},
				{ name: 'Done', type: 'test.collect', parameters: {} },
				{ name: 'Failed', type: 'test.collect', parameters: {} },
			],
			connections: {
				Sheet: { main: [[{ node: 'Trio', type: 'main', index: 0 }]] },
				Trio: {
					main: [
						[{ node: 'Done', type: 'main', index: 0 }],
						[{ node: 'Failed', type: 'main', index: 0 }],
					],
				},
			},
			credentials: { trioVmsApi: t.admin },
		});
		expect(run.error).toBeUndefined();
		expect(run.json('Done').map((json) => json.Number)).toEqual([a]);
		const failed = run.json('Failed');
		expect(failed.map((json) => json.row)).toEqual([2, 3]);
		expect(failed[0].error).toBe('Trio VMS does not know job 999');
		expect(failed[0].details).toContain('Status: 404 Not Found');
		expect(failed[0].details).toContain('No job 999 was found');
		expect(failed[1].error).toContain('"Job" must be a positive whole number');
	});

	it('without it, stops at the failed item and names it', async () => {
		const [a] = jobNumbers();
		const { output, error } = await t.run(
			{ resource: 'job', operation: 'get', job: byNumber('={{ $json.job }}') },
			{ input: [{ job: a }, { job: 999 }, { job: a }] },
		);
		expect(output).toEqual([]);
		expect(errorText(error).itemIndex).toBe(1);
		expect(t.apiRequests()).toHaveLength(2);
	});

	it('pairs every item of a list operation with its input', async () => {
		const { output } = await t.run(
			{ resource: 'job', operation: 'getAll', limit: 2 },
			{ input: [{}, {}] },
		);
		expect(output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
		]);
	});
});

describe('pacing', () => {
	// On the pacer's virtual clock: the pauses are proven exactly, without waiting real time (on
	// wall time this flaked once on a busy machine).
	it('waits Pause Between Calls between the calls of one execution', async () => {
		const [a, b, c] = jobNumbers();
		const clock = useVirtualClock();
		const { error } = await t
			.run(
				{
					resource: 'job',
					operation: 'get',
					job: byNumber('={{ $json.job }}'),
					options: { pauseBetweenCallsMs: 150 },
				},
				{ input: [{ job: a }, { job: b }, { job: c }] },
			)
			.finally(() => clock.restore());
		expect(error).toBeUndefined();
		expect(t.apiRequests().map((request) => request.path)).toEqual(
			[a, b, c].map((number) => `/api/v3/Job/${number}`),
		);
		// The first call at once, then the pause before each of the next two.
		expect(clock.waits).toEqual([150, 150]);
		expect(clock.now() - 1_000_000).toBe(300);
	});
});
