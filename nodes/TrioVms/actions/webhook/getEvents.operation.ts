import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { isTrioEventName, TRIO_EVENTS } from '../../../shared/events';
import type { TrioClient } from '../../../shared/transport';
import { listWebhookEvents } from '../../../shared/webhookRegistrations';
import { isRecord } from '../../helpers/output';
import { optionsCollection } from '../common.descriptions';
import { ADMIN_NOTICE } from './webhookFields';

const properties: INodeProperties[] = [ADMIN_NOTICE, optionsCollection()];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['getEvents'] } },
	properties,
);

/** One item per event name Trio lets the agency register, with what it means when known. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject[]> {
	const events: IDataObject[] = [];
	for (const { name, entry } of await listWebhookEvents(client, { itemIndex })) {
		const event: IDataObject = { name };
		if (isTrioEventName(name)) event.description = TRIO_EVENTS[name].description;
		events.push(isRecord(entry) ? { ...event, ...entry } : event);
	}
	return events;
}
