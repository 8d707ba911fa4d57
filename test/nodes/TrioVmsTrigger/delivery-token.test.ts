/** The delivery token checked on its own, before n8n has saved its hash (deliveryToken.ts). */
import {
	CLOCK_SKEW_SECONDS,
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
/** The oldest a token may seem on the receiving process's clock, in ms. */
const OLDEST = (FRESH_SECONDS + CLOCK_SKEW_SECONDS) * 1000;
const SKEW = CLOCK_SKEW_SECONDS * 1000;

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
		expect(isFreshToken(KEY, OWNER, token, NOW + OLDEST)).toBe(true);
		expect(isFreshToken(KEY, OWNER, token, NOW + OLDEST + 1)).toBe(false);
		expect(isFreshToken('another-key', OWNER, token, NOW)).toBe(false);
		expect(isFreshToken(KEY, { ...OWNER, scope: 'test' }, token, NOW)).toBe(false);
		expect(isFreshToken(KEY, { ...OWNER, workflowId: 'w2' }, token, NOW)).toBe(false);
		expect(isFreshToken(KEY, { ...OWNER, nodeId: 'n2' }, token, NOW)).toBe(false);
	});

	it('are refused when issued before the last deactivation, from the future, altered or malformed', () => {
		const token = issueToken(KEY, OWNER, NOW);
		expect(isFreshToken(KEY, OWNER, token, NOW + 2_000, NOW + 1_000)).toBe(false);
		expect(isFreshToken(KEY, OWNER, token, NOW - SKEW - 1)).toBe(false);
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
		expect(mayBeFresh(token, NOW + OLDEST)).toBe(true);
		expect(mayBeFresh(token, NOW + OLDEST + 1)).toBe(false);
		expect(mayBeFresh(token, NOW - SKEW)).toBe(true);
		expect(mayBeFresh(token, NOW - SKEW - 1)).toBe(false);
		expect(mayBeFresh(token, NOW + 2_000, NOW + 1_000)).toBe(false);
		expect(mayBeFresh('0'.repeat(64), NOW)).toBe(false);
		expect(mayBeFresh('wrong', NOW)).toBe(false);
		// A forged signature passes this check; isFreshToken refuses it with the key.
		const forged = `${token.slice(0, 16)}${'0'.repeat(48)}`;
		expect(mayBeFresh(forged, NOW)).toBe(true);
		expect(isFreshToken(KEY, OWNER, forged, NOW)).toBe(false);
	});
});

describe('tokens issued on another clock', () => {
	// In queue mode the process that issues a token and the one that receives a delivery need
	// not share a clock to the second: five minutes apart either way are tolerated.
	it('are accepted from a process whose clock is 6 s or 2 min ahead, or 5 min either way', () => {
		for (const aheadMs of [6_000, 120_000, SKEW, -SKEW]) {
			const token = issueToken(KEY, OWNER, NOW + aheadMs);
			expect(mayBeFresh(token, NOW)).toBe(true);
			expect(isFreshToken(KEY, OWNER, token, NOW)).toBe(true);
		}
	});

	it('are accepted for FRESH_SECONDS on the issuing clock while the clocks are within the skew', () => {
		for (const receiverAheadMs of [-SKEW, -6_000, 0, 6_000, SKEW]) {
			const token = issueToken(KEY, OWNER, NOW);
			const received = NOW + receiverAheadMs;
			expect(isFreshToken(KEY, OWNER, token, received)).toBe(true);
			expect(isFreshToken(KEY, OWNER, token, received + FRESH_SECONDS * 1000)).toBe(true);
		}
	});

	it('are refused by issue time alone when issued further out than the skew either way', () => {
		for (const issuedMs of [NOW + SKEW + 1, NOW + 3_600_000, NOW - OLDEST - 1, NOW - 86_400_000]) {
			const token = issueToken(KEY, OWNER, issuedMs);
			expect(mayBeFresh(token, NOW)).toBe(false);
			expect(isFreshToken(KEY, OWNER, token, NOW)).toBe(false);
		}
	});
});
