/** The resource-locator list searches and the dropdown loaders, inside n8n-core's LoadOptionsContext. */
import { TRIO_EVENT_NAMES } from '../../../nodes/shared/events';
import { SANDBOX_WITHDRAW_REASONS } from '../../../sandbox';
import { callListSearch, callLoadOptions, trioCredentials } from '../../../harness/engine/engine';
import { useSandbox } from '../../support/sandbox-harness';

const t = useSandbox({ jobs: 30 });

describe('searchJobs (Job "From List")', () => {
	it('lists every open and on-hold job with number, title, facility and place', async () => {
		const { results } = await callListSearch('searchJobs', { credentials: t.admin });
		const jobs = t.sandbox.store.listJobs();
		expect(results).toHaveLength(jobs.length);
		const [job] = jobs;
		expect(results[0]).toEqual({
			name: `${job.Number} · ${job.Title} · ${job.FacilityName ?? job.ClientName} · ${job.City}, ${job.StateAbbreviation}${job.JobStatus === 'OnHold' ? ' (On Hold)' : ''}`,
			value: String(job.Number),
		});
		const held = jobs.find((candidate) => candidate.JobStatus === 'OnHold');
		if (held)
			expect(results.find((r) => r.value === String(held.Number))?.name).toMatch(/\(On Hold\)$/);
	});

	it('filters by the typed words, case-insensitively, on any of those parts', async () => {
		const jobs = t.sandbox.store.listJobs();
		const city = jobs[3].City;
		const byCity = await callListSearch('searchJobs', {
			credentials: t.agency,
			filter: city.toLowerCase(),
		});
		expect(byCity.results.map((r) => r.value).sort()).toEqual(
			jobs
				.filter((job) => job.City === city)
				.map((job) => String(job.Number))
				.sort(),
		);

		const byNumber = await callListSearch('searchJobs', {
			credentials: t.agency,
			filter: String(jobs[5].Number),
		});
		expect(byNumber.results.map((r) => r.value)).toEqual([String(jobs[5].Number)]);

		const none = await callListSearch('searchJobs', {
			credentials: t.agency,
			filter: 'zzz-no-such-job',
		});
		expect(none.results).toEqual([]);
	});

	it('shows the service error when the list cannot be read', async () => {
		await expect(callListSearch('searchJobs', { credentials: t.wrongKey })).rejects.toMatchObject({
			httpCode: '403',
			message: expect.stringMatching(/^Trio VMS refused the API key/),
		});
	});

	it('reads the job list once while the user types, not on every keystroke', async () => {
		// The same sandbox under another name: a credential this process has not listed jobs for.
		const credentials = trioCredentials(
			t.sandbox.url.replace('127.0.0.1', 'localhost'),
			t.sandbox.adminKey,
		);
		t.clearRequests();
		const typed = [];
		for (const filter of ['i', 'ic', 'icu']) {
			typed.push((await callListSearch('searchJobs', { credentials, filter })).results.length);
		}
		expect(t.apiRequests().map((request) => `${request.method} ${request.path}`)).toEqual([
			'GET /api/v3/Job',
		]);
		expect(typed[0]).toBeGreaterThanOrEqual(typed[2]);
	});
});

describe('searchWebhooks (Webhook Registration "From List")', () => {
	it('lists registrations by name, marking inactive ones', async () => {
		const active = t.sandbox.store.saveRegistration({
			Name: 'Alpha hook',
			Url: 'https://hooks.example.com/a',
			Events: ['Job Update'],
			IsActive: true,
		});
		const inactive = t.sandbox.store.saveRegistration({
			Name: 'Beta hook',
			Url: 'https://hooks.example.com/b',
			Events: ['Job Update'],
			IsActive: false,
		});
		const { results } = await callListSearch('searchWebhooks', { credentials: t.admin });
		expect(results).toEqual(
			expect.arrayContaining([
				{ name: 'Alpha hook', value: active.Id },
				{ name: 'Beta hook (inactive)', value: inactive.Id },
			]),
		);
		const filtered = await callListSearch('searchWebhooks', {
			credentials: t.admin,
			filter: 'beta',
		});
		expect(filtered.results.map((r) => r.value)).toEqual([inactive.Id]);
	});
});

describe('searchWithdrawReasons (Reason "From List")', () => {
	it("lists Trio's own reasons, filtered by the typed words", async () => {
		const { results } = await callListSearch('searchWithdrawReasons', { credentials: t.agency });
		expect(results.map((option) => option.value)).toEqual([...SANDBOX_WITHDRAW_REASONS]);
		expect(results.every((option) => option.name === option.value)).toBe(true);
		expect(results.map((option) => option.name)).toContain('Candidate accepted a counter-offer');
		const filtered = await callListSearch('searchWithdrawReasons', {
			credentials: t.agency,
			filter: 'COUNTER',
		});
		expect(filtered.results.map((option) => option.value)).toEqual(
			SANDBOX_WITHDRAW_REASONS.filter((reason) => /counter/i.test(reason)),
		);
	});

	it('says the list could not be loaded, and how to give the reason, instead of offering made-up reasons', async () => {
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Submission/WithdrawReasons': { failNext: 5, failStatus: 500 } },
		});
		const failure = callListSearch('searchWithdrawReasons', { credentials: t.agency });
		await expect(failure).rejects.toThrow(
			/withdraw reasons could not be loaded: Trio VMS failed \(its error, not yours\)/,
		);
		await expect(failure).rejects.toMatchObject({
			description: expect.stringContaining(
				'Choose By Text and type the reason exactly as Trio lists it',
			),
		});
	});

	it('says so with a key the service refuses, naming the refusal', async () => {
		await expect(
			callListSearch('searchWithdrawReasons', { credentials: t.wrongKey }),
		).rejects.toThrow(/withdraw reasons could not be loaded: Trio VMS refused the API key/);
	});
});

describe('getWebhookEvents', () => {
	it('loads the registrable events from Trio, with descriptions', async () => {
		const options = await callLoadOptions('getWebhookEvents', { credentials: t.admin });
		expect(options.map((option) => option.value)).toEqual([...TRIO_EVENT_NAMES]);
		expect(
			options.every(
				(option) => typeof option.description === 'string' && option.description.length > 0,
			),
		).toBe(true);
		expect(t.apiRequests().map((r) => [r.path, r.status])).toEqual([
			['/api/v3/Webhooks/Events', 200],
		]);
	});

	it("falls back to the spec's 15 events when the key may not manage webhooks", async () => {
		const options = await callLoadOptions('getWebhookEvents', { credentials: t.agency });
		expect(options.map((option) => option.value)).toEqual([...TRIO_EVENT_NAMES]);
		expect(t.apiRequests().map((r) => r.status)).toEqual([403]);
	});

	it('falls back when the service fails (500)', async () => {
		t.sandbox.setFaults({
			endpoints: { 'GET /api/v3/Webhooks/Events': { failNext: 5, failStatus: 500 } },
		});
		const fallback = await callLoadOptions('getWebhookEvents', { credentials: t.admin });
		expect(fallback).toHaveLength(15);
	});
});
