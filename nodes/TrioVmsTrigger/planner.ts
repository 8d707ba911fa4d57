/**
 * Which of the service's registrations belong to this trigger, and what activation and
 * deactivation have to change: pure functions of the listing, the stored state and the wanted
 * events, so every rule is tested without a service. registrations.ts carries the plans out.
 *
 * One registration per selected event. The service has no DELETE: a registration is switched
 * off with `IsActive: false`.
 */
import type { TrioEventName } from '../shared/events';
import { nameOfListItem } from '../shared/schemas';
import {
	asRequest,
	type RegistrationRequest,
	type WebhookRegistration,
} from '../shared/webhookRegistrations';
import { buildRegistrationUrl, readRegistrationUrl, urlBase } from './registrationUrls';
import { hashToken, tokenIssuedAt } from './deliveryToken';
import { ownsRegistration } from './ownership';
import type { ScopeState } from './state';

/** Compares event names the way a person would: case, spaces and punctuation ignored. */
export function sameEventName(a: string, b: string): boolean {
	const canonical = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');
	return canonical(a) === canonical(b);
}

function isActive(registration: WebhookRegistration): boolean {
	// Listing shape is decided, not documented: a registration that does not say is taken as active.
	return registration.IsActive !== false;
}

/** Whether a registration is for this event: by its Events, or by the event in its URL. */
function servesEvent(registration: WebhookRegistration, event: TrioEventName): boolean {
	if ((registration.Events ?? []).some((name) => sameEventName(name, event))) return true;
	const fromUrl = readRegistrationUrl(registration.Url)?.event;
	return fromUrl !== undefined && sameEventName(fromUrl, event);
}

/**
 * The service's spelling of each event, where `GET /api/v3/Webhooks/Events` answers (its
 * list wins); our names otherwise. `missing` lists events the service does not offer.
 */
export function resolveRegistrationStrings(
	events: readonly TrioEventName[],
	serviceList: unknown,
): { strings: Map<TrioEventName, string>; missing: TrioEventName[] } {
	const strings = new Map<TrioEventName, string>();
	const missing: TrioEventName[] = [];
	const offered = Array.isArray(serviceList)
		? serviceList
				.map(nameOfListItem)
				.filter((name): name is string => typeof name === 'string' && name.trim() !== '')
		: [];
	for (const event of events) {
		if (offered.length === 0) {
			strings.set(event, event);
			continue;
		}
		const match =
			offered.find((name) => name === event) ?? offered.find((name) => sameEventName(name, event));
		if (match) strings.set(event, match);
		else {
			missing.push(event);
			strings.set(event, event);
		}
	}
	return { strings, missing };
}

export interface InPlaceCheck {
	inPlace: boolean;
	/** Why not, in words for the log. */
	reason?: string;
}

/**
 * True only when every selected event has an ACTIVE registration at exactly the current URL
 * with the current token, nothing else of this node is active, and no event that is no longer
 * selected is still registered.
 */
export function checkInPlace(input: {
	listing: WebhookRegistration[];
	events: readonly TrioEventName[];
	stored: ScopeState | undefined;
	webhookUrl: string;
}): InPlaceCheck {
	const { listing, events, stored, webhookUrl } = input;
	if (events.length === 0) return { inPlace: false, reason: 'no event is selected' };
	if (!stored) return { inPlace: false, reason: 'nothing is registered yet' };
	if (stored.webhookUrl !== webhookUrl)
		return { inPlace: false, reason: "n8n's webhook address changed" };
	const storedEvents = Object.keys(stored.ids) as TrioEventName[];
	const extra = storedEvents.filter((event) => !events.includes(event));
	if (extra.length) return { inPlace: false, reason: `no longer selected: ${extra.join(', ')}` };

	const base = urlBase(webhookUrl);
	const byId = new Map(listing.map((registration) => [registration.Id, registration]));
	const ours = new Set<string>();
	for (const event of events) {
		const id = stored.ids[event];
		const registration = id ? byId.get(id) : undefined;
		if (!id || !registration) return { inPlace: false, reason: `no registration for ${event}` };
		if (!isActive(registration))
			return { inPlace: false, reason: `the registration for ${event} is inactive` };
		const parts = readRegistrationUrl(registration.Url);
		if (
			!parts ||
			parts.base !== base ||
			parts.event === undefined ||
			!sameEventName(parts.event, event) ||
			parts.token === undefined ||
			hashToken(parts.token) !== stored.tokenHash
		) {
			return { inPlace: false, reason: `the registration for ${event} points to another address` };
		}
		if (!servesEvent(registration, event))
			return { inPlace: false, reason: `the registration for ${event} lists other events` };
		ours.add(registration.Id);
	}
	const stray = listing.find(
		(registration) =>
			!ours.has(registration.Id) && isActive(registration) && urlBase(registration.Url) === base,
	);
	if (stray)
		return {
			inPlace: false,
			reason: `another active registration (${stray.Id}) points to this node`,
		};
	return { inPlace: true };
}

