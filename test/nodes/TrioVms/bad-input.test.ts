/**
 * The counted bad-input suite: what users type or map from a spreadsheet, wrong in every way a
 * field can be (missing, malformed, the wrong type from an expression, spreadsheet forms, files),
 * for every operation and the credential. Each case runs the node in n8n's engine against the
 * sandbox and asserts a message that names the field and what was expected, and that nothing
 * reached the service where the problem can be seen locally. The count and pass rate are printed.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { trioCredentials } from '../../../harness/engine/engine';
import { byNumber, DOCX, errorText, PDF, useSandbox, wordZip } from '../../support/sandbox-harness';

const t = useSandbox({ jobs: 6 });

interface Case {
	name: string;
	parameters: INodeParameters;
	/** The item the node receives; expressions read it as $json. */
	input?: IDataObject;
	file?: { fileName: string; mimeType: string; data: Buffer; property?: string };
	/** The field's label, as the user sees it, must be named (n8n's own check says "job number"). */
	field: string | RegExp;
	/** And what was expected, or what was wrong. */
	expected: RegExp;
	/** Credential data instead of the sandbox's admin key. */
	credentials?: (sandboxUrl: string, key: string) => ICredentialDataDecryptedObject;
}

const JOB = { __rl: true, mode: 'number', value: '100001' };
const expr = (path: string) => `={{ $json.${path} }}`;
const candidate = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'candidate',
	operation: 'create',
	firstName: 'Jane',
	lastName: 'Doe',
	email: 'jane.doe@agency.example',
	additionalFields: {},
	options: { skipIfEmailExists: false },
	...extra,
});
const license = (fields: IDataObject): INodeParameters => ({
	stateLicenses: { license: [{ state: 'TX', isCompact: false, ...fields }] },
});
const submission = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'submission',
	operation: 'create',
	job: JOB,
	candidateNumber: '5001',
	binaryPropertyName: 'data',
	additionalFields: {},
	...extra,
});
const pdf = { fileName: 'cv.pdf', mimeType: 'application/pdf', data: PDF };

