/**
 * Whose registrations are they: this n8n's, or another n8n's that runs on a copy of the same
 * database (a staging copy of production) or at the address this one left?
 *
 * A copy of n8n's database holds the workflow's static data, so a copy "remembers" the
 * original's registrations: their Ids, the address they were made for and the hash of their
 * token. Acting on that memory would let a staging copy repoint production's registrations to
 * itself, or switch them off when it is deactivated. Two rules keep the original safe:
 *
 *  1. The remembered state is this n8n's only when the address it was made for positively says
 *     so (ownState, judged by judgeOldAddress and settleOldAddress): this same n8n answers
 *     there, or (to move them here on activation, not to switch them off) n8n itself answers
 *     there that no workflow holds that webhook, twice, ABSENCE_CONFIRMATION apart: once is
 *     also what production says between its restart and publishing. Anything else is doubt,
 *     and doubt counts as a copy: a restarting production, an ingress without a route, a probe
 *     blocked by n8n's SSRF protection.
 *  2. Even then, a registration is this node's only while its URL says so (ownsRegistration): it
 *     points at this n8n's current address, or at the remembered address with the remembered
 *     token. A remembered Id alone never is: the registration may have been repointed since.
 *
 * The rules are pure (tested without n8n); probeOldAddress and ownState carry out the probe.
 */
import { randomBytes } from 'node:crypto';

import { jsonParse, sleep, type IHookFunctions } from 'n8n-workflow';

import type { TrioEventName } from '../shared/events';
import { isRecord } from '../shared/listAnswer';
import { blockedAddress } from '../shared/transport';
import type { WebhookRegistration } from '../shared/webhookRegistrations';
import { hashToken, triggerIdentity } from './deliveryToken';
import { apiKeyOf, selectedEvents, tokenOwner } from './nodeContext';
import { probeReply, probeUrl, readRegistrationUrl, urlBase } from './registrationUrls';
import type { RegistrationScope, ScopeState } from './state';

// ------------------------------------------------------------------ rules (pure)

/**
 * Whether a registration is this node's to repoint or switch off: its URL points at this n8n's
 * current address (`base`), or at the address the remembered state was made for and carries
 * the remembered token. A registration whose URL cannot be read is nobody's to touch.
 */
export function ownsRegistration(
	registration: WebhookRegistration,
	base: string | undefined,
	stored: ScopeState | undefined,
): boolean {
	const parts = readRegistrationUrl(registration.Url);
	if (!parts) return false;
	if (base !== undefined && parts.base === base) return true;
	// Left behind at a previous address of this node: recognisable by the remembered token.
	return (
		stored !== undefined &&
		parts.base === urlBase(stored.webhookUrl) &&
		parts.token !== undefined &&
		hashToken(parts.token) === stored.tokenHash
	);
}

/** What came back from probing the address the stored registrations were made for. */
export type ProbeOutcome =
	/**
	 * No HTTP answer: refused, timed out, no route, TLS failure, name not found, or not sent at
	 * all because n8n's SSRF protection blocks the address (`blocked`).
	 */
	| { kind: 'noAnswer'; reason: string; blocked?: boolean }
	| { kind: 'answered'; status: number; body: unknown };

export type OldAddressVerdict =
	/** The old address reaches this same n8n (its address changed, the old one still routes here). */
	| 'sameN8n'
	/** n8n answers there, and says no workflow holds this webhook. */
	| 'nobodyThere'
	/** The same workflow's trigger answers there from another n8n: this n8n runs on a copy. */
	| 'anotherN8n'
	/** Anything else: a failed or blocked probe, a gateway error, a bare 404, an unexpected answer. */
	| 'doubt';

/** What the prober expects: the live trigger's answer (probeReply) and the URL it probed. */
export interface ProbeExpectation {
	probe: string;
	self: string;
	url: string;
}

/**
 * Whether an answer is n8n's own "webhook not registered" for the probed path. n8n (1.x and
 * 2.x) answers an unknown production webhook with 404 and a JSON body whose message is
 * `The requested webhook "POST <path>" is not registered.`, where <path> is the request path
 * after n8n's webhook prefix (here `<webhookId>/webhook`). A bare 404 (an ingress without a
 * route, a proxy, another server) says nothing about whether n8n still runs the workflow.
 */
