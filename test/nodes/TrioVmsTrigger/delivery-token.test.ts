/** The delivery token checked on its own, before n8n has saved its hash (deliveryToken.ts). */
import {
	FRESH_SECONDS,
	hashToken,
	isFreshToken,
	issueToken,
	mayBeFresh,
	tokenIssuedAt,
	type TokenOwner,
} from '../../../nodes/TrioVmsTrigger/deliveryToken';

const KEY = 'agency-api-key';
const OWNER: TokenOwner = { workflowId: 'w1', nodeId: 'n1', scope: 'production' };
const NOW = Date.UTC(2026, 10, 23, 9, 0, 0);

describe('delivery tokens', () => {
	it('are 64 hex characters, different every time, and hashed for storage', () => {
		const a = issueToken(KEY, OWNER, NOW);
		const b = issueToken(KEY, OWNER, NOW);
		expect(a).toMatch(/^[0-9a-f]{64}$/);
		expect(a).not.toBe(b);
		expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
		expect(hashToken(a)).not.toBe(a);
	});

	it('are accepted on their own only while fresh, for their owner, with the key that signed them', () => {
		const token = issueToken(KEY, OWNER, NOW);
		expect(isFreshToken(KEY, OWNER, token, NOW)).toBe(true);
		expect(isFreshToken(KEY, OWNER, token, NOW + FRESH_SECONDS * 1000)).toBe(true);
		expect(isFreshToken(KEY, OWNER, token, NOW + (FRESH_SECONDS + 1) * 1000)).toBe(false);
		expect(isFreshToken('another-key', OWNER, token, NOW)).toBe(false);
		expect(isFreshToken(KEY, { ...OWNER, scope: 'test' }, token, NOW)).toBe(false);
		expect(isFreshToken(KEY, { ...OWNER, workflowId: 'w2' }, token, NOW)).toBe(false);
		expect(isFreshToken(KEY, { ...OWNER, nodeId: 'n2' }, token, NOW)).toBe(false);
	});

	it('are refused when issued before the last deactivation, from the future, altered or malformed', () => {
		const token = issueToken(KEY, OWNER, NOW);
		expect(isFreshToken(KEY, OWNER, token, NOW + 2_000, NOW + 1_000)).toBe(false);
		expect(isFreshToken(KEY, OWNER, token, NOW - 60_000)).toBe(false);
		const altered = `${token.slice(0, 63)}${token.endsWith('0') ? '1' : '0'}`;
		expect(isFreshToken(KEY, OWNER, altered, NOW)).toBe(false);
		expect(isFreshToken(KEY, OWNER, token.toUpperCase(), NOW)).toBe(false);
		expect(isFreshToken(KEY, OWNER, [token], NOW)).toBe(false);
		expect(isFreshToken('', OWNER, token, NOW)).toBe(false);
	});
});

describe('token issue times', () => {
	it('are read back to the millisecond, so two rotations in one second are told apart', () => {
		const first = issueToken(KEY, OWNER, NOW + 1);
		const second = issueToken(KEY, OWNER, NOW + 2);
		expect(tokenIssuedAt(first)).toBe(NOW + 1);
		expect(tokenIssuedAt(second)).toBe(NOW + 2);
		expect(isFreshToken(KEY, OWNER, first, NOW + 10, NOW + 2)).toBe(false);
		expect(isFreshToken(KEY, OWNER, second, NOW + 10, NOW + 2)).toBe(true);
		expect(tokenIssuedAt('nope')).toBeUndefined();
	});
});

describe('the issue-time check that needs no key', () => {
	it('passes only tokens issued within the window and not before the last deactivation', () => {
		const token = issueToken(KEY, OWNER, NOW);
		expect(mayBeFresh(token, NOW)).toBe(true);
		expect(mayBeFresh(token, NOW + FRESH_SECONDS * 1000)).toBe(true);
		expect(mayBeFresh(token, NOW + (FRESH_SECONDS + 1) * 1000)).toBe(false);
		expect(mayBeFresh(token, NOW - 60_000)).toBe(false);
		expect(mayBeFresh(token, NOW + 2_000, NOW + 1_000)).toBe(false);
		expect(mayBeFresh('0'.repeat(64), NOW)).toBe(false);
		expect(mayBeFresh('wrong', NOW)).toBe(false);
		// A forged signature passes this check; isFreshToken refuses it with the key.
		const forged = `${token.slice(0, 16)}${'0'.repeat(48)}`;
		expect(mayBeFresh(forged, NOW)).toBe(true);
		expect(isFreshToken(KEY, OWNER, forged, NOW)).toBe(false);
	});
});
