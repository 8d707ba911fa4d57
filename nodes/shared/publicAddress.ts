/**
 * Whether the real Trio VMS service (on the internet) can deliver to an address: pure, so the
 * webhook trigger and the action node's Webhook → Create share one rule.
 *
 * Only the address itself is judged (no DNS lookup): plain http, names that exist only inside a
 * network, and IP literals of private, loopback or link-local ranges are refused. A public name
 * that resolves to a private address is not caught; the service then never delivers, as today.
 */
import type { TrioCredentialData } from './credentials';

/**
 * What to do when n8n's own address is one Trio VMS cannot reach, in one line. It goes into the
 * error's message, not only its description: n8n 2.x shows only the message when publishing fails.
 */
export const PUBLIC_ADDRESS_FIX =
	"Set n8n's WEBHOOK_URL environment variable to its public https:// address and restart n8n, or use the Trio VMS Sync Trigger, which needs no public address.";

/** The reason Trio VMS cannot reach `url`, in a recruiter's words, or undefined when it can. */
export function unreachableAddressReason(url: string): string | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return 'it is not a complete web address';
	}
	if (parsed.protocol !== 'https:')
		return 'it does not start with https:// (Trio delivers only over HTTPS)';
	const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
	if (host.startsWith('[')) {
		return privateIpv6(host.slice(1, -1)) ? 'it is a private or local IPv6 address' : undefined;
	}
	const ipv4 = ipv4Parts(host);
	if (ipv4) return privateIpv4(ipv4) ? 'it is a private or local IP address' : undefined;
	if (host === 'localhost' || host.endsWith('.localhost'))
		return 'it points at this computer (localhost)';
	if (!host.includes('.')) return `"${host}" is a name known only inside your network`;
	if (LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
		return `"${host}" is a name known only inside your network`;
	}
	return undefined;
}

/**
 * The reason the credential's Trio VMS cannot deliver to `url`, or undefined when it can. A
 * Custom URL (a test copy of Trio, such as the sandbox on this computer) may deliver anywhere;
 * the real service (Production or UAT) only where unreachableAddressReason finds no fault.
 */
export function undeliverableReason(
	credentials: Pick<TrioCredentialData, 'environment'>,
	url: string,
): string | undefined {
	if ((credentials.environment ?? 'production') === 'custom') return undefined;
	return unreachableAddressReason(url);
}

/** Names that never resolve on the public internet (RFC 6761, 6762, 8375 and common practice). */
const LOCAL_SUFFIXES = [
	'.local',
	'.internal',
	'.intranet',
	'.lan',
	'.home',
	'.corp',
	'.localdomain',
	'.home.arpa',
	'.test',
	'.invalid',
	'.example',
];

function ipv4Parts(host: string): number[] | undefined {
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	if (!match) return undefined;
	const parts = match.slice(1).map(Number);
	return parts.every((part) => part <= 255) ? parts : undefined;
}

function privateIpv4([a, b]: number[]): boolean {
	return (
		a === 0 || // "this network"
		a === 10 ||
		a === 127 || // loopback
		(a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
		(a === 169 && b === 254) || // link-local
		(a === 172 && b >= 16 && b <= 31) ||
		(a === 192 && b === 168) ||
		a >= 224 // multicast and reserved
	);
}

function privateIpv6(host: string): boolean {
	if (host === '::' || host === '::1') return true;
	// IPv4-mapped (::ffff:10.0.0.1, which the URL parser writes as ::ffff:a00:1).
	const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
	if (mapped) {
		const high = Number.parseInt(mapped[1], 16);
		const low = Number.parseInt(mapped[2], 16);
		return privateIpv4([high >> 8, high & 255, low >> 8, low & 255]);
	}
	const first = Number.parseInt(host.split(':')[0] || '0', 16);
	return (
		(first & 0xfe00) === 0xfc00 || // unique local fc00::/7
		(first & 0xffc0) === 0xfe80 || // link-local fe80::/10
		(first & 0xff00) === 0xff00 // multicast
	);
}
