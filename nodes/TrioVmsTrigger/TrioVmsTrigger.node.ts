import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { TRIO_CREDENTIAL_TYPE } from '../shared/credentials';
import { TRIO_EVENT_NAMES, TRIO_EVENTS } from '../shared/events';
import { DEFAULT_WINDOW, MAX_WINDOW } from './dedup';
import { receiveDelivery } from './delivery';
import { activateRegistrations, registrationsInPlace, removeRegistrations } from './registrations';

const BATCHED_EVENTS = TRIO_EVENT_NAMES.filter((event) => TRIO_EVENTS[event].batched);

export class TrioVmsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Trio VMS Trigger',
		name: 'trioVmsTrigger',
		icon: { light: 'file:trioVms.svg', dark: 'file:trioVms.dark.svg' },
		group: ['trigger'],
		// 1.1 behaves as 1. n8n treats a start node at version 1 as its own old Webhook node and
		// evaluates an expression for every delivery before the node runs; from 1.1 on it does not.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle:
			'={{ ($parameter["events"] || []).length === 1 ? $parameter["events"][0] : ($parameter["events"] || []).length + " events" }}',
		description:
			'Starts the workflow when Trio VMS reports a job, submission or per diem shift change',
		defaults: {
			name: 'Trio VMS Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: TRIO_CREDENTIAL_TYPE,
				required: true,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// Trio waits at most 10 seconds: answer as soon as the delivery is accepted.
				responseMode: 'onReceived',
				responseData: 'noData',
				path: 'webhook',
			},
		],
		activationMessage: 'Trio VMS will now send the selected events to this workflow.',
		eventTriggerDescription: 'Waiting for Trio VMS to send one of the selected events',
		properties: [
			{
				displayName:
					"Trio VMS sends events to this workflow's Production URL, so that URL must be reachable from the internet over HTTPS. Registering webhooks needs an API key of a user with the agency administrator permission.",
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				description:
					'The changes that start this workflow. Each event gets its own webhook registration in Trio VMS.',
				options: [...TRIO_EVENT_NAMES]
					.sort((a, b) => a.localeCompare(b))
					.map((event) => ({
						name: event,
						value: event,
						description: TRIO_EVENTS[event].description,
					})),
			},
			{
				displayName: 'Split Shifts Into Items',
				name: 'splitShifts',
				type: 'boolean',
				default: true,
				description:
					'Whether a delivery of several opened or cancelled per diem shifts gives one item per shift (keeping Action, event and receivedAt) instead of one item with all shifts in Items',
				displayOptions: {
					show: {
						events: BATCHED_EVENTS,
					},
				},
			},
			{
				displayName: 'Ignore Duplicate Deliveries',
				name: 'ignoreDuplicates',
				type: 'boolean',
				default: true,
				description:
					'Whether to drop a delivery identical to one received recently. Trio VMS may send the same delivery more than once.',
			},
			{
				displayName: 'Deliveries to Remember',
				name: 'duplicateWindow',
				type: 'number',
				default: DEFAULT_WINDOW,
				typeOptions: { minValue: 1, maxValue: MAX_WINDOW },
				description:
					'How many recent deliveries this n8n process remembers to recognise duplicates. Each item carries a deliveryKey, the same for the same delivery everywhere: key a Remove Duplicates node on it to drop copies across n8n processes (queue mode) and restarts.',
				displayOptions: {
					show: {
						ignoreDuplicates: [true],
					},
				},
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await registrationsInPlace(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				await activateRegistrations(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				await removeRegistrations(this);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}
}
