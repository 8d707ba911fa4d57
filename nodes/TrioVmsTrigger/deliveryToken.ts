/**
 * The secret in every registration URL, which proves a delivery came through this node's
 * registrations (Trio signs nothing).
 *
 * n8n keeps only its hash (state.ts). But n8n adds the webhook route, and the trigger registers
 * at Trio, before n8n saves the static data that holds the hash; in queue mode the process that
 * receives a delivery is not even the one that registered. So a token can also be checked
 * without any stored state: it is 64 hex characters made of when it was issued (11, in
 * milliseconds, so two rotations in one second are told apart), a random part (5) and an HMAC
 * (48) of both, the workflow, the node and the scope, keyed with the
 * credential's API key. While no hash is stored, a delivery is accepted if its token is such an
 * HMAC and was issued within the last FRESH_SECONDS: long enough for n8n to save the hash, short
 * enough that an old token (rotated away, or from before a deactivation) is refused.
 *
 * The issue time is read on the issuing process's clock and the window on the receiving one's.
 * In queue mode those are different processes, often on different machines, whose clocks need
 * not agree to the second; so the window is widened by CLOCK_SKEW_SECONDS on both sides: a token
 * may seem issued up to that far in the future, or that much longer ago. A token issued further
 * out is still refused by its issue time alone, before the credential is read.
 *
 * A received token is compared with the stored hashes in constant time (tokenMatches).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a token is accepted on its own, before n8n has saved the hash of it. */
export const FRESH_SECONDS = 120;

/**
 * How far the clock of the process that issued a token may be from the receiving process's,
 * either way: five minutes, the tolerance clusters commonly allow (Kerberos's default) and well
 * above what NTP-synchronised machines drift apart.
 */
export const CLOCK_SKEW_SECONDS = 300;

/** Whose tokens: one workflow's trigger node, in one scope (production or test). */
export interface TokenOwner {
	workflowId: string | undefined;
	nodeId: string;
	scope: string;
}

const TOKEN = /^[0-9a-f]{64}$/;
/** Hex digits of the issue time in milliseconds: enough until the year 2527. */
const ISSUED_DIGITS = 11;

function signature(apiKey: string, owner: TokenOwner, prefix: string): string {
	return createHmac('sha256', apiKey)
		.update(`trio-vms-trigger|${owner.workflowId ?? ''}|${owner.nodeId}|${owner.scope}|${prefix}`)
		.digest('hex')
		.slice(0, 48);
}

/** SHA-256 of a delivery token, as hex: what n8n stores. */
export function hashToken(token: string): string {
	return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function issueToken(apiKey: string, owner: TokenOwner, nowMs: number): string {
	const issued = Math.floor(nowMs).toString(16).padStart(ISSUED_DIGITS, '0').slice(-ISSUED_DIGITS);
	const prefix = `${issued}${randomBytes(3)
		.toString('hex')
		.slice(0, 16 - ISSUED_DIGITS)}`;
	return `${prefix}${signature(apiKey, owner, prefix)}`;
}

/** When a token says it was issued (ms), or undefined for anything else. */
export function tokenIssuedAt(token: unknown): number | undefined {
	if (typeof token !== 'string' || !TOKEN.test(token)) return undefined;
	return Number.parseInt(token.slice(0, ISSUED_DIGITS), 16);
}

/**
 * Whether a token's own issue time lies within the last FRESH_SECONDS (give or take
 * CLOCK_SKEW_SECONDS) and not before `notBeforeMs`: the check that needs no key. A token failing it is refused without reading the
 * credential, so a stream of made-up tokens costs no credential decryption each.
 */
export function mayBeFresh(token: unknown, nowMs: number, notBeforeMs = 0): boolean {
	const issuedMs = tokenIssuedAt(token);
	return (
		issuedMs !== undefined &&
		issuedMs <= nowMs + CLOCK_SKEW_SECONDS * 1000 &&
		nowMs - issuedMs <= (FRESH_SECONDS + CLOCK_SKEW_SECONDS) * 1000 &&
		issuedMs >= notBeforeMs
	);
}

/**
 * Whether a token was issued for this owner with this key within the last FRESH_SECONDS (give
 * or take CLOCK_SKEW_SECONDS), and not before `notBeforeMs` (the node's last deactivation in this process, if any).
 */
export function isFreshToken(
	apiKey: string,
	owner: TokenOwner,
	token: unknown,
	nowMs: number,
	notBeforeMs = 0,
): boolean {
	if (!apiKey || !mayBeFresh(token, nowMs, notBeforeMs)) return false;
	const text = token as string;
	const expected = Buffer.from(signature(apiKey, owner, text.slice(0, 16)), 'hex');
	return timingSafeEqual(expected, Buffer.from(text.slice(16), 'hex'));
}

/**
 * Who this trigger is, independent of its token: the workflow, the node and the scope, keyed
 * with the credential's API key. The token rotates whenever the registrations are rewritten;
 * this does not, so a copy of the database taken before a rotation still recognises the
 * original's answer to a probe (ownership.ts).
 */
export function triggerIdentity(apiKey: string, owner: TokenOwner): string {
	return createHmac('sha256', apiKey)
		.update(`trio-vms-trigger-identity|${owner.workflowId ?? ''}|${owner.nodeId}|${owner.scope}`)
		.digest('hex');
}

function digest(value: string): Buffer {
	return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Constant-time comparison of the received token with the stored hash of the expected one.
 * Comparing hashes never depends on (or reveals) the tokens' lengths.
 */
export function tokenMatches(
	expectedHash: string | readonly string[] | undefined,
	received: unknown,
): boolean {
	if (typeof received !== 'string' || received.length === 0) return false;
	const hashes = typeof expectedHash === 'string' ? [expectedHash] : (expectedHash ?? []);
	const received256 = digest(received);
	let matched = false;
	// Every accepted hash is compared, so the time taken does not say which one matched.
	for (const hash of hashes) {
		if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) continue;
		if (timingSafeEqual(Buffer.from(hash, 'hex'), received256)) matched = true;
	}
	return matched;
}
