/** Which addresses the real Trio VMS service can deliver to, and when the rule applies (nodes/shared/publicAddress.ts). */
import { undeliverableReason, unreachableAddressReason } from '../../../nodes/shared/publicAddress';

describe('unreachableAddressReason', () => {
	it.each([
		'https://n8n.agency.com/webhook/abc/webhook',
		'https://hooks.example.org:8443/webhook/abc/webhook',
		'https://8.8.8.8/webhook/abc/webhook',
		'https://172.32.0.1/webhook',
		'https://[2001:db8::1]/webhook',
	])('accepts the public https address %s', (url) => {
		expect(unreachableAddressReason(url)).toBeUndefined();
	});

	it.each([
		['http://n8n.agency.com/webhook', /https/],
		['http://localhost:5678/webhook/abc/webhook', /https/],
		['https://localhost:5678/webhook', /localhost/],
		['https://app.localhost/webhook', /localhost/],
		['https://127.0.0.1/webhook', /private or local/],
		['https://10.1.2.3/webhook', /private or local/],
		['https://172.16.0.5/webhook', /private or local/],
		['https://172.31.255.255/webhook', /private or local/],
		['https://192.168.1.20/webhook', /private or local/],
		['https://169.254.10.1/webhook', /private or local/],
		['https://0.0.0.0/webhook', /private or local/],
		['https://[::1]/webhook', /IPv6/],
		['https://[fd12:3456::1]/webhook', /IPv6/],
		['https://[fe80::1]/webhook', /IPv6/],
		['https://[::ffff:192.168.0.1]/webhook', /IPv6/],
		['https://n8n.local/webhook', /inside your network/],
		['https://n8n.corp.internal/webhook', /inside your network/],
		['https://n8n/webhook', /inside your network/],
		['not an address', /complete web address/],
	])('refuses %s', (url, reason) => {
		expect(unreachableAddressReason(url)).toMatch(reason);
	});
});

describe('undeliverableReason: the credential decides whether the rule applies', () => {
	it.each([{}, { environment: 'production' as const }, { environment: 'uat' as const }])(
		'the real service (%j) delivers only to a public https address',
		(credentials) => {
			expect(undeliverableReason(credentials, 'https://n8n.agency.com/webhook')).toBeUndefined();
			expect(undeliverableReason(credentials, 'http://localhost:5678/webhook')).toMatch(/https/);
		},
	);

	it('a Custom URL may deliver anywhere', () => {
		for (const url of ['http://localhost:5678/webhook', 'https://10.1.2.3/webhook', 'n8n'])
			expect(undeliverableReason({ environment: 'custom' }, url)).toBeUndefined();
	});
});
