import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { WebhookRegistration } from '../../../nodes/shared/schemas';
import { readRegistrationList as readListing } from '../../../nodes/shared/webhookRegistrations';
import {
	checkInPlace,
	planRemoval,
	planSync,
	resolveRegistrationStrings,
	sameEventName,
} from '../../../nodes/TrioVmsTrigger/planner';
import {
	buildRegistrationUrl,
	readRegistrationUrl,
	registrationName,
	urlBase,
} from '../../../nodes/TrioVmsTrigger/registrationUrls';
import { explainFailure } from '../../../nodes/shared/errors';
import { hashToken } from '../../../nodes/TrioVmsTrigger/deliveryToken';
import type { ScopeState } from '../../../nodes/TrioVmsTrigger/state';
import { workflowNode } from '../../support/workflow-node';

const URL_NOW = 'https://n8n.agency.com/webhook/abc-123/webhook';
const URL_OLD = 'https://old.agency.com/webhook/abc-123/webhook';
const URL_TEST = 'https://n8n.agency.com/webhook-test/abc-123/webhook';
const URL_STAGING = 'https://staging.agency.com/webhook/abc-123/webhook';
const TOKEN = 't0k3n';
const nameFor = (event: string) => `n8n: Shifts (${event})`;
const node = workflowNode('Trio VMS Trigger', 'x');

/** What the trigger remembered of its registrations: their address, its token's hash, the Ids. */
function remembered(webhookUrl: string, ids: ScopeState['ids'], token: string = TOKEN): ScopeState {
	return { webhookUrl, tokenHash: hashToken(token), ids };
}

function reg(
	id: string,
	event: string,
	overrides: Partial<WebhookRegistration> = {},
	url = URL_NOW,
	token = TOKEN,
): WebhookRegistration {
	return {
		Id: id,
		Name: nameFor(event),
		Url: buildRegistrationUrl(url, event, token),
		Events: [event],
		IsActive: true,
		...overrides,
	};
}

describe('registration URLs and names', () => {
	it('carries the event and the token as query parameters and reads them back', () => {
		const url = buildRegistrationUrl(URL_NOW, 'Per Diem Shift Opened', TOKEN);
		expect(url).toBe(`${URL_NOW}?event=Per%20Diem%20Shift%20Opened&token=${TOKEN}`);
		expect(readRegistrationUrl(url)).toEqual({
			base: URL_NOW,
			event: 'Per Diem Shift Opened',
			token: TOKEN,
		});
		expect(readRegistrationUrl(`${URL_NOW}?event=Job+Update&token=x`)?.event).toBe('Job Update');
	});

	it('compares bases without query, trailing slash or host case', () => {
		expect(urlBase('HTTPS://N8N.Agency.com/webhook/abc-123/webhook/?x=1#f')).toBe(URL_NOW);
		expect(urlBase('not a url')).toBeUndefined();
		expect(urlBase(null)).toBeUndefined();
	});

	it('names registrations so users recognise them, test ones apart, within a length limit', () => {
		expect(registrationName('New shifts to Slack', 'Per Diem Shift Opened', 'production')).toBe(
			'n8n: New shifts to Slack (Per Diem Shift Opened)',
		);
		expect(registrationName('Flow', 'Job Update', 'test')).toBe('n8n test: Flow (Job Update)');
		expect(registrationName(undefined, 'Job Update', 'production')).toBe(
			'n8n: workflow (Job Update)',
		);
		const long = registrationName('x'.repeat(500), 'Job Update', 'production');
		expect(long.length).toBeLessThanOrEqual(200);
		expect(long.endsWith('... (Job Update)')).toBe(true);
	});

	it('compares event names loosely', () => {
		expect(sameEventName('Job Update', 'JobUpdate')).toBe(true);
		expect(sameEventName('per diem shift opened', 'Per Diem Shift Opened')).toBe(true);
		expect(sameEventName('Job Update', 'Submission Update')).toBe(false);
	});
});

describe('readListing', () => {
	it('reads tolerantly: extra fields kept, missing ones tolerated, numeric ids, entries without Id skipped', () => {
		const listing = readListing([
			{ Id: 'a', Name: 'x', Url: URL_NOW, Events: ['Job Update'], IsActive: true, CreatedBy: 'me' },
			{ Id: 7 },
			{ Name: 'no id' },
			'junk',
		]);
		expect(listing.map((r) => r.Id)).toEqual(['a', '7']);
		expect(listing[0]).toHaveProperty('CreatedBy', 'me');
	});

	it('accepts an empty answer and a wrapped list, refuses text', () => {
		expect(readListing(undefined)).toEqual([]);
		expect(readListing({ value: [{ Id: 'a' }] }).map((r) => r.Id)).toEqual(['a']);
		expect(() => readListing('<html>')).toThrow(/instead of a list/);
	});
});

