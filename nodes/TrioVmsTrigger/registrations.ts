/**
 * Carries out what planner.ts decides (I/O): the trigger's three webhook methods, each reading
 * what it needs from n8n, asking the planner, and talking to the service through the shared
 * registration requests. Every failure names the step, because n8n's activation error shows
 * only the message.
 */
import {
	NodeApiError,
	NodeOperationError,
	type IHookFunctions,
	type INode,
	type Logger,
} from 'n8n-workflow';

import { mapWithLimit } from '../shared/limitedConcurrency';
import { TRIO_CREDENTIAL_TYPE, type TrioCredentialData } from '../shared/credentials';
import { explainFailure } from '../shared/errors';
import { isPermissionRefusal } from '../shared/failureMarks';
import type { TrioEventName } from '../shared/events';
import { PUBLIC_ADDRESS_FIX, undeliverableReason } from '../shared/publicAddress';
import { INTERACTIVE_CLIENT, TrioClient } from '../shared/transport';
import {
	asRequest,
	deactivateRegistration,
	isGone,
	listRegistrations,
	listWebhookEvents,
	saveRegistration,
	type RegistrationRequest,
	type WebhookRegistration,
} from '../shared/webhookRegistrations';
import { issueToken } from './deliveryToken';
import { apiKeyOf, currentWebhookUrl, selectedEvents, tokenOwner, triggerKey } from './nodeContext';
import { ownState } from './ownership';
import {
	checkInPlace,
	planRemoval,
	planSync,
	resolveRegistrationStrings,
	type SyncPlan,
} from './planner';
import { buildRegistrationUrl, registrationName } from './registrationUrls';
import {
	readScope,
	rememberDeactivation,
	scopeForMode,
	scopeForRemoval,
	writeScope,
	type RegistrationScope,
	type ScopeState,
} from './state';

/**
 * Registration calls in flight at once. Activation with all 15 events waited for 15 round trips
 * one after another; a few at a time cuts that to about four while staying far below what any
 * web service allows one client (the service's rate limit is not published; a 429 is retried).
 * mapWithLimit waits for every call it started before it reports the first failure: a rollback
 * must see every registration that was created, including those that finished after it.
 */
const REGISTRATION_CALLS_AT_ONCE = 4;

async function step<T>(node: INode, name: string, work: () => Promise<T>): Promise<T> {
	try {
		return await work();
	} catch (error) {
		throw explainFailure(node, name, error);
	}
}

function readListing(client: TrioClient, node: INode): Promise<WebhookRegistration[]> {
	return step(node, 'Reading the webhook registrations from Trio VMS', () =>
		listRegistrations(client),
	);
}

/**
 * The service's event list, or undefined when it cannot be read for a reason other than
 * permission (the built-in names are used then). A permission failure is thrown: it would
 * only fail again at registration.
 */
async function readServiceEvents(
	client: TrioClient,
	node: INode,
	logger: Logger,
): Promise<string[] | undefined> {
	try {
		const events = await listWebhookEvents(client);
		return events.length ? events.map((event) => event.name) : undefined;
	} catch (error) {
		if (isPermissionRefusal(error)) {
			throw explainFailure(node, 'Reading the list of webhook events from Trio VMS', error);
		}
		const reason = error instanceof Error ? error.message : String(error);
		logger.debug(
			`Trio VMS Trigger: the service's event list is unavailable, using the built-in names (${reason})`,
		);
		return undefined;
	}
}

/** checkExists: true only when every registration is exactly in place (see checkInPlace). */
export async function registrationsInPlace(context: IHookFunctions): Promise<boolean> {
	const webhookUrl = currentWebhookUrl(context);
	const scope = scopeForMode(context.getMode());
	const staticData = context.getWorkflowStaticData('node');
	const stored = readScope(staticData, scope);
	// Nothing remembered: `create` finds and reuses whatever is registered.
	if (!stored) return false;
	const listing = await readListing(new TrioClient(context, INTERACTIVE_CLIENT), context.getNode());
	const check = checkInPlace({ listing, events: selectedEvents(context), stored, webhookUrl });
	if (!check.inPlace) {
		context.logger.debug(`Trio VMS Trigger: registering again (${check.reason ?? 'not in place'})`);
	}
	return check.inPlace;
}

/**
 * The real service (Production or UAT) delivers from the internet: an address it cannot reach
 * would be registered and never receive anything, so activation stops and says what to set. A
 * Custom URL (the sandbox, a test fake) may deliver anywhere.
 */
