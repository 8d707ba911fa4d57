/**
 * Webhook registrations at Trio VMS (spec 2.4; the listing and the event list are decided in
 * docs/service-decisions.md): reading the list, saving one, switching one off, and the event
 * names the agency may register. The action node's Webhook operations, its registration search
 * and the trigger all go through here, so the service's answers are read by one rule.
 *
 * The listing's shape is not shown in the spec, so it is read tolerantly: the spec's field names
 * in any letter case, numeric Ids as text, a list wrapped in an object, extra fields kept. What
 * cannot be read is refused loudly instead of being taken for "nothing registered", which would
 * make an activation register everything a second time.
 */
import { NodeApiError, type IDataObject } from 'n8n-workflow';

import { isRecord, readList } from './listAnswer';
import { maskUrlTokens } from './secrets';
import { webhookRegistrationSchema, type WebhookRegistration } from './schemas';
import { PATHS } from './serviceFacts';
import type { TrioClient } from './transport';

export type { WebhookRegistration } from './schemas';

/** Body of POST /api/v3/Webhooks: without Id it creates, with Id it replaces that registration. */
export interface RegistrationRequest {
	Id?: string;
	Name: string;
	Url: string;
	Events: string[];
	IsActive: boolean;
}

const SPEC_FIELDS = ['Id', 'Name', 'Url', 'Events', 'IsActive'] as const;
const SPEC_FIELD_BY_LOWER = new Map(SPEC_FIELDS.map((field) => [field.toLowerCase(), field]));
/** The spec's field names whatever their letter case; the exact spelling wins over a variant. */
function withSpecFieldNames(entry: Record<string, unknown>): Record<string, unknown> {
	const record: Record<string, unknown> = {};
	for (const key of Object.keys(entry)) {
		const specName = SPEC_FIELD_BY_LOWER.get(key.toLowerCase());
		if (specName === undefined) record[key] = entry[key];
		else if (key === specName || !Object.prototype.hasOwnProperty.call(entry, specName)) {
			record[specName] = entry[key];
		}
	}
	if (typeof record.Id === 'number') record.Id = String(record.Id);
	return record;
}

function hasId(entry: Record<string, unknown>): boolean {
	return Object.keys(entry).some((key) => key.toLowerCase() === 'id');
}

/**
 * The entries of a listing or of the event list, by the one rule of listAnswer.ts. An empty
 * answer is no registration (each entry is matched on its own, so nothing is taken for granted),
 * and one registration on its own (it has an Id) is a list of one.
 */
function listIn(body: unknown): unknown[] {
	return readList(body, {
		names: ['registrations', 'webhooks', 'events'],
		emptyIsNone: true,
		single: hasId,
		refused: (sent) => {
			const what = typeof sent === 'string' ? 'text' : `a ${typeof sent} value`;
			return `the service answered with ${what} instead of a list of webhook registrations`;
		},
	});
}

/** The registrations in a listing: every entry whose Id can be read. */
export function readRegistrationList(body: unknown): WebhookRegistration[] {
	const entries = listIn(body);
	const registrations: WebhookRegistration[] = [];
	const fieldsSeen = new Set<string>();
	for (const entry of entries) {
		if (!isRecord(entry)) continue;
		for (const key of Object.keys(entry)) fieldsSeen.add(key);
		const parsed = webhookRegistrationSchema.safeParse(withSpecFieldNames(entry));
		if (parsed.success && parsed.data.Id) registrations.push(parsed.data);
	}
	if (entries.length > 0 && registrations.length === 0) {
		const seen = [...fieldsSeen].slice(0, 12).join(', ') || 'none';
		throw new Error(
			`the service listed ${entries.length} webhook registration${entries.length === 1 ? '' : 's'}, but none could be read (an Id and the fields of spec 2.4 were expected; fields seen: ${seen})`,
		);
	}
	return registrations;
}

export interface ListingOptions {
	itemIndex?: number;
}

/** One of the two lists of webhook management, as the service sent it. */
async function getManagementList(
	client: TrioClient,
	path: string,
	options: ListingOptions,
): Promise<unknown> {
	return await client.request({
		method: 'GET',
		path,
		itemIndex: options.itemIndex,
		context: { webhookManagement: true },
	});
}

export async function listRegistrations(
	client: TrioClient,
	options: ListingOptions = {},
): Promise<WebhookRegistration[]> {
	return readRegistrationList(await getManagementList(client, PATHS.webhooks, options));
}

