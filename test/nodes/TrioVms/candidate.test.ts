/** Candidate: Find by Email, Create and Find or Create, through n8n's engine against the sandbox. */
import type { IDataObject } from 'n8n-workflow';

import { errorText, SMALLEST_CANDIDATE_CREATE, useSandbox } from '../../support/sandbox-harness';

const t = useSandbox();

function seededCandidate() {
	return [...t.sandbox.store.candidates.values()][0];
}

const rowParameters = {
	firstName: '={{ $json.first }}',
	lastName: '={{ $json.last }}',
	email: '={{ $json.email }}',
	additionalFields: { phone: '={{ $json.phone }}', isNicotineFree: '={{ $json.nicotineFree }}' },
	stateLicenses: {
		license: [
			{
				state: '={{ $json.licenseState }}',
				isCompact: '={{ $json.compact }}',
				expirationDate: '={{ $json.expires }}',
			},
		],
	},
};

describe('Candidate: Find by Email', () => {
	it('returns the candidates with that address', async () => {
		const candidate = seededCandidate();
		const { output, error } = await t.run({
			resource: 'candidate',
			operation: 'findByEmail',
			email: candidate.email1.toUpperCase(),
		});
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.number)).toEqual([candidate.number]);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(t.apiRequests()[0]).toMatchObject({
			method: 'GET',
			path: '/api/v3/candidates',
			query: { email: candidate.email1.toUpperCase() },
		});
	});

	it('returns nothing when no candidate has the address', async () => {
		const { output, error } = await t.run({
			resource: 'candidate',
			operation: 'findByEmail',
			email: 'nobody@nowhere.example',
		});
		expect(error).toBeUndefined();
		expect(output).toEqual([]);
	});

	it('refuses an address that is not one, before sending anything', async () => {
		const { error } = await t.run(
			{ resource: 'candidate', operation: 'findByEmail', email: '={{ $json.email }}' },
			{ input: [{ email: 'jane.doe@' }] },
		);
		expect(errorText(error).message).toBe(
			'"Email" must be a valid email address such as name@agency.com, got "jane.doe@"',
		);
		expect(t.apiRequests()).toHaveLength(0);
	});
});

