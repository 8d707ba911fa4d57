import { TRIO_EVENT_NAMES } from '../../nodes/shared/events';
import { problemDetailsSchema } from '../../nodes/shared/serviceMessage';
import { jobSchema, submissionSchema, webhookRegistrationSchema } from '../../nodes/shared/schemas';
import { candidateSchema } from '../support/service-shapes';
import { STANDARD_WITHDRAW_REASONS } from '../../sandbox/service-rules';
import type { RunningSandbox } from '../../sandbox';
import { api, scenario, start } from './helpers';
import type { Json } from './helpers';

let sandbox: RunningSandbox;

beforeAll(async () => {
	sandbox = await start();
});

afterAll(async () => {
	await sandbox.stop();
});

function expectProblem(body: unknown, status: number): void {
	expect(problemDetailsSchema.safeParse(body).success).toBe(true);
	expect(body).toMatchObject({ status, title: expect.any(String), type: expect.any(String) });
}

describe('authentication', () => {
	test('a missing X-API-KEY is 403 problem details', async () => {
		const result = await api(sandbox, '/Job', { key: null });
		expect(result.status).toBe(403);
		expect(result.headers.get('content-type')).toContain('application/problem+json');
		expectProblem(result.body, 403);
		expect(result.body.detail).toMatch(/X-API-KEY/);
	});

	test('an unknown key is 403', async () => {
		const result = await api(sandbox, '/Job', { key: 'not-a-key' });
		expect(result.status).toBe(403);
		expect(result.body.detail).toMatch(/not valid/);
	});

	test('a revoked key is answered as an unknown one until taken back; the other key still works', async () => {
		sandbox.revokeKey(sandbox.adminKey);
		try {
			const refused = await api(sandbox, '/Job', { key: sandbox.adminKey });
			expect(refused.status).toBe(403);
			expect(refused.body.detail).toMatch(/revoked/);
			expect((await api(sandbox, '/Job', { key: sandbox.key })).status).toBe(200);
		} finally {
			sandbox.revokeKey(sandbox.adminKey, false);
		}
		expect((await api(sandbox, '/Job', { key: sandbox.adminKey })).status).toBe(200);
		expect(() => sandbox.revokeKey('not-a-key')).toThrow(/not one of the sandbox keys/);
	});

	test.each([
		['GET', '/Webhooks'],
		['GET', '/Webhooks/Events'],
		['POST', '/Webhooks'],
	])('%s %s with the plain key is 403 naming the admin permission', async (method, path) => {
		const result = await api(sandbox, path, {
			method,
			key: sandbox.key,
			json:
				method === 'POST'
					? { Name: 'x', Url: 'https://example.com/h', Events: ['Job Update'], IsActive: true }
					: undefined,
		});
		expect(result.status).toBe(403);
		expect(result.body.detail).toMatch(/administrator permission/);
	});

	test('the plain key reads jobs; the admin key manages webhooks', async () => {
		expect((await api(sandbox, '/Job', { key: sandbox.key })).status).toBe(200);
		expect((await api(sandbox, '/Webhooks', { key: sandbox.adminKey })).status).toBe(200);
	});
});

describe('routing and errors', () => {
	test('an unknown route is 404', async () => {
		const result = await api(sandbox, '/Nope');
		expect(result.status).toBe(404);
		expectProblem(result.body, 404);
	});

	test('paths are case-sensitive as the spec writes them', async () => {
		expect((await api(sandbox, '/job')).status).toBe(404);
		expect((await api(sandbox, '/Candidates?email=a@b.co')).status).toBe(404);
		expect((await api(sandbox, '/candidates?email=a@b.co')).status).toBe(200);
	});

	test('nothing is served outside the API prefix', async () => {
		const response = await fetch(`${sandbox.url}/Job`, {
			headers: { 'X-API-KEY': sandbox.adminKey },
		});
		expect(response.status).toBe(404);
		await response.text();
	});

	test('a doubled slash (base URL ending in /) is a 404 that shows the path received', async () => {
		const response = await fetch(`${sandbox.url}//api/v3/Job`, {
			headers: { 'X-API-KEY': sandbox.adminKey },
		});
		expect(response.status).toBe(404);
		expect(((await response.json()) as Json).detail).toContain('GET //api/v3/Job');
	});

	test('a known path with another method is 405 with Allow', async () => {
		const result = await api(sandbox, '/Job', { method: 'DELETE' });
		expect(result.status).toBe(405);
		expect(result.headers.get('allow')).toBe('GET');
	});

	test('an unexpected exception is a 500 problem details, and the server keeps serving', async () => {
		sandbox.setFaults({ endpoints: { 'GET /api/v3/Job/{number}': { throwNext: 1 } } });
		const result = await api(sandbox, '/Job/100001');
		expect(result.status).toBe(500);
		expectProblem(result.body, 500);
		expect(sandbox.internalErrors.map((e) => e.message)).toContain(
			'forced internal error (fault throwNext)',
		);
		expect((await api(sandbox, '/Job/100001')).status).toBe(200);
		sandbox.clearFaults();
	});
});

