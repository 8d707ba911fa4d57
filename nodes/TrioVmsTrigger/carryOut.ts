/**
 * Carries out a plan of planner.ts at the service (I/O): saves and confirms registrations a few at
 * a time, switches off what the plan says, and on a failure switches off what it created, so a
 * failed activation leaves nothing active behind. Each call is named as a step, because n8n's
 * activation error shows only the message.
 */
import { NodeApiError, NodeOperationError, type INode, type Logger } from 'n8n-workflow';

import { explainFailure } from '../shared/errors';
import type { TrioEventName } from '../shared/events';
import { mapWithLimit } from '../shared/limitedConcurrency';
import type { TrioClient } from '../shared/transport';
import {
	asRequest,
	deactivateRegistration,
	isGone,
	listRegistrations,
	saveRegistration,
	type RegistrationRequest,
	type WebhookRegistration,
} from '../shared/webhookRegistrations';
import type { SyncPlan } from './planner';
import type { ScopeState } from './state';

/**
 * Registration calls in flight at once. Activation with all 15 events waited for 15 round trips
 * one after another; a few at a time cuts that to about four while staying far below what any
 * web service allows one client (the service's rate limit is not published; a 429 is retried).
 * mapWithLimit waits for every call it started before it reports the first failure: a rollback
 * must see every registration that was created, including those that finished after it.
 */
export const REGISTRATION_CALLS_AT_ONCE = 4;

async function step<T>(node: INode, name: string, work: () => Promise<T>): Promise<T> {
	try {
		return await work();
	} catch (error) {
		throw explainFailure(node, name, error);
	}
}

export function readListing(client: TrioClient, node: INode): Promise<WebhookRegistration[]> {
	return step(node, 'Reading the webhook registrations from Trio VMS', () =>
		listRegistrations(client),
	);
}

export interface PlanRun {
	client: TrioClient;
	node: INode;
	logger: Logger;
	webhookUrl: string;
}

/**
 * Saves, confirms and deactivates what the plan says. On failure it switches off what it
 * created, so a failed activation leaves nothing active behind, and rethrows.
 */
export async function carryOut(
	plan: SyncPlan,
	run: PlanRun,
	saveProgress: (state: ScopeState) => void,
): Promise<ScopeState> {
	const { client, node, webhookUrl } = run;
	const state: ScopeState = { webhookUrl, tokenHash: plan.tokenHash, ids: {} };
	if (plan.tokenIssuedAt !== undefined) state.tokenIssuedAt = plan.tokenIssuedAt;
	for (const { event, id } of plan.unchanged) state.ids[event] = id;
	const created: string[] = [];
	try {
		const unconfirmed = await saveAll(plan, run, { state, created }, saveProgress);
		if (unconfirmed.length) await confirmByUrl(plan, run, unconfirmed, { state, created });
		await mapWithLimit(plan.deactivate, REGISTRATION_CALLS_AT_ONCE, (request) =>
			switchOff(client, node, request),
		);
	} catch (error) {
		await rollBack(plan, run, { state, created });
		throw error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(node, error instanceof Error ? error : new Error(String(error)));
	}
	return state;
}

/** What carrying a plan out has done so far: the ids by event, and the ones it created. */
interface Progress {
	state: ScopeState;
	created: string[];
}

/** Saves the plan's registrations, a few at a time; returns the events the service gave no Id for. */
async function saveAll(
	plan: SyncPlan,
	run: PlanRun,
	{ state, created }: Progress,
	saveProgress: (state: ScopeState) => void,
): Promise<TrioEventName[]> {
	const { client, node } = run;
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
	return unconfirmed;
}

/** The service answered without an Id: finds the new registrations by their URL, or fails. */
async function confirmByUrl(
	plan: SyncPlan,
	run: PlanRun,
	unconfirmed: TrioEventName[],
	{ state, created }: Progress,
): Promise<void> {
	const relisted = await readListing(run.client, run.node);
	for (const event of unconfirmed) {
		const wanted = plan.save.find((save) => save.event === event)?.request.Url;
		const found = relisted.find((registration) => registration.Url === wanted);
		if (!found) {
			throw new NodeOperationError(
				run.node,
				`Registering the Trio VMS webhook for "${event}" failed: the service did not confirm it. Publish the workflow again; if this repeats, check the registrations with the Trio VMS node (Webhook, Get Many).`,
			);
		}
		state.ids[event] = found.Id;
		created.push(found.Id);
	}
}

/** Switches off what this run created; a failure to do so is logged, never thrown. */
async function rollBack(plan: SyncPlan, run: PlanRun, { state, created }: Progress): Promise<void> {
	for (const save of plan.save) {
		const id = state.ids[save.event];
		if (!id || !created.includes(id)) continue;
		try {
			await switchOff(run.client, run.node, asRequest(save.request, { Id: id }));
		} catch (rollbackError) {
			run.logger.warn(
				`Trio VMS Trigger: could not switch off registration ${id} after registering failed while the workflow was published: ${(rollbackError as Error).message}`,
			);
		}
	}
}

export async function switchOff(client: TrioClient, node: INode, request: RegistrationRequest) {
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
