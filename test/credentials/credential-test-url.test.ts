/**
 * The credential's Test button builds its address with an n8n expression that must follow the
 * same rule as resolveApiRoot: a Custom URL over plain http:// only for this machine. Here the
 * expression's JavaScript is evaluated directly for many addresses (the real-n8n suite runs it
 * through n8n itself).
 */
import { TrioVmsApi } from '../../credentials/TrioVmsApi.credentials';
import { BaseUrlError, resolveApiRoot } from '../../nodes/shared/credentials';

const expression = String(new TrioVmsApi().test.request.baseURL);
const body = /^=\{\{([\s\S]*)\}\}$/.exec(expression)?.[1] ?? '';
const evaluate = new Function('$credentials', `return (${body});`) as (
	credentials: Record<string, unknown>,
) => string;

describe("the credential test's address", () => {
	it.each([
		'http://127.0.0.1:4010',
		'http://127.9.9.9/',
		'http://localhost:4010/api/v3',
		'http://[::1]:4010',
		'https://trio.example.com/tenant',
	])('is the Custom URL itself for %s, as for every request', (baseUrl) => {
		const root = resolveApiRoot({ environment: 'custom', baseUrl });
		expect(`${evaluate({ environment: 'custom', baseUrl })}/api/v3`).toBe(root);
	});

	it.each([
		'http://trio.example.com',
		'http://10.0.0.5:4010',
		'HTTP://192.0.2.2:4010/',
		'http://localhost.example.com',
		'http://127.0.0.1.example.com',
	])('never sends the key in clear to %s', (baseUrl) => {
		expect(() => resolveApiRoot({ environment: 'custom', baseUrl })).toThrow(BaseUrlError);
		expect(evaluate({ environment: 'custom', baseUrl })).toBe(
			'https://plain-http-is-allowed-only-for-localhost.invalid',
		);
	});
});
