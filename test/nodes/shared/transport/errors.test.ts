/**
 * Every error-body shape the service may send becomes a NodeApiError with the right message,
 * status and hint; the API key never shows up in an error; unreachable servers are explained.
 * Errors are read as n8n stores them in run data (see EngineRun.error).
 */
import { createServer } from 'node:net';

import type { ScriptedResponse } from '../../../support/scripted-server';
import { ScriptedServer } from '../../../support/scripted-server';
import { API_KEY, probe } from '../../../support/probe';
import type { ProbeRequest } from '../../../../harness/engine/engine';

const server = ScriptedServer.forEachTest();

const NO_RETRY = { retry: { maxRetries: 0 } };
const GET_JOB: ProbeRequest = {
	method: 'GET',
	path: '/Job/{number}',
	pathParams: { number: 123 },
	context: { subject: 'job 123' },
};
const CREATE: ProbeRequest = { method: 'POST', path: '/Submission', body: { JobNumber: 123 } };

async function failWith(answer: ScriptedResponse, request: ProbeRequest = GET_JOB) {
	server.respond(answer);
	const result = await probe(request, { baseUrl: server.baseUrl, clientOptions: NO_RETRY });
	expect(server.requests).toHaveLength(1);
	expect(result.error).toBeDefined();
	return result.error!;
}

describe('error bodies', () => {
	it('reads problem details with field errors', async () => {
		const error = await failWith(
			{
				status: 400,
				headers: { 'content-type': 'application/problem+json; charset=utf-8' },
				body: JSON.stringify({
					type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
					title: 'One or more validation errors occurred.',
					status: 400,
					errors: {
						Email: ['The Email field is not a valid e-mail address.'],
						'Candidate.Phone': ['Required.'],
					},
				}),
			},
			CREATE,
		);
		expect(error).toMatchObject({ name: 'NodeApiError', httpCode: '400' });
		// Issue 19 point 10: the first field error is the headline (it was the generic title).
		// Issue 46: in the recruiter's words, without the status, the request or Trio's field names.
		expect(error.message).toBe(
			'Trio VMS refused it: The Email field is not a valid e-mail address.',
		);
		expect(error.description).toContain('Phone: Required.');
		expect(error.description).not.toContain('One or more validation errors occurred');
		expect(error.description).toContain(
			'Trio VMS did not carry it out. Correct "Email" in the node',
		);
		expect(error.description).toContain(
			'Status: 400 Bad Request\nRequest: POST /Submission\nFields as Trio VMS named them: Email, Candidate.Phone',
		);
	});

	it.each<[string, ScriptedResponse, string]>([
		[
			'{message}',
			{ status: 404, json: { message: 'Job not found' } },
			'Trio VMS does not know job 123: Job not found',
		],
		[
			'{Message}',
			{ status: 404, json: { Message: 'No HTTP resource was found' } },
			'Trio VMS does not know job 123: No HTTP resource was found',
		],
		[
			'{error}',
			{ status: 404, json: { error: 'not_found' } },
			'Trio VMS does not know job 123: not_found',
		],
		[
			'{error:{message}}',
			{ status: 404, json: { error: { message: 'Unknown job' } } },
			'Trio VMS does not know job 123: Unknown job',
		],
		[
			'plain text',
			{ status: 404, body: 'Job 123 does not exist' },
			// Trio's words say no more than the headline: said once.
			'Trio VMS does not know job 123',
		],
		[
			'an HTML page',
			{
				status: 404,
				headers: { 'content-type': 'text/html' },
				body: '<html><head><title>404 Not Found</title><style>h1{color:red}</style></head><body><h1>Not Found</h1></body></html>',
			},
			'Trio VMS does not know job 123',
		],
		['an empty body', { status: 404 }, 'Trio VMS does not know job 123'],
	])('reads %s', async (_, answer, message) => {
		const error = await failWith(answer);
		expect(error.message).toBe(message);
		expect(error).toMatchObject({ httpCode: '404' });
		// The subject the node gave makes the hint specific.
		expect(error.description).toContain('No job 123 was found. Check the number');
		expect(error.description).toContain('Status: 404 Not Found\nRequest: GET /Job/123');
	});

	it('gives the hint that fits each status', async () => {
		const cases: Array<[ScriptedResponse, ProbeRequest, RegExp]> = [
			[
				{ status: 403, json: { message: 'Forbidden' } },
				GET_JOB,
				/API key is wrong, expired or lacks permission/,
			],
			[
				{ status: 403, body: '' },
				{ method: 'GET', path: '/Webhooks', context: { webhookManagement: true } },
				/agency administrator permission/,
			],
			[
				{ status: 404, body: '' },
				{ method: 'GET', path: '/Nope' },
				/^Check the number, and the credential's environment and base URL/,
			],
			[
				{ status: 429, json: { message: 'Slow down' } },
				GET_JOB,
				/Raise "Pause Between Requests" under the node.s Options/,
			],
			[
				{ status: 500, body: 'Internal error' },
				GET_JOB,
				/Trio VMS failed or is unavailable\. Try again later/,
			],
			[
				{ status: 500, body: 'Internal error' },
				CREATE,
				/may or may not have created it: check in Trio \(for example with Get Many\) before running this item again/,
			],
		];
		for (const [answer, request, hint] of cases) {
			server.reset();
			const error = await failWith(answer, request);
			expect(error).toMatchObject({ httpCode: String(answer.status) });
			expect(error.description).toMatch(hint);
		}
		// Without a subject, the headline says what is unknown.
		server.reset();
		const unknown = await failWith({ status: 404, body: '' }, { method: 'GET', path: '/Nope' });
		expect(unknown.message).toBe('Trio VMS does not know this address or item');
	});

	it('says which item failed', async () => {
		server.respond({ json: { id: 1 } }, { status: 404, json: { message: 'gone' } });
		const { error } = await probe([GET_JOB, { ...GET_JOB, pathParams: { number: 124 } }], {
			baseUrl: server.baseUrl,
			clientOptions: NO_RETRY,
		});
		expect(error?.context).toMatchObject({ itemIndex: 1 });
		expect(error?.description).toContain('Request: GET /Job/124');
	});

	it('never shows the host or the full URL, only the path', async () => {
		const error = await failWith({ status: 500, body: 'boom' });
		expect(`${error.message} ${error.description}`).not.toContain('127.0.0.1');
	});
});

