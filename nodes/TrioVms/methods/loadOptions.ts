/**
 * Dropdown options loaded from Trio. The event names fall back to the spec's own list when
 * Trio's cannot be loaded. The withdraw reasons (listSearch.ts) have no such list.
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isTrioEventName, TRIO_EVENT_NAMES, TRIO_EVENTS } from '../../shared/events';
import { INTERACTIVE_CLIENT, TrioClient } from '../../shared/transport';
import { listWebhookEvents } from '../../shared/webhookRegistrations';

/** Trio's event names, read by the webhook module; undefined when there are none or they cannot be read. */
async function loadEventNames(context: ILoadOptionsFunctions): Promise<string[] | undefined> {
	try {
		const events = await listWebhookEvents(new TrioClient(context, INTERACTIVE_CLIENT));
		return events.length ? [...new Set(events.map((event) => event.name))] : undefined;
	} catch {
		// The built-in event names are the spec's own: they are the answer then.
		return undefined;
	}
}

export async function getWebhookEvents(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const loaded = await loadEventNames(this);
	const names = loaded ?? [...TRIO_EVENT_NAMES];
	return names.map((name) => ({
		name,
		value: name,
		description: isTrioEventName(name) ? TRIO_EVENTS[name].description : undefined,
	}));
}
