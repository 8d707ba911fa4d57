/**
 * Values as spreadsheets and copied web pages give them, through n8n's engine: converted when
 * their meaning is certain, refused with a message naming the field when it is not, and never
 * turned silently into something else (a day in 1970, a second candidate).
 */
import { runNode, trioCredentials } from '../../../harness/engine/engine';
import { ScriptedServer } from '../../support/scripted-server';
import { errorText, useSandbox } from '../../support/sandbox-harness';

const t = useSandbox();

describe('dates from spreadsheets', () => {
	it('refuses a spreadsheet day number in Modified After, naming the date it probably means, and sends nothing', async () => {
		const { error } = await t.run(
			{
				resource: 'job',
				operation: 'getAll',
				returnAll: true,
				filters: { modifiedAfter: '={{ $json.since }}' },
			},
			{ input: [{ since: 45678 }] },
		);
		expect(errorText(error).message).toContain('"Modified After"');
		expect(errorText(error).message).toContain(
			'got 45678, which looks like a spreadsheet day number (2025-01-21)',
		);
		expect(t.apiRequests()).toEqual([]);
	});

	// Issue 22 point 12: -13:30 used to pass although the message says offsets start at -12:00.
	it.each(['+99:99', '-13:30', '-12:01', '+14:01'])(
		'refuses the offset %s, which no place uses, and sends nothing',
		async (offset) => {
			const { error } = await t.run({
				resource: 'job',
				operation: 'getAll',
				returnAll: true,
				filters: { modifiedAfter: `2026-03-01T07:00:00${offset}` },
			});
			expect(errorText(error).message).toContain(
				`"Modified After" has an offset that no place on earth uses (${offset}); offsets run from -12:00 to +14:00`,
			);
			expect(t.apiRequests()).toEqual([]);
		},
	);

	it('refuses an offset that no place uses, and sends nothing', async () => {
		const { error } = await t.run({
			resource: 'job',
			operation: 'getAll',
			returnAll: true,
			filters: { modifiedAfter: '2026-03-01T07:00:00+99:99' },
		});
		expect(errorText(error).message).toMatch(
			/"Modified After" has an offset that no place on earth uses \(\+99:99\)/,
		);
		expect(t.apiRequests()).toEqual([]);
	});
});

describe('e-mail addresses copied from elsewhere', () => {
	/** Candidate Find or Create with the e-mail address the input row brings. */
	const FIND_OR_CREATE_BY_INPUT_EMAIL = {
		resource: 'candidate',
		operation: 'findOrCreate',
		firstName: 'Any',
		lastName: 'Body',
		email: '={{ $json.email }}',
	};

	it('finds the candidate behind a mailto: link with invisible characters instead of creating a second one', async () => {
		const [candidate] = [...t.sandbox.store.candidates.values()];
		const { output, error } = await t.run(FIND_OR_CREATE_BY_INPUT_EMAIL, {
			input: [{ email: `\u200Bmailto:${candidate.email1}\u00A0\uFEFF` }],
		});
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({ number: candidate.number, _trio: { action: 'found' } });
		expect(t.apiRequests().map((request) => request.method)).toEqual(['GET']);
	});

	// Issue 22 point 12: phones wrap copied contacts in bidi controls.
	it.each([
		['U+202A-202E', '\u202A\u202B\u202C\u202D\u202E'],
		['U+2066-2069', '\u2066\u2067\u2068\u2069'],
		['U+200E/200F and U+061C', '\u200E\u200F\u061C'],
	])('finds the candidate behind an address wrapped in bidi controls (%s)', async (_, controls) => {
		const [candidate] = [...t.sandbox.store.candidates.values()];
		const { output, error } = await t.run(FIND_OR_CREATE_BY_INPUT_EMAIL, {
			input: [{ email: `${controls}${candidate.email1}${controls.split('').reverse().join('')}` }],
		});
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({ number: candidate.number, _trio: { action: 'found' } });
		expect(t.apiRequests().map((request) => request.method)).toEqual(['GET']);
	});
});

describe('lookup answers the spec does not show', () => {
	const server = ScriptedServer.forEachTest();
	const findOrCreate = {
		resource: 'candidate',
		operation: 'findOrCreate',
		firstName: 'Jane',
		lastName: 'Doe',
		email: 'Jane.Doe@Agency.example',
	};

	it('tries the lower-case address when the address as written finds nobody', async () => {
		server.respond({ json: [] }, { json: [{ number: 42, email1: 'jane.doe@agency.example' }] });
		const { output, error } = await runNode({
			parameters: findOrCreate,
			credentials: trioCredentials(server.baseUrl, 'key'),
		});
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({ number: 42, _trio: { action: 'found' } });
		expect(server.requests.map((request) => request.query.get('email'))).toEqual([
			'Jane.Doe@Agency.example',
			'jane.doe@agency.example',
		]);
	});

	it('refuses an answer that is not a list of candidates instead of taking it for one, and creates nothing', async () => {
		server.respond({ json: { number: 7, stateLicenses: [] } });
		const { error } = await runNode({
			parameters: { ...findOrCreate, email: 'jane@agency.example' },
			credentials: trioCredentials(server.baseUrl, 'key'),
		});
		expect(errorText(error).message).toContain('a single object, not a list of candidates');
		expect(server.requests.map((request) => request.method)).toEqual(['GET']);
	});

	it('refuses a list whose entries carry no candidate number', async () => {
		server.respond({ json: [{ email1: 'jane@agency.example' }] });
		const { error } = await runNode({
			parameters: { ...findOrCreate, email: 'jane@agency.example' },
			credentials: trioCredentials(server.baseUrl, 'key'),
		});
		expect(errorText(error).message).toContain('not all candidates with a number');
		expect(server.requests.map((request) => request.method)).toEqual(['GET']);
	});
});