describe('the API key never appears in an error', () => {
	const echoes: Array<[string, ScriptedResponse]> = [
		['message', { status: 401, json: { message: `API key ${API_KEY} is not valid` } }],
		[
			'field errors',
			{
				status: 400,
				json: { title: 'Invalid', errors: { 'X-API-KEY': [`'${API_KEY}' is unknown`] } },
			},
		],
		['plain text', { status: 403, body: `Forbidden for key=${API_KEY}` }],
		[
			'HTML',
			{
				status: 500,
				headers: { 'content-type': 'text/html' },
				body: `<html><body><pre>X-API-KEY: ${API_KEY}</pre></body></html>`,
			},
		],
		[
			'a nested error',
			{
				status: 502,
				json: {
					error: { message: `upstream rejected ${API_KEY}`, headers: { 'X-API-KEY': API_KEY } },
				},
			},
		],
	];

	it.each(echoes)('when the service echoes it in %s', async (_, answer) => {
		server.respond(answer);
		const result = await probe(GET_JOB, { baseUrl: server.baseUrl, clientOptions: NO_RETRY });
		expect(server.requests[0].headers['x-api-key']).toBe(API_KEY);
		const error = result.error!;
		expect(error.message).not.toContain(API_KEY);
		expect(error.description ?? '').not.toContain(API_KEY);
		expect(JSON.stringify(error)).not.toContain(API_KEY);
		// Nor anywhere in what n8n would save for this execution.
		expect(JSON.stringify(result.run)).not.toContain(API_KEY);
	});

	it.each(echoes)('when the node continues on fail, with %s', async (_, answer) => {
		server.respond(answer);
		const result = await probe(GET_JOB, {
			baseUrl: server.baseUrl,
			clientOptions: NO_RETRY,
			continueOnFail: true,
		});
		expect(result.output[0].json.error).toMatch(/^Trio VMS (refused|failed)/);
		expect(JSON.stringify(result.output)).not.toContain(API_KEY);
		expect(JSON.stringify(result.run)).not.toContain(API_KEY);
	});

	it('when the connection breaks', async () => {
		server.respond({ destroy: true });
		const result = await probe(CREATE, { baseUrl: server.baseUrl });
		expect(result.error?.message).toContain('ECONNRESET');
		expect(JSON.stringify(result.run)).not.toContain(API_KEY);
	});

	it('when the answer cannot be decoded', async () => {
		// Not gzip, though it says so: n8n's HTTP client fails before the transport sees a status.
		server.respond({ headers: { 'content-encoding': 'gzip' }, body: `garbage ${API_KEY}` });
		const result = await probe(GET_JOB, { baseUrl: server.baseUrl, clientOptions: NO_RETRY });
		expect(result.error).toBeDefined();
		expect(JSON.stringify(result.run)).not.toContain(API_KEY);
	});
});

