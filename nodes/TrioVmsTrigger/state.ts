/**
 * What the trigger remembers between activation and deliveries, in the node's static data.
 *
 * Layout (node static data, one entry per scope):
 *   {
 *     production?: { webhookUrl, tokenHash, ids: { "<event>": "<registration Id>" } },
 *     test?:       { webhookUrl, tokenHash, ids: { ... } }
 *   }
 *
 * Only the SHA-256 of the delivery token is kept: static data is returned by n8n's REST API and
 * copied with every database backup, and the hash is all a delivery check needs. Static data
 * written by an earlier version held the token itself; it is read as its hash and rewritten.
 *
 * "test" is written only when n8n registers the editor's test URL ("Listen for test event");
 * everything else is "production". Keeping the two apart means a test never replaces or
 * deactivates the registrations an active workflow relies on.
 *
 * n8n only notices a change to static data when a property of it is set or deleted, so a
 * scope is always written as a whole new object, never mutated in place.
 */
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { isTrioEventName, type TrioEventName } from '../shared/events';

export type RegistrationScope = 'production' | 'test';

const SCOPES: readonly RegistrationScope[] = ['production', 'test'];

export interface ScopeState {
	/** n8n's webhook URL (without our query parameters) the registrations were made for. */
	webhookUrl: string;
	/** SHA-256 (hex) of the secret carried in every registered URL; deliveries without it are refused. */
	tokenHash: string;
	/** Registration Id per event. */
	ids: Partial<Record<TrioEventName, string>>;
}

/** n8n registers the editor's test URL in "manual" mode; activation uses every other mode. */
export function scopeForMode(mode: string): RegistrationScope {
	return mode === 'manual' ? 'test' : 'production';
}

/** SHA-256 of a delivery token, as hex. */
export function hashToken(token: string): string {
	return createHash('sha256').update(token, 'utf8').digest('hex');
}

const HASH = /^[0-9a-f]{64}$/;

export function readScope(
	staticData: IDataObject,
	scope: RegistrationScope,
): ScopeState | undefined {
	const raw = staticData[scope];
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
	const { webhookUrl, tokenHash, token, ids } = raw as Record<string, unknown>;
	if (typeof webhookUrl !== 'string') return undefined;
	let hash: string;
	if (typeof tokenHash === 'string' && HASH.test(tokenHash)) hash = tokenHash;
	else if (typeof token === 'string' && token) hash = hashToken(token);
	else return undefined;
	const cleanIds: Partial<Record<TrioEventName, string>> = {};
	if (ids && typeof ids === 'object' && !Array.isArray(ids)) {
		for (const [event, id] of Object.entries(ids as Record<string, unknown>)) {
			if (isTrioEventName(event) && typeof id === 'string' && id) cleanIds[event] = id;
		}
	}
	return { webhookUrl, tokenHash: hash, ids: cleanIds };
}

/** Whether the scope was written by an earlier version, with the token itself. */
export function holdsPlainToken(staticData: IDataObject, scope: RegistrationScope): boolean {
	const raw = staticData[scope];
	return !!raw && typeof raw === 'object' && 'token' in raw;
}

export function writeScope(
	staticData: IDataObject,
	scope: RegistrationScope,
	state: ScopeState | undefined,
): void {
	if (state === undefined) {
		if (scope in staticData) delete staticData[scope];
		return;
	}
	staticData[scope] = {
		webhookUrl: state.webhookUrl,
		tokenHash: state.tokenHash,
		ids: { ...state.ids },
	};
}

/**
 * n8n calls `delete` in the same mode ("internal") for the test URL and for deactivation, so
 * the scope is told by the URL: the scope registered for exactly this URL, else the test
 * scope when the URL is n8n's test endpoint, else production (whose URL may have changed
 * since it was registered: its stored ids still find its registrations).
 */
export function scopeForRemoval(
	staticData: IDataObject,
	webhookUrl: string,
	mode: string,
): RegistrationScope {
	if (mode === 'manual') return 'test';
	for (const scope of SCOPES) {
		if (readScope(staticData, scope)?.webhookUrl === webhookUrl) return scope;
	}
	return looksLikeTestUrl(webhookUrl) ? 'test' : 'production';
}

/** n8n's default test endpoint is /webhook-test/; production is /webhook/. */
export function looksLikeTestUrl(webhookUrl: string): boolean {
	try {
		return new URL(webhookUrl).pathname.split('/').includes('webhook-test');
	} catch {
		return false;
	}
}

/**
 * Hashes of the tokens this process issued on activation, per trigger and scope. n8n adds the webhook route
 * before it saves the static data that `create` wrote, so for a moment after activation a
 * delivery would be checked against a token that is not stored yet and refused. In the process
 * that activated the workflow this memory closes that gap; elsewhere (queue-mode webhook
 * processes) the saved static data is all there is. Bounded: the oldest entry goes first.
 */
const MAX_ISSUED_TOKENS = 1_000;
const issuedTokens = new Map<string, string>();

export function rememberIssuedToken(key: string, tokenHash: string): void {
	issuedTokens.delete(key);
	issuedTokens.set(key, tokenHash);
	if (issuedTokens.size > MAX_ISSUED_TOKENS) {
		const oldest = issuedTokens.keys().next().value;
		if (oldest !== undefined) issuedTokens.delete(oldest);
	}
}

export function issuedTokenHash(key: string): string | undefined {
	return issuedTokens.get(key);
}

export function forgetIssuedToken(key: string): void {
	issuedTokens.delete(key);
}