describe('readListing: field names in any letter case', () => {
	it('reads camelCase and upper-case names of the spec fields, keeping the rest', () => {
		const listing = readListing([
			{
				id: 'a',
				name: 'x',
				url: URL_NOW,
				events: ['Job Update'],
				isActive: false,
				createdBy: 'me',
			},
			{ ID: 9, URL: URL_OLD, IsActive: true },
		]);
		expect(listing).toEqual([
			{
				Id: 'a',
				Name: 'x',
				Url: URL_NOW,
				Events: ['Job Update'],
				IsActive: false,
				createdBy: 'me',
			},
			{ Id: '9', Url: URL_OLD, IsActive: true },
		]);
	});

	it('refuses a listing whose entries exist but none can be read, naming the fields it saw', () => {
		expect(() => readListing([{ registrationKey: 'a', target: URL_NOW }])).toThrow(
			/listed 1 webhook registration, but none could be read.*registrationKey, target/,
		);
	});
});

describe('resolveRegistrationStrings', () => {
	it('uses our names when the service gives no list', () => {
		const { strings, missing } = resolveRegistrationStrings(['Job Update'], undefined);
		expect(strings.get('Job Update')).toBe('Job Update');
		expect(missing).toEqual([]);
	});

	it("prefers the service's spelling and reports events it does not offer", () => {
		const { strings, missing } = resolveRegistrationStrings(
			['Job Update', 'Per Diem Shift Opened'],
			['JobUpdate', { Name: 'Submission Update' }],
		);
		expect(strings.get('Job Update')).toBe('JobUpdate');
		expect(missing).toEqual(['Per Diem Shift Opened']);
	});
});

describe('checkInPlace (checkExists)', () => {
	const stored = remembered(URL_NOW, { 'Job Update': 'a', 'Submission Update': 'b' });
	const events = ['Job Update', 'Submission Update'] as const;
	const listing = [
		reg('a', 'Job Update'),
		reg('b', 'Submission Update'),
		reg('z', 'Job Update', { IsActive: false }),
	];

	it('is true when every selected event has an active registration at this URL with this token', () => {
		expect(checkInPlace({ listing, events, stored, webhookUrl: URL_NOW })).toEqual({
			inPlace: true,
		});
	});

	it.each([
		['nothing stored', { stored: undefined }],
		['no event selected', { events: [] }],
		['the address changed', { webhookUrl: URL_OLD }],
		['an event added', { events: [...events, 'Per Diem Shift Opened'] }],
		['an event removed', { events: ['Job Update'] }],
		['a registration gone', { listing: [listing[0]] }],
		[
			'a registration inactive',
			{ listing: [listing[0], reg('b', 'Submission Update', { IsActive: false })] },
		],
		[
			'another token',
			{ listing: [listing[0], reg('b', 'Submission Update', {}, URL_NOW, 'other')] },
		],
		['another address', { listing: [listing[0], reg('b', 'Submission Update', {}, URL_OLD)] }],
		[
			'URL for another event',
			{
				listing: [
					listing[0],
					{
						...reg('b', 'Submission Update'),
						Url: buildRegistrationUrl(URL_NOW, 'Job Update', TOKEN),
					},
				],
			},
		],
		['a stray active registration at this URL', { listing: [...listing, reg('c', 'Job Update')] }],
	])('is false when %s', (_label, change) => {
		const input = {
			listing,
			events: [...events] as string[],
			stored,
			webhookUrl: URL_NOW,
			...change,
		};
		const result = checkInPlace(input as Parameters<typeof checkInPlace>[0]);
		expect(result.inPlace).toBe(false);
		expect(result.reason).toBeTruthy();
	});

	it('takes a registration without IsActive as active', () => {
		const loose = [{ ...listing[0], IsActive: undefined }, listing[1]];
		expect(checkInPlace({ listing: loose, events, stored, webhookUrl: URL_NOW }).inPlace).toBe(
			true,
		);
	});
});