interface PlannedSave {
	event: TrioEventName;
	request: RegistrationRequest;
}

export interface SyncPlan {
	/** Already exactly as wanted. */
	unchanged: Array<{ event: TrioEventName; id: string }>;
	/** Updates (with Id: re-activate, new URL or name) and creates (without Id). */
	save: PlannedSave[];
	/** Registrations of this node that must stop: unselected events, strays, duplicates. */
	deactivate: RegistrationRequest[];
	/** Hash of the token the registrations carry once the plan is carried out. */
	tokenHash: string;
	/** When that token was issued, where known. */
	tokenIssuedAt?: number;
	/**
	 * Registrations this node made (remembered by Id) that now send elsewhere: another n8n with
	 * a copy of this workflow took them over, or someone changed them in Trio. Left alone, and
	 * told to the user, since nothing else would tell them why deliveries stopped.
	 */
	movedAway: Array<{ event: TrioEventName; id: string; to: string; active: boolean }>;
}

/** Whether a URL is exactly this node's registration URL for the event, with the token in force. */
function isCurrentUrl(
	url: string | null | undefined,
	webhookUrl: string,
	event: TrioEventName,
	tokenHash: string | undefined,
): boolean {
	const token = readRegistrationUrl(url)?.token;
	if (!url || token === undefined || tokenHash === undefined) return false;
	return hashToken(token) === tokenHash && url === buildRegistrationUrl(webhookUrl, event, token);
}

function deactivation(registration: WebhookRegistration): RegistrationRequest {
	return asRequest(registration, { Name: registration.Name || 'n8n', IsActive: false });
}

/** What planSync reads while it decides each event, and the plan whose movedAway it fills. */
interface Matching {
	listing: WebhookRegistration[];
	byId: Map<string, WebhookRegistration>;
	/** Registrations already taken by an event. */
	claimed: Set<string>;
	stored: ScopeState | undefined;
	base: string | undefined;
	webhookUrl: string;
	/** The hash of the token in force, when one is stored. */
	inForce: string | undefined;
	plan: SyncPlan;
}

/**
 * The registration an event reuses: the one stored for it while it is still this node's (one
 * that moved away is noted in the plan), else one at this node's URL serving the event,
 * preferring an active one at the URL in force. Undefined when there is none.
 */
function reusableFor(event: TrioEventName, matching: Matching): WebhookRegistration | undefined {
	const { listing, byId, claimed, stored, base, webhookUrl, inForce, plan } = matching;
	const storedId = stored?.ids[event];
	let match = storedId && !claimed.has(storedId) ? byId.get(storedId) : undefined;
	// A remembered Id is reused only while its URL is still this node's: another n8n (the
	// original of a copied database, or a copy) may have repointed it to itself since.
	if (match && !ownsRegistration(match, base, stored)) {
		plan.movedAway.push({
			event,
			id: match.Id,
			to: urlBase(match.Url) ?? String(match.Url ?? 'no address'),
			active: isActive(match),
		});
		match = undefined;
	}
	if (match) return match;
	const candidates = listing.filter(
		(registration) =>
			!claimed.has(registration.Id) &&
			urlBase(registration.Url) === base &&
			servesEvent(registration, event),
	);
	return (
		candidates.find(
			(registration) =>
				isActive(registration) && isCurrentUrl(registration.Url, webhookUrl, event, inForce),
		) ??
		candidates.find(isActive) ??
		candidates[0]
	);
}

