/** What the trigger reads from n8n in both its webhook methods and its delivery handler. */
import { NodeOperationError, type IHookFunctions, type IWebhookFunctions } from 'n8n-workflow';

import { isTrioEventName, type TrioEventName } from '../shared/events';
import { memoryKey } from './dedup';
import type { RegistrationScope } from './state';

export function selectedEvents(context: IHookFunctions | IWebhookFunctions): TrioEventName[] {
	const value = context.getNodeParameter('events', []) as unknown;
	const list = Array.isArray(value) ? value : [];
	return [...new Set(list.filter(isTrioEventName))];
}

/** Identifies this trigger node and scope in the process-wide memories (tokens, duplicates). */
export function triggerKey(
	context: IHookFunctions | IWebhookFunctions,
	scope: RegistrationScope,
): string {
	const node = context.getNode();
	return memoryKey(context.getWorkflow().id, node.id, node.name, scope);
}

export function currentWebhookUrl(context: IHookFunctions): string {
	const url = context.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(
			context.getNode(),
			'n8n did not provide a webhook URL for this trigger',
		);
	}
	return url;
}