describe('planSync (create)', () => {
	const base = {
		events: ['Job Update', 'Submission Update'] as const,
		webhookUrl: URL_NOW,
		token: TOKEN,
		nameFor,
	};

	it('creates one registration per event when nothing exists', () => {
		const plan = planSync({ ...base, listing: [], stored: undefined });
		expect(plan.unchanged).toEqual([]);
		expect(plan.deactivate).toEqual([]);
		expect(plan.save).toEqual([
			{
				event: 'Job Update',
				request: {
					Name: nameFor('Job Update'),
					Url: buildRegistrationUrl(URL_NOW, 'Job Update', TOKEN),
					Events: ['Job Update'],
					IsActive: true,
				},
			},
			{
				event: 'Submission Update',
				request: {
					Name: nameFor('Submission Update'),
					Url: buildRegistrationUrl(URL_NOW, 'Submission Update', TOKEN),
					Events: ['Submission Update'],
					IsActive: true,
				},
			},
		]);
	});

	it('re-activates stored registrations instead of creating new ones', () => {
		const stored = remembered(URL_NOW, { 'Job Update': 'a', 'Submission Update': 'b' });
		const listing = [reg('a', 'Job Update'), reg('b', 'Submission Update', { IsActive: false })];
		const plan = planSync({ ...base, listing, stored });
		expect(plan.save).toEqual([
			{ event: 'Job Update', request: expect.objectContaining({ Id: 'a', IsActive: true }) },
			{ event: 'Submission Update', request: expect.objectContaining({ Id: 'b', IsActive: true }) },
		]);
		expect(plan.deactivate).toEqual([]);
	});

	it('leaves correct registrations alone when nothing must be written, keeping the token in force', () => {
		const stored = remembered(URL_NOW, { 'Job Update': 'a', 'Submission Update': 'b' });
		const listing = [reg('a', 'Job Update'), reg('b', 'Submission Update')];
		const plan = planSync({ ...base, token: 'a-fresh-token', listing, stored });
		expect(plan.unchanged).toEqual([
			{ event: 'Job Update', id: 'a' },
			{ event: 'Submission Update', id: 'b' },
		]);
		expect(plan.save).toEqual([]);
		expect(plan.tokenHash).toBe(hashToken(TOKEN));
	});

	it('rotates the token: when one registration must be written, all are written with the fresh token', () => {
		const stored = remembered(URL_NOW, { 'Job Update': 'a', 'Submission Update': 'b' });
		const listing = [reg('a', 'Job Update'), reg('b', 'Submission Update', { IsActive: false })];
		const plan = planSync({ ...base, token: 'a-fresh-token', listing, stored });
		expect(plan.unchanged).toEqual([]);
		expect(plan.save.map((save) => [save.request.Id, save.request.Url])).toEqual([
			['a', buildRegistrationUrl(URL_NOW, 'Job Update', 'a-fresh-token')],
			['b', buildRegistrationUrl(URL_NOW, 'Submission Update', 'a-fresh-token')],
		]);
		expect(plan.tokenHash).toBe(hashToken('a-fresh-token'));
	});

	it('moves stored registrations to a changed n8n address', () => {
		const stored = remembered(URL_OLD, { 'Job Update': 'a' });
		const plan = planSync({
			...base,
			events: ['Job Update'],
			listing: [reg('a', 'Job Update', {}, URL_OLD)],
			stored,
		});
		expect(plan.save).toEqual([
			{
				event: 'Job Update',
				request: expect.objectContaining({
					Id: 'a',
					Url: buildRegistrationUrl(URL_NOW, 'Job Update', TOKEN),
				}),
			},
		]);
	});

	it('without stored ids, reuses registrations at this URL for the event (active first) and switches off duplicates', () => {
		const listing = [
			reg('old1', 'Job Update', { IsActive: false }, URL_NOW, 'stale'),
			reg('old2', 'Job Update', {}, URL_NOW, 'stale'),
			reg('old3', 'Job Update', {}, URL_NOW, 'stale'),
			reg('other', 'Job Update', {}, 'https://elsewhere.example.com/hook'),
		];
		const plan = planSync({ ...base, events: ['Job Update'], listing, stored: undefined });
		expect(plan.save).toEqual([
			{
				event: 'Job Update',
				request: expect.objectContaining({
					Id: 'old2',
					Url: buildRegistrationUrl(URL_NOW, 'Job Update', TOKEN),
				}),
			},
		]);
		expect(plan.deactivate.map((r) => r.Id)).toEqual(['old3']);
	});

	it('switches off registrations of events no longer selected, keeping their fields', () => {
		const stored = remembered(URL_NOW, { 'Job Update': 'a', 'Per Diem Shift Opened': 'p' });
		const listing = [reg('a', 'Job Update'), reg('p', 'Per Diem Shift Opened')];
		const plan = planSync({ ...base, events: ['Job Update'], listing, stored });
		expect(plan.unchanged).toEqual([{ event: 'Job Update', id: 'a' }]);
		expect(plan.deactivate).toEqual([{ ...listing[1], IsActive: false }]);
	});

	it('switches off what is left at a previous address with the stored token, never foreign registrations', () => {
		const stored = remembered(URL_OLD, {});
		const listing = [
			reg('left', 'Job Update', {}, URL_OLD),
			reg('foreign', 'Job Update', {}, URL_OLD, 'someone-else'),
			reg('test', 'Job Update', {}, URL_TEST),
		];
		const plan = planSync({ ...base, events: ['Job Update'], listing, stored });
		expect(plan.save).toEqual([
			{ event: 'Job Update', request: expect.not.objectContaining({ Id: expect.anything() }) },
		]);
		expect(plan.deactivate.map((r) => r.Id)).toEqual(['left']);
	});

	it('never repoints a remembered registration that now points at another n8n: registers its own instead', () => {
		// A staging copy took the registration over (production's address answered "not
		// registered" while it restarted) and repointed it: production's memory still holds its Id.
		const stored = remembered(URL_NOW, { 'Job Update': 'a' });
		const listing = [reg('a', 'Job Update', {}, URL_STAGING, 'staging-token')];
		const plan = planSync({ ...base, events: ['Job Update'], listing, stored });
		expect(plan.unchanged).toEqual([]);
		expect(plan.save).toEqual([
			{
				event: 'Job Update',
				request: expect.not.objectContaining({ Id: expect.anything() }),
			},
		]);
		expect(plan.deactivate).toEqual([]);
		// Said to production's user: the next activation is the first moment anything can tell.
		expect(plan.movedAway).toEqual([
			{ event: 'Job Update', id: 'a', to: urlBase(URL_STAGING), active: true },
		]);
	});

	it('reports nothing as moved away when its registrations are where it left them, or at its previous address', () => {
		const stored = remembered(URL_NOW, { 'Job Update': 'a' });
		const listing = [reg('a', 'Job Update', {}, URL_NOW, TOKEN)];
		expect(planSync({ ...base, events: ['Job Update'], listing, stored }).movedAway).toEqual([]);
		expect(
			planSync({ ...base, events: ['Job Update'], listing: [], stored: undefined }).movedAway,
		).toEqual([]);
	});

	it('never repoints a remembered registration at the remembered address that carries another token', () => {
		// The original at the remembered address rotated its token after this copy was taken.
		const stored = remembered(URL_OLD, { 'Job Update': 'a' });
		const listing = [reg('a', 'Job Update', {}, URL_OLD, 'rotated-by-the-original')];
		const plan = planSync({ ...base, events: ['Job Update'], listing, stored });
		expect(plan.save.map((save) => save.request.Id)).toEqual([undefined]);
		expect(plan.deactivate).toEqual([]);
	});

	it('leaves a remembered registration whose URL cannot be read alone', () => {
		const stored = remembered(URL_NOW, { 'Job Update': 'a', 'Submission Update': 'b' });
		const listing = [
			reg('a', 'Job Update', { Url: null }),
			reg('b', 'Submission Update', { Url: 'not a url' }),
		];
		const plan = planSync({ ...base, events: ['Job Update'], listing, stored });
		expect(plan.save.map((save) => save.request.Id)).toEqual([undefined]);
		expect(plan.deactivate).toEqual([]);
	});

	it("keeps test and production registrations apart (the other scope's URL is never touched)", () => {
		const listing = [reg('prod', 'Job Update'), reg('t', 'Job Update', {}, URL_TEST, 'tt')];
		const plan = planSync({
			...base,
			webhookUrl: URL_TEST,
			events: ['Job Update'],
			listing,
			stored: undefined,
			token: 'tt',
		});
		expect(
			plan.unchanged.map((u) => u.id).concat(plan.save.map((s) => s.request.Id ?? 'new')),
		).toEqual(['t']);
		expect(plan.deactivate).toEqual([]);
	});

	it("uses the service's registration string in Events", () => {
		const plan = planSync({
			...base,
			events: ['Job Update'],
			listing: [],
			stored: undefined,
			registrationString: () => 'JobUpdate',
		});
		expect(plan.save[0].request.Events).toEqual(['JobUpdate']);
		expect(plan.save[0].request.Url).toContain('event=Job%20Update');
	});
});

