/**
 * n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED, n8n 2.41 on; wider by default in n8n 3.0)
 * refuses requests to private and loopback addresses before anything is sent. Its own text asks
 * the user to "ask your n8n administrator to allowlist the hostname or IP range in the
 * environment configuration", which names no setting; the administrator needs the variable.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export interface BlockedAddress {
	/** The host name the request was for, when n8n names it. */
	hostname?: string;
	/** The address it resolved to, when n8n names it. */
	ip?: string;
	/** A deny-listed host name (N8N_SSRF_BLOCKED_HOSTNAMES) rather than a restricted IP range. */
	deniedHostname: boolean;
}

const BLOCKED_IP = /blocked because it resolves to a restricted IP address/i;
const BLOCKED_HOSTNAME = /blocked because the destination hostname is restricted/i;

/** n8n wraps the refusal (NodeApiError around SsrfBlockedIpError), so the whole chain is read. */
function* chain(error: unknown): Generator<Record<string, unknown>> {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		yield current as Record<string, unknown>;
		current = (current as { cause?: unknown }).cause;
	}
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value ? value : undefined;
}

/** The refusal of n8n's SSRF protection in an error from a request helper, if it is one. */
export function blockedAddress(error: unknown): BlockedAddress | undefined {
	let found: BlockedAddress | undefined;
	for (const link of chain(error)) {
		const name = text(link.name) ?? '';
		const message = text(link.message) ?? '';
		const deniedHostname = name === 'SsrfBlockedHostnameError' || BLOCKED_HOSTNAME.test(message);
		if (!deniedHostname && name !== 'SsrfBlockedIpError' && !BLOCKED_IP.test(message)) continue;
		// The wrapper repeats the message; the original beneath it carries the address.
		const extra = (link.extra ?? {}) as Record<string, unknown>;
		found = {
			hostname: text(link.hostname) ?? text(extra.hostname) ?? found?.hostname,
			ip: text(link.ip) ?? text(extra.ip) ?? found?.ip,
			deniedHostname: deniedHostname || (found?.deniedHostname ?? false),
		};
	}
	return found;
}

/** What the administrator sets to let the request through, in one line. */
function allowAdvice(blocked: BlockedAddress): string {
	if (blocked.deniedHostname) {
		return `ask your n8n administrator to remove ${blocked.hostname ?? 'the host'} from N8N_SSRF_BLOCKED_HOSTNAMES`;
	}
	const host = blocked.hostname && blocked.hostname !== blocked.ip ? blocked.hostname : undefined;
	const ip = blocked.ip ?? blocked.hostname;
	const byName = host ? `add ${host} to N8N_SSRF_ALLOWED_HOSTNAMES or ` : '';
	return `ask your n8n administrator to ${byName}add ${ip ? `${ip}'s range` : 'its IP range'} to N8N_SSRF_ALLOWED_IP_RANGES`;
}

/** The node's error for a request n8n refused to send. */
export function blockedAddressError(
	node: INode,
	blocked: BlockedAddress,
	itemIndex?: number,
): NodeOperationError {
	const target = blocked.hostname ?? blocked.ip ?? "the credential's address";
	const resolved = blocked.ip && blocked.ip !== target ? ` (${blocked.ip})` : '';
	return new NodeOperationError(
		node,
		`n8n's SSRF protection blocked the request to ${target}${resolved}: ${allowAdvice(blocked)}`,
		{
			itemIndex,
			description:
				"Nothing was sent to Trio VMS. n8n refuses requests to private and loopback addresses when N8N_SSRF_PROTECTION_ENABLED is true. Trio's own addresses are public; a private address usually means a Custom URL (a proxy or the local sandbox). After the variable is set and n8n restarted, run the item again.",
		},
	);
}
