/**
 * The trigger's three webhook methods (I/O), each reading what it needs from n8n and asking
 * planner.ts: whether every registration is in place, activation (carried out by carryOut.ts),
 * and best-effort removal. Every failure names the step, because n8n's activation error shows
 * only the message.
 */
import { NodeOperationError, type IHookFunctions, type INode, type Logger } from 'n8n-workflow';

import { mapWithLimit } from '../shared/limitedConcurrency';
import { TRIO_CREDENTIAL_TYPE, type TrioCredentialData } from '../shared/credentials';
import { explainFailure } from '../shared/errors';
import { isPermissionRefusal } from '../shared/failureMarks';
import type { TrioEventName } from '../shared/events';
import { PUBLIC_ADDRESS_FIX, undeliverableReason } from '../shared/publicAddress';
import { INTERACTIVE_CLIENT, TrioClient } from '../shared/transport';
import {
	listWebhookEvents,
	type RegistrationRequest,
	type WebhookRegistration,
} from '../shared/webhookRegistrations';
import { carryOut, readListing, REGISTRATION_CALLS_AT_ONCE, switchOff } from './carryOut';
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
	const { listing, strings } = await readForActivation(client, node, context.logger, events);

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
	warnMovedAway(plan, context.logger);
	const state = await carryOut(
		plan,
		{ client, node, logger: context.logger, webhookUrl },
		(progress) =>
			// Progress is remembered step by step: if a later step fails, these are found and switched off.
			writeScope(staticData, scope, progress),
	);
	writeScope(staticData, scope, state);
}

/**
 * What activation reads from the service, both at once: the registrations listed, and each
 * selected event's registration string. Fails when the service does not offer an event.
 */
async function readForActivation(
	client: TrioClient,
	node: INode,
	logger: Logger,
	events: TrioEventName[],
): Promise<{ listing: WebhookRegistration[]; strings: Map<TrioEventName, string> }> {
	// Both reads at once; the listing's failure is the one reported when both fail.
	const [listingRead, serviceEvents] = await Promise.allSettled([
		readListing(client, node),
		readServiceEvents(client, node, logger),
	]);
	if (listingRead.status === 'rejected') throw listingRead.reason;
	if (serviceEvents.status === 'rejected') throw serviceEvents.reason;
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
	return { listing: listingRead.value, strings };
}

/** Says which of this workflow's registrations now send elsewhere, and are left alone. */
function warnMovedAway(plan: SyncPlan, logger: Logger): void {
	for (const moved of plan.movedAway) {
		logger.warn(
			`Trio VMS Trigger: the registration for "${moved.event}" (${moved.id}) that this workflow made now sends to ${moved.to}${moved.active ? '' : ' and is switched off'}, not here: another n8n with a copy of this workflow (a staging copy of this database, for example) took it over, or it was changed in Trio. This workflow registers again here and leaves that one alone; switch it off in Trio if nothing should receive at ${moved.to}.`,
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