const CASES: Case[] = [
	// ------------------------------------------------------------------ Job: Get
	...[
		['missing', ''],
		['text', 'abc'],
		['negative', '-5'],
		['a fraction', '12.5'],
		['zero', '0'],
		['an object from an expression', '={{ { n: 1 } }}'],
		['a list from an expression', '={{ [1, 2] }}'],
		['too large', '9007199254740993'],
	].map(([what, value]): Case => ({
		name: `Job Get: job number ${what}`,
		parameters: { resource: 'job', operation: 'get', job: { __rl: true, mode: 'number', value } },
		field: /"Job"|job number/,
		expected: /positive whole number|required|digits only/,
	})),
	// ------------------------------------------------------------------ Job: Get Many
	...[
		['words', 'yesterday'],
		['an impossible day', '2026-02-30'],
		['an impossible time', '2026-02-01T25:00:00Z'],
		['a spreadsheet day number', 45678],
		['an offset nobody uses', '2026-03-01T07:00:00+99:99'],
		['a European date', '31.05.2026'],
		['a boolean', true],
		['a list', ['2026-03-01']],
		// Issue 22 point 12: below -12:00 no place on earth is.
		['an offset of -13:30', '2026-03-01T07:00:00-13:30'],
		['an offset of +14:30', '2026-03-01T07:00:00+14:30'],
	].map(([what, value]): Case => ({
		name: `Job Get Many: Modified After as ${String(what)}`,
		parameters: {
			resource: 'job',
			operation: 'getAll',
			returnAll: true,
			filters: { modifiedAfter: expr('since') },
		},
		input: { since: value } as IDataObject,
		field: 'Modified After',
		expected: /date|offset/,
	})),
	// ------------------------------------------------------------------ Candidate: Create / Find
	...[
		['firstName', '', 'First Name', /required/],
		['firstName', '={{ { a: 1 } }}', 'First Name', /must be text/],
		['lastName', '   ', 'Last Name', /required/],
		['lastName', '={{ [1] }}', 'Last Name', /must be text/],
		['email', '', 'Email', /required/],
		['email', 'jane.doe@', 'Email', /valid email address/],
		['email', 'jane doe@agency.example', 'Email', /valid email address/],
		['email', '@agency.example', 'Email', /valid email address/],
		['email', 'jane.doe@agency', 'Email', /valid email address/],
		['email', '={{ { e: 1 } }}', 'Email', /must be text/],
	].map(([key, value, field, expected]): Case => ({
		name: `Candidate Create: ${String(field)} ${JSON.stringify(value)}`,
		parameters: candidate({ [key as string]: value as string }),
		field: field as string,
		expected: expected as RegExp,
	})),
	...[
		['Nicotine Free', { isNicotineFree: 'maybe' }, /true or false/],
		['Alcohol Free', { isAlcoholFree: '2' }, /true or false/],
		['Phone', { phone: '={{ { p: 1 } }}' }, /must be text/],
	].map(([field, additionalFields, expected]): Case => ({
		name: `Candidate Create: ${String(field)} ${JSON.stringify(additionalFields)}`,
		parameters: candidate({ additionalFields: additionalFields as INodeParameters }),
		field: field as string,
		expected: expected as RegExp,
	})),
	...[
		// A wholly empty entry is skipped (rows with fewer licenses); one with a date but no state is not.
		[{ state: '', expirationDate: '2027-05-31' }, 'State', /required/],
		[{ state: 'XX' }, 'State', /two-letter US state/],
		[{ state: 'Texass' }, 'State', /two-letter US state/],
		[{ expirationDate: '2027-02-29' }, 'Expiration Date', /not a real calendar date/],
		[{ expirationDate: '31/12/2027' }, 'Expiration Date', /not a real calendar date|YYYY-MM-DD/],
		[{ expirationDate: 3_000_000 }, 'Expiration Date', /YYYY-MM-DD/],
		[{ expirationDate: 'soon' }, 'Expiration Date', /YYYY-MM-DD/],
		[{ isCompact: 'perhaps' }, 'Compact License', /true or false/],
	].map(([fields, field, expected]): Case => ({
		name: `Candidate Create: license ${JSON.stringify(fields)}`,
		parameters: candidate(license(fields as IDataObject)),
		field: field as string,
		expected: expected as RegExp,
	})),
	{
		name: 'Candidate Create: the same state twice',
		parameters: candidate({
			stateLicenses: { license: [{ state: 'TX' }, { state: 'Texas' }] },
		}),
		field: 'State Licenses',
		expected: /more than once/,
	},
	...['', 'not-an-email', 'a@b', '={{ 42 }}'].map((email): Case => ({
		name: `Candidate Find by Email: ${JSON.stringify(email)}`,
		parameters: { resource: 'candidate', operation: 'findByEmail', email },
		field: 'Email',
		expected: /required|valid email address/,
	})),
	...['', 'x@', '={{ null }}'].map((email): Case => ({
		name: `Candidate Find or Create: ${JSON.stringify(email)}`,
		parameters: candidate({ operation: 'findOrCreate', email }),
		field: 'Email',
		expected: /required|valid email address/,
	})),
	// ------------------------------------------------------------------ Submission: Create
	...[
		['Candidate Number', { candidateNumber: '' }, /required/],
		['Candidate Number', { candidateNumber: 'C-5001' }, /positive whole number/],
		['Candidate Number', { candidateNumber: '={{ { n: 1 } }}' }, /positive whole number/],
		[
			/"Job"|job number/,
			{ job: { __rl: true, mode: 'number', value: 'abc' } },
			/positive whole number|digits only/,
		],
		['Bill Rate', { additionalFields: { billRateAmount: '-5' } }, /an amount|not be negative/],
		['Bill Rate', { additionalFields: { billRateAmount: 'sixty' } }, /an amount/],
		['Start Date', { additionalFields: { startDate: 'next monday' } }, /date/],
		['Start Date', { additionalFields: { startDate: '2026-13-01' } }, /not a real/],
		['Start Date', { additionalFields: { startDate: 3_000_000 } }, /date/],
		[
			'Experience',
			{ additionalFields: { experienceDescription: '={{ { a: 1 } }}' } },
			/must be text/,
		],
		[
			'Agency Contacts (contact 1): Email',
			{ agencyContacts: { contact: [{ name: 'Ann', email: 'ann@' }] } },
			/valid email address/,
		],
		[
			/Agency Contacts \(contact 1\): Name|"Name"/,
			{ agencyContacts: { contact: [{ name: '', email: 'ann@agency.example' }] } },
			/required/,
		],
	].map(([field, extra, expected]): Case => ({
		name: `Submission Create: ${String(field)} ${JSON.stringify(extra)}`,
		parameters: submission(extra as INodeParameters),
		file: pdf,
		field: field as string,
		expected: expected as RegExp,
	})),
	{
		name: 'Submission Create: no binary data at all',
		parameters: submission(),
		field: 'Input Field With the Resume',
		expected: /no file at all/,
	},
	{
		name: 'Submission Create: the file in another binary field',
		parameters: submission(),
		file: { ...pdf, property: 'resume' },
		field: 'Input Field With the Resume',
		expected: /only the file fields "resume"/,
	},
	...[
		['an empty file', { fileName: 'cv.pdf', data: Buffer.alloc(0) }, /empty file/],
		[
			'a file of 2.5 MB',
			{ fileName: 'cv.pdf', data: Buffer.concat([PDF, Buffer.alloc(2_500_000)]) },
			/under 2,500,000 bytes/,
		],
		['a .exe', { fileName: 'cv.exe', data: PDF }, /not accepted/],
		['a PDF named .docx', { fileName: 'cv.docx', data: PDF }, /content is a PDF/],
		['a DOCX named .pdf', { fileName: 'cv.pdf', data: DOCX }, /content is a DOCX/],
		// Issue 22 point 12: a ZIP that only mentions "word/" is not a Word document.
		[
			'a ZIP with a "word/" folder but no word/document.xml, named .docx',
			{ fileName: 'cv.docx', data: wordZip(['[Content_Types].xml', 'word/styles.xml']) },
			/ZIP archive that is not a Word document/,
		],
		[
			'a ZIP whose entry only contains "word/document.xml", named .docx',
			{ fileName: 'cv.docx', data: wordZip(['[Content_Types].xml', 'old/word/document.xml']) },
			/ZIP archive that is not a Word document/,
		],
		[
			'binary data named .txt',
			{ fileName: 'cv.txt', data: Buffer.from([0, 1, 2, 3]) },
			/content is not a document Trio accepts/,
		],
		[
			'text named .rtf',
			{ fileName: 'cv.rtf', data: Buffer.from('plain words') },
			/content is plain text/,
		],
		[
			'no extension and no type',
			{ fileName: 'resume', data: PDF, mimeType: 'application/octet-stream' },
			/no extension/,
		],
	].map(([what, file, expected]): Case => ({
		name: `Submission Create: ${String(what)}`,
		parameters: submission(),
		file: { mimeType: 'application/pdf', ...(file as { fileName: string; data: Buffer }) },
		field: /no extension/.test(String(expected))
			? 'File Name'
			: /empty|2,500,000/.test(String(expected))
				? 'Input Field With the Resume'
				: 'Input Field With the Resume',
		expected: expected as RegExp,
	})),
	// ------------------------------------------------------------------ Submission: the others
	...(['get', 'accept', 'decline', 'withdraw'] as const).flatMap((operation) =>
		['', '12a', '-1', '={{ { n: 1 } }}'].map((value): Case => ({
			name: `Submission ${operation}: submission number ${JSON.stringify(value)}`,
			parameters: {
				resource: 'submission',
				operation,
				submissionNumber: value,
				reason: 'Other',
			},
			field: 'Submission Number',
			expected: /positive whole number|required|digits only/,
		})),
	),
	...(['decline', 'withdraw'] as const).map((operation): Case => ({
		name: `Submission ${operation}: no reason`,
		parameters: { resource: 'submission', operation, submissionNumber: 90001, reason: '={{ "" }}' },
		field: 'Reason',
		expected: /required/,
	})),
	...[
		['Job Number', { jobNumber: 'J1' }],
		['Candidate Number', { candidateNumber: '0' }],
		['Modified After', { modifiedAfter: 'last week' }],
	].map(([field, filters]): Case => ({
		name: `Submission Get Many: ${String(field)} ${JSON.stringify(filters)}`,
		parameters: {
			resource: 'submission',
			operation: 'getAll',
			returnAll: true,
			filters: filters as INodeParameters,
		},
		field: field as string,
		expected: /positive whole number|date/,
	})),
	// ------------------------------------------------------------------ Webhooks
	...[
		['Name', { name: '' }, /required/],
		['URL', { url: '' }, /required/],
		['URL', { url: 'hooks.example.com/trio' }, /absolute address/],
		['URL', { url: 'http://hooks.example.com/trio' }, /must start with https/],
		['URL', { url: 'ftp://hooks.example.com/trio' }, /must start with https/],
		['Event Names or IDs', { events: [] }, /at least one event|required/],
		['Event Names or IDs', { events: '={{ 42 }}' }, /list of event names/],
		['Event Names or IDs', { events: '={{ [1, 2] }}' }, /event names \(text\)/],
		['Active', { isActive: 'sometimes' }, /true or false/],
	].map(([field, extra, expected]): Case => ({
		name: `Webhook Create: ${String(field)} ${JSON.stringify(extra)}`,
		parameters: {
			resource: 'webhook',
			operation: 'create',
			name: 'Hook',
			url: 'https://hooks.example.com/trio',
			events: ['Job Update'],
			isActive: true,
			...(extra as INodeParameters),
		},
		field: field as string,
		expected: expected as RegExp,
	})),
	...[
		['Webhook Registration', { webhook: { __rl: true, mode: 'id', value: '' } }, /required/],
		['Update Fields', { updateFields: {} }, /is empty/],
		['URL', { updateFields: { url: 'http://elsewhere.example.com' } }, /must start with https/],
		['Name', { updateFields: { name: '  ' } }, /required/],
	].map(([field, extra, expected]): Case => ({
		name: `Webhook Update: ${String(field)} ${JSON.stringify(extra)}`,
		parameters: {
			resource: 'webhook',
			operation: 'update',
			webhook: { __rl: true, mode: 'id', value: 'some-id' },
			...(extra as INodeParameters),
		},
		field: field as string,
		expected: expected as RegExp,
	})),
	{
		name: 'Webhook Deactivate: no registration',
		parameters: {
			resource: 'webhook',
			operation: 'deactivate',
			webhook: { __rl: true, mode: 'id', value: '' },
		},
		field: 'Webhook Registration',
		expected: /required/,
	},
	// ------------------------------------------------------------------ the credential
	...[
		['no Base URL', { environment: 'custom', baseUrl: '' }, /no Base URL/],
		[
			'a Base URL without scheme',
			{ environment: 'custom', baseUrl: '127.0.0.1:4010' },
			/must start with https/,
		],
		[
			'a Base URL over plain http to another machine',
			{ environment: 'custom', baseUrl: 'http://trio.example.com' },
			/must start with https:\/\//,
		],
	].map(([what, data, expected]): Case => ({
		name: `Credential: ${String(what)}`,
		parameters: { resource: 'job', operation: 'get', job: byNumber(100001) },
		field: 'Base URL',
		expected: expected as RegExp,
		credentials: (_url, key) => ({ apiKey: key, ...(data as IDataObject) }),
	})),
];