async function refuseUnreachableAddress(
	context: IHookFunctions,
	webhookUrl: string,
): Promise<void> {
	const credentials = await context.getCredentials<TrioCredentialData>(TRIO_CREDENTIAL_TYPE);
	const reason = undeliverableReason(credentials, webhookUrl);
	if (!reason) return;
	throw new NodeOperationError(
		context.getNode(),
		`Trio VMS cannot send events to this workflow's address ${webhookUrl}: ${reason}. ${PUBLIC_ADDRESS_FIX}`,
		{
			description:
				"Set n8n's WEBHOOK_URL environment variable to n8n's public https:// address (for example https://n8n.your-agency.com/) and restart n8n. No public address? Use the Trio VMS Sync Trigger instead: it checks Trio for changes on a schedule and needs no public address.",
		},
	);
}

/** create: registers, re-activates or repoints one registration per selected event. */
export async function activateRegistrations(context: IHookFunctions): Promise<void> {
	const node = context.getNode();
	const webhookUrl = currentWebhookUrl(context);
	const events = selectedEvents(context);
	if (events.length === 0) {
		throw new NodeOperationError(node, 'Select at least one event in the Trio VMS Trigger');
	}
	await refuseUnreachableAddress(context, webhookUrl);
	const scope = scopeForMode(context.getMode());
	const staticData = context.getWorkflowStaticData('node');
	const stored = await ownState(
		context,
		scope,
		readScope(staticData, scope),
		webhookUrl,
		'activate',
	);
	const client = new TrioClient(context, INTERACTIVE_CLIENT);

	// Both reads at once; the listing's failure is the one reported when both fail.
	const [listingRead, serviceEvents] = await Promise.allSettled([
		readListing(client, node),
		readServiceEvents(client, node, context.logger),
	]);
	if (listingRead.status === 'rejected') throw listingRead.reason;
	if (serviceEvents.status === 'rejected') throw serviceEvents.reason;
	const listing = listingRead.value;
	const { strings, missing } = resolveRegistrationStrings(events, serviceEvents.value);
	if (missing.length) {
		throw new NodeOperationError(
			node,
			`Trio VMS does not offer ${missing.map((event) => `"${event}"`).join(', ')} to your agency. Remove ${missing.length === 1 ? 'it' : 'them'} from Events, or ask your MSP contact to turn ${missing.length === 1 ? 'it' : 'them'} on.`,
			{
				description:
					"The Trio VMS node's Webhook resource, Get Available Events, lists the events your agency can register.",
			},
		);
	}

	// Used only if anything must be written: then every registration gets it (see planSync).
	const token = issueToken(await apiKeyOf(context), tokenOwner(context, scope), Date.now());
	const workflowName = context.getWorkflow().name;
	const plan = planSync({
		listing,
		events,
		stored,
		webhookUrl,
		token,
		nameFor: (event) => registrationName(workflowName, event, scope),
		registrationString: (event) => strings.get(event) ?? event,
	});
	for (const moved of plan.movedAway) {
		context.logger.warn(
			`Trio VMS Trigger: the registration for "${moved.event}" (${moved.id}) that this workflow made now sends to ${moved.to}${moved.active ? '' : ' and is switched off'}, not here: another n8n with a copy of this workflow (a staging copy of this database, for example) took it over, or it was changed in Trio. This workflow registers again here and leaves that one alone; switch it off in Trio if nothing should receive at ${moved.to}.`,
		);
	}
	const state = await carryOut(
		plan,
		{ client, node, logger: context.logger, webhookUrl },
		(progress) =>
			// Progress is remembered step by step: if a later step fails, these are found and switched off.
			writeScope(staticData, scope, progress),
	);
	writeScope(staticData, scope, state);
}

interface PlanRun {
	client: TrioClient;
	node: INode;
	logger: Logger;
	webhookUrl: string;
}

/**
 * Saves, confirms and deactivates what the plan says. On failure it switches off what it
 * created, so a failed activation leaves nothing active behind, and rethrows.
 */
async function carryOut(
	plan: SyncPlan,
	run: PlanRun,
	saveProgress: (state: ScopeState) => void,
): Promise<ScopeState> {
	const { client, node, logger, webhookUrl } = run;
	const state: ScopeState = { webhookUrl, tokenHash: plan.tokenHash, ids: {} };
	if (plan.tokenIssuedAt !== undefined) state.tokenIssuedAt = plan.tokenIssuedAt;
	for (const { event, id } of plan.unchanged) state.ids[event] = id;
	const created: string[] = [];
	try {
		const unconfirmed: TrioEventName[] = [];
		await mapWithLimit(plan.save, REGISTRATION_CALLS_AT_ONCE, async ({ event, request }) => {
			const name = request.Id
				? `Re-activating the Trio VMS webhook registration for "${event}"`
				: `Registering the Trio VMS webhook for "${event}"`;
			const { id } = await step(node, name, () => saveRegistration(client, request));
			if (id) {
				state.ids[event] = id;
				if (!request.Id) created.push(id);
			} else {
				unconfirmed.push(event);
			}
			saveProgress(state);
		});
		if (unconfirmed.length) {
			// The service answered without an Id: find the new registrations by their URL.
			const relisted = await readListing(client, node);
			for (const event of unconfirmed) {
				const wanted = plan.save.find((save) => save.event === event)?.request.Url;
				const found = relisted.find((registration) => registration.Url === wanted);
				if (!found) {
					throw new NodeOperationError(
						node,
						`Registering the Trio VMS webhook for "${event}" failed: the service did not confirm it. Publish the workflow again; if this repeats, check the registrations with the Trio VMS node (Webhook, Get Many).`,
					);
				}
				state.ids[event] = found.Id;
				created.push(found.Id);
			}
		}
		await mapWithLimit(plan.deactivate, REGISTRATION_CALLS_AT_ONCE, (request) =>
			switchOff(client, node, request),
		);
	} catch (error) {
		for (const save of plan.save) {
			const id = state.ids[save.event];
			if (!id || !created.includes(id)) continue;
			try {
				await switchOff(client, node, asRequest(save.request, { Id: id }));
			} catch (rollbackError) {
				logger.warn(
					`Trio VMS Trigger: could not switch off registration ${id} after registering failed while the workflow was published: ${(rollbackError as Error).message}`,
				);
			}
		}
		throw error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(node, error instanceof Error ? error : new Error(String(error)));
	}
	return state;
}

