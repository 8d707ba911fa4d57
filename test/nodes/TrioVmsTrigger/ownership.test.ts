/** Whose the remembered registrations are, from a probe of the address they were made for (ownership.ts). */
import {
	isN8nWebhookNotRegistered,
	judgeOldAddress,
	ownsRegistration,
	ownsStoredRegistrations,
	settleOldAddress,
	type ProbeExpectation,
	type Sighting,
} from '../../../nodes/TrioVmsTrigger/ownership';
import { hashToken, triggerIdentity } from '../../../nodes/TrioVmsTrigger/deliveryToken';
import {
	buildRegistrationUrl,
	probeReply,
	probeUrl,
	urlBase,
} from '../../../nodes/TrioVmsTrigger/registrationUrls';

const URL_NOW = 'https://n8n.agency.com/webhook/abc-123/webhook';
const URL_OLD = 'https://old.agency.com/webhook/abc-123/webhook';
const PROBED = probeUrl(URL_OLD, 'Job Update', 'nonce-1');

/** n8n's answer (1.x and 2.x) to a POST to a production webhook path no active workflow holds. */
function n8nNotRegistered(path = 'abc-123/webhook') {
	return {
		code: 404,
		message: `The requested webhook "POST ${path}" is not registered.`,
		hint: "The workflow must be active for a production URL to run successfully. You can activate the workflow using the toggle in the top-right of the editor. Note that unlike test URL calls, production URL calls aren't shown on the canvas (only in the executions list)",
	};
}

describe('judgeOldAddress: whose the stored registrations are, from a probe of their old address', () => {
	const identity = triggerIdentity('key', { workflowId: 'w1', nodeId: 'n1', scope: 'production' });
	const nonce = 'nonce-1';
	const expected: ProbeExpectation = { ...probeReply(identity, nonce, URL_NOW), url: PROBED };
	const answered = (status: number, body: unknown) => ({ kind: 'answered' as const, status, body });

	it('treats every probe without an HTTP answer as doubt, which counts as a copy', () => {
		for (const reason of [
			'connect ECONNREFUSED',
			'getaddrinfo ENOTFOUND',
			'timeout',
			'CERT_HAS_EXPIRED',
			// What n8n's SSRF protection throws for a private or loopback old address.
			'The IP address 127.0.0.2 is blocked. If you need to access internal resources, ask your n8n administrator to allowlist the hostname or IP range in the environment configuration.',
		]) {
			const verdict = judgeOldAddress({ kind: 'noAnswer', reason }, expected);
			expect(verdict).toBe('doubt');
			expect(ownsStoredRegistrations(verdict)).toBe(false);
		}
	});

	it('treats gateway errors, other statuses and unexpected bodies as doubt', () => {
		for (const outcome of [
			answered(502, 'Bad Gateway'),
			answered(503, {}),
			answered(500, expected),
			answered(401, {}),
			answered(301, {}),
			answered(200, 'OK'),
			answered(200, { received: true }),
			answered(200, { probe: 'something else', self: expected.self }),
		]) {
			expect(judgeOldAddress(outcome, expected)).toBe('doubt');
		}
	});

	it('treats a bare 404 or 410 as doubt: an ingress without a route says nothing about n8n', () => {
		for (const outcome of [
			answered(404, ''),
			answered(404, '<html><body><h1>404 Not Found</h1>nginx</body></html>'),
			answered(404, { message: 'not registered' }),
			answered(404, { code: 404, message: 'The requested webhook is not registered.' }),
			answered(404, { message: 'Not Found' }),
			answered(410, ''),
			answered(410, n8nNotRegistered()),
		]) {
			const verdict = judgeOldAddress(outcome, expected);
			expect(verdict).toBe('doubt');
			expect(ownsStoredRegistrations(verdict)).toBe(false);
		}
	});

	it("takes n8n's own 'webhook not registered' for exactly the probed path as proof that nobody is there", () => {
		expect(judgeOldAddress(answered(404, n8nNotRegistered()), expected)).toBe('nobodyThere');
		// The body as text, when the answer's content type was not read as JSON.
		expect(judgeOldAddress(answered(404, JSON.stringify(n8nNotRegistered())), expected)).toBe(
			'nobodyThere',
		);
		expect(ownsStoredRegistrations('nobodyThere')).toBe(true);
	});

	it("lets n8n's 'not registered' move the registrations on activation, never switch them off", () => {
		// Production says the same while it re-publishes: deactivating a copy then must not
		// switch production off. Only this n8n's own answer at the old address allows that.
		expect(ownsStoredRegistrations('nobodyThere', 'activate')).toBe(true);
		expect(ownsStoredRegistrations('nobodyThere', 'remove')).toBe(false);
		expect(ownsStoredRegistrations('sameN8n', 'remove')).toBe(true);
		expect(ownsStoredRegistrations('anotherN8n', 'remove')).toBe(false);
		expect(ownsStoredRegistrations('doubt', 'remove')).toBe(false);
	});

	it("does not take n8n's 'not registered' for another path, method or webhook as proof", () => {
		for (const body of [
			n8nNotRegistered('other-id/webhook'),
			n8nNotRegistered('webhook'),
			{
				...n8nNotRegistered(),
				message: 'The requested webhook "GET abc-123/webhook" is not registered.',
			},
			{
				code: 404,
				message:
					'This webhook is not registered for POST requests. Did you mean to make a GET request?',
			},
			{ ...n8nNotRegistered(), code: 500 },
			[n8nNotRegistered()],
		]) {
			expect(judgeOldAddress(answered(404, body), expected)).toBe('doubt');
		}
	});

	it("recognises this same n8n's answer, and tells another n8n with the same workflow from it", () => {
		expect(judgeOldAddress(answered(200, expected), expected)).toBe('sameN8n');
		expect(ownsStoredRegistrations('sameN8n')).toBe(true);
		const elsewhere = probeReply(identity, nonce, URL_OLD);
		expect(judgeOldAddress(answered(200, elsewhere), expected)).toBe('anotherN8n');
		expect(ownsStoredRegistrations('anotherN8n')).toBe(false);
	});

	it('answers with the same identity whatever the token, and differently for another workflow or key', () => {
		// The identity holds no token: a rotation after a copy was taken changes nothing.
		const again = triggerIdentity('key', { workflowId: 'w1', nodeId: 'n1', scope: 'production' });
		expect(probeReply(again, nonce, URL_OLD)).toEqual(probeReply(identity, nonce, URL_OLD));
		const other = triggerIdentity('key', { workflowId: 'w2', nodeId: 'n1', scope: 'production' });
		expect(judgeOldAddress(answered(200, probeReply(other, nonce, URL_NOW)), expected)).toBe(
			'doubt',
		);
		const otherKey = triggerIdentity('key2', {
			workflowId: 'w1',
			nodeId: 'n1',
			scope: 'production',
		});
		expect(judgeOldAddress(answered(200, probeReply(otherKey, nonce, URL_NOW)), expected)).toBe(
			'doubt',
		);
		// Another nonce, another answer: an old answer cannot be replayed.
		expect(probeReply(identity, 'nonce-2', URL_NOW)).not.toEqual(
			probeReply(identity, nonce, URL_NOW),
		);
	});
});

