import { API_PREFIX, DEFAULT_TENANT, ENVIRONMENT_HOSTS } from './serviceFacts';

export const TRIO_CREDENTIAL_TYPE = 'trioVmsApi';

type TrioEnvironment = 'production' | 'uat' | 'custom';

export interface TrioCredentialData {
	apiKey?: string;
	environment?: TrioEnvironment;
	tenant?: string;
	baseUrl?: string;
}

export class BaseUrlError extends Error {}

/**
 * The address everything goes to, up to and including /api/v3, without a trailing slash.
 * Mirrors the rule in the credential's test request.
 */
export function resolveApiRoot(credentials: TrioCredentialData): string {
	const environment = credentials.environment ?? 'production';
	let base: string;
	if (environment === 'custom') {
		base = String(credentials.baseUrl ?? '').trim();
		if (!base)
			throw new BaseUrlError(
				'The Trio VMS credential has Environment "Custom URL" but no Base URL',
			);
		if (!/^https?:\/\/[^/\s]+/i.test(base)) {
			throw new BaseUrlError(
				`The Trio VMS credential's Base URL "${base}" must start with https:// or http://`,
			);
		}
		if (/^http:/i.test(base) && !isLoopback(base)) {
			throw new BaseUrlError(
				`The Trio VMS credential's Base URL "${base}" must start with https://: over plain http:// the API key would cross the network readable by anyone on the way (http:// is accepted only for this machine, e.g. http://127.0.0.1:4010 for the local sandbox)`,
			);
		}
		base = base.replace(/\/+$/, '');
		// Accept a base URL pasted with the version path on it instead of failing with a 404.
		if (base.toLowerCase().endsWith(API_PREFIX.toLowerCase()))
			base = base.slice(0, -API_PREFIX.length);
	} else {
		const tenant = String(credentials.tenant || DEFAULT_TENANT)
			.trim()
			.replace(/^\/+|\/+$/g, '');
		base = `${ENVIRONMENT_HOSTS[environment === 'uat' ? 'uat' : 'production']}/${encodeURIComponent(tenant)}`;
	}
	return `${base}${API_PREFIX}`;
}

/** localhost, 127.0.0.0/8 or [::1]: a plain http:// address that never leaves the machine. */
function isLoopback(url: string): boolean {
	try {
		const host = new URL(url).hostname.toLowerCase();
		return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
	} catch {
		return false;
	}
}