describe('jobs', () => {
	test('GET /Job returns Open and OnHold jobs with NumberOfCurrentOpenPositions, in the job shape', async () => {
		const result = await api(sandbox, '/Job');
		expect(result.status).toBe(200);
		const statuses = new Set(result.body.map((job: Json) => job.JobStatus));
		expect([...statuses].sort()).toEqual(['OnHold', 'Open']);
		const closed = [...sandbox.store.jobs.values()].filter(
			(r) => r.job.JobStatus === 'Closed',
		).length;
		expect(result.body).toHaveLength(sandbox.store.jobs.size - closed);
		for (const job of result.body) {
			expect(jobSchema.safeParse(job).success).toBe(true);
			expect(Number.isInteger(job.NumberOfCurrentOpenPositions)).toBe(true);
		}
	});

	test('GET /Job/{number} returns a job in Json state, without the list-only count', async () => {
		const closed = [...sandbox.store.jobs.values()].find((r) => r.job.JobStatus === 'Closed')!;
		const result = await api(sandbox, `/Job/${closed.job.Number}`, { key: sandbox.key });
		expect(result.status).toBe(200);
		expect(result.body.JobStatus).toBe('Closed');
		expect(jobSchema.strict().safeParse(result.body).success).toBe(true);
		expect(result.body).not.toHaveProperty('NumberOfCurrentOpenPositions');
	});

	test('an unknown job is 404 naming it; a non-integer number is 400', async () => {
		const missing = await api(sandbox, '/Job/999999');
		expect(missing.status).toBe(404);
		expect(missing.body.detail).toMatch(/Job 999999/);
		const bad = await api(sandbox, '/Job/abc');
		expect(bad.status).toBe(400);
		expect(Object.keys(bad.body.errors)).toEqual(['number']);
		expect((await api(sandbox, '/Job/1.5')).status).toBe(400);
	});

	describe('modifiedDate', () => {
		test('returns only jobs modified strictly after the instant', async () => {
			const created = (await scenario(sandbox, 'POST', '/jobs', { Title: 'Sync probe' })).body;
			const at = created.ModifiedDateUtc as string;
			const exact = await api(sandbox, `/Job?modifiedDate=${encodeURIComponent(at)}`);
			expect(exact.body.map((j: Json) => j.Number)).not.toContain(created.Number);
			const before = new Date(Date.parse(at) - 1).toISOString();
			const earlier = await api(sandbox, `/Job?modifiedDate=${encodeURIComponent(before)}`);
			expect(earlier.body.map((j: Json) => j.Number)).toContain(created.Number);
		});

		test('a plain date means midnight UTC; a date-time without offset is UTC', async () => {
			const all = (await api(sandbox, '/Job')).body as Json[];
			const expected = all
				.filter((j) => Date.parse(j.ModifiedDateUtc) > Date.parse('2026-02-20T00:00:00Z'))
				.map((j) => j.Number);
			expect(expected.length).toBeGreaterThan(0);
			expect(expected.length).toBeLessThan(all.length);
			for (const value of [
				'2026-02-20',
				'2026-02-20T00:00:00Z',
				'2026-02-20T00:00:00',
				'2026-02-20T01:00:00+01:00',
			]) {
				const result = await api(sandbox, `/Job?modifiedDate=${encodeURIComponent(value)}`);
				expect(result.status).toBe(200);
				expect(result.body.map((j: Json) => j.Number)).toEqual(expected);
			}
		});

		test('an unparseable modifiedDate is 400 naming it', async () => {
			for (const value of ['yesterday', '2026-02-30', '2026-13-01T00:00:00Z']) {
				const result = await api(sandbox, `/Job?modifiedDate=${encodeURIComponent(value)}`);
				expect(result.status).toBe(400);
				expect(Object.keys(result.body.errors)).toEqual(['modifiedDate']);
			}
		});

		test('a change of NumberOfCurrentOpenPositions moves nothing and is current only without the filter', async () => {
			const job = (
				await scenario(sandbox, 'POST', '/jobs', { NumberOfPositions: 4, NumberOfOpenPositions: 3 })
			).body;
			const watermark = job.ModifiedDateUtc;
			const changed = await scenario(sandbox, 'POST', `/jobs/${job.Number}/open-positions`, {
				count: 1,
			});
			expect(changed.status).toBe(200);
			expect(changed.body.NumberOfCurrentOpenPositions).toBe(1);
			const single = (await api(sandbox, `/Job/${job.Number}`)).body;
			expect(single.ModifiedDateUtc).toBe(watermark);
			const since = await api(sandbox, `/Job?modifiedDate=${encodeURIComponent(watermark)}`);
			expect(since.body.map((j: Json) => j.Number)).not.toContain(job.Number);
			const full = (await api(sandbox, '/Job')).body.find((j: Json) => j.Number === job.Number);
			expect(full.NumberOfCurrentOpenPositions).toBe(1);
			expect((await scenario(sandbox, 'GET', `/jobs/${job.Number}`)).body).toEqual(full);
			expect(
				(await scenario(sandbox, 'POST', `/jobs/${job.Number}/open-positions`, { count: 9 }))
					.status,
			).toBe(400);
		});
	});
});

