/**
 * Dropdown options loaded from Trio. The event names fall back to the spec's own list when
 * Trio's cannot be loaded. The withdraw reasons (listSearch.ts) have no such list.
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { isTrioEventName, TRIO_EVENT_NAMES, TRIO_EVENTS } from '../../shared/events';
import { nameOfListItem } from '../../shared/schemas';
import { PATHS } from '../../shared/service';
import { INTERACTIVE_CLIENT, TrioClient } from '../../shared/transport';
import { listOf } from '../helpers/output';

async function loadNames(
	context: ILoadOptionsFunctions,
	path: string,
	webhookManagement: boolean,
): Promise<string[] | undefined> {
	try {
		const client = new TrioClient(context, INTERACTIVE_CLIENT);
		const response = await client.request({ method: 'GET', path, context: { webhookManagement } });
		const names = listOf(response)
			.map((entry) => nameOfListItem(entry)?.trim())
			.filter((name): name is string => !!name);
		return names.length ? [...new Set(names)] : undefined;
	} catch {
		// The built-in event names are the spec's own: they are the answer then.
		return undefined;
	}
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