export function isN8nWebhookNotRegistered(status: number, body: unknown, url: string): boolean {
	if (status !== 404) return false;
	const parsed =
		typeof body === 'string' ? jsonParse<unknown>(body, { fallbackValue: null }) : body;
	if (!isRecord(parsed)) return false;
	const { message, code } = parsed;
	if (code !== undefined && code !== 404) return false;
	if (typeof message !== 'string') return false;
	const quoted = /^The requested webhook "POST ([^"]+)" is not registered\.$/.exec(message)?.[1];
	if (quoted === undefined) return false;
	let pathname: string;
	try {
		pathname = new URL(url).pathname;
	} catch {
		return false;
	}
	const path = quoted.replace(/^\/+|\/+$/g, '');
	// At least the node's own part (<webhookId>/webhook), and exactly the end of the probed path.
	return (
		path.split('/').length >= 2 &&
		[pathname, safeDecode(pathname)].some((candidate) =>
			candidate.replace(/\/+$/, '').endsWith(`/${path}`),
		)
	);
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/**
 * Whose the stored registrations are, from the probe of their old address. Only a positive
 * answer lets this n8n act on them: its own answer (sameN8n), or n8n's own "not registered" for
 * exactly the probed path (nobodyThere). A probe that fails for any reason is doubt, and doubt
 * counts as a copy: a production restarting, or a staging with no way out, must not lose its
 * registrations.
 */
export function judgeOldAddress(
	outcome: ProbeOutcome,
	expected: ProbeExpectation,
): OldAddressVerdict {
	if (outcome.kind === 'noAnswer') return 'doubt';
	const { status, body } = outcome;
	if (isN8nWebhookNotRegistered(status, body, expected.url)) return 'nobodyThere';
	if (status < 200 || status > 299 || !body || typeof body !== 'object') return 'doubt';
	const reply = body as { probe?: unknown; self?: unknown };
	if (reply.probe !== expected.probe) return 'doubt';
	return reply.self === expected.self ? 'sameN8n' : 'anotherN8n';
}

/** Why the remembered state is wanted: to register (activation) or to switch off (deactivation). */
export type OwnershipPurpose = 'activate' | 'remove';

/**
 * Whether a verdict lets this n8n treat the stored registrations as its own. Moving them here
 * on activation takes n8n's "not registered" at the old address, as the n8n that left it
 * answers. Switching them off takes this n8n's own answer there: n8n's "not registered" is
 * also what production answers while it re-publishes, and a staging copy deactivated in that
 * moment must not switch production off (a registration left at a dead address only fails
 * its deliveries, and the log says to switch it off).
 */
export function ownsStoredRegistrations(
	verdict: OldAddressVerdict,
	purpose: OwnershipPurpose = 'activate',
): boolean {
	if (verdict === 'sameN8n') return true;
	return verdict === 'nobodyThere' && purpose === 'activate';
}

/** One probe of the old address: when it was answered (ms) and what the answer said. */
export interface Sighting {
	atMs: number;
	verdict: OldAddressVerdict;
}

/**
 * How far apart two of n8n's "not registered" answers must be before they count as proof that
 * nobody runs the workflow at the old address any more. n8n says the same from the moment it
 * answers HTTP after a restart until it has published the workflow again (n8n 2.x publishes
 * asynchronously after start): a production that publishes within this time answers the second
 * probe itself. Tests shorten it; nothing else changes it.
 */
export const ABSENCE_CONFIRMATION = { afterMs: 30_000 };

/** At most this many probes per decision: the first, the confirming one, and one spare. */
const MAX_SIGHTINGS = 3;

export type Settlement =
	| { settled: true; verdict: OldAddressVerdict }
	/** Probe again at `probeAtMs` (same clock as `atMs`). */
	| { settled: false; probeAtMs: number };

/**
 * What the probes of the old address add up to. Any answer other than n8n's "not registered"
 * decides at once (this n8n, another n8n, doubt). "Not registered" decides only when it was
 * heard at least `afterMs` apart with nothing else between; until then it asks for another
 * probe, and a decision that cannot be confirmed within MAX_SIGHTINGS is doubt. A deactivation
 * never moves registrations on "not registered" (ownsStoredRegistrations), so it needs no
 * confirmation.
 */
export function settleOldAddress(
	sightings: readonly Sighting[],
	purpose: OwnershipPurpose,
	afterMs: number = ABSENCE_CONFIRMATION.afterMs,
): Settlement {
	const last = sightings[sightings.length - 1];
	if (last === undefined) return { settled: false, probeAtMs: 0 };
	if (last.verdict !== 'nobodyThere' || purpose === 'remove')
		return { settled: true, verdict: last.verdict };
	const first = sightings[0];
	if (sightings.some((sighting) => sighting.verdict !== 'nobodyThere'))
		return { settled: true, verdict: 'doubt' };
	if (last.atMs - first.atMs >= afterMs) return { settled: true, verdict: 'nobodyThere' };
	if (sightings.length >= MAX_SIGHTINGS) return { settled: true, verdict: 'doubt' };
	return { settled: false, probeAtMs: first.atMs + afterMs };
}

// ------------------------------------------------------------------ the probe (I/O)

const PROBE_TIMEOUT_MS = 3_000;