describe('Candidate: Create', () => {
	it('sends every field of the spec and returns the new candidate with its number', async () => {
		const { output, error } = await t.run({
			resource: 'candidate',
			operation: 'create',
			firstName: 'Jane',
			lastName: 'Doe',
			email: 'jane.create@agency.example',
			additionalFields: { phone: '(512) 555-0142', isNicotineFree: true, isAlcoholFree: false },
			stateLicenses: {
				license: [
					{ state: 'TX', isCompact: true, expirationDate: '2027-05-31T00:00:00' },
					{ state: 'CA', isCompact: false, expirationDate: '' },
				],
			},
		});
		expect(error).toBeUndefined();
		expect(output).toHaveLength(1);
		const created = output[0].json;
		expect(created).toMatchObject({
			firstName: 'Jane',
			lastName: 'Doe',
			email1: 'jane.create@agency.example',
			phone1: '(512) 555-0142',
			isNicotineFree: true,
			isAlcoholFree: false,
			stateLicenses: [
				{ state: 'TX', isCompact: true, expirationDate: '2027-05-31' },
				{ state: 'CA', isCompact: false },
			],
		});
		expect(typeof created.number).toBe('number');
		expect(t.sandbox.store.candidates.get(created.number as number)?.email1).toBe(
			'jane.create@agency.example',
		);
		// Skip If Email Exists is on by default: the address is looked up once, then created once.
		expect(t.apiRequests().map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /api/v3/candidates',
			'POST /api/v3/candidates',
		]);
		expect(created._trio).toEqual({ action: 'created', matchCount: 0 });
	});

	it('reads spreadsheet values: text booleans, state names and US dates', async () => {
		const { output, error } = await t.run(
			{ resource: 'candidate', operation: 'create', ...rowParameters },
			{
				input: [
					{
						first: 'Ann',
						last: 'Lee',
						email: ' ann.lee@agency.example ',
						phone: 5125550199,
						nicotineFree: 'Yes',
						licenseState: 'texas',
						compact: 'TRUE',
						expires: '5/31/2027',
					},
				],
			},
		);
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({
			email1: 'ann.lee@agency.example',
			phone1: '5125550199',
			isNicotineFree: true,
			stateLicenses: [{ state: 'TX', isCompact: true, expirationDate: '2027-05-31' }],
		});
	});

	it.each([
		[{ email: 'ann@' }, '"Email" must be a valid email address'],
		[{ first: '  ' }, '"First Name" is required but empty'],
		[
			{ licenseState: 'Texass' },
			'"State Licenses (license 1): State" must be a two-letter US state',
		],
		[
			{ expires: '2027-02-30' },
			'"State Licenses (license 1): Expiration Date" is not a real calendar date',
		],
		[
			{ expires: '31.05.2027' },
			'"State Licenses (license 1): Expiration Date" must be a date such as 2027-05-31',
		],
		[
			{ compact: 'sometimes' },
			'"State Licenses (license 1): Compact License" must be true or false',
		],
		[{ nicotineFree: 'perhaps' }, '"Nicotine Free" must be true or false'],
	])('refuses %j before sending anything', async (change, message) => {
		const row = {
			first: 'Ann',
			last: 'Lee',
			email: 'ann@agency.example',
			licenseState: 'TX',
			compact: false,
			expires: '2027-05-31',
			...change,
		};
		const { error } = await t.run(
			{ resource: 'candidate', operation: 'create', ...rowParameters },
			{ input: [row] },
		);
		expect(errorText(error).message).toContain(message);
		expect(errorText(error).itemIndex).toBe(0);
		expect(t.apiRequests()).toHaveLength(0);
	});

	it('lets rows with fewer licenses share one node: an empty entry is skipped', async () => {
		const { output, error } = await t.run(
			{
				resource: 'candidate',
				operation: 'create',
				...rowParameters,
				stateLicenses: {
					license: [
						{ state: '={{ $json.license1 }}', expirationDate: '={{ $json.expires1 }}' },
						{ state: '={{ $json.license2 }}', expirationDate: '={{ $json.expires2 }}' },
					],
				},
			},
			{
				input: [
					{
						first: 'One',
						last: 'License',
						email: 'one@agency.example',
						license1: 'TX',
						expires1: '2027-05-31',
						license2: '',
						expires2: '',
					},
					{
						first: 'Two',
						last: 'Licenses',
						email: 'two@agency.example',
						license1: 'TX',
						expires1: '',
						license2: 'CA',
						expires2: '2028-01-31',
					},
				],
			},
		);
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.stateLicenses)).toEqual([
			[{ state: 'TX', isCompact: false, expirationDate: '2027-05-31' }],
			[
				{ state: 'TX', isCompact: false, expirationDate: null },
				{ state: 'CA', isCompact: false, expirationDate: '2028-01-31' },
			],
		]);
	});

	it('takes several licenses from one cell or expression: "TX, CA", a list of states or of licenses', async () => {
		const create = (licenseList: string | Array<string | IDataObject>, email: string) =>
			t.run(
				{
					resource: 'candidate',
					operation: 'create',
					firstName: 'List',
					lastName: 'Licenses',
					email,
					additionalFields: { licenseList: '={{ $json.licenses }}' },
				},
				{ input: [{ licenses: licenseList }] },
			);
		const text = await create('TX, california; NY', 'list1@agency.example');
		expect(text.output[0].json.stateLicenses).toEqual([
			{ state: 'TX', isCompact: false, expirationDate: null },
			{ state: 'CA', isCompact: false, expirationDate: null },
			{ state: 'NY', isCompact: false, expirationDate: null },
		]);
		const objects = await create(
			[{ State: 'FL', IsCompact: true, ExpirationDate: '2028-01-31' }, 'GA'],
			'list2@agency.example',
		);
		expect(objects.output[0].json.stateLicenses).toEqual([
			{ state: 'FL', isCompact: true, expirationDate: '2028-01-31' },
			{ state: 'GA', isCompact: false, expirationDate: null },
		]);
		const wrong = await create('TX, Texass', 'list3@agency.example');
		expect(errorText(wrong.error).message).toContain(
			'"State Licenses (List) (license 2): State" must be a two-letter US state',
		);
	});

	it('refuses the same state twice', async () => {
		const { error } = await t.run({
			...SMALLEST_CANDIDATE_CREATE,
			stateLicenses: { license: [{ state: 'TX' }, { state: '={{ "tx" }}' }] },
		});
		expect(errorText(error).message).toBe(
			'"State Licenses" list TX more than once; give one license per state',
		);
		expect(t.apiRequests()).toHaveLength(0);
	});
});

