import { createHash } from 'node:crypto';

import { submissionSchema } from '../../nodes/shared/schemas';
import { PROFILE_FILE_MAX_BYTES } from '../../nodes/shared/serviceFacts';
import type { RunningSandbox } from '../../sandbox';
import { api, scenario, start, submit } from './helpers';
import type { Json } from './helpers';

let sandbox: RunningSandbox;
let openJob: number;
let heldJob: number;
const candidate = 5001;
const OPEN = 'open job placeholder';

beforeAll(async () => {
	sandbox = await start();
	openJob = (await scenario(sandbox, 'POST', '/jobs', {})).body.Number;
	heldJob = (await scenario(sandbox, 'POST', '/jobs', {})).body.Number;
	await scenario(sandbox, 'POST', `/jobs/${heldJob}/hold`, { reason: 'Budget' });
});

afterAll(async () => {
	await sandbox.stop();
});

function fieldsOf(body: Json): string[] {
	return Object.keys(body.errors ?? {}).sort();
}

/** The answer is 200 with the submission in `Status` (`StatusCode`), for `StatusReason`. */
function expectNowIn(
	answer: { status: number; body: Json },
	Status: string,
	StatusCode: number,
	StatusReason: string | null,
): void {
	expect(answer.status).toBe(200);
	expect(answer.body).toMatchObject({ Status, StatusCode, StatusReason });
}

async function freshSubmission(status?: string): Promise<number> {
	const created = await submit(sandbox, { JobNumber: openJob, CandidateNumber: candidate });
	expect(created.status).toBe(200);
	if (status)
		expect(
			(await scenario(sandbox, 'POST', `/submissions/${created.body.Number}/status`, { status }))
				.status,
		).toBe(200);
	return created.body.Number;
}

