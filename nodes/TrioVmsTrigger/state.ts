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
 * copied with every database backup, and the hash is all a delivery check needs.
 *
 * "test" is written only when n8n registers the editor's test URL ("Listen for test event");
 * everything else is "production". Keeping the two apart means a test never replaces or
 * deactivates the registrations an active workflow relies on.
 *
 * n8n only notices a change to static data when a property of it is set or deleted, so a
 * scope is always written as a whole new object, never mutated in place.
 */
import type { IDataObject } from 'n8n-workflow';

import { setNewest } from '../shared/boundedMap';
import { isTrioEventName, type TrioEventName } from '../shared/events';
import { isRecord } from '../shared/listAnswer';

export type RegistrationScope = 'production' | 'test';

const SCOPES: readonly RegistrationScope[] = ['production', 'test'];

export interface ScopeState {
	/** n8n's webhook URL (without our query parameters) the registrations were made for. */
	webhookUrl: string;
	/** SHA-256 (hex) of the secret carried in every registered URL; deliveries without it are refused. */
	tokenHash: string;
	/** Registration Id per event. */
	ids: Partial<Record<TrioEventName, string>>;
	/**
	 * When the token in force was issued (ms; not secret, the token says it in clear). A fresh
	 * token is accepted beside the stored one only when issued after it (deliveries.ts), so a token
	 * a rotation replaced is refused once n8n has saved the new hash.
	 */
	tokenIssuedAt?: number;
}

/** n8n registers the editor's test URL in "manual" mode; activation uses every other mode. */
export function scopeForMode(mode: string): RegistrationScope {
	return mode === 'manual' ? 'test' : 'production';
}

const HASH = /^[0-9a-f]{64}$/;

export function readScope(
	staticData: IDataObject,
	scope: RegistrationScope,
): ScopeState | undefined {
	const raw = staticData[scope];
	if (!isRecord(raw)) return undefined;
	const { webhookUrl, tokenHash, ids, tokenIssuedAt } = raw;
	if (typeof webhookUrl !== 'string') return undefined;
	if (typeof tokenHash !== 'string' || !HASH.test(tokenHash)) return undefined;
	const cleanIds: Partial<Record<TrioEventName, string>> = {};
	if (isRecord(ids)) {
		for (const [event, id] of Object.entries(ids)) {
			if (isTrioEventName(event) && typeof id === 'string' && id) cleanIds[event] = id;
		}
	}
	const state: ScopeState = { webhookUrl, tokenHash, ids: cleanIds };
	if (typeof tokenIssuedAt === 'number' && Number.isFinite(tokenIssuedAt))
		state.tokenIssuedAt = tokenIssuedAt;
	return state;
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
		...(state.tokenIssuedAt !== undefined ? { tokenIssuedAt: state.tokenIssuedAt } : {}),
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
 * When this process last deactivated each trigger (per workflow, node and scope). A token issued
 * before that is not accepted on its own (see deliveryToken.ts) even while it is still fresh.
 * Bounded: the oldest entry goes first.
 */
const MAX_REMEMBERED = 1_000;
const deactivations = new Map<string, number>();

export function rememberDeactivation(key: string, atMs: number): void {
	setNewest(deactivations, key, atMs, MAX_REMEMBERED);
}

export function lastDeactivation(key: string): number | undefined {
	return deactivations.get(key);
}