async function switchOff(client: TrioClient, node: INode, request: RegistrationRequest) {
	try {
		await deactivateRegistration(client, request);
	} catch (error) {
		if (isGone(error)) return;
		throw explainFailure(
			node,
			`Switching off the webhook registration "${request.Name}" (${request.Id ?? 'no Id'})`,
			error,
		);
	}
}

/**
 * delete: switches off every registration of this node. Best effort: n8n removes the workflow's
 * webhooks only after this returns, and a throw here would leave them behind (the next
 * activation then fails with "path taken"). So each registration is tried, what fails is
 * logged, and the local state and the issued token are forgotten (unless they were made for
 * another address: see the end); the next activation finds left-over registrations at this
 * node's address and reuses them.
 */
export async function removeRegistrations(context: IHookFunctions): Promise<void> {
	const node = context.getNode();
	const webhookUrl = context.getNodeWebhookUrl('default');
	const staticData = context.getWorkflowStaticData('node');
	const scope = scopeForRemoval(staticData, webhookUrl ?? '', context.getMode());
	const remembered = readScope(staticData, scope);
	const stored = await ownState(context, scope, remembered, webhookUrl, 'remove');
	const client = new TrioClient(context, INTERACTIVE_CLIENT);
	let requests: RegistrationRequest[];
	try {
		const listing = await readListing(client, node);
		requests = planRemoval({ listing, stored, webhookUrl });
	} catch (error) {
		context.logger.warn(
			`Trio VMS Trigger: ${(error as Error).message}; switching off the registrations this workflow remembers instead`,
		);
		requests = rememberedRegistrations(stored, webhookUrl, context.getWorkflow().name, scope);
	}
	const failed: string[] = [];
	// Best effort: a failure is logged and never stops the others.
	await mapWithLimit(requests, REGISTRATION_CALLS_AT_ONCE, async (request) => {
		try {
			await switchOff(client, node, request);
		} catch (error) {
			failed.push(request.Id ?? request.Name);
			context.logger.warn(`Trio VMS Trigger: ${(error as Error).message}`);
		}
	});
	if (failed.length) {
		context.logger.warn(
			`Trio VMS Trigger: ${failed.length} webhook registration(s) could not be switched off (${failed.join(', ')}); they are reused or switched off the next time the workflow is published, or can be switched off in Trio`,
		);
	}
	// What this node remembers for another address, and could not prove its own, stays for the
	// next activation to judge: n8n runs this hook after it has unregistered the webhook, so an
	// n8n whose address changed hears its own "not registered" at the old one here, but an
	// activation may still move those registrations (ownership.ts). Forgetting them would leave
	// them active at the old address for good.
	writeScope(staticData, scope, stored === undefined ? remembered : undefined);
	rememberDeactivation(triggerKey(context, scope), Date.now());
}

/**
 * The stored registrations as the bodies that switch them off, when the listing cannot be read.
 * Only when they were made for this n8n's current address: without the listing nothing shows
 * where a registration remembered for another address points now (ownership.ts), and switching
 * off is a rewrite of its URL.
 */
function rememberedRegistrations(
	stored: ScopeState | undefined,
	webhookUrl: string | undefined,
	workflowName: string | undefined,
	scope: RegistrationScope,
): RegistrationRequest[] {
	if (!stored || stored.webhookUrl !== webhookUrl) return [];
	return (Object.entries(stored.ids) as Array<[TrioEventName, string]>).map(([event, id]) => ({
		Id: id,
		Name: registrationName(workflowName, event, scope),
		// The token is not kept; a switched-off registration needs none.
		Url: buildRegistrationUrl(stored.webhookUrl, event, undefined),
		Events: [event],
		IsActive: false,
	}));
}
