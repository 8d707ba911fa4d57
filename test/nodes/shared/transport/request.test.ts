/**
 * What the transport puts on the wire, seen by a real server: URL, headers, JSON and multipart
 * bodies, and how it reads answers. Runs inside n8n's engine (see probe.ts).
 */
import { API_KEY, probe } from '../../../support/probe';
import { parseMultipart } from '../../../support/parse-multipart';
import { ScriptedServer } from '../../../support/scripted-server';

const server = ScriptedServer.forEachTest();

describe('URL', () => {
	it.each([
		['a plain base URL', '', '/api/v3/Job'],
		['a trailing slash', '/', '/api/v3/Job'],
		['several trailing slashes', '///', '/api/v3/Job'],
		['the version path pasted on', '/api/v3', '/api/v3/Job'],
		['the version path and a slash pasted on', '/api/v3/', '/api/v3/Job'],
		['a path prefix', '/tenant/', '/tenant/api/v3/Job'],
	])('builds one clean URL from %s', async (_, suffix, path) => {
		server.respond({ json: [] });
		const { error } = await probe(
			{ method: 'GET', path: '/Job' },
			{ baseUrl: `${server.baseUrl}${suffix}` },
		);
		expect(error).toBeUndefined();
		expect(server.requests.map((request) => request.url)).toEqual([path]);
	});

	it('percent-encodes path parameters', async () => {
		server.respond({ json: {} });
		await probe(
			{ method: 'GET', path: '/Job/{number}', pathParams: { number: 'A/1 ?#%ü' } },
			{ baseUrl: server.baseUrl },
		);
		expect(server.requests[0].path).toBe('/api/v3/Job/A%2F1%20%3F%23%25%C3%BC');
	});

	it('sends the query values that are set, encoded', async () => {
		server.respond({ json: [] });
		await probe(
			{
				method: 'GET',
				path: '/candidates',
				query: {
					email: 'a+b@example.com',
					page: 2,
					active: true,
					empty: '',
					missing: undefined,
					q: 'x&y=z',
				},
			},
			{ baseUrl: server.baseUrl },
		);
		expect(Object.fromEntries(server.requests[0].query)).toEqual({
			email: 'a+b@example.com',
			page: '2',
			active: 'true',
			q: 'x&y=z',
		});
	});

	it('leaves the query string off when nothing is set', async () => {
		server.respond({ json: [] }, { json: [] });
		await probe(
			[
				{ method: 'GET', path: '/Job', query: { status: '', from: undefined } },
				{ method: 'GET', path: '/Job', query: {} },
			],
			{ baseUrl: server.baseUrl },
		);
		expect(server.requests.map((request) => request.url)).toEqual(['/api/v3/Job', '/api/v3/Job']);
	});

	it('refuses a credential without a usable base URL, before sending anything', async () => {
		const { error } = await probe({ method: 'GET', path: '/Job' }, { baseUrl: '127.0.0.1:4010' });
		expect(error?.message).toContain('must start with https:// or http://');
		expect(error?.name).toBe('NodeOperationError');
		expect(server.requests).toHaveLength(0);
	});
});

describe('headers and bodies', () => {
	it('authenticates with X-API-KEY from the credential and asks for JSON', async () => {
		server.respond({ json: [] });
		await probe({ method: 'GET', path: '/Job' }, { baseUrl: server.baseUrl });
		const { headers, body } = server.requests[0];
		expect(headers['x-api-key']).toBe(API_KEY);
		expect(headers.accept).toBe('application/json');
		expect(headers['content-type']).toBeUndefined();
		expect(body).toHaveLength(0);
	});

	it('sends a JSON body', async () => {
		server.respond({ status: 201, json: { id: 9 } });
		const payload = {
			JobNumber: 5,
			Candidate: { FirstName: 'Zoë', Email: 'z@example.com' },
			Tags: ['icu', 'rn'],
			Note: null,
		};
		const { bodies } = await probe(
			{ method: 'POST', path: '/Submission', body: payload },
			{ baseUrl: server.baseUrl },
		);
		expect(bodies).toEqual([{ id: 9 }]);
		const [request] = server.requests;
		expect(request.method).toBe('POST');
		expect(request.headers['content-type']).toBe('application/json');
		expect(request.headers['x-api-key']).toBe(API_KEY);
		expect(request.json()).toEqual(payload);
	});

	it('sends a multipart body a server parses back into the same parts', async () => {
		server.respond({ status: 201, json: { id: 10 } });
		const document = Buffer.concat([
			Buffer.from('%PDF-1.7\n'),
			Buffer.from([0, 1, 2, 253, 254, 255, 13, 10]),
		]);
		await probe(
			{
				method: 'POST',
				path: '/Submission',
				multipart: [
					{ name: 'JobNumber', value: '5' },
					{ name: 'Candidate.Email', value: 'z@example.com' },
					{
						name: 'ProfileFile',
						fileName: 'Zoë resume.pdf',
						contentType: 'application/pdf',
						base64: document.toString('base64'),
					},
				],
			},
			{ baseUrl: server.baseUrl },
		);
		const [request] = server.requests;
		const contentType = String(request.headers['content-type']);
		expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
		expect(Number(request.headers['content-length'])).toBe(request.body.length);
		expect(request.headers['x-api-key']).toBe(API_KEY);
		const parsed = await parseMultipart(request.body, contentType);
		expect(parsed.fields).toEqual([
			{ name: 'JobNumber', value: '5' },
			{ name: 'Candidate.Email', value: 'z@example.com' },
		]);
		expect(parsed.files).toEqual([
			{
				name: 'ProfileFile',
				fileName: 'Zoë resume.pdf',
				mimeType: 'application/pdf',
				data: document,
			},
		]);
	});

	it("sends a file from n8n's binary data service in a multipart body", async () => {
		server.respond({ status: 201, json: { id: 11 } });
		const document = Buffer.from('{\\rtf1 a resume}', 'latin1');
		await probe(
			{
				method: 'POST',
				path: '/Submission',
				multipart: [{ name: 'ProfileFile', binaryProperty: 'resume' }],
			},
			{
				baseUrl: server.baseUrl,
				inputBinary: [
					{
						property: 'resume',
						fileName: 'resume.rtf',
						mimeType: 'application/rtf',
						data: document,
					},
				],
			},
		);
		const parsed = await parseMultipart(
			server.requests[0].body,
			String(server.requests[0].headers['content-type']),
		);
		expect(parsed.files).toEqual([
			{ name: 'ProfileFile', fileName: 'resume.rtf', mimeType: 'application/rtf', data: document },
		]);
	});
});

describe('answers', () => {
	it.each([
		['JSON', { json: { a: [1, 'two'] } }, { a: [1, 'two'] }],
		['JSON sent as text/plain', { body: '[{"id":1}]' }, [{ id: 1 }]],
		['a JSON string', { body: '"done"', headers: { 'content-type': 'application/json' } }, 'done'],
		['plain text', { body: 'Accepted' }, 'Accepted'],
		['text that only looks like JSON', { body: '{not json' }, '{not json'],
		['an empty 200', { body: '' }, null],
		['a 204', { status: 204 }, null],
	])('reads %s', async (_, answer, expected) => {
		server.respond(answer);
		const { bodies, error } = await probe(
			{ method: 'GET', path: '/x' },
			{ baseUrl: server.baseUrl },
		);
		expect(error).toBeUndefined();
		expect(bodies).toEqual([expected]);
	});
});
