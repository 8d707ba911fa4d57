import { TRIO_EVENT_NAMES, TRIO_EVENTS } from '../../nodes/shared/events';
import type { TrioEventName } from '../../nodes/shared/events';
import type { RunningSandbox } from '../../sandbox';
import { api, Receiver, registerAll, scenario, start, submit } from './helpers';
import type { Json } from './helpers';

let sandbox: RunningSandbox;
let receiver: Receiver;
let registrations: Record<string, string>;

beforeAll(async () => {
	sandbox = await start();
	receiver = new Receiver();
	await receiver.start();
	registrations = await registerAll(sandbox, receiver.url, TRIO_EVENT_NAMES);
});

afterAll(async () => {
	await sandbox.stop();
	await receiver.stop();
});

beforeEach(async () => {
	await sandbox.idle();
	receiver.clear();
	sandbox.clearDeliveries();
	sandbox.clearFaults();
	receiver.status = 200;
	receiver.delayMs = 0;
});

/** Lets earlier deliveries land before the receiver forgets them. */
async function settle(): Promise<void> {
	await sandbox.idle();
	receiver.clear();
}

/** Waits for deliveries, checks every body against its event schema, returns the bodies per event. */
async function delivered(): Promise<Map<string, Json[]>> {
	await sandbox.idle();
	const byEvent = new Map<string, Json[]>();
	for (const received of receiver.received) {
		const url = new URL(received.url, 'http://x');
		const event = url.searchParams.get('event') as TrioEventName;
		expect(received.method).toBe('POST');
		expect(url.pathname).toBe('/hook');
		expect(url.searchParams.get('token')).toBe('t0k/en');
		expect(received.headers['content-type']).toMatch(/^application\/json/);
		const checked = TRIO_EVENTS[event].payload.safeParse(received.body);
		if (!checked.success)
			throw new Error(`${event} payload does not match its schema: ${checked.error.message}`);
		// Job and submission payloads carry no Action; every other payload carries the event name.
		if ('Action' in TRIO_EVENTS[event].payload.shape) expect(received.body.Action).toBe(event);
		else expect(received.body).not.toHaveProperty('Action');
		byEvent.set(event, [...(byEvent.get(event) ?? []), received.body]);
	}
	return byEvent;
}

function only(byEvent: Map<string, Json[]>, event: TrioEventName, count = 1): Json[] {
	expect([...byEvent.keys()]).toEqual([event]);
	expect(byEvent.get(event)).toHaveLength(count);
	return byEvent.get(event)!;
}