describe('planRemoval (delete)', () => {
	it('switches off stored and stray active registrations of this node only', () => {
		const stored = remembered(URL_OLD, { 'Job Update': 'a' });
		const listing = [
			reg('a', 'Job Update', {}, URL_OLD),
			reg('stray', 'Submission Update'),
			reg('off', 'Job Update', { IsActive: false }),
			reg('test', 'Job Update', {}, URL_TEST),
			reg('foreign', 'Job Update', {}, 'https://elsewhere.example.com/x'),
		];
		expect(
			planRemoval({ listing, stored, webhookUrl: URL_NOW }).map((r) => [r.Id, r.IsActive]),
		).toEqual([
			['a', false],
			['stray', false],
		]);
	});

	it('never switches off a remembered registration that another n8n has repointed to itself', () => {
		// Production's Id, in a staging copy's memory; production repointed it back to itself
		// (new token) after the copy had taken it over. Deactivating the copy must leave it on.
		const stored = remembered(
			URL_STAGING,
			{ 'Job Update': 'a', 'Submission Update': 'b' },
			'staging-token',
		);
		const listing = [
			reg('a', 'Job Update', {}, URL_NOW, 'production-token'),
			reg('b', 'Submission Update', {}, URL_STAGING, 'staging-token'),
		];
		expect(
			planRemoval({ listing, stored, webhookUrl: URL_STAGING }).map((r) => [r.Id, r.Url]),
		).toEqual([['b', listing[1].Url]]);
	});

	it('switches off a remembered registration at the remembered address only with the remembered token', () => {
		const stored = remembered(URL_OLD, { 'Job Update': 'a', 'Submission Update': 'b' });
		const listing = [
			reg('a', 'Job Update', {}, URL_OLD),
			reg('b', 'Submission Update', {}, URL_OLD, 'another-token'),
			reg('c', 'Per Diem Shift Opened', { Url: null }),
		];
		expect(planRemoval({ listing, stored, webhookUrl: URL_NOW }).map((r) => r.Id)).toEqual(['a']);
	});

	it('works with nothing stored', () => {
		expect(
			planRemoval({
				listing: [reg('x', 'Job Update')],
				stored: undefined,
				webhookUrl: URL_NOW,
			}).map((r) => r.Id),
		).toEqual(['x']);
		expect(
			planRemoval({ listing: [reg('x', 'Job Update')], stored: undefined, webhookUrl: undefined }),
		).toEqual([]);
	});
});