describe('candidates', () => {
	test('lookup by e-mail ignores case and answers [] when none match', async () => {
		const seeded = [...sandbox.store.candidates.values()][0];
		const result = await api(
			sandbox,
			`/candidates?email=${encodeURIComponent(seeded.email1.toUpperCase())}`,
			{ key: sandbox.key },
		);
		expect(result.status).toBe(200);
		expect(result.body.map((c: Json) => c.number)).toEqual([seeded.number]);
		for (const candidate of result.body)
			expect(candidateSchema.safeParse(candidate).success).toBe(true);
		expect((await api(sandbox, '/candidates?email=nobody%40example.com')).body).toEqual([]);
	});

	test('lookup without an e-mail is 400 naming it', async () => {
		const result = await api(sandbox, '/candidates');
		expect(result.status).toBe(400);
		expect(Object.keys(result.body.errors)).toEqual(['email']);
	});

	test('create answers the candidate with its number; a duplicate e-mail is allowed', async () => {
		const input = {
			firstName: 'Ada',
			lastName: 'Okoye',
			email1: 'ada.okoye@agency.example.com',
			phone1: '(214) 555-0100',
			isNicotineFree: true,
			isAlcoholFree: true,
			stateLicenses: [{ state: 'TX', isCompact: true, expirationDate: '2027-05-31' }],
		};
		const first = await api(sandbox, '/candidates', { json: input, key: sandbox.key });
		expect(first.status).toBe(200);
		expect(first.body).toEqual({ number: expect.any(Number), ...input });
		const second = await api(sandbox, '/candidates', {
			json: { firstName: 'Ada', lastName: 'O.', email1: 'ADA.OKOYE@agency.example.com' },
		});
		expect(second.status).toBe(200);
		expect(second.body).toMatchObject({ phone1: null, isNicotineFree: null, stateLicenses: [] });
		const found = await api(sandbox, '/candidates?email=ada.okoye%40agency.example.com');
		expect(found.body.map((c: Json) => c.number)).toEqual([first.body.number, second.body.number]);
	});

	test.each([
		[{ lastName: 'X', email1: 'x@y.co' }, 'firstName'],
		[{ firstName: 'X', lastName: 'Y', email1: 'not-an-email' }, 'email1'],
		[
			{ firstName: 'X', lastName: 'Y', email1: 'x@y.co', stateLicenses: [{ state: 'XX' }] },
			'stateLicenses[0].state',
		],
		[
			{
				firstName: 'X',
				lastName: 'Y',
				email1: 'x@y.co',
				stateLicenses: [{ state: 'TX', expirationDate: '05/31/2027' }],
			},
			'stateLicenses[0].expirationDate',
		],
		[{ firstName: 'X', lastName: 'Y', email1: 'x@y.co', isNicotineFree: 'yes' }, 'isNicotineFree'],
		[[], '$'],
	])('an invalid body is 400 naming the field (%j)', async (body, field) => {
		const before = sandbox.store.candidates.size;
		const result = await api(sandbox, '/candidates', { json: body });
		expect(result.status).toBe(400);
		expectProblem(result.body, 400);
		expect(Object.keys(result.body.errors)).toEqual([field]);
		expect(result.body.errors[field][0]).toContain(field === '$' ? '' : field);
		expect(sandbox.store.candidates.size).toBe(before);
	});

	test('malformed JSON is 400; a non-JSON body is 415; an empty body is 400', async () => {
		const malformed = await api(sandbox, '/candidates', { json: '{"firstName":' });
		expect(malformed.status).toBe(400);
		expect(Object.keys(malformed.body.errors)).toEqual(['$']);
		const text = await api(sandbox, '/candidates', {
			method: 'POST',
			body: 'firstName=X',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		});
		expect(text.status).toBe(415);
		const empty = await api(sandbox, '/candidates', {
			method: 'POST',
			body: '',
			headers: { 'Content-Type': 'application/json' },
		});
		expect(empty.status).toBe(400);
	});
});