describe('Job Update', () => {
	test('fires when a job is opened, updated while Open, closed, reopened; not on hold or count changes', async () => {
		const opened = await scenario(sandbox, 'POST', '/jobs', {
			Title: 'Travel RN - ICU (Nights)',
			City: 'Austin',
		});
		expect(opened.status).toBe(200);
		const number = opened.body.Number;
		const [openPayload] = only(await delivered(), 'Job Update');
		expect(openPayload).toEqual((await api(sandbox, `/Job/${number}`)).body);
		expect(openPayload).not.toHaveProperty('NumberOfCurrentOpenPositions');
		expect(openPayload).toMatchObject({
			JobStatus: 'Open',
			Title: 'Travel RN - ICU (Nights)',
			City: 'Austin',
		});

		await settle();
		const patched = await scenario(sandbox, 'PATCH', `/jobs/${number}`, {
			RateDescription: '$2,600/wk',
		});
		expect(Date.parse(patched.body.ModifiedDateUtc)).toBeGreaterThan(
			Date.parse(openPayload.ModifiedDateUtc),
		);
		expect(only(await delivered(), 'Job Update')[0]).toMatchObject({
			RateDescription: '$2,600/wk',
		});

		await settle();
		await scenario(sandbox, 'POST', `/jobs/${number}/open-positions`, { count: 0 });
		const held = await scenario(sandbox, 'POST', `/jobs/${number}/hold`, { reason: 'Census low' });
		expect(held.body).toMatchObject({ JobStatus: 'OnHold', JobStatusReason: 'Census low' });
		const patchedOnHold = await scenario(sandbox, 'PATCH', `/jobs/${number}`, {
			Description: 'changed while on hold',
		});
		expect(Date.parse(patchedOnHold.body.ModifiedDateUtc)).toBeGreaterThan(
			Date.parse(held.body.ModifiedDateUtc),
		);
		expect((await delivered()).size).toBe(0);

		const reopened = await scenario(sandbox, 'POST', `/jobs/${number}/reopen`, {});
		expect(reopened.body).toMatchObject({ JobStatus: 'Open', JobStatusReason: null });
		expect(only(await delivered(), 'Job Update')[0].JobStatus).toBe('Open');

		await settle();
		await scenario(sandbox, 'POST', `/jobs/${number}/close`, { reason: 'Filled' });
		expect(only(await delivered(), 'Job Update')[0]).toMatchObject({
			JobStatus: 'Closed',
			JobStatusReason: 'Filled',
		});
		expect((await api(sandbox, '/Job')).body.map((j: Json) => j.Number)).not.toContain(number);
		expect((await api(sandbox, `/Job/${number}`)).body.JobStatus).toBe('Closed');
	});

	test('scenario job rules: bad fields and transitions are 400, unknown jobs 404, nothing fires', async () => {
		const job = (await scenario(sandbox, 'POST', '/jobs', {})).body.Number;
		await settle();
		expect(
			(await scenario(sandbox, 'PATCH', `/jobs/${job}`, { JobStatus: 'Closed' })).body.errors,
		).toHaveProperty('JobStatus');
		expect(
			(await scenario(sandbox, 'PATCH', `/jobs/${job}`, { NumberOfCurrentOpenPositions: 1 }))
				.status,
		).toBe(400);
		expect(
			(await scenario(sandbox, 'PATCH', `/jobs/${job}`, { Bogus: 1 })).body.errors,
		).toHaveProperty('Bogus');
		expect(
			(await scenario(sandbox, 'PATCH', `/jobs/${job}`, { NumberOfPositions: 'two' })).body.errors,
		).toHaveProperty('NumberOfPositions');
		expect((await scenario(sandbox, 'PATCH', `/jobs/${job}`, {})).status).toBe(400);
		expect((await scenario(sandbox, 'POST', `/jobs/${job}/reopen`)).status).toBe(400);
		expect((await scenario(sandbox, 'POST', '/jobs', { JobStatus: 'OnHold' })).status).toBe(400);
		expect((await scenario(sandbox, 'POST', '/jobs', { Number: job })).status).toBe(400);
		expect((await scenario(sandbox, 'POST', '/jobs/999999/close')).status).toBe(404);
		expect(
			(await scenario(sandbox, 'POST', `/jobs/${job}/open-positions`, { count: -1 })).status,
		).toBe(400);
		await scenario(sandbox, 'POST', `/jobs/${job}/close`);
		await settle();
		expect((await scenario(sandbox, 'POST', `/jobs/${job}/close`)).status).toBe(400);
		expect((await scenario(sandbox, 'POST', `/jobs/${job}/hold`)).status).toBe(400);
		expect((await delivered()).size).toBe(0);
	});

	test('a job can be opened with a chosen Number and JobType of either kind', async () => {
		const result = await scenario(sandbox, 'POST', '/jobs', { Number: 777777, JobType: 3 });
		expect(result.body).toMatchObject({ Number: 777777, JobType: 3, JobStatus: 'Open' });
		expect(only(await delivered(), 'Job Update')[0].Number).toBe(777777);
	});
});

