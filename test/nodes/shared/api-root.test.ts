/** resolveApiRoot: where every request goes, from the credential's fields. */
import { BaseUrlError, resolveApiRoot } from '../../../nodes/shared/credentials';

describe('resolveApiRoot', () => {
	it.each([
		[{ environment: 'production' as const }, 'https://api.triovms.com/ahsa/api/v3'],
		[{}, 'https://api.triovms.com/ahsa/api/v3'],
		[{ environment: 'uat' as const, tenant: 'other' }, 'https://api-uat.triovms.com/other/api/v3'],
		[
			{ environment: 'production' as const, tenant: ' /acme/ ' },
			'https://api.triovms.com/acme/api/v3',
		],
		[{ environment: 'production' as const, tenant: 'a b' }, 'https://api.triovms.com/a%20b/api/v3'],
		[{ environment: 'production' as const, tenant: '' }, 'https://api.triovms.com/ahsa/api/v3'],
	])('builds the hosted address from %j', (credentials, root) => {
		expect(resolveApiRoot(credentials)).toBe(root);
	});

	it.each([
		['http://127.0.0.1:4010', 'http://127.0.0.1:4010/api/v3'],
		['http://127.0.0.1:4010/', 'http://127.0.0.1:4010/api/v3'],
		['  http://127.0.0.1:4010///  ', 'http://127.0.0.1:4010/api/v3'],
		['https://trio.example.com/tenant', 'https://trio.example.com/tenant/api/v3'],
		// A base URL pasted with the version path on it.
		['http://127.0.0.1:4010/api/v3', 'http://127.0.0.1:4010/api/v3'],
		['http://127.0.0.1:4010/api/v3/', 'http://127.0.0.1:4010/api/v3'],
		['HTTPS://trio.example.com/API/V3', 'HTTPS://trio.example.com/api/v3'],
		['http://localhost:4010', 'http://localhost:4010/api/v3'],
		['http://[::1]:4010', 'http://[::1]:4010/api/v3'],
	])('uses a custom base URL %j as %j', (baseUrl, root) => {
		expect(resolveApiRoot({ environment: 'custom', baseUrl })).toBe(root);
	});

	it.each([
		[undefined, 'has Environment "Custom URL" but no Base URL'],
		['   ', 'has Environment "Custom URL" but no Base URL'],
		['127.0.0.1:4010', 'must start with https:// or http://'],
		['ftp://example.com', 'must start with https:// or http://'],
		['http:///nohost', 'must start with https:// or http://'],
		// Plain http:// would carry the API key readable across the network.
		['http://trio.example.com/tenant', 'must start with https://: over plain http://'],
		['http://10.0.0.5:4010', 'must start with https://: over plain http://'],
	])('refuses the custom base URL %j', (baseUrl, message) => {
		expect(() => resolveApiRoot({ environment: 'custom', baseUrl })).toThrow(BaseUrlError);
		expect(() => resolveApiRoot({ environment: 'custom', baseUrl })).toThrow(message);
	});
});
