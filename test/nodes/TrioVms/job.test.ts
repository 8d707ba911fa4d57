/** Job: Get and Get Many, run through n8n's engine against the sandbox. */
import { SIMPLIFIED_JOB_FIELDS } from '../../../nodes/shared/jobOutput';
import type {
	INodeParameterResourceLocator,
	INodeParameters,
	NodeExecutionHint,
} from 'n8n-workflow';

import {
	NODE_UNDER_TEST,
	runNode,
	trioCredentials,
	type EngineRun,
} from '../../../harness/engine/engine';
import { ScriptedServer } from '../../support/scripted-server';
import { byNumber, errorText, fromList, useSandbox } from '../../support/sandbox-harness';

const t = useSandbox({ jobs: 40 });

function hintsOf(result: EngineRun): NodeExecutionHint[] {
	return result.run.data.resultData.runData[NODE_UNDER_TEST]?.[0]?.hints ?? [];
}

function openJobs() {
	return t.sandbox.store.listJobs();
}

/** Job: Get of one job, as a locator gives it, with whatever else a test sets. */
function getJob(job: INodeParameterResourceLocator, parameters: INodeParameters = {}) {
	return t.run({ resource: 'job', operation: 'get', job, ...parameters });
}

describe('Job: Get', () => {
	it('reads one job by number, with every field when Output is Raw', async () => {
		const [first] = openJobs();
		const { output, error } = await getJob(byNumber(first.Number), { output: 'raw' });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({
			Number: first.Number,
			Title: first.Title,
			Description: first.Description,
		});
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(t.apiRequests().map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET /api/v3/Job/${first.Number}`,
		]);
	});

	it('outputs the simplified job by default: ten flat fields under the service names', async () => {
		const [first] = openJobs();
		const { output } = await getJob(byNumber(first.Number));
		// A single job has no current open-position count: its open positions stand in, under the
		// name every simplified job uses (issue 34).
		expect(Object.keys(output[0].json)).toEqual([...SIMPLIFIED_JOB_FIELDS]);
		expect(output[0].json.NumberOfCurrentOpenPositions).toBe(first.NumberOfOpenPositions);
		expect(output[0].json).toMatchObject({ Number: first.Number, Title: first.Title });
	});

	it('outputs only the selected fields, always with the job number', async () => {
		const [first] = openJobs();
		const { output } = await getJob(byNumber(first.Number), {
			output: 'fields',
			fields: ['Title', 'City'],
		});
		expect(output[0].json).toEqual({ Number: first.Number, Title: first.Title, City: first.City });
	});

	it('takes the job picked from the list', async () => {
		const [, second] = openJobs();
		const { output } = await getJob(fromList(second.Number));
		expect(output[0].json.Number).toBe(second.Number);
	});

	it('resolves expressions per item', async () => {
		const [a, b] = openJobs();
		const { output } = await t.run(
			{ resource: 'job', operation: 'get', job: byNumber('={{ $json.jobNumber }}') },
			{ input: [{ jobNumber: a.Number }, { jobNumber: String(b.Number) }] },
		);
		expect(output.map((item) => [item.json.Number, item.pairedItem])).toEqual([
			[a.Number, { item: 0 }],
			[b.Number, { item: 1 }],
		]);
	});

	it('explains a 404 in the words of the job', async () => {
		const { error } = await t.run({ resource: 'job', operation: 'get', job: byNumber(999) });
		const { message, description, itemIndex, httpCode } = errorText(error);
		expect(message).toBe('Trio VMS does not know job 999');
		// Trio's own words, which say no more than the headline, are in the details.
		expect(description).toContain('Trio VMS said: Job 999 was not found');
		expect(description).toContain('Status: 404 Not Found\nRequest: GET /Job/999');
		expect(description).toContain('No job 999 was found');
		expect(itemIndex).toBe(0);
		expect(httpCode).toBe('404');
	});

	it('stops a typed job number that is not digits through the field validation', async () => {
		await expect(
			t.run({ resource: 'job', operation: 'get', job: byNumber('48-213') }),
		).rejects.toThrow('A job number is made of digits only');
		expect(t.apiRequests()).toHaveLength(0);
	});

	it('stops a typed job number of 0 through the field validation: Trio numbers jobs from 1', async () => {
		await expect(t.run({ resource: 'job', operation: 'get', job: byNumber('0') })).rejects.toThrow(
			'A job number is made of digits only and is 1 or more',
		);
		expect(t.apiRequests()).toHaveLength(0);
	});

	it('refuses a job number from an expression that is not a number, before sending anything', async () => {
		const { error } = await t.run(
			{ resource: 'job', operation: 'get', job: byNumber('={{ $json.jobNumber }}') },
			{ input: [{ jobNumber: '48-213' }] },
		);
		expect(errorText(error).message).toBe(
			'"Job" must be a positive whole number such as 1042, got "48-213"',
		);
		expect(errorText(error).description).toContain('Nothing was sent to Trio VMS');
		expect(errorText(error).itemIndex).toBe(0);
		expect(t.apiRequests()).toHaveLength(0);
	});
});

describe('Job: Get Many', () => {
	it('returns simplified jobs up to the limit by default', async () => {
		const { output, error } = await t.run({ resource: 'job', operation: 'getAll', limit: 5 });
		expect(error).toBeUndefined();
		expect(output).toHaveLength(5);
		expect(output.map((item) => item.json.Number)).toEqual(
			openJobs()
				.slice(0, 5)
				.map((job) => job.Number),
		);
		for (const item of output) {
			expect(Object.keys(item.json)).toEqual([...SIMPLIFIED_JOB_FIELDS]);
			expect(item.pairedItem).toEqual({ item: 0 });
		}
		// No pagination: one request, the limit is applied after the answer.
		expect(t.apiRequests()).toHaveLength(1);
		expect(t.apiRequests()[0].query).toEqual({});
	});

	it('returns every open and on-hold job with Return All, raw when Output is Raw', async () => {
		const { output } = await t.run({
			resource: 'job',
			operation: 'getAll',
			returnAll: true,
			output: 'raw',
		});
		expect(output).toHaveLength(openJobs().length);
		expect(output[0].json).toHaveProperty('Description');
		expect(output[0].json).toHaveProperty('Certifications');
		expect(new Set(output.map((item) => item.json.JobStatus))).toEqual(new Set(['Open', 'OnHold']));
	});

	it('sends Modified After as an ISO 8601 UTC timestamp and returns only later changes', async () => {
		const times = openJobs()
			.map((job) => Date.parse(job.ModifiedDateUtc as string))
			.sort((a, b) => a - b);
		const middle = new Date(times[Math.floor(times.length / 2)]);
		const cutoff = `${middle.toISOString().slice(0, 19)}Z`;
		const { output } = await t.run({
			resource: 'job',
			operation: 'getAll',
			returnAll: true,
			filters: { modifiedAfter: cutoff.replace('Z', '+00:00') },
		});
		expect(t.apiRequests()[0].query).toEqual({ modifiedDate: cutoff });
		const expected = t.sandbox.store.listJobs(new Date(cutoff)).map((job) => job.Number);
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(openJobs().length);
		expect(output.map((item) => item.json.Number)).toEqual(expected);
	});

	it('sends a plain date as midnight UTC', async () => {
		await t.run({ resource: 'job', operation: 'getAll', filters: { modifiedAfter: '2026-03-01' } });
		expect(t.apiRequests()[0].query).toEqual({ modifiedDate: '2026-03-01T00:00:00Z' });
	});

	it('reads Modified After from a date expression such as $now.minus()', async () => {
		const before = Date.now();
		await t.run({
			resource: 'job',
			operation: 'getAll',
			filters: { modifiedAfter: '={{ $now.minus({ days: 1 }) }}' },
		});
		const after = Date.now();
		const sent = t.apiRequests()[0].query.modifiedDate as string;
		expect(sent).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
		// A day before some moment of the run, however long the run took (whole seconds at least).
		expect(Date.parse(sent)).toBeGreaterThanOrEqual(before - 86_400_000 - 1_000);
		expect(Date.parse(sent)).toBeLessThanOrEqual(after - 86_400_000);
	});

	it('refuses an unreadable Modified After before sending anything', async () => {
		const { error } = await t.run({
			resource: 'job',
			operation: 'getAll',
			filters: { modifiedAfter: 'last week' },
		});
		expect(errorText(error).message).toContain(
			'"Modified After" must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
		);
		expect(t.apiRequests()).toHaveLength(0);
	});

	it('filters by status and state after reading the list', async () => {
		const onHold = await t.run({
			resource: 'job',
			operation: 'getAll',
			returnAll: true,
			filters: { jobStatus: 'OnHold' },
		});
		expect(onHold.output.length).toBe(
			openJobs().filter((job) => job.JobStatus === 'OnHold').length,
		);
		expect(onHold.output.every((item) => item.json.JobStatus === 'OnHold')).toBe(true);

		const state = openJobs()[0].StateAbbreviation;
		const inState = await t.run({
			resource: 'job',
			operation: 'getAll',
			returnAll: true,
			filters: { state: state.toLowerCase() },
		});
		expect(inState.output.length).toBe(
			openJobs().filter((job) => job.StateAbbreviation === state).length,
		);

		const bad = await t.run({ resource: 'job', operation: 'getAll', filters: { state: 'Texass' } });
		expect(errorText(bad.error).message).toContain('"State" must be a two-letter US state');
	});

	it('suggests Execute Once when a list ran once per input item', async () => {
		const three = await t.run(
			{ resource: 'job', operation: 'getAll', limit: 1 },
			{ input: [{}, {}, {}] },
		);
		expect(three.output).toHaveLength(3);
		expect(hintsOf(three).map((hint) => hint.message)).toEqual([
			expect.stringContaining('Execute Once'),
		]);
		const once = await t.run({ resource: 'job', operation: 'getAll', limit: 1 });
		expect(hintsOf(once)).toEqual([]);
		const get = await t.run(
			{ resource: 'job', operation: 'get', job: byNumber(openJobs()[0].Number) },
			{ input: [{}, {}] },
		);
		expect(hintsOf(get)).toEqual([]);
	});

	it('reports the current open-position count in the list', async () => {
		const [job] = openJobs();
		await t.scenario('POST', `/jobs/${job.Number}/open-positions`, { count: 0 });
		const { output } = await t.run({ resource: 'job', operation: 'getAll', limit: 1 });
		expect(output[0].json.NumberOfCurrentOpenPositions).toBe(0);
	});
});

describe('Job: Get Many against an answer in camelCase', () => {
	const server = ScriptedServer.forEachTest();
	const camel = [
		{ number: 1, title: 'ICU RN', jobStatus: 'Open', stateAbbreviation: 'TX' },
		{ number: 2, title: 'ER RN', jobStatus: 'OnHold', stateAbbreviation: 'CA' },
	];

	it('filters by status and state in any letter case instead of silently dropping every job', async () => {
		server.respond({ json: camel }, { json: camel });
		const credentials = trioCredentials(server.baseUrl, 'key');
		const held = await runNode({
			parameters: { resource: 'job', operation: 'getAll', filters: { jobStatus: 'OnHold' } },
			credentials,
		});
		expect(held.output.map((item) => item.json.Number)).toEqual([2]);
		const texas = await runNode({
			parameters: { resource: 'job', operation: 'getAll', filters: { state: 'TX' } },
			credentials,
		});
		expect(texas.output.map((item) => item.json.Title)).toEqual(['ICU RN']);
	});
});