export interface SavedRegistration {
	/** The registration's Id: from the answer, else the one sent (undefined for a create the service did not confirm). */
	id: string | undefined;
	/** The service's answer, or the request when it answered with no object. */
	answer: IDataObject;
	/** A create answered 429 that the look found in Trio's list: it was not sent again. */
	foundAfter429: boolean;
}

/** The same registration as a create's: its name, address and events (in any order and case). */
function sameRegistration(listed: WebhookRegistration, request: RegistrationRequest): boolean {
	const events = (names: readonly string[]) =>
		[...new Set(names.map((name) => name.toLowerCase()))].sort().join('\n');
	return (
		listed.Url === request.Url &&
		(listed.Name ?? '') === request.Name &&
		events(listed.Events ?? []) === events(request.Events)
	);
}

/**
 * Creates (no Id) or replaces (with Id) one registration. A create answered 429 is looked for in
 * Trio's list before it is sent again (transport/retry.ts states the rule): a gateway may rate-limit
 * after it passed the create on, and a second registration would deliver every event twice. A
 * registration with the same name, address and events found there is taken for it.
 */
export async function saveRegistration(
	client: TrioClient,
	request: RegistrationRequest,
	options: ListingOptions = {},
): Promise<SavedRegistration> {
	let foundAfter429 = false;
	const lookBeforeResend = async () => {
		const registrations = await listRegistrations(client, options);
		const found = registrations.find((listed) => sameRegistration(listed, request));
		foundAfter429 = found !== undefined;
		return found;
	};
	const answer = await client.request({
		method: 'POST',
		path: PATHS.webhooks,
		body: request,
		// Sending the same update twice changes nothing; a create is never repeated.
		idempotent: request.Id !== undefined,
		lookBeforeResend: request.Id === undefined ? lookBeforeResend : undefined,
		itemIndex: options.itemIndex,
		context: {
			webhookManagement: true,
			subject: request.Id !== undefined ? `webhook registration ${request.Id}` : undefined,
		},
	});
	if (!isRecord(answer)) return { id: request.Id, answer: { ...request }, foundAfter429 };
	const returned = withSpecFieldNames(answer).Id;
	const id = typeof returned === 'string' && returned ? returned : request.Id;
	return { id, answer: answer as IDataObject, foundAfter429 };
}

/** Switches one registration off (the service has no DELETE). */
export async function deactivateRegistration(
	client: TrioClient,
	registration: RegistrationRequest | WebhookRegistration,
): Promise<void> {
	await client.request({
		method: 'POST',
		path: PATHS.webhooks,
		body: asRequest(registration, { IsActive: false }),
		idempotent: true,
		context: { webhookManagement: true },
	});
}

/** A registration the service no longer has counts as switched off. */
export function isGone(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404';
}

/** A listed registration as the body that replaces it, with `changes` applied. */
export function asRequest(
	registration: RegistrationRequest | WebhookRegistration,
	changes: Partial<RegistrationRequest> = {},
): RegistrationRequest {
	return {
		Id: registration.Id ?? undefined,
		Name: registration.Name ?? '',
		Url: registration.Url ?? '',
		Events: registration.Events ?? [],
		IsActive: registration.IsActive ?? true,
		...changes,
	};
}

export interface WebhookEventEntry {
	name: string;
	/** The entry as the service sent it (a string, or an object with Name and more). */
	entry: unknown;
}

/** GET /api/v3/Webhooks/Events: strings or objects with Name (decided: accept both). */
export async function listWebhookEvents(
	client: TrioClient,
	options: ListingOptions = {},
): Promise<WebhookEventEntry[]> {
	const list = listIn(await getManagementList(client, PATHS.webhookEvents, options));
	const events: WebhookEventEntry[] = [];
	for (const entry of list) {
		const raw = isRecord(entry) ? nameField(entry) : entry;
		const name = typeof raw === 'string' ? raw.trim() : '';
		if (name) events.push({ name, entry });
	}
	return events;
}

function nameField(entry: Record<string, unknown>): unknown {
	if ('Name' in entry) return entry.Name;
	const key = Object.keys(entry).find((name) => name.toLowerCase() === 'name');
	return key === undefined ? undefined : entry[key];
}

/**
 * A registration as a workflow may see it: the trigger's delivery token in its URL masked, so
 * that execution data (kept, exported, shown to every editor) never holds a working secret.
 */
export function withoutSecrets<T extends IDataObject>(registration: T): T {
	const url = Object.keys(registration).find((key) => key.toLowerCase() === 'url');
	if (url === undefined || typeof registration[url] !== 'string') return registration;
	return { ...registration, [url]: maskUrlTokens(registration[url] as string) };
}