/**
 * Probes an address once. Any failure without an HTTP answer is reported as such, never
 * thrown: that includes a probe n8n's SSRF protection refuses to send (the old address is
 * often private), which must count as doubt, never as "nobody there".
 */
async function probeOldAddress(context: IHookFunctions, url: string): Promise<ProbeOutcome> {
	try {
		const response = (await context.helpers.httpRequest({
			method: 'POST',
			url,
			body: {},
			json: true,
			timeout: PROBE_TIMEOUT_MS,
			disableFollowRedirect: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
		})) as { statusCode?: number; body?: unknown };
		return { kind: 'answered', status: response.statusCode ?? 0, body: response.body };
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		// n8n's SSRF protection refused it, found along n8n's whole error chain.
		return blockedAddress(error)
			? { kind: 'noAnswer', reason, blocked: true }
			: { kind: 'noAnswer', reason };
	}
}

/** Why the old address could not tell, for the log. */
function doubtReason(outcome: ProbeOutcome, old: string): string {
	if (outcome.kind === 'answered') return `it answered ${outcome.status}`;
	if (!outcome.blocked) return outcome.reason;
	const host = hostOf(old);
	return `${outcome.reason}: n8n's SSRF protection does not let this n8n reach ${host}; to let it tell, allow that address with N8N_SSRF_ALLOWED_HOSTNAMES or N8N_SSRF_ALLOWED_IP_RANGES`;
}

function hostOf(url: string): string {
	try {
		return new URL(url).hostname;
	} catch {
		return url;
	}
}

/**
 * The stored state, unless it may belong to another n8n. Stored registrations made for another
 * address are this node's when n8n's address changed, but another instance's when this n8n runs
 * on a copy of that one's database. Unless the old address positively shows they are this n8n's
 * (judgeOldAddress), this n8n starts from nothing and leaves them alone.
 */
export async function ownState(
	context: IHookFunctions,
	scope: RegistrationScope,
	stored: ScopeState | undefined,
	webhookUrl: string | undefined,
	purpose: OwnershipPurpose,
): Promise<ScopeState | undefined> {
	if (!stored || !webhookUrl || stored.webhookUrl === webhookUrl) return stored;
	const event = (Object.keys(stored.ids) as TrioEventName[])[0] ?? selectedEvents(context)[0];
	if (event === undefined) return stored;
	const identity = triggerIdentity(await apiKeyOf(context), tokenOwner(context, scope));
	const old = urlBase(stored.webhookUrl) ?? 'another address';
	const sightings: Sighting[] = [];
	let outcome: ProbeOutcome;
	let settlement: Settlement = { settled: false, probeAtMs: 0 };
	do {
		const wait = settlement.probeAtMs - Date.now();
		if (sightings.length > 0) {
			context.logger.info(
				`Trio VMS Trigger: n8n at ${old} says no workflow holds this workflow's webhook, which it also says while it restarts; asking again in ${Math.ceil(Math.max(0, wait) / 1000)} s before moving the registrations made there`,
			);
		}
		if (wait > 0) await sleep(wait);
		const nonce = randomBytes(16).toString('hex');
		const url = probeUrl(stored.webhookUrl, event, nonce);
		outcome = await probeOldAddress(context, url);
		const verdict = judgeOldAddress(outcome, { ...probeReply(identity, nonce, webhookUrl), url });
		sightings.push({ atMs: Date.now(), verdict });
		settlement = settleOldAddress(sightings, purpose);
	} while (!settlement.settled);
	const { verdict } = settlement;
	if (ownsStoredRegistrations(verdict, purpose)) {
		if (verdict === 'nobodyThere') {
			context.logger.warn(
				`Trio VMS Trigger: n8n at ${old} said ${sightings.length} times, ${Math.round((sightings[sightings.length - 1].atMs - sightings[0].atMs) / 1000)} s apart, that no workflow holds this workflow's webhook: the registrations made there move to ${urlBase(webhookUrl) ?? webhookUrl}. If an n8n still runs this workflow at ${old}, its next publish says so and registers again there.`,
			);
		}
		return stored;
	}
	const restarted = sightings.length > 1 && verdict === 'anotherN8n';
	const why =
		verdict === 'anotherN8n'
			? `the n8n at ${old} still runs this workflow${restarted ? ' (it answered once it had published again)' : ''}: this n8n is a copy`
			: verdict === 'nobodyThere'
				? `n8n at ${old} says no workflow holds that webhook, which is also what it says while it re-publishes`
				: `whether anything still runs at ${old} could not be told (${doubtReason(outcome, old)})`;
	context.logger.warn(
		`Trio VMS Trigger: the webhook registrations this workflow remembers were made for ${old}, and ${why}. This n8n registers its own and leaves those alone; if nothing runs at ${old} any more, switch them off in Trio VMS.`,
	);
	return undefined;
}