describe("isN8nWebhookNotRegistered: n8n's own answer for an unknown production webhook", () => {
	it('matches the probed path behind a path prefix (n8n served under /automation/)', () => {
		const url = probeUrl(
			'https://host.example/automation/webhook/abc-123/webhook',
			'Job Update',
			'n',
		);
		expect(isN8nWebhookNotRegistered(404, n8nNotRegistered(), url)).toBe(true);
		expect(isN8nWebhookNotRegistered(404, n8nNotRegistered('bc-123/webhook'), url)).toBe(false);
	});

	it('needs the 404 status and a message, not only the words', () => {
		expect(isN8nWebhookNotRegistered(200, n8nNotRegistered(), PROBED)).toBe(false);
		expect(isN8nWebhookNotRegistered(404, { hint: n8nNotRegistered().hint }, PROBED)).toBe(false);
		expect(isN8nWebhookNotRegistered(404, undefined, PROBED)).toBe(false);
		expect(isN8nWebhookNotRegistered(404, n8nNotRegistered(), 'not a url')).toBe(false);
	});

	it('reads the answer as text too: JSON text counts, other text, a list or null does not', () => {
		expect(isN8nWebhookNotRegistered(404, JSON.stringify(n8nNotRegistered()), PROBED)).toBe(true);
		for (const body of ['<html>Not Found</html>', '', '[]', 'null', [n8nNotRegistered()], null])
			expect(isN8nWebhookNotRegistered(404, body, PROBED)).toBe(false);
	});
});

