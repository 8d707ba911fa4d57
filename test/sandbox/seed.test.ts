import { sleep } from 'n8n-workflow';

import { perDiemShiftOpenedItemSchema } from '../../nodes/shared/events';
import { jobSchema, submissionSchema } from '../../nodes/shared/schemas';
import { candidateSchema } from '../support/service-shapes';
import { SUBMISSION_STATUSES } from '../../sandbox/service-rules';
import { startSandbox } from '../../sandbox';
import type { RunningSandbox } from '../../sandbox';
import { api, REFERENCE_DATE, scenario, start } from './helpers';

async function snapshot(sandbox: RunningSandbox) {
	return {
		jobs: (await api(sandbox, '/Job')).body,
		submissions: (await api(sandbox, '/Submission')).body,
		candidates: (await scenario(sandbox, 'GET', '/candidates')).body,
		shifts: (await scenario(sandbox, 'GET', '/per-diem/shifts')).body,
	};
}

describe('seeding', () => {
	let first: RunningSandbox;
	let second: RunningSandbox;
	let other: RunningSandbox;

	beforeAll(async () => {
		[first, second, other] = await Promise.all([
			start({ seed: 7, jobs: 120 }),
			start({ seed: 7, jobs: 120 }),
			start({ seed: 8, jobs: 120 }),
		]);
	});

	afterAll(async () => {
		await Promise.all([first.stop(), second.stop(), other.stop()]);
	});

	test('the same seed gives the same data; another seed other data', async () => {
		const a = await snapshot(first);
		expect(await snapshot(second)).toEqual(a);
		const b = await snapshot(other);
		expect(b.jobs).not.toEqual(a.jobs);
		expect(b.candidates).not.toEqual(a.candidates);
	});

	test('more jobs keep the first jobs unchanged, and candidates too', async () => {
		const bigger = await start({ seed: 7, jobs: 240 });
		try {
			const small = [...first.store.jobs.values()].map((r) => r.job);
			const large = [...bigger.store.jobs.values()].slice(0, small.length).map((r) => r.job);
			expect(large).toEqual(small);
			expect([...bigger.store.candidates.values()]).toEqual([...first.store.candidates.values()]);
		} finally {
			await bigger.stop();
		}
	});

	test('every seeded record has the service shape and realistic variety', () => {
		const jobs = [...first.store.jobs.values()].map((r) => r.job);
		for (const job of jobs) {
			const checked = jobSchema.strict().safeParse(job);
			if (!checked.success) throw new Error(`job ${job.Number}: ${checked.error.message}`);
		}
		const statuses = new Set(jobs.map((j) => j.JobStatus));
		expect([...statuses].sort()).toEqual(['Closed', 'OnHold', 'Open']);
		expect(new Set(jobs.map((j) => typeof j.JobType))).toEqual(new Set(['string', 'number']));
		expect(new Set(jobs.map((j) => j.Profession)).size).toBeGreaterThan(5);
		expect(
			jobs.some((j) => j.Profession === 'RN' && j.Certifications.some((c) => c.Name === 'ACLS')),
		).toBe(true);
		expect(jobs.some((j) => j.StateLicenses.some((l) => l.IsCompat))).toBe(true);
		expect(jobs.some((j) => j.Shift === null) && jobs.some((j) => j.Shift?.ShiftHours === 12)).toBe(
			true,
		);
		expect(
			jobs.every(
				(j) => j.RateDescription === null || /^\$[\d,]+\/(wk|hr|day|yr)$/.test(j.RateDescription),
			),
		).toBe(true);
		const modified = jobs.map((j) => Date.parse(j.ModifiedDateUtc!));
		expect(Math.max(...modified)).toBeLessThan(Date.parse(REFERENCE_DATE));
		expect(Math.max(...modified) - Math.min(...modified)).toBeGreaterThan(21 * 86_400_000);

		const candidates = [...first.store.candidates.values()];
		expect(candidates).toHaveLength(50);
		for (const candidate of candidates)
			expect(candidateSchema.safeParse(candidate).success).toBe(true);

		const submissions = [...first.store.submissions.values()].map((r) => r.submission);
		for (const submission of submissions) {
			expect(submissionSchema.strict().safeParse(submission).success).toBe(true);
			expect(SUBMISSION_STATUSES[submission.Status]).toBe(submission.StatusCode);
			expect(
				first.store.jobs.has(submission.JobNumber) &&
					first.store.candidates.has(submission.CandidateNumber),
			).toBe(true);
		}
		expect(submissions.filter((s) => s.Status === 'Offered').length).toBeGreaterThanOrEqual(4);
		expect(new Set(submissions.map((s) => s.Status)).size).toBeGreaterThanOrEqual(5);

		const shifts = [...first.store.shifts.values()];
		expect(new Set(shifts.map((s) => s.Status))).toEqual(
			new Set(['Open', 'Assigned', 'Confirmed']),
		);
		for (const shift of shifts) {
			const { Candidate: candidate, ...item } = shift;
			expect(perDiemShiftOpenedItemSchema.safeParse(item).success).toBe(true);
			expect(candidate === null).toBe(shift.Status === 'Open');
		}
	});

	test('POST /_sandbox/reset reseeds, and clears registrations unless kept', async () => {
		const sandbox = await start({ seed: 3, jobs: 20 });
		try {
			await scenario(sandbox, 'POST', '/jobs', {});
			await api(sandbox, '/Webhooks', {
				json: { Name: 'x', Url: 'https://example.com/h', Events: ['Job Update'], IsActive: true },
			});
			const reset = await scenario(sandbox, 'POST', '/reset', { jobs: 10, keepWebhooks: true });
			expect(reset.status).toBe(200);
			expect(sandbox.store.jobs.size).toBe(10);
			expect((await api(sandbox, '/Webhooks')).body).toHaveLength(1);
			await scenario(sandbox, 'POST', '/reset', { seed: 4 });
			expect(sandbox.store.jobs.size).toBe(10);
			expect((await api(sandbox, '/Webhooks')).body).toEqual([]);
			expect((await scenario(sandbox, 'POST', '/reset', { jobs: -1 })).status).toBe(400);
		} finally {
			await sandbox.stop();
		}
	});
});