describe('POST /Submission (multipart)', () => {
	test('creates a Submitted submission and stores what arrived of the file', async () => {
		const content = Buffer.from('%PDF-1.7\nCandidate profile of Maria Garcia\n');
		const contacts = [
			{ name: 'Riley Recruiter', email: 'riley@agency.example.com', phoneNumber: '(512) 555-0110' },
		];
		const result = await submit(
			sandbox,
			{
				JobNumber: openJob,
				CandidateNumber: candidate,
				BestContactDescription: 'Text after 5pm',
				BillRateAmount: '74.50',
				StartDate: '2026-04-06T07:00:00Z',
				AvailabilityDescription: 'Immediately',
				DaysOffDescription: 'None',
				ExperienceDescription: '6 years ICU',
				Description: 'Strong ICU nurse',
				ModifyNote: 'first submit',
				AgencyContacts: JSON.stringify(contacts),
			},
			{ content, filename: 'Garcia Maria — profile.pdf', contentType: 'application/pdf' },
			sandbox.key,
		);
		expect(result.status).toBe(200);
		expect(submissionSchema.strict().safeParse(result.body).success).toBe(true);
		expect(result.body).toMatchObject({
			Status: 'Submitted',
			StatusCode: 1,
			StatusReason: null,
			JobNumber: openJob,
			CandidateNumber: candidate,
			BillRateAmount: 74.5,
			StartDate: '2026-04-06T07:00:00Z',
			BestContactDescription: 'Text after 5pm',
		});
		const file = await scenario(sandbox, 'GET', `/submissions/${result.body.Number}/file`);
		expect(file.body).toEqual({
			filename: 'Garcia Maria — profile.pdf',
			contentType: 'application/pdf',
			size: content.length,
			sha256: createHash('sha256').update(content).digest('hex'),
			receivedUtc: expect.any(String),
		});
		const record = await scenario(sandbox, 'GET', `/submissions/${result.body.Number}`);
		expect(record.body).toMatchObject({
			description: 'Strong ICU nurse',
			modifyNote: 'first submit',
			agencyContacts: contacts,
		});
		expect((await api(sandbox, `/Submission/${result.body.Number}`)).body).toEqual(result.body);
	});

	test('creation fires no Submission Update', async () => {
		sandbox.clearDeliveries();
		const receiver = await api(sandbox, '/Webhooks', {
			json: {
				Name: 'probe',
				Url: 'http://127.0.0.1:9/none',
				Events: ['Submission Update'],
				IsActive: true,
			},
		});
		await freshSubmission();
		await sandbox.idle();
		expect(sandbox.deliveries()).toEqual([]);
		await api(sandbox, '/Webhooks', {
			json: {
				Id: receiver.body.Id,
				Name: 'probe',
				Url: 'http://127.0.0.1:9/none',
				Events: ['Submission Update'],
				IsActive: false,
			},
		});
	});

	test('a JSON body is 415 and creates nothing', async () => {
		const before = sandbox.store.submissions.size;
		const result = await api(sandbox, '/Submission', {
			json: { JobNumber: openJob, CandidateNumber: candidate },
		});
		expect(result.status).toBe(415);
		expect(result.body.detail).toMatch(/multipart\/form-data/);
		expect(sandbox.store.submissions.size).toBe(before);
	});

	test('a multipart content type without boundary is 400', async () => {
		const result = await api(sandbox, '/Submission', {
			method: 'POST',
			body: 'x',
			headers: { 'Content-Type': 'multipart/form-data' },
		});
		expect(result.status).toBe(400);
	});

	test.each([
		['missing file', null, ['CandidateProfileFile']],
		['file sent as a text field', { kind: 'text' }, ['CandidateProfileFile']],
		[
			'.exe file',
			{ content: 'MZ', filename: 'profile.exe', contentType: 'application/octet-stream' },
			['CandidateProfileFile'],
		],
		[
			'no extension',
			{ content: 'x', filename: 'profile', contentType: 'text/plain' },
			['CandidateProfileFile'],
		],
		[
			'empty file',
			{ content: '', filename: 'profile.txt', contentType: 'text/plain' },
			['CandidateProfileFile'],
		],
	])('%s is 400 naming CandidateProfileFile', async (_label, file, fields) => {
		const before = sandbox.store.submissions.size;
		const extra: Record<string, string | number> =
			(file as Json)?.kind === 'text' ? { CandidateProfileFile: 'resume text' } : {};
		const result = await submit(
			sandbox,
			{ JobNumber: openJob, CandidateNumber: candidate, ...extra },
			(file as Json)?.kind === 'text' ? null : (file as Json),
		);
		expect(result.status).toBe(400);
		expect(fieldsOf(result.body)).toEqual(fields);
		expect(sandbox.store.submissions.size).toBe(before);
	});

	test('a file of 2,500,000 bytes is refused; one byte less is accepted', async () => {
		const tooBig = await submit(
			sandbox,
			{ JobNumber: openJob, CandidateNumber: candidate },
			{
				content: Buffer.alloc(PROFILE_FILE_MAX_BYTES, 65),
				filename: 'big.txt',
				contentType: 'text/plain',
			},
		);
		expect(tooBig.status).toBe(400);
		expect(fieldsOf(tooBig.body)).toEqual(['CandidateProfileFile']);
		expect(tooBig.body.errors.CandidateProfileFile[0]).toMatch(/2\.5 MB/);
		const justUnder = await submit(
			sandbox,
			{ JobNumber: openJob, CandidateNumber: candidate },
			{
				content: Buffer.alloc(PROFILE_FILE_MAX_BYTES - 1, 65),
				filename: 'BIG.TXT',
				contentType: 'text/plain',
			},
		);
		expect(justUnder.status).toBe(200);
		expect(
			(await scenario(sandbox, 'GET', `/submissions/${justUnder.body.Number}/file`)).body.size,
		).toBe(PROFILE_FILE_MAX_BYTES - 1);
	});

	test.each(['pdf', 'doc', 'docx', 'rtf', 'txt', 'PDF', 'Docx'])(
		'extension .%s is accepted',
		async (ext) => {
			const result = await submit(
				sandbox,
				{ JobNumber: openJob, CandidateNumber: candidate },
				{ content: 'x', filename: `cv.${ext}`, contentType: 'application/octet-stream' },
			);
			expect(result.status).toBe(200);
		},
	);

	test.each([
		[{ JobNumber: 'abc', CandidateNumber: candidate }, ['JobNumber']],
		[{ CandidateNumber: candidate }, ['JobNumber']],
		[{ JobNumber: OPEN }, ['CandidateNumber']],
		[{ JobNumber: OPEN, CandidateNumber: '1.5' }, ['CandidateNumber']],
		[
			{ JobNumber: OPEN, CandidateNumber: candidate, BillRateAmount: 'seventy' },
			['BillRateAmount'],
		],
		[{ JobNumber: OPEN, CandidateNumber: candidate, BillRateAmount: '-5' }, ['BillRateAmount']],
		[{ JobNumber: OPEN, CandidateNumber: candidate, StartDate: 'next monday' }, ['StartDate']],
		[
			{ JobNumber: OPEN, CandidateNumber: candidate, StartDate: '2026-02-30T07:00:00Z' },
			['StartDate'],
		],
		[
			{ JobNumber: OPEN, CandidateNumber: candidate, AgencyContacts: 'not json' },
			['AgencyContacts'],
		],
		[
			{ JobNumber: OPEN, CandidateNumber: candidate, AgencyContacts: '{"name":"a"}' },
			['AgencyContacts'],
		],
		[
			{ JobNumber: OPEN, CandidateNumber: candidate, AgencyContacts: '[{"name":"a","email":"b"}]' },
			['AgencyContacts[0].phoneNumber'],
		],
		[
			{
				JobNumber: OPEN,
				CandidateNumber: candidate,
				AgencyContacts: '[{"name":"a","email":"b","phoneNumber":1}]',
			},
			['AgencyContacts[0].phoneNumber'],
		],
	])('invalid fields %j are 400 naming them', async (fields, named) => {
		const before = sandbox.store.submissions.size;
		// The table is built before beforeAll has opened the job, hence the placeholder.
		const resolved = Object.fromEntries(
			Object.entries(fields).map(([k, v]) => [k, v === OPEN ? openJob : v]),
		);
		const result = await submit(sandbox, resolved as Record<string, string | number>);
		expect(result.status).toBe(400);
		expect(fieldsOf(result.body)).toEqual(named);
		for (const field of named) expect(result.body.errors[field][0]).toContain(field);
		expect(sandbox.store.submissions.size).toBe(before);
	});

	test('an unknown job or candidate is 404 naming which; a job not Open is 400', async () => {
		const noJob = await submit(sandbox, { JobNumber: 999999, CandidateNumber: candidate });
		expect(noJob.status).toBe(404);
		expect(fieldsOf(noJob.body)).toEqual(['JobNumber']);
		expect(noJob.body.detail).toMatch(/Job 999999/);
		const noCandidate = await submit(sandbox, { JobNumber: openJob, CandidateNumber: 1 });
		expect(noCandidate.status).toBe(404);
		expect(fieldsOf(noCandidate.body)).toEqual(['CandidateNumber']);
		expect(noCandidate.body.detail).toMatch(/Candidate 1 /);
		const held = await submit(sandbox, { JobNumber: heldJob, CandidateNumber: candidate });
		expect(held.status).toBe(400);
		expect(fieldsOf(held.body)).toEqual(['JobNumber']);
		expect(held.body.errors.JobNumber[0]).toMatch(/OnHold/);
	});
});