const results: boolean[] = [];

afterAll(() => {
	const passed = results.filter(Boolean).length;
	process.stderr.write(
		`bad input: ${results.length} cases, ${passed} passed (${results.length ? Math.round((passed / results.length) * 100) : 0}%), each naming its field with nothing sent to the service\n`,
	);
});

it('has at least 80 cases across every operation and the credential', () => {
	expect(CASES.length).toBeGreaterThanOrEqual(80);
});

it.each(CASES.map((each) => [each.name, each] as const))('%s', async (_name, each) => {
	let ok = false;
	try {
		// n8n itself refuses a workflow whose required field is empty, before the node runs.
		const { error } = await t
			.run(each.parameters, {
				input: [each.input ?? {}],
				inputBinary: each.file
					? [
							{
								property: each.file.property ?? 'data',
								fileName: each.file.fileName,
								mimeType: each.file.mimeType,
								data: each.file.data,
							},
						]
					: undefined,
				credentials: each.credentials
					? each.credentials(t.sandbox.url, t.sandbox.adminKey)
					: trioCredentials(t.sandbox.url, t.sandbox.adminKey),
			})
			.catch((refused: unknown) => ({ error: refused }));
		const { message } = errorText(error);
		if (typeof each.field === 'string') expect(message).toContain(each.field);
		else expect(message).toMatch(each.field);
		expect(message).toMatch(each.expected);
		expect(t.apiRequests()).toEqual([]);
		ok = true;
	} finally {
		results.push(ok);
	}
});
