/**
 * Parameters and checks shared by the webhook operations. What they send is in webhookRequests.ts,
 * the requests themselves in nodes/shared/webhookRegistrations.ts.
 */
import type { INodeProperties } from 'n8n-workflow';

import { ParameterError, isBlank, shown } from '../../helpers/validation';

export const eventsParameter: INodeProperties = {
	displayName: 'Event Names or IDs',
	name: 'events',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getWebhookEvents' },
	default: [],
	description:
		'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	hint: 'The events Trio sends to the address. With an expression, give a list of event names such as ["Submission Update"].',
};

export const ADMIN_NOTICE: INodeProperties = {
	displayName:
		'Managing webhooks needs an API key of a user with the agency administrator permission',
	name: 'adminNotice',
	type: 'notice',
	default: '',
};

/** Event names from a multi-select, or from an expression giving an array or "A, B" text. */
export function readEvents(value: unknown, label: string): string[] {
	let list: unknown[];
	if (Array.isArray(value)) list = value;
	else if (typeof value === 'string') list = value.split(',');
	else if (isBlank(value)) list = [];
	else throw new ParameterError(label, `must be a list of event names, got ${shown(value)}`);
	const names: string[] = [];
	for (const entry of list) {
		if (typeof entry !== 'string')
			throw new ParameterError(label, `must hold event names (text), got ${shown(entry)}`);
		const name = entry.trim();
		if (name && !names.includes(name)) names.push(name);
	}
	if (!names.length)
		throw new ParameterError(label, 'must name at least one event, e.g. Submission Update');
	return names;
}