describe('explainFailure', () => {
	it('names the step and, for 403, says agency admin permission is needed', () => {
		const error = new NodeApiError(
			node,
			{ status: 403 },
			{ message: 'Trio VMS refused the API key: no', httpCode: '403' },
		);
		const explained = explainFailure(
			node,
			'Registering the Trio VMS webhook for "Job Update"',
			error,
		);
		expect(explained).toBe(error);
		expect(explained.message).toMatch(
			/^Registering the Trio VMS webhook for "Job Update" failed\. Trio VMS refused the API key: no/,
		);
		expect(explained.message).toMatch(/agency administrator permission/);
	});

	it('does not repeat the hint when the service already gave it', () => {
		const error = new NodeApiError(
			node,
			{ status: 403 },
			{
				message: 'Trio VMS refused the API key: needs the agency administrator permission',
				httpCode: '403',
			},
		);
		// The Sync Trigger is named after it (issue 19): it works with any key.
		expect(explainFailure(node, 'Step', error).message).toBe(
			'Step failed. Trio VMS refused the API key: needs the agency administrator permission. Without such a key, use the Trio VMS Sync Trigger: it works with any API key and needs no administrator permission.',
		);
	});

	it('keeps other failures as they are, with the step', () => {
		const error = new NodeApiError(
			node,
			{ status: 500 },
			{ message: 'Trio VMS failed (its error, not yours)', httpCode: '500' },
		);
		expect(explainFailure(node, 'Step', error).message).toBe(
			'Step failed. Trio VMS failed (its error, not yours)',
		);
		expect(explainFailure(node, 'Step', new Error('boom'))).toBeInstanceOf(NodeOperationError);
		expect(explainFailure(node, 'Step', new Error('boom')).message).toBe('Step failed: boom');
	});
});
