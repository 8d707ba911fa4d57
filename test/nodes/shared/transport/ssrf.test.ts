import { SsrfBlockedHostnameError, SsrfBlockedIpError } from '@n8n/backend-network';
import { NodeApiError } from 'n8n-workflow';

import { blockedAddress, blockedAddressError } from '../../../../nodes/shared/transport/ssrf';
import { workflowNode } from '../../../support/workflow-node';

const node = workflowNode('Trio VMS', 'n8n-nodes-trio-vms.trioVms');

describe("n8n's SSRF refusals", () => {
	it('are recognised as n8n-core hands them over, wrapped in a NodeApiError', () => {
		const wrapped = new NodeApiError(
			node,
			new SsrfBlockedIpError('127.0.0.1', 'localhost') as never,
		);

		expect(blockedAddress(wrapped)).toEqual({
			hostname: 'localhost',
			ip: '127.0.0.1',
			deniedHostname: false,
		});
	});

	it("name the variables that let the address through, which n8n's own text does not", () => {
		const byIp = blockedAddressError(node, blockedAddress(new SsrfBlockedIpError('10.0.0.7'))!);
		expect(byIp.message).toBe(
			"n8n's SSRF protection blocked the request to 10.0.0.7: ask your n8n administrator to add 10.0.0.7's range to N8N_SSRF_ALLOWED_IP_RANGES",
		);

		const byName = blockedAddressError(
			node,
			blockedAddress(new SsrfBlockedIpError('127.0.0.1', 'trio.internal'))!,
		);
		expect(byName.message).toContain('add trio.internal to N8N_SSRF_ALLOWED_HOSTNAMES');
		expect(byName.message).toContain("127.0.0.1's range to N8N_SSRF_ALLOWED_IP_RANGES");
		expect(byName.description).toMatch(/^Nothing was sent to Trio VMS/);

		const denied = blockedAddressError(
			node,
			blockedAddress(new SsrfBlockedHostnameError('api.triovms.com'))!,
		);
		expect(denied.message).toContain('remove api.triovms.com from N8N_SSRF_BLOCKED_HOSTNAMES');
	});

	it('are known by their class when n8n rewords the message', () => {
		const reworded = new SsrfBlockedIpError('10.0.0.7', 'trio.internal');
		reworded.message = 'Egress to this destination is not permitted';
		const wrapped = new NodeApiError(node, reworded as never);
		wrapped.message = reworded.message;
		expect(blockedAddress(wrapped)).toEqual({
			hostname: 'trio.internal',
			ip: '10.0.0.7',
			deniedHostname: false,
		});
		expect(blockedAddressError(node, blockedAddress(wrapped)!).message).toContain(
			'add trio.internal to N8N_SSRF_ALLOWED_HOSTNAMES',
		);

		const denied = new SsrfBlockedHostnameError('api.triovms.com');
		denied.message = 'Destination refused by policy';
		expect(blockedAddress(new NodeApiError(node, denied as never))).toEqual({
			hostname: 'api.triovms.com',
			ip: undefined,
			deniedHostname: true,
		});
	});

	it('are known by the name alone when the class is not the one this package was built against', () => {
		// Another copy of @n8n/backend-network (n8n's own): only the name travels.
		const foreign = Object.assign(new Error('Refused'), {
			name: 'SsrfBlockedIpError',
			ip: '192.168.1.20',
		});
		expect(blockedAddress({ message: 'wrapped', cause: foreign })).toEqual({
			hostname: undefined,
			ip: '192.168.1.20',
			deniedHostname: false,
		});
	});

	it('fall back to the message when no error in the chain carries a refusal name', () => {
		const plain = Object.assign(
			new Error('The request was blocked because it resolves to a restricted IP address'),
			{ extra: { ip: '127.0.0.1', hostname: 'localhost' } },
		);
		expect(blockedAddress(plain)).toEqual({
			hostname: 'localhost',
			ip: '127.0.0.1',
			deniedHostname: false,
		});
		expect(
			blockedAddress(
				new Error('The request was blocked because the destination hostname is restricted'),
			),
		).toEqual({ hostname: undefined, ip: undefined, deniedHostname: true });
	});

	it('leave every other failure alone', () => {
		expect(blockedAddress(new Error('connect ECONNREFUSED 127.0.0.1:80'))).toBeUndefined();
		expect(blockedAddress('blocked')).toBeUndefined();
		expect(blockedAddress(undefined)).toBeUndefined();
	});
});
