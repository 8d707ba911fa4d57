/**
 * The trigger's webhook registrations at Trio VMS: list them, decide which belong to this
 * node, and create, re-activate or deactivate them.
 *
 * One registration per selected event. Its URL is n8n's webhook URL plus two query
 * parameters, `event` (the registration string) and `token` (the node's secret), so every
 * delivery says which event it is and proves it came through a registration of this node.
 * The service has no DELETE: a registration is switched off with `IsActive: false`.
 *
 * The matching and planning functions are pure; the few functions that talk to the service
 * go through the shared transport and name the step that failed.
 */
import { NodeApiError, NodeOperationError, type INode, type Logger } from 'n8n-workflow';

import { hintForStatus } from '../shared/errors';
import type { TrioEventName } from '../shared/events';
import {
	nameOfListItem,
	webhookRegistrationSchema,
	type WebhookRegistration,
} from '../shared/schemas';
import { PATHS } from '../shared/service';
import type { TrioClient } from '../shared/transport';
import type { RegistrationScope, ScopeState } from './state';

export const EVENT_PARAMETER = 'event';
export const TOKEN_PARAMETER = 'token';

/** Body of POST /api/v3/Webhooks (spec 2.4). */
export interface RegistrationRequest {
	Id?: string;
	Name: string;
	Url: string;
	Events: string[];
	IsActive: boolean;
}

// ------------------------------------------------------------------ URLs and names

/** n8n's webhook URL with the event and the token added as query parameters. */
export function buildRegistrationUrl(webhookUrl: string, event: string, token: string): string {
	const separator = webhookUrl.includes('?') ? '&' : '?';
	return `${webhookUrl}${separator}${EVENT_PARAMETER}=${encodeURIComponent(event)}&${TOKEN_PARAMETER}=${encodeURIComponent(token)}`;
}

/**
 * The part of a URL that identifies the receiving node: scheme, host and path, without
 * query, fragment or trailing slash. Scheme and host compare case-insensitively.
 */
export function urlBase(url: string | null | undefined): string | undefined {
	if (!url) return undefined;
	try {
		const parsed = new URL(url);
		// The WHATWG parser already lower-cases scheme and host.
		return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
	} catch {
		return undefined;
	}
}

export interface RegistrationUrlParts {
	base: string;
	event?: string;
	token?: string;
}

export function readRegistrationUrl(
	url: string | null | undefined,
): RegistrationUrlParts | undefined {
	const base = urlBase(url);
	if (!base || !url) return undefined;
	const params = new URL(url).searchParams;
	return {
		base,
		event: params.get(EVENT_PARAMETER) ?? undefined,
		token: params.get(TOKEN_PARAMETER) ?? undefined,
	};
}

const NAME_LIMIT = 200;

/** What users see in Trio's list of registrations, e.g. "n8n: New jobs to Slack (Job Update)". */
export function registrationName(
	workflowName: string | undefined,
	event: string,
	scope: RegistrationScope,
): string {
	const prefix = scope === 'test' ? 'n8n test' : 'n8n';
	const suffix = ` (${event})`;
	let name = (workflowName ?? '').trim() || 'workflow';
	const room = NAME_LIMIT - prefix.length - 2 - suffix.length;
	if (name.length > room) name = `${name.slice(0, room - 3)}...`;
	return `${prefix}: ${name}${suffix}`;
}

// ------------------------------------------------------------------ reading the service

/** Compares event names the way a person would: case, spaces and punctuation ignored. */
export function sameEventName(a: string, b: string): boolean {
	const canonical = (value: string) => value.toLowerCase().replace(/[^a-z0-9]/g, '');
	return canonical(a) === canonical(b);
}

export function isActive(registration: WebhookRegistration): boolean {
	// Listing shape is decided, not documented: a registration that does not say is taken as active.
	return registration.IsActive !== false;
}

/** Whether a registration is for this event: by its Events, or by the event in its URL. */
export function servesEvent(registration: WebhookRegistration, event: TrioEventName): boolean {
	if ((registration.Events ?? []).some((name) => sameEventName(name, event))) return true;
	const fromUrl = readRegistrationUrl(registration.Url)?.event;
	return fromUrl !== undefined && sameEventName(fromUrl, event);
}

