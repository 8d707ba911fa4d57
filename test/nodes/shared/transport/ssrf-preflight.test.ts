/**
 * A Custom URL is put to n8n's egress filter (helpers.getSecureEgressFilter, n8n 2.41 on) before
 * anything is sent: with N8N_SSRF_PROTECTION_ENABLED and the address not allowed, the node fails
 * with advice that names the setting, and the service sees nothing. Runs n8n-core's real
 * OutboundHttp and SsrfProtectionService in-process (harness/engine), configured from the
 * environment as n8n configures them; a file of its own because @n8n/config reads the
 * environment once.
 */
import { OutboundHttp } from '@n8n/backend-network';
import { Container } from '@n8n/di';

import { ScriptedServer } from '../../../support/scripted-server';
import { probe } from '../../../support/probe';

const SSRF_ENV = { N8N_SSRF_PROTECTION_ENABLED: 'true' };
const saved: Record<string, string | undefined> = {};
for (const [name, value] of Object.entries(SSRF_ENV)) {
	saved[name] = process.env[name];
	process.env[name] = value;
}
afterAll(() => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

const server = ScriptedServer.forEachTest();

it("asks n8n's egress filter about a Custom URL first, and sends nothing it refuses", async () => {
	const outbound = Container.get(OutboundHttp);
	const asked: string[] = [];
	const egressFilter = outbound.egressFilter.bind(outbound);
	const spy = jest.spyOn(outbound, 'egressFilter').mockImplementation((policy) => {
		const filter = egressFilter(policy);
		return {
			...filter,
			validateUrl: async (url) => {
				asked.push(String(url));
				return await filter.validateUrl(url);
			},
		};
	});
	try {
		server.respond({ status: 200, body: '{}' });
		const result = await probe(
			{ method: 'GET', path: '/Job/{number}', pathParams: { number: 123 } },
			{ baseUrl: server.baseUrl },
		);
		expect(server.requests).toHaveLength(0);
		// The API root, as the credential gives it: the check before sending, not n8n's own
		// check of the full request address.
		expect(asked[0]).toBe(`${server.baseUrl}/api/v3`);
		expect(result.error?.message).toBe(
			"n8n's SSRF protection blocked the request to 127.0.0.1: ask your n8n administrator to add 127.0.0.1's range to N8N_SSRF_ALLOWED_IP_RANGES",
		);
		expect(result.error?.description).toMatch(/^Nothing was sent to Trio VMS/);
	} finally {
		spy.mockRestore();
	}
});