describe('scale', () => {
	// How fast they start is measured by npm run bench, not here.
	test('10,000 jobs start and list in full', async () => {
		const sandbox = await startSandbox({ quiet: true, jobs: 10_000 });
		try {
			const list = await api(sandbox, '/Job');
			expect(list.status).toBe(200);
			const closed = [...sandbox.store.jobs.values()].filter(
				(r) => r.job.JobStatus === 'Closed',
			).length;
			expect(list.body).toHaveLength(10_000 - closed);
		} finally {
			await sandbox.stop();
		}
	});
});

describe('options', () => {
	test('port 0 picks a free port; the url is the credential base URL', async () => {
		const sandbox = await startSandbox({ quiet: true, jobs: 1, adminKey: 'a', key: 'b' });
		try {
			expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(sandbox.apiUrl).toBe(`${sandbox.url}/api/v3`);
			expect(sandbox.port).toBeGreaterThan(0);
			expect(
				(await fetch(`${sandbox.url}/api/v3/Job`, { headers: { 'X-API-KEY': 'b' } })).status,
			).toBe(200);
		} finally {
			await sandbox.stop();
		}
	});

	test('bad options are refused', async () => {
		await expect(startSandbox({ quiet: true, jobs: -1 })).rejects.toThrow(/jobs/);
		await expect(startSandbox({ quiet: true, adminKey: 'same', key: 'same' })).rejects.toThrow(
			/differ/,
		);
	});

	test('stop() is idempotent and ends in-flight requests', async () => {
		const sandbox = await startSandbox({ quiet: true, jobs: 1 });
		sandbox.setFaults({ endpoints: { '*': { latencyMs: 5_000 } } });
		const pending = fetch(`${sandbox.apiUrl}/Job`, { headers: { 'X-API-KEY': sandbox.key } }).then(
			(response) => response.status,
			() => 'closed',
		);
		await sleep(50);
		await Promise.all([sandbox.stop(), sandbox.stop()]);
		// Closed, not answered: stop did not wait for the five seconds of latency to pass.
		expect(await pending).toBe('closed');
	});
});