/** The listing, read tolerantly: unknown fields kept, entries without an Id skipped. */
export function readListing(body: unknown): WebhookRegistration[] {
	let list: unknown = body;
	if (list && typeof list === 'object' && !Array.isArray(list)) {
		// Tolerate a wrapped list ({ value: [...] } and the like) should the service add one.
		const wrapped = Object.values(list as Record<string, unknown>).find(Array.isArray);
		if (wrapped) list = wrapped;
	}
	if (list === undefined || list === null || list === '') return [];
	if (!Array.isArray(list)) {
		throw new Error(
			`the service answered with ${typeof list === 'string' ? 'text' : 'something'} instead of a list of registrations`,
		);
	}
	const registrations: WebhookRegistration[] = [];
	for (const entry of list) {
		if (!entry || typeof entry !== 'object') continue;
		const record = { ...(entry as Record<string, unknown>) };
		if (typeof record.Id === 'number') record.Id = String(record.Id);
		const parsed = webhookRegistrationSchema.safeParse(record);
		if (parsed.success && parsed.data.Id) registrations.push(parsed.data);
	}
	return registrations;
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

// ------------------------------------------------------------------ matching (pure)

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
			parts.token !== stored.token
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

export interface PlannedSave {
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
}

function deactivation(registration: WebhookRegistration): RegistrationRequest {
	return {
		Id: registration.Id,
		Name: registration.Name || 'n8n',
		Url: registration.Url ?? '',
		Events: registration.Events ?? [],
		IsActive: false,
	};
}

function belongsToNode(
	registration: WebhookRegistration,
	base: string | undefined,
	stored: ScopeState | undefined,
): boolean {
	if (stored && Object.values(stored.ids).includes(registration.Id)) return true;
	const parts = readRegistrationUrl(registration.Url);
	if (!parts) return false;
	if (base !== undefined && parts.base === base) return true;
	// Left behind at a previous address of this node: recognisable by the stored token.
	return (
		stored !== undefined &&
		parts.base === urlBase(stored.webhookUrl) &&
		parts.token === stored.token
	);
}

/**
 * What `create` has to do. Each selected event reuses, in this order, the registration stored
 * for it, or one at this node's URL for that event (preferring an active one), and is created
 * only when neither exists. Every other active registration of this node is deactivated.
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
	const plan: SyncPlan = { unchanged: [], save: [], deactivate: [] };

	for (const event of events) {
		const desired: RegistrationRequest = {
			Name: nameFor(event),
			Url: buildRegistrationUrl(webhookUrl, event, token),
			Events: [registrationString(event)],
			IsActive: true,
		};
		const storedId = stored?.ids[event];
		let match = storedId && !claimed.has(storedId) ? byId.get(storedId) : undefined;
		if (!match) {
			const candidates = listing.filter(
				(registration) =>
					!claimed.has(registration.Id) &&
					urlBase(registration.Url) === base &&
					servesEvent(registration, event),
			);
			match =
				candidates.find(
					(registration) => isActive(registration) && registration.Url === desired.Url,
				) ??
				candidates.find(isActive) ??
				candidates[0];
		}
		if (!match) {
			plan.save.push({ event, request: desired });
			continue;
		}
		claimed.add(match.Id);
		const same =
			match.IsActive === true &&
			match.Url === desired.Url &&
			match.Name === desired.Name &&
			(match.Events ?? []).length === 1 &&
			(match.Events ?? [])[0] === desired.Events[0];
		if (same) plan.unchanged.push({ event, id: match.Id });
		else plan.save.push({ event, request: { Id: match.Id, ...desired } });
	}

	for (const registration of listing) {
		if (claimed.has(registration.Id) || !isActive(registration)) continue;
		if (belongsToNode(registration, base, stored)) {
			plan.deactivate.push(deactivation(registration));
		}
	}
	return plan;
}

/**
 * What `delete` has to do: deactivate every active registration stored for this node, and
 * every other active one pointing at this node's URL (left over from a failed activation).
 */
export function planRemoval(input: {
	listing: WebhookRegistration[];
	stored: ScopeState | undefined;
	webhookUrl: string | undefined;
}): RegistrationRequest[] {
	const base = urlBase(input.webhookUrl);
	return input.listing
		.filter(
			(registration) => isActive(registration) && belongsToNode(registration, base, input.stored),
		)
		.map((registration) => deactivation(registration));
}

// ------------------------------------------------------------------ talking to the service

const ADMIN_STATUSES = new Set(['401', '403']);

/**
 * Names the step in the error n8n shows when activation fails. For 401/403 the agency-admin
 * hint goes into the message itself: n8n's activation error shows only the message.
 */
export function explainFailure(node: INode, step: string, error: unknown): Error {
	if (error instanceof NodeApiError) {
		const status = error.httpCode ?? '';
		let message = `${step} failed. ${error.message}`;
		// Added unless the service already said so in its own words.
		if (ADMIN_STATUSES.has(status) && !/administrator/i.test(message)) {
			message += ` ${hintForStatus(Number(status), { webhookManagement: true })}`;
		}
		error.message = message;
		return error;
	}
	if (error instanceof NodeOperationError) {
		error.message = `${step} failed. ${error.message}`;
		return error;
	}
	const reason = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(node, `${step} failed: ${reason}`);
}

export async function listRegistrations(
	client: TrioClient,
	node: INode,
): Promise<WebhookRegistration[]> {
	const step = 'Reading the webhook registrations from Trio VMS';
	let body: unknown;
	try {
		body = await client.request({
			method: 'GET',
			path: PATHS.webhooks,
			context: { webhookManagement: true },
		});
	} catch (error) {
		throw explainFailure(node, step, error);
	}
	try {
		return readListing(body);
	} catch (error) {
		throw explainFailure(node, step, error);
	}
}

/**
 * The service's event list, or undefined when it cannot be read for a reason other than
 * permission (the built-in names are used then). A permission failure is thrown: it would
 * only fail again at registration.
 */
export async function fetchServiceEvents(
	client: TrioClient,
	node: INode,
	logger?: Logger,
): Promise<unknown[] | undefined> {
	try {
		const body = await client.request({
			method: 'GET',
			path: PATHS.webhookEvents,
			context: { webhookManagement: true },
		});
		return Array.isArray(body) ? body : undefined;
	} catch (error) {
		if (error instanceof NodeApiError && ADMIN_STATUSES.has(error.httpCode ?? '')) {
			throw explainFailure(node, 'Reading the list of webhook events from Trio VMS', error);
		}
		logger?.debug(
			`Trio VMS Trigger: the service's event list is unavailable, using the built-in names (${error instanceof Error ? error.message : String(error)})`,
		);
		return undefined;
	}
}

/** Sends one registration; returns its Id (from the answer, else the one sent). */
export async function saveRegistration(
	client: TrioClient,
	node: INode,
	request: RegistrationRequest,
	step: string,
): Promise<string | undefined> {
	let answer: unknown;
	try {
		answer = await client.request({
			method: 'POST',
			path: PATHS.webhooks,
			body: request,
			// An update with Id may be repeated safely; a create may not (it could add a second one).
			idempotent: request.Id !== undefined,
			context: { webhookManagement: true },
		});
	} catch (error) {
		throw explainFailure(node, step, error);
	}
	const returned =
		answer && typeof answer === 'object' ? (answer as { Id?: unknown }).Id : undefined;
	if (typeof returned === 'string' && returned) return returned;
	if (typeof returned === 'number') return String(returned);
	return request.Id;
}

/** Deactivates one registration; one that no longer exists counts as done. */
export async function deactivateRegistration(
	client: TrioClient,
	node: INode,
	request: RegistrationRequest,
): Promise<void> {
	try {
		await client.request({
			method: 'POST',
			path: PATHS.webhooks,
			body: { ...request, IsActive: false },
			idempotent: true,
			context: { webhookManagement: true },
		});
	} catch (error) {
		if (error instanceof NodeApiError && error.httpCode === '404') return;
		throw explainFailure(
			node,
			`Switching off the webhook registration "${request.Name}" (${request.Id ?? 'no Id'})`,
			error,
		);
	}
}
