/** What the trigger reads from n8n in both its webhook methods and its delivery handler. */
import { NodeOperationError, type IHookFunctions, type IWebhookFunctions } from 'n8n-workflow';

import { TRIO_CREDENTIAL_TYPE } from '../shared/credentials';
import { isTrioEventName, type TrioEventName } from '../shared/events';
import type { TokenOwner } from './deliveryToken';
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
			"n8n did not provide a webhook address for this trigger. Save the workflow and publish it again; if this repeats, check n8n's WEBHOOK_URL setting.",
		);
	}
	return url;
}

/** Whose delivery tokens: this workflow's trigger node in this scope. */
export function tokenOwner(
	context: IHookFunctions | IWebhookFunctions,
	scope: RegistrationScope,
): TokenOwner {
	const node = context.getNode();
	return { workflowId: context.getWorkflow().id, nodeId: node.id || node.name, scope };
}

/** The credential's API key, which signs the delivery tokens. */
export async function apiKeyOf(context: IHookFunctions | IWebhookFunctions): Promise<string> {
	const credentials = await context.getCredentials(TRIO_CREDENTIAL_TYPE);
	return typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
}
