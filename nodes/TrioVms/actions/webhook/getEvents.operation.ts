import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isTrioEventName, TRIO_EVENTS } from '../../../shared/events';
import { nameOfListItem } from '../../../shared/schemas';
import { PATHS } from '../../../shared/service';
import type { TrioClient } from '../../../shared/transport';
import { isRecord, listOf } from '../../helpers/output';
import { optionsCollection, showOnlyFor } from '../common.descriptions';
import { ADMIN_NOTICE } from './webhookFields';

const properties: INodeProperties[] = [ADMIN_NOTICE, optionsCollection()];

export const description = showOnlyFor('webhook', ['getEvents'], properties);

/** One item per event name Trio lets the agency register, with what it means when known. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject[]> {
	const response = await client.request({
		method: 'GET',
		path: PATHS.webhookEvents,
		itemIndex,
		context: { webhookManagement: true },
	});
	const events: IDataObject[] = [];
	for (const entry of listOf(response)) {
		const name = nameOfListItem(entry);
		if (name === undefined) continue;
		const event: IDataObject = { name };
		if (isTrioEventName(name)) event.description = TRIO_EVENTS[name].description;
		events.push(isRecord(entry) ? { ...event, ...entry } : event);
	}
	return events;
}
