/**
 * Dropdown options loaded from Trio, each with a fallback list so that the node stays usable
 * when the list cannot be loaded (no permission, service down, endpoint missing).
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isTrioEventName, TRIO_EVENT_NAMES, TRIO_EVENTS } from '../../shared/events';
import { nameOfListItem } from '../../shared/schemas';
import { FALLBACK_WITHDRAW_REASONS, PATHS } from '../../shared/service';
import { createTrioClient, INTERACTIVE_CLIENT } from '../../shared/transport';
import { listOf } from '../helpers/output';

async function loadNames(
	context: ILoadOptionsFunctions,
	path: string,
	webhookManagement: boolean,
): Promise<string[] | undefined> {
	try {
		const client = createTrioClient(context, INTERACTIVE_CLIENT);
		const response = await client.request({ method: 'GET', path, context: { webhookManagement } });
		const names = listOf(response)
			.map((entry) => nameOfListItem(entry)?.trim())
			.filter((name): name is string => !!name);
		return names.length ? [...new Set(names)] : undefined;
	} catch {
		// The fallback list below is the answer: the real error shows when the node runs.
		return undefined;
	}
}

export async function getWithdrawReasons(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const loaded = await loadNames(this, PATHS.withdrawReasons, false);
	const names = loaded ?? [...FALLBACK_WITHDRAW_REASONS];
	return names.map((name) => ({
		name,
		value: name,
		description: loaded ? undefined : "Standard reason (Trio's own list could not be loaded)",
	}));
}

export async function getWebhookEvents(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const loaded = await loadNames(this, PATHS.webhookEvents, true);
	const names = loaded ?? [...TRIO_EVENT_NAMES];
	return names.map((name) => ({
		name,
		value: name,
		description: isTrioEventName(name) ? TRIO_EVENTS[name].description : undefined,
	}));
}
