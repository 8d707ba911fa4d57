/**
 * n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED, n8n 2.41 on; wider by default in n8n 3.0)
 * refuses requests to private and loopback addresses before anything is sent. Its own text asks
 * the user to "ask your n8n administrator to allowlist the hostname or IP range in the
 * environment configuration", which names no setting; the administrator needs the variable.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorChain } from '../errorChain';

export interface BlockedAddress {
	/** The host name the request was for, when n8n names it. */
	hostname?: string;
	/** The address it resolved to, when n8n names it. */
	ip?: string;
	/** A deny-listed host name (N8N_SSRF_BLOCKED_HOSTNAMES) rather than a restricted IP range. */
	deniedHostname: boolean;
}

type Refusal = 'ip' | 'hostname';

/** n8n's own error classes for a refusal (@n8n/backend-network), told apart by their names. */
const REFUSAL_NAMES: Record<string, Refusal> = {
	SsrfBlockedIpError: 'ip',
	SsrfBlockedHostnameError: 'hostname',
};

/** Their messages, read only when no error in the chain carries one of those names. */
const REFUSAL_TEXTS: Array<[RegExp, Refusal]> = [
	[/blocked because it resolves to a restricted IP address/i, 'ip'],
	[/blocked because the destination hostname is restricted/i, 'hostname'],
];

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value ? value : undefined;
}

function refusalByName(link: Readonly<Record<string, unknown>>): Refusal | undefined {
	const className = (link.constructor as { name?: unknown } | undefined)?.name;
	for (const name of [text(link.name), text(className)])
		if (name && Object.hasOwn(REFUSAL_NAMES, name)) return REFUSAL_NAMES[name];
	return undefined;
}

function refusalByText(link: Readonly<Record<string, unknown>>): Refusal | undefined {
	const message = text(link.message) ?? '';
	return REFUSAL_TEXTS.find(([pattern]) => pattern.test(message))?.[1];
}

/**
 * The refusal of n8n's SSRF protection in an error from a request helper, if it is one, found
 * anywhere along n8n's error chain (`cause`, `errorResponse`, `reason`: errorChain.ts), as n8n
 * wraps it: a NodeApiError around SsrfBlockedIpError, a thrown object holding it, a rejection's
 * reason. Known by the error's class name; its message is read only when no error in the chain is
 * named so, since n8n may reword it.
 */
export function blockedAddress(error: unknown): BlockedAddress | undefined {
	const links = errorChain(error);
	const byName = links.some((link) => refusalByName(link) !== undefined);
	let found: BlockedAddress | undefined;
	for (const link of links) {
		const refusal = byName ? refusalByName(link) : refusalByText(link);
		if (!refusal) continue;
		// The wrapper repeats the message; the original beneath it carries the address.
		const extra = (link.extra ?? {}) as Record<string, unknown>;
		found = {
			hostname: text(link.hostname) ?? text(extra.hostname) ?? found?.hostname,
			ip: text(link.ip) ?? text(extra.ip) ?? found?.ip,
			deniedHostname: refusal === 'hostname' || (found?.deniedHostname ?? false),
		};
	}
	return found;
}

/** The part of n8n 2.x's egress filter used here (helpers.getSecureEgressFilter, n8n 2.41 on). */
interface EgressFilter {
	validateUrl(url: string): Promise<{ ok: true } | { ok: false; error: unknown }>;
}

function egressFilterOf(helpers: unknown): EgressFilter | undefined {
	const get = (helpers as { getSecureEgressFilter?: unknown } | undefined)?.getSecureEgressFilter;
	if (typeof get !== 'function') return undefined;
	return (get as (this: unknown) => EgressFilter).call(helpers);
}

/**
 * Asks n8n's egress filter, where the running n8n offers one (n8n 1.x does not), whether it would
 * refuse `url`: a Custom URL is checked so before anything is sent. Any other answer (a host that
 * does not resolve, say) is left to the request itself, which reports it in its own words.
 */
export async function refusedBeforeSending(
	helpers: unknown,
	url: string,
): Promise<BlockedAddress | undefined> {
	const filter = egressFilterOf(helpers);
	if (!filter) return undefined;
	const verdict = await filter.validateUrl(url);
	if (verdict.ok) return undefined;
	const blocked = blockedAddress(verdict.error);
	return blocked && { ...blocked, hostname: blocked.hostname ?? new URL(url).hostname };
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