describe('accept, decline, withdraw', () => {
	test('Accept applies to Offered only; reason optional; answers the updated submission', async () => {
		const submitted = await freshSubmission();
		const refused = await api(sandbox, '/Submission/Accept', {
			json: { submissionNumber: submitted },
		});
		expect(refused.status).toBe(400);
		expect(fieldsOf(refused.body)).toEqual(['submissionNumber']);
		const offered = await freshSubmission('Offered');
		const accepted = await api(sandbox, '/Submission/Accept', {
			json: { submissionNumber: offered },
			key: sandbox.key,
		});
		expectNowIn(accepted, 'Accepted', 4, null);
		expect(accepted.body.Number).toBe(offered);
		expect(submissionSchema.safeParse(accepted.body).success).toBe(true);
		const again = await api(sandbox, '/Submission/Accept', {
			json: { submissionNumber: offered, reason: 'twice' },
		});
		expect(again.status).toBe(400);
		const withReason = await freshSubmission('Offered');
		expect(
			(
				await api(sandbox, '/Submission/Accept', {
					json: { submissionNumber: withReason, reason: 'Great fit' },
				})
			).body.StatusReason,
		).toBe('Great fit');
	});

	test('Decline applies to Offered only, with a reason from the list', async () => {
		const offered = await freshSubmission('Offered');
		const badReason = await api(sandbox, '/Submission/Decline', {
			json: { submissionNumber: offered, reason: 'Because', description: 'x' },
		});
		expect(badReason.status).toBe(400);
		expect(fieldsOf(badReason.body)).toEqual(['reason']);
		const noReason = await api(sandbox, '/Submission/Decline', {
			json: { submissionNumber: offered },
		});
		expect(noReason.status).toBe(400);
		expect(fieldsOf(noReason.body)).toEqual(['reason']);
		const declined = await api(sandbox, '/Submission/Decline', {
			json: {
				submissionNumber: offered,
				reason: 'Location not acceptable',
				description: 'Too far',
			},
		});
		expectNowIn(declined, 'Declined', 5, 'Location not acceptable');
		expect((await scenario(sandbox, 'GET', `/submissions/${offered}`)).body.actionDescription).toBe(
			'Too far',
		);
		const underReview = await freshSubmission('Under Review');
		expect(
			(
				await api(sandbox, '/Submission/Decline', {
					json: { submissionNumber: underReview, reason: 'Other' },
				})
			).status,
		).toBe(400);
	});

	test.each(['Submitted', 'Under Review', 'Offered'])('Withdraw applies to %s', async (status) => {
		const number = await freshSubmission(status === 'Submitted' ? undefined : status);
		const result = await api(sandbox, '/Submission/Withdraw', {
			json: {
				submissionNumber: number,
				reason: 'Candidate accepted a counter-offer',
				description: '',
			},
		});
		expectNowIn(result, 'Withdrawn', 6, 'Candidate accepted a counter-offer');
	});

	test.each(['Accepted', 'Declined', 'Withdrawn', 'Rejected'])(
		'Withdraw from %s is 400',
		async (status) => {
			const number = await freshSubmission('Offered');
			if (status === 'Accepted')
				await api(sandbox, '/Submission/Accept', { json: { submissionNumber: number } });
			if (status === 'Declined')
				await api(sandbox, '/Submission/Decline', {
					json: { submissionNumber: number, reason: 'Other' },
				});
			if (status === 'Withdrawn')
				await api(sandbox, '/Submission/Withdraw', {
					json: { submissionNumber: number, reason: 'Other' },
				});
			if (status === 'Rejected')
				await scenario(sandbox, 'POST', `/submissions/${number}/status`, {
					status: 'Rejected',
					reason: 'Position filled',
				});
			expect(sandbox.store.submissions.get(number)!.submission.Status).toBe(status);
			const result = await api(sandbox, '/Submission/Withdraw', {
				json: { submissionNumber: number, reason: 'Other' },
			});
			expect(result.status).toBe(400);
			expect(result.body.errors.submissionNumber[0]).toContain(status);
		},
	);

	test('an unknown submission is 404 naming it; a bad number is 400', async () => {
		for (const path of ['/Submission/Accept', '/Submission/Decline', '/Submission/Withdraw']) {
			const missing = await api(sandbox, path, {
				json: { submissionNumber: 123, reason: 'Other' },
			});
			expect(missing.status).toBe(404);
			expect(missing.body.detail).toMatch(/Submission 123/);
			expect(fieldsOf(missing.body)).toEqual(['submissionNumber']);
			const bad = await api(sandbox, path, {
				json: { submissionNumber: '90001', reason: 'Other' },
			});
			expect(bad.status).toBe(400);
			expect(fieldsOf(bad.body)).toEqual(['submissionNumber']);
		}
	});
});