describe('Submission Update and Non Locums Confirmation Signed', () => {
	test("every status change fires, facility actions included, with the answer's body", async () => {
		const job = (await scenario(sandbox, 'POST', '/jobs', {})).body.Number;
		const a = (await submit(sandbox, { JobNumber: job, CandidateNumber: 5002 })).body.Number;
		const b = (await submit(sandbox, { JobNumber: job, CandidateNumber: 5003 })).body.Number;
		await settle();

		const answers = [
			(await scenario(sandbox, 'POST', `/submissions/${a}/status`, { status: 'Under Review' }))
				.body,
			(await scenario(sandbox, 'POST', `/submissions/${a}/status`, { status: 'Offered' })).body,
			(
				await api(sandbox, '/Submission/Accept', {
					json: { submissionNumber: a, reason: 'Start confirmed' },
				})
			).body,
			(await scenario(sandbox, 'POST', `/submissions/${b}/status`, { status: 'Offered' })).body,
			(
				await api(sandbox, '/Submission/Decline', {
					json: {
						submissionNumber: b,
						reason: 'Schedule not acceptable',
						description: 'Nights only',
					},
				})
			).body,
		];
		const bodies = only(await delivered(), 'Submission Update', 5);
		expect(bodies).toEqual(answers);
		expect(bodies.map((s) => [s.Status, s.StatusCode])).toEqual([
			['Under Review', 2],
			['Offered', 3],
			['Accepted', 4],
			['Offered', 3],
			['Declined', 5],
		]);

		await settle();
		const c = (await submit(sandbox, { JobNumber: job, CandidateNumber: 5004 })).body.Number;
		const withdrawn = (
			await api(sandbox, '/Submission/Withdraw', {
				json: { submissionNumber: c, reason: 'Other', description: 'x' },
			})
		).body;
		expect(only(await delivered(), 'Submission Update')).toEqual([withdrawn]);

		await settle();
		const signed = (await scenario(sandbox, 'POST', `/submissions/${a}/confirmation-signed`, {}))
			.body;
		const [payload] = only(await delivered(), 'Non Locums Confirmation Signed');
		expect(payload).toEqual(signed);
		expect(payload).toMatchObject({
			SubmissionNumber: a,
			JobNumber: job,
			CandidateNumber: 5002,
			SignedBy: expect.any(String),
		});
	});

	test('failed actions fire nothing', async () => {
		await api(sandbox, '/Submission/Accept', { json: { submissionNumber: 90001, reason: 'x' } });
		await settle();
		await api(sandbox, '/Submission/Accept', { json: { submissionNumber: 90001 } });
		await api(sandbox, '/Submission/Decline', {
			json: { submissionNumber: 90002, reason: 'not on the list' },
		});
		expect((await delivered()).size).toBe(0);
	});
});