describe('submissions: list, read, reasons', () => {
	test('GET /Submission lists every submission in shape 2.2; modifiedDate filters strictly after', async () => {
		const all = await api(sandbox, '/Submission');
		expect(all.status).toBe(200);
		expect(all.body.length).toBeGreaterThanOrEqual(40);
		for (const s of all.body) expect(submissionSchema.strict().safeParse(s).success).toBe(true);
		const newest = all.body.reduce((a: Json, b: Json) =>
			Date.parse(a.ModifiedDateUTC) > Date.parse(b.ModifiedDateUTC) ? a : b,
		);
		expect(
			(await api(sandbox, `/Submission?modifiedDate=${encodeURIComponent(newest.ModifiedDateUTC)}`))
				.body,
		).toEqual([]);
		expect((await api(sandbox, '/Submission?modifiedDate=nope')).status).toBe(400);
	});

	test('GET /Submission/{number} reads one; unknown is 404, non-integer 400', async () => {
		const one = await api(sandbox, '/Submission/90001');
		expect(one.status).toBe(200);
		expect(one.body.Number).toBe(90001);
		expect((await api(sandbox, '/Submission/1')).status).toBe(404);
		expect((await api(sandbox, '/Submission/x1')).status).toBe(400);
	});

	test('GET /Submission/WithdrawReasons is an array of strings covering the fallback list', async () => {
		const result = await api(sandbox, '/Submission/WithdrawReasons', { key: sandbox.key });
		expect(result.status).toBe(200);
		expect(result.body.every((r: unknown) => typeof r === 'string')).toBe(true);
		for (const reason of STANDARD_WITHDRAW_REASONS) expect(result.body).toContain(reason);
		expect(result.body).toContain('Candidate accepted a counter-offer');
	});
});