describe('facility actions (scenario API)', () => {
	test('status moves Submitted submissions on; terminal ones stay; unknown statuses are 400', async () => {
		const number = await freshSubmission();
		const review = await scenario(sandbox, 'POST', `/submissions/${number}/status`, {
			status: 'Under Review',
		});
		expect(review.body).toMatchObject({ Status: 'Under Review', StatusCode: 2 });
		expect(
			(await scenario(sandbox, 'POST', `/submissions/${number}/status`, { status: 'Under Review' }))
				.status,
		).toBe(400);
		expect(
			(await scenario(sandbox, 'POST', `/submissions/${number}/status`, { status: 'Accepted' }))
				.status,
		).toBe(400);
		const rejected = await scenario(sandbox, 'POST', `/submissions/${number}/status`, {
			status: 'Rejected',
			reason: 'Position filled',
		});
		expect(rejected.body).toMatchObject({
			Status: 'Rejected',
			StatusCode: 7,
			StatusReason: 'Position filled',
		});
		expect(
			(await scenario(sandbox, 'POST', `/submissions/${number}/status`, { status: 'Offered' }))
				.status,
		).toBe(400);
		expect(
			(await scenario(sandbox, 'POST', '/submissions/1/status', { status: 'Offered' })).status,
		).toBe(404);
	});

	test('the confirmation is signed once, for an Accepted non-locums placement', async () => {
		const number = await freshSubmission('Offered');
		expect(
			(await scenario(sandbox, 'POST', `/submissions/${number}/confirmation-signed`, {})).status,
		).toBe(400);
		await api(sandbox, '/Submission/Accept', { json: { submissionNumber: number } });
		const signed = await scenario(sandbox, 'POST', `/submissions/${number}/confirmation-signed`, {
			signedBy: 'Maria Garcia',
		});
		expect(signed.status).toBe(200);
		expect(signed.body).toMatchObject({
			Action: 'Non Locums Confirmation Signed',
			SubmissionNumber: number,
			JobNumber: openJob,
			CandidateNumber: candidate,
			SignedBy: 'Maria Garcia',
		});
		expect(
			(await scenario(sandbox, 'POST', `/submissions/${number}/confirmation-signed`, {})).status,
		).toBe(400);

		const locums = (
			await scenario(sandbox, 'POST', '/jobs', { IsLocums: true, Profession: 'Physician' })
		).body.Number;
		const onLocums = (await submit(sandbox, { JobNumber: locums, CandidateNumber: candidate })).body
			.Number;
		await scenario(sandbox, 'POST', `/submissions/${onLocums}/status`, { status: 'Offered' });
		await api(sandbox, '/Submission/Accept', { json: { submissionNumber: onLocums } });
		const refused = await scenario(
			sandbox,
			'POST',
			`/submissions/${onLocums}/confirmation-signed`,
			{},
		);
		expect(refused.status).toBe(400);
		expect(refused.body.errors.number[0]).toMatch(/locums/);
	});
});
