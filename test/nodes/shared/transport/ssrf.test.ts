import { SsrfBlockedHostnameError, SsrfBlockedIpError } from '@n8n/backend-network';
import { NodeApiError, NodeOperationError, type JsonObject } from 'n8n-workflow';

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

	describe("along n8n's whole error chain (cause, errorResponse, reason)", () => {
		const refusal = () => new SsrfBlockedIpError('10.0.0.7', 'trio.internal');
		const found = { hostname: 'trio.internal', ip: '10.0.0.7', deniedHostname: false };

		it('under errorResponse: a refusal that arrives as data, which a NodeError keeps there', () => {
			// Serialised on its way (no longer an Error), so n8n-workflow's NodeError keeps it
			// under errorResponse, not cause.
			const serialised = {
				name: 'SsrfBlockedIpError',
				message: 'Blocked',
				extra: { ip: '10.0.0.7', hostname: 'trio.internal' },
			};
			const wrapped = new NodeOperationError(node, serialised as unknown as JsonObject);
			expect(wrapped.cause).toBeUndefined();
			expect(wrapped.errorResponse).toBe(serialised);
			expect(blockedAddress(wrapped)).toEqual(found);
			expect(blockedAddress({ message: 'Request failed', errorResponse: refusal() })).toEqual(
				found,
			);
		});

		it('under reason: a rejected request whose reason NodeApiError reads', () => {
			// NodeApiError(node, { reason }) keeps the object under errorResponse and the refusal
			// under its reason: two levels n8n walks, neither of them a cause.
			const wrapped = new NodeApiError(node, {
				message: 'Request failed',
				reason: refusal(),
			} as unknown as JsonObject);
			expect(wrapped.cause).toBeUndefined();
			expect(wrapped.message).toBe('Request failed');
			expect(blockedAddress(wrapped)).toEqual(found);
			expect(blockedAddress({ status: 'rejected', reason: refusal() })).toEqual(found);
		});

		it('under cause, errorResponse and reason mixed, however deep n8n reads', () => {
			const mixed = {
				message: 'outer',
				cause: { message: 'middle', errorResponse: { message: 'inner', reason: refusal() } },
			};
			expect(blockedAddress(mixed)).toEqual(found);
			// Five levels below the error are read, as n8n reads them; the sixth is not.
			const nested = (depth: number): unknown => {
				let error: unknown = refusal();
				for (let level = 0; level < depth; level++)
					error = {
						message: `level ${level}`,
						[['cause', 'errorResponse', 'reason'][level % 3]]: error,
					};
				return error;
			};
			expect(blockedAddress(nested(5))).toEqual(found);
			expect(blockedAddress(nested(6))).toBeUndefined();
		});

		it('by its message too when nothing in the chain is named so, and through cycles', () => {
			const plain = new Error(
				'The request was blocked because the destination hostname is restricted',
			);
			expect(blockedAddress({ message: 'x', reason: { errorResponse: plain } })).toEqual({
				hostname: undefined,
				ip: undefined,
				deniedHostname: true,
			});
			const looped: Record<string, unknown> = { message: 'loop' };
			looped.cause = { errorResponse: looped, reason: refusal() };
			expect(blockedAddress(looped)).toEqual(found);
			const endless: Record<string, unknown> = { message: 'loop' };
			endless.cause = endless;
			endless.reason = { errorResponse: endless };
			expect(blockedAddress(endless)).toBeUndefined();
		});
	});

	it('leave every other failure alone', () => {
		expect(blockedAddress(new Error('connect ECONNREFUSED 127.0.0.1:80'))).toBeUndefined();
		expect(blockedAddress('blocked')).toBeUndefined();
		expect(blockedAddress(undefined)).toBeUndefined();
	});
});