describe('unreachable service', () => {
	async function closedPort(): Promise<number> {
		const probeServer = createServer();
		await new Promise<void>((resolve) => probeServer.listen(0, '127.0.0.1', resolve));
		const { port } = probeServer.address() as { port: number };
		await new Promise<void>((resolve) => probeServer.close(() => resolve()));
		return port;
	}

	it('explains a refused connection, after retrying what was never sent', async () => {
		const port = await closedPort();
		const result = await probe(CREATE, {
			baseUrl: `http://127.0.0.1:${port}`,
			clientOptions: { retry: { maxRetries: 2, baseDelayMs: 5 } },
			continueOnFail: true,
		});
		const [item] = result.output;
		expect(item.json.error).toBe('Could not reach Trio VMS (ECONNREFUSED) for POST /Submission');
		expect(item.json.description).toMatch(/Check the credential's environment and base URL/);
		// Refused means nothing reached the service, so even a create is tried again.
		expect(item.json.stats).toEqual({ requests: 3, retries: 2 });
	});

	it('stops the workflow with that error when not continuing on fail', async () => {
		const port = await closedPort();
		const result = await probe(
			{ method: 'GET', path: '/Job' },
			{ baseUrl: `http://127.0.0.1:${port}`, clientOptions: { retry: { maxRetries: 0 } } },
		);
		expect(result.error).toMatchObject({
			name: 'NodeApiError',
			message: 'Could not reach Trio VMS (ECONNREFUSED) for GET /Job',
		});
		expect(JSON.stringify(result.error)).not.toContain(API_KEY);
	});
});

// Issue 27 point 10: a JSON error body's words were kept whole, so a 5 MB "detail" became a
// 5-million-character message and megabytes of execution data.
describe('error bodies are bounded', () => {
	it('a 400 with a 5 MB detail gives a short message and keeps a bounded body', async () => {
		const detail = `The request failed because ${'x'.repeat(5 * 1024 * 1024)}`;
		const error = await failWith({
			status: 400,
			json: { title: 'Bad Request', detail, errors: { Email: ['y'.repeat(1024 * 1024)] } },
		});
		expect(error.message.length).toBeLessThan(1_000);
		expect(`${error.message}\n${error.description}`).toContain('The request failed because');
		expect(String(error.description).length).toBeLessThan(10_000);
		expect(JSON.stringify(error).length).toBeLessThan(20_000);
	});
});

// Issue 27 point 12: the key echoed URL-encoded or as HTML entities was shown as sent.
describe('the API key is masked however it is echoed', () => {
	const KEY = 'Ab+cd/Ef==9xYz';
	it.each([
		['URL-encoded', 'Ab%2Bcd%2FEf%3D%3D9xYz'],
		['URL-encoded, lower case', 'Ab%2bcd%2fEf%3d%3d9xYz'],
		['as decimal HTML entities', 'Ab&#43;cd&#47;Ef&#61;&#61;9xYz'],
		['as hexadecimal HTML entities', 'Ab&#x2B;cd&#x2F;Ef&#x3D;&#x3d;9xYz'],
		['as named HTML entities', 'Ab&plus;cd&sol;Ef&equals;&equals;9xYz'],
	])('%s', async (_, echoed) => {
		for (const answer of [
			{ status: 401, json: { message: `The key ${echoed} is not valid` } },
			{ status: 403, body: `<html><body>Key: ${echoed}</body></html>` },
		] as ScriptedResponse[]) {
			server.respond(answer);
			const result = await probe(GET_JOB, {
				baseUrl: server.baseUrl,
				apiKey: KEY,
				clientOptions: NO_RETRY,
			});
			const shown = JSON.stringify(result.run);
			expect(shown).not.toContain(echoed);
			expect(shown).not.toContain('9xYz');
			expect(result.error?.message).toContain('[redacted]');
		}
	});
});