describe('ownsRegistration: a registration is this node’s only while its URL says so', () => {
	const stored = { webhookUrl: URL_OLD, tokenHash: hashToken('t'), ids: { 'Job Update': 'a' } };
	const at = (url: string, token: string | undefined) => ({
		Id: 'a',
		Url: buildRegistrationUrl(url, 'Job Update', token),
	});

	it("is this node's at its current address, whatever the token", () => {
		expect(ownsRegistration(at(URL_NOW, 'anything'), urlBase(URL_NOW), stored)).toBe(true);
		expect(ownsRegistration(at(URL_NOW, undefined), urlBase(URL_NOW), undefined)).toBe(true);
	});

	it("is this node's at the remembered address only with the remembered token", () => {
		expect(ownsRegistration(at(URL_OLD, 't'), urlBase(URL_NOW), stored)).toBe(true);
		expect(ownsRegistration(at(URL_OLD, 'other'), urlBase(URL_NOW), stored)).toBe(false);
		expect(ownsRegistration(at(URL_OLD, undefined), urlBase(URL_NOW), stored)).toBe(false);
		expect(ownsRegistration(at(URL_OLD, 't'), urlBase(URL_NOW), undefined)).toBe(false);
	});

	it('is never this node’s by its remembered Id alone', () => {
		expect(
			ownsRegistration(at('https://elsewhere.example/webhook/x', 't'), urlBase(URL_NOW), stored),
		).toBe(false);
		expect(ownsRegistration({ Id: 'a', Url: null }, urlBase(URL_NOW), stored)).toBe(false);
		expect(ownsRegistration({ Id: 'a' }, urlBase(URL_NOW), stored)).toBe(false);
	});
});

describe("settleOldAddress: n8n's 'not registered' moves registrations only when heard twice, some time apart", () => {
	const AFTER = 30_000;
	const seen = (...entries: Array<[number, Sighting['verdict']]>): Sighting[] =>
		entries.map(([atMs, verdict]) => ({ atMs, verdict }));
	/** Settles on activation what the old address answered, each answer [at ms, verdict]. */
	const activating = (...entries: Array<[number, Sighting['verdict']]>) =>
		settleOldAddress(seen(...entries), 'activate', AFTER);

	it("does not take one 'not registered' as proof: it is also what a restarting n8n says until it has published", () => {
		expect(activating([1_000, 'nobodyThere'])).toEqual({
			settled: false,
			probeAtMs: 31_000,
		});
	});

	// The second answer, heard after the confirmation time, settles it either way.
	it.each([
		[
			"takes 'not registered' heard again after the confirmation time as proof that nobody is there",
			'nobodyThere',
			true,
		],
		[
			'lets production answer in between: a production that published meanwhile keeps its registrations',
			'anotherN8n',
			false,
		],
	] as const)('%s', (_name, second, owns) => {
		const settled = activating([1_000, 'nobodyThere'], [31_000, second]);
		expect(settled).toEqual({ settled: true, verdict: second });
		expect(ownsStoredRegistrations(second, 'activate')).toBe(owns);
	});

	it('asks again when the second answer came too soon (the clock, not the count, decides)', () => {
		expect(activating([1_000, 'nobodyThere'], [20_000, 'nobodyThere'])).toEqual({
			settled: false,
			probeAtMs: 31_000,
		});
	});

	it('counts a failed second probe (production restarting again) as doubt', () => {
		expect(activating([1_000, 'nobodyThere'], [31_000, 'doubt'])).toEqual({
			settled: true,
			verdict: 'doubt',
		});
	});

	it("takes anything but 'not registered' at once, and gives up as doubt when the answers change under it", () => {
		for (const verdict of ['sameN8n', 'anotherN8n', 'doubt'] as const) {
			expect(activating([1_000, verdict])).toEqual({
				settled: true,
				verdict,
			});
		}
		expect(activating([0, 'nobodyThere'], [10_000, 'anotherN8n'], [40_000, 'nobodyThere'])).toEqual(
			{ settled: true, verdict: 'doubt' },
		);
		// Three answers that never span the time (a clock set back) are doubt, not a fourth probe.
		expect(activating([0, 'nobodyThere'], [5_000, 'nobodyThere'], [6_000, 'nobodyThere'])).toEqual({
			settled: true,
			verdict: 'doubt',
		});
	});

	it('needs no confirmation to deactivate: "not registered" never lets a deactivation switch them off', () => {
		expect(settleOldAddress(seen([1_000, 'nobodyThere']), 'remove', AFTER)).toEqual({
			settled: true,
			verdict: 'nobodyThere',
		});
		expect(ownsStoredRegistrations('nobodyThere', 'remove')).toBe(false);
	});
});