describe('webhook registrations', () => {
	const registration = {
		Name: 'n8n Job Update',
		Url: 'https://n8n.example.com/webhook/abc?event=Job%20Update&token=s3cret',
		Events: ['Job Update'],
		IsActive: true,
	};

	test('POST without Id creates, with Id updates, GET lists active and inactive', async () => {
		const created = await api(sandbox, '/Webhooks', { json: registration });
		expect(created.status).toBe(200);
		expect(created.body).toEqual({ Id: expect.any(String), ...registration });
		const updated = await api(sandbox, '/Webhooks', {
			json: {
				...registration,
				Id: created.body.Id,
				IsActive: false,
				Events: ['Job Update', 'Submission Update'],
			},
		});
		expect(updated.status).toBe(200);
		expect(updated.body).toMatchObject({
			Id: created.body.Id,
			IsActive: false,
			Events: ['Job Update', 'Submission Update'],
		});
		const other = await api(sandbox, '/Webhooks', { json: { ...registration, Name: 'second' } });
		const list = await api(sandbox, '/Webhooks');
		expect(list.status).toBe(200);
		for (const item of list.body) {
			expect(webhookRegistrationSchema.safeParse(item).success).toBe(true);
			expect(Object.keys(item).sort()).toEqual(['Events', 'Id', 'IsActive', 'Name', 'Url']);
		}
		const byId = new Map(list.body.map((r: Json) => [r.Id, r]));
		expect(byId.get(created.body.Id)).toMatchObject({ IsActive: false });
		expect(byId.get(other.body.Id)).toMatchObject({ IsActive: true, Url: registration.Url });
	});

	test('updating an unknown Id is 404', async () => {
		const result = await api(sandbox, '/Webhooks', { json: { ...registration, Id: 'no-such-id' } });
		expect(result.status).toBe(404);
		expect(result.body.detail).toMatch(/no-such-id/);
	});

	test('events are checked against the event list', async () => {
		const result = await api(sandbox, '/Webhooks', {
			json: { ...registration, Events: ['Job Update', 'Job Created'] },
		});
		expect(result.status).toBe(400);
		expect(Object.keys(result.body.errors)).toEqual(['Events[1]']);
		expect(
			(await api(sandbox, '/Webhooks', { json: { ...registration, Events: [] } })).status,
		).toBe(400);
	});

	test.each([
		['http://n8n.example.com/hook', 400],
		['ftp://n8n.example.com/hook', 400],
		['/relative/hook', 400],
		['http://127.0.0.1:5678/webhook/x', 200],
		['http://localhost:5678/webhook/x', 200],
	])('Url %s is %i', async (url, status) => {
		const result = await api(sandbox, '/Webhooks', { json: { ...registration, Url: url } });
		expect(result.status).toBe(status);
		if (status === 400) expect(Object.keys(result.body.errors)).toEqual(['Url']);
	});

	test('missing fields are 400 naming them', async () => {
		const result = await api(sandbox, '/Webhooks', { json: { Url: registration.Url } });
		expect(result.status).toBe(400);
		expect(Object.keys(result.body.errors).sort()).toEqual(['Events', 'IsActive', 'Name']);
	});

	test('GET /Webhooks/Events returns the 15 event names', async () => {
		const result = await api(sandbox, '/Webhooks/Events');
		expect(result.status).toBe(200);
		expect(result.body).toEqual([...TRIO_EVENT_NAMES]);
	});
});

describe('scenario index', () => {
	test('GET /_sandbox summarises the state and lists every route', async () => {
		const summary = await scenario(sandbox, 'GET', '');
		expect(summary.status).toBe(200);
		expect(summary.body).toMatchObject({
			url: sandbox.url,
			api: sandbox.apiUrl,
			seed: 1,
			candidates: expect.any(Number),
		});
		expect(summary.body.routes).toEqual(
			expect.arrayContaining(['GET /api/v3/Job', 'POST /_sandbox/per-diem/shifts/{id}/note']),
		);
		expect((await scenario(sandbox, 'GET', '/nope')).status).toBe(404);
	});
});

describe('request log', () => {
	test('records method, path, query, status and key kind, never the key value', async () => {
		await scenario(sandbox, 'DELETE', '/requests');
		await api(sandbox, '/Job?modifiedDate=2026-01-01', { key: sandbox.key });
		await api(sandbox, '/Job', { key: 'wrong-key-value' });
		const log = await scenario(sandbox, 'GET', '/requests');
		expect(log.body).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: '/api/v3/Job',
				query: { modifiedDate: '2026-01-01' },
				status: 200,
				key: 'agency',
				route: 'GET /api/v3/Job',
				time: expect.any(String),
			}),
			expect.objectContaining({
				method: 'GET',
				path: '/api/v3/Job',
				query: {},
				status: 403,
				key: 'invalid',
			}),
		]);
		expect(log.text).not.toContain(sandbox.key);
		expect(log.text).not.toContain('wrong-key-value');
		expect(
			(await scenario(sandbox, 'GET', '/requests?status=200&path=/api/v3/Job')).body,
		).toHaveLength(2);
		expect((await scenario(sandbox, 'DELETE', '/requests')).status).toBe(204);
		expect((await scenario(sandbox, 'GET', '/requests')).body).toEqual([]);
	});
});