describe('Candidate: Find or Create', () => {
	it('returns the existing candidate without creating one', async () => {
		const candidate = seededCandidate();
		const before = t.sandbox.store.candidates.size;
		const { output, error } = await t.run({
			resource: 'candidate',
			operation: 'findOrCreate',
			firstName: 'Someone',
			lastName: 'Else',
			email: candidate.email1,
		});
		expect(error).toBeUndefined();
		expect(output[0].json).toMatchObject({
			number: candidate.number,
			_trio: { action: 'found', matchCount: 1 },
		});
		expect(t.sandbox.store.candidates.size).toBe(before);
		expect(t.apiRequests().map((r) => r.method)).toEqual(['GET']);
	});

	it('creates the candidate when nobody has the address, and finds it on the next run', async () => {
		const parameters = {
			resource: 'candidate',
			operation: 'findOrCreate',
			firstName: 'New',
			lastName: 'Person',
			email: 'new.person@agency.example',
			stateLicenses: { license: [{ state: 'FL', isCompact: true, expirationDate: '2028-01-31' }] },
		};
		const first = await t.run(parameters);
		expect(first.output[0].json).toMatchObject({
			email1: 'new.person@agency.example',
			stateLicenses: [{ state: 'FL', isCompact: true, expirationDate: '2028-01-31' }],
			_trio: { action: 'created', matchCount: 0 },
		});
		expect(t.apiRequests().map((r) => `${r.method} ${r.path}`)).toEqual([
			'GET /api/v3/candidates',
			'POST /api/v3/candidates',
		]);

		t.clearRequests();
		const second = await t.run(parameters);
		expect(second.output[0].json).toMatchObject({
			number: first.output[0].json.number,
			_trio: { action: 'found' },
		});
		expect(t.apiRequests().map((r) => r.method)).toEqual(['GET']);
	});

	it('handles a sheet of rows: found, created and invalid, each paired with its row', async () => {
		const existing = seededCandidate();
		const rows: IDataObject[] = [
			{
				first: 'X',
				last: 'Y',
				email: existing.email1,
				licenseState: 'TX',
				compact: false,
				expires: '',
			},
			{
				first: 'Row',
				last: 'Two',
				email: 'row.two@agency.example',
				licenseState: 'NY',
				compact: false,
				expires: '2027-01-01',
			},
			{
				first: 'Row',
				last: 'Three',
				email: 'not-an-email',
				licenseState: 'NY',
				compact: false,
				expires: '',
			},
		];
		const { output, error } = await t.run(
			{ resource: 'candidate', operation: 'findOrCreate', ...rowParameters },
			{ input: rows, continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(
			output.map((item) => [
				item.pairedItem,
				(item.json._trio as IDataObject | undefined)?.action ?? item.json.error,
			]),
		).toEqual([
			[{ item: 0 }, 'found'],
			[{ item: 1 }, 'created'],
			[
				{ item: 2 },
				'"Email" must be a valid email address such as name@agency.com, got "not-an-email"',
			],
		]);
		// The invalid row sent nothing: one lookup per valid row and one create.
		expect(t.apiRequests().map((r) => r.method)).toEqual(['GET', 'GET', 'POST']);
	});

	it('picks the oldest record when several share the address', async () => {
		const email = 'twice@agency.example';
		const a = t.sandbox.store.createCandidate({ firstName: 'T', lastName: 'One', email1: email });
		t.sandbox.store.createCandidate({ firstName: 'T', lastName: 'Two', email1: email });
		const { output } = await t.run({
			resource: 'candidate',
			operation: 'findOrCreate',
			firstName: 'T',
			lastName: 'W',
			email,
		});
		expect(output[0].json).toMatchObject({
			number: a.number,
			_trio: { action: 'found', matchCount: 2 },
		});
	});
});
