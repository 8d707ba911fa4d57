import type { IDataObject } from 'n8n-workflow';

import { isTrioEventName, TRIO_EVENTS } from '../../../shared/events';
import { listWebhookEvents } from '../../../shared/webhookRegistrations';
import { isRecord } from '../../../shared/listAnswer';
import { optionsCollection, shownUnder } from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import { ADMIN_NOTICE } from './webhookParameters';

export const description = shownUnder('webhook', 'getEvents', [ADMIN_NOTICE, optionsCollection()]);

/** One item per event name Trio lets the agency register, with what it means when known. */
export const execute: OperationExecute = async function (itemIndex, client) {
	const events: IDataObject[] = [];
	for (const { name, entry } of await listWebhookEvents(client, { itemIndex })) {
		const event: IDataObject = { name };
		if (isTrioEventName(name)) event.description = TRIO_EVENTS[name].description;
		events.push(isRecord(entry) ? { ...event, ...entry } : event);
	}
	return events;
};