/** Whether a registration is already the desired one: active, its URL in force, same name and event. */
function isAsDesired(
	match: WebhookRegistration,
	desired: RegistrationRequest,
	event: TrioEventName,
	matching: Matching,
): boolean {
	return (
		match.IsActive === true &&
		isCurrentUrl(match.Url, matching.webhookUrl, event, matching.inForce) &&
		match.Name === desired.Name &&
		(match.Events ?? []).length === 1 &&
		(match.Events ?? [])[0] === desired.Events[0]
	);
}

/**
 * What `create` has to do. Each selected event reuses, in this order, the registration stored
 * for it (while it is still this node's, see ownership.ts), or one at this node's URL for that
 * event (preferring an active one), and is created only when neither exists. Every other active
 * registration of this node is deactivated.
 *
 * Only the token's hash is stored, so a registration can be written only with a new token:
 * `token` is that fresh token. When anything must be written, every registration of the node
 * is rewritten with it (the token rotates); when nothing must, the stored token stays.
 */
export function planSync(input: {
	listing: WebhookRegistration[];
	events: readonly TrioEventName[];
	stored: ScopeState | undefined;
	webhookUrl: string;
	token: string;
	nameFor: (event: TrioEventName) => string;
	registrationString?: (event: TrioEventName) => string;
}): SyncPlan {
	const { listing, events, stored, webhookUrl, token, nameFor } = input;
	const registrationString = input.registrationString ?? ((event: TrioEventName) => event);
	const base = urlBase(webhookUrl);
	const byId = new Map(listing.map((registration) => [registration.Id, registration]));
	const claimed = new Set<string>();
	const inForce = stored?.tokenHash;
	const plan: SyncPlan = {
		unchanged: [],
		save: [],
		deactivate: [],
		tokenHash: inForce ?? '',
		tokenIssuedAt: stored?.tokenIssuedAt,
		movedAway: [],
	};
	const decided: Array<PlannedSave & { same: boolean }> = [];
	const matching: Matching = { listing, byId, claimed, stored, base, webhookUrl, inForce, plan };

	for (const event of events) {
		const desired: RegistrationRequest = {
			Name: nameFor(event),
			Url: buildRegistrationUrl(webhookUrl, event, token),
			Events: [registrationString(event)],
			IsActive: true,
		};
		const match = reusableFor(event, matching);
		if (!match) {
			decided.push({ event, request: desired, same: false });
			continue;
		}
		claimed.add(match.Id);
		const same = isAsDesired(match, desired, event, matching);
		decided.push({ event, request: { Id: match.Id, ...desired }, same });
	}
	if (inForce && decided.every((decision) => decision.same)) {
		plan.unchanged = decided.map(({ event, request }) => ({ event, id: request.Id as string }));
	} else {
		plan.save = decided.map(({ event, request }) => ({ event, request }));
		plan.tokenHash = hashToken(token);
		plan.tokenIssuedAt = tokenIssuedAt(token);
	}

	for (const registration of listing) {
		if (claimed.has(registration.Id) || !isActive(registration)) continue;
		if (ownsRegistration(registration, base, stored)) {
			plan.deactivate.push(deactivation(registration));
		}
	}
	return plan;
}

/**
 * What `delete` has to do: deactivate every active registration of this node (ownership.ts):
 * those at this node's URL (including leftovers of a failed activation), and those at the
 * remembered address with the remembered token. A remembered Id whose registration now points
 * elsewhere is left alone: another n8n repointed it and relies on it.
 */
export function planRemoval(input: {
	listing: WebhookRegistration[];
	stored: ScopeState | undefined;
	webhookUrl: string | undefined;
}): RegistrationRequest[] {
	const base = urlBase(input.webhookUrl);
	return input.listing
		.filter(
			(registration) =>
				isActive(registration) && ownsRegistration(registration, base, input.stored),
		)
		.map((registration) => deactivation(registration));
}