describe('per diem shift events', () => {
	async function openShifts(body: unknown): Promise<Json[]> {
		const result = await scenario(sandbox, 'POST', '/per-diem/shifts', body);
		expect(result.status).toBe(200);
		return result.body;
	}

	test('several shifts open in one Opened delivery; given fields and pool-local times arrive untouched', async () => {
		const shifts = await openShifts({
			count: 3,
			shifts: [
				{
					Start: '2026-03-14T19:00:00',
					End: '2026-03-15T07:30:00',
					Notes: null,
					Facility: { Id: null, Name: null },
					Unit: { Id: null, Name: null },
				},
			],
		});
		expect(shifts).toHaveLength(3);
		const [payload] = only(await delivered(), 'Per Diem Shift Opened');
		expect(payload.Items).toHaveLength(3);
		expect(payload.Items.map((i: Json) => i.Id)).toEqual(shifts.map((s) => s.Id));
		expect(payload.Items[0]).toMatchObject({
			Start: '2026-03-14T19:00:00',
			End: '2026-03-15T07:30:00',
			Notes: null,
			Status: 'Open',
			Facility: { Id: null, Name: null },
		});
		for (const item of payload.Items) {
			expect(item.Start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
			expect(item.Timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/);
			expect(item).not.toHaveProperty('Candidate');
		}
	});

	test('assign, confirm, change pool, location, time, rate and note, then release: one event each', async () => {
		const [shift] = await openShifts({ count: 1 });
		await settle();
		const steps: Array<[TrioEventName, string, unknown]> = [
			['Per Diem Shift Assigned', 'assign', { candidate: 5007 }],
			['Per Diem Shift Confirmed', 'confirm', {}],
			['Per Diem Shift Staffing Pool Changed', 'staffing-pool', { Specialty: 'Telemetry' }],
			[
				'Per Diem Shift Location Changed',
				'location',
				{ Unit: { Id: 'u-1', Name: '5 West Telemetry' } },
			],
			[
				'Per Diem Shift Time Changed',
				'time',
				{ start: '2026-03-20T07:00', end: '2026-03-20T19:30:00' },
			],
			['Per Diem Shift Rate Changed', 'rate', { rateType: 'Premium' }],
			['Per Diem Shift Note Changed', 'note', { notes: 'Float to 5 West' }],
			['Per Diem Shift Released', 'release', {}],
		];
		const candidate = sandbox.store.candidates.get(5007)!;
		for (const [event, action, body] of steps) {
			const result = await scenario(
				sandbox,
				'POST',
				`/per-diem/shifts/${shift.Id}/${action}`,
				body,
			);
			expect(result.status).toBe(200);
			const [payload] = only(await delivered(), event);
			expect(payload.Id).toBe(shift.Id);
			await settle();
			if (event === 'Per Diem Shift Assigned')
				expect(payload).toMatchObject({
					Status: 'Assigned',
					Candidate: { Id: '5007', Name: `${candidate.firstName} ${candidate.lastName}` },
				});
			if (event === 'Per Diem Shift Confirmed')
				expect(payload).toMatchObject({ Status: 'Confirmed', Candidate: { Id: '5007' } });
			if (event === 'Per Diem Shift Staffing Pool Changed')
				expect(payload).toMatchObject({
					Specialty: 'Telemetry',
					StaffingPool: { Id: expect.any(String) },
				});
			if (event === 'Per Diem Shift Location Changed')
				expect(payload.Unit).toEqual({ Id: 'u-1', Name: '5 West Telemetry' });
			if (event === 'Per Diem Shift Time Changed')
				expect(payload).toMatchObject({ Start: '2026-03-20T07:00', End: '2026-03-20T19:30:00' });
			if (event === 'Per Diem Shift Rate Changed') expect(payload.RateType).toBe('Premium');
			if (event === 'Per Diem Shift Note Changed') expect(payload.Notes).toBe('Float to 5 West');
			if (event === 'Per Diem Shift Released')
				expect(payload.Candidate).toEqual({ Id: '5007', Name: expect.any(String) });
		}
		expect((await scenario(sandbox, 'GET', `/per-diem/shifts/${shift.Id}`)).body).toMatchObject({
			Status: 'Open',
			Candidate: null,
			Duration: expect.anything(),
		});
	});

	test('decline, cancel several at once, remove, and the note cleared with null', async () => {
		const [a, b, c, d] = await openShifts({ count: 4 });
		for (const shift of [a, b, c])
			await scenario(sandbox, 'POST', `/per-diem/shifts/${shift.Id}/assign`, {});
		await scenario(sandbox, 'POST', `/per-diem/shifts/${b.Id}/confirm`);
		await settle();

		await scenario(sandbox, 'POST', `/per-diem/shifts/${a.Id}/decline`);
		expect(only(await delivered(), 'Per Diem Shift Declined')[0]).toMatchObject({
			Id: a.Id,
			Candidate: { Id: expect.any(String) },
		});
		await settle();

		const cancelled = await scenario(sandbox, 'POST', '/per-diem/shifts/cancel', {
			ids: [b.Id, c.Id],
		});
		expect(cancelled.status).toBe(200);
		const [payload] = only(await delivered(), 'Per Diem Shift Cancelled');
		expect(payload.Items.map((i: Json) => [i.Id, i.Status])).toEqual([
			[b.Id, 'Cancelled'],
			[c.Id, 'Cancelled'],
		]);
		await settle();

		await scenario(sandbox, 'POST', `/per-diem/shifts/${d.Id}/remove`);
		expect(only(await delivered(), 'Per Diem Shift Removed')[0]).toEqual({
			Action: 'Per Diem Shift Removed',
			Id: d.Id,
			Timestamp: expect.any(String),
		});
		await settle();

		await scenario(sandbox, 'POST', `/per-diem/shifts/${a.Id}/note`, { notes: null });
		expect(only(await delivered(), 'Per Diem Shift Note Changed')[0].Notes).toBeNull();
	});

	test('rule violations are 400 (unknown shifts 404) and change nothing', async () => {
		const [open, held] = await openShifts({ count: 2 });
		await scenario(sandbox, 'POST', `/per-diem/shifts/${held.Id}/assign`, {});
		await settle();
		const refusals: Array<[string, unknown, number]> = [
			[`/per-diem/shifts/${open.Id}/confirm`, {}, 400],
			[`/per-diem/shifts/${open.Id}/release`, {}, 400],
			[`/per-diem/shifts/${open.Id}/decline`, {}, 400],
			[`/per-diem/shifts/${held.Id}/assign`, {}, 400],
			[`/per-diem/shifts/${held.Id}/remove`, {}, 400],
			['/per-diem/shifts/cancel', { ids: [held.Id, open.Id] }, 400],
			['/per-diem/shifts/cancel', { ids: [] }, 400],
			['/per-diem/shifts/cancel', { ids: ['nope'] }, 404],
			[`/per-diem/shifts/${open.Id}/time`, { start: '2026-03-20T07:00:00Z' }, 400],
			[`/per-diem/shifts/${open.Id}/time`, { start: '2026-03-20T07:00:00-05:00' }, 400],
			[
				`/per-diem/shifts/${open.Id}/time`,
				{ start: '2026-03-20T19:00:00', end: '2026-03-20T07:00:00' },
				400,
			],
			[`/per-diem/shifts/${open.Id}/rate`, { rateType: '' }, 400],
			[`/per-diem/shifts/${open.Id}/note`, {}, 400],
			[`/per-diem/shifts/${open.Id}/assign`, { candidate: 1 }, 404],
			[`/per-diem/shifts/${open.Id}/location`, { Facility: 'Mercy' }, 400],
			['/per-diem/shifts/nope/confirm', {}, 404],
			['/per-diem/shifts', { count: 0 }, 400],
			['/per-diem/shifts', { shifts: [{ Start: '2026-03-20T07:00:00+01:00' }] }, 400],
			['/per-diem/shifts', { shifts: [{ Status: 'Assigned' }] }, 400],
		];
		for (const [path, body, status] of refusals) {
			const result = await scenario(sandbox, 'POST', path, body);
			expect([path, result.status]).toEqual([path, status]);
			expect(result.body.errors ?? result.body.detail).toBeTruthy();
		}
		expect(sandbox.store.shifts.get(held.Id)!.Status).toBe('Assigned');
		expect(sandbox.store.shifts.get(open.Id)!.Status).toBe('Open');
		expect((await delivered()).size).toBe(0);
	});
});

describe('delivery mechanics', () => {
	test('only active registrations subscribed to the event receive it', async () => {
		const inactive = await api(sandbox, '/Webhooks', {
			json: {
				Name: 'off',
				Url: `${receiver.url}/off?event=Job%20Update`,
				Events: ['Job Update'],
				IsActive: false,
			},
		});
		expect(inactive.status).toBe(200);
		await scenario(sandbox, 'POST', '/jobs', {});
		await sandbox.idle();
		expect(receiver.received.map((r) => r.url)).toEqual([
			`/hook?event=Job%20Update&token=t0k%2Fen`,
		]);
	});

	test('switching a registration off stops its deliveries', async () => {
		const switchJobUpdate = (IsActive: boolean) =>
			api(sandbox, '/Webhooks', {
				json: {
					Id: registrations['Job Update'],
					Name: 'n8n Job Update',
					Url: `${receiver.url}/hook?event=Job%20Update&token=t0k%2Fen`,
					Events: ['Job Update'],
					IsActive,
				},
			});
		await switchJobUpdate(false);
		await scenario(sandbox, 'POST', '/jobs', {});
		await sandbox.idle();
		expect(receiver.received).toEqual([]);
		await switchJobUpdate(true);
	});

	test('the delivery log records each attempt and can be awaited, filtered and cleared over HTTP', async () => {
		await scenario(sandbox, 'POST', '/jobs', {});
		const log = await scenario(sandbox, 'GET', '/deliveries?wait=1');
		expect(log.body).toEqual([
			expect.objectContaining({
				id: expect.any(Number),
				registrationId: registrations['Job Update'],
				event: 'Job Update',
				url: `${receiver.url}/hook?event=Job%20Update&token=t0k%2Fen`,
				attempt: 1,
				status: 200,
				ok: true,
				error: null,
				durationMs: expect.any(Number),
				body: expect.objectContaining({ JobStatus: 'Open' }),
			}),
		]);
		expect((await scenario(sandbox, 'GET', '/deliveries?event=Submission%20Update')).body).toEqual(
			[],
		);
		expect(
			(await scenario(sandbox, 'GET', `/deliveries?registrationId=${registrations['Job Update']}`))
				.body,
		).toHaveLength(1);
		expect((await scenario(sandbox, 'DELETE', '/deliveries')).status).toBe(204);
		expect((await scenario(sandbox, 'GET', '/deliveries')).body).toEqual([]);
	});

	test('duplicates: 1 sends every delivery twice', async () => {
		expect((await scenario(sandbox, 'PUT', '/faults', { duplicates: 1 })).status).toBe(200);
		await scenario(sandbox, 'POST', '/per-diem/shifts', { count: 2 });
		const bodies = only(await delivered(), 'Per Diem Shift Opened', 2);
		expect(bodies[0]).toEqual(bodies[1]);
		expect(sandbox.deliveries().map((d) => d.attempt)).toEqual([1, 2]);
	});

	test('a slow receiver never holds up the API answer', async () => {
		receiver.delayMs = 1_500;
		expect((await scenario(sandbox, 'POST', '/jobs', {})).status).toBe(200);
		// Answered while the delivery was still under way.
		expect(sandbox.deliveries()).toEqual([]);
		await sandbox.idle();
		expect(sandbox.deliveries()[0].durationMs).toBeGreaterThanOrEqual(1_400);
	});

	test('a receiver error is logged once, without retry', async () => {
		receiver.status = 500;
		await scenario(sandbox, 'POST', '/jobs', {});
		await sandbox.idle();
		expect(sandbox.deliveries()).toEqual([
			expect.objectContaining({ status: 500, ok: false, attempt: 1 }),
		]);
	});

	test('an unreachable receiver is logged with its error', async () => {
		const reg = await api(sandbox, '/Webhooks', {
			json: {
				Name: 'dead',
				Url: 'http://127.0.0.1:9/dead',
				Events: ['Per Diem Shift Rate Changed'],
				IsActive: true,
			},
		});
		const [shift] = (await scenario(sandbox, 'POST', '/per-diem/shifts', {})).body;
		await scenario(sandbox, 'POST', `/per-diem/shifts/${shift.Id}/rate`, { rateType: 'Crisis' });
		await sandbox.idle();
		const dead = sandbox.deliveries().find((d) => d.registrationId === reg.body.Id)!;
		expect(dead).toMatchObject({
			status: null,
			ok: false,
			error: expect.stringMatching(/ECONNREFUSED/),
		});
		await api(sandbox, '/Webhooks', {
			json: {
				Id: reg.body.Id,
				Name: 'dead',
				Url: 'http://127.0.0.1:9/dead',
				Events: ['Per Diem Shift Rate Changed'],
				IsActive: false,
			},
		});
	});

	test('a receiver slower than the timeout is cut off and logged', async () => {
		const quick = await start({ deliveryTimeoutMs: 200 });
		const slow = new Receiver();
		try {
			slow.delayMs = 2_000;
			await slow.start();
			await registerAll(quick, slow.url, ['Job Update']);
			await scenario(quick, 'POST', '/jobs', {});
			await quick.idle();
			expect(quick.deliveries()).toEqual([
				expect.objectContaining({ status: null, ok: false, error: 'no answer within 200 ms' }),
			]);
		} finally {
			await quick.stop();
			await slow.stop();
		}
	});

	test('a payload that does not match its event schema is a sandbox bug and throws', () => {
		expect(() => sandbox.store.emit('Job Update', { Number: 'x' })).toThrow(/sandbox bug/);
		expect(() =>
			sandbox.store.emit('Per Diem Shift Removed', { Id: 'x', Timestamp: '2026-03-01T00:00:00Z' }),
		).toThrow(/sandbox bug/);
	});
});
