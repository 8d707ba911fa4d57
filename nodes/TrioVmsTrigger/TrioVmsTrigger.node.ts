import { randomBytes } from 'node:crypto';

import {
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type IHookFunctions,
	type INode,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { TRIO_CREDENTIAL_TYPE } from '../shared/credentials';
import {
	isTrioEventName,
	TRIO_EVENT_NAMES,
	TRIO_EVENTS,
	type TrioEventName,
} from '../shared/events';
import { createTrioClient } from '../shared/transport';
import {
	DEFAULT_WINDOW,
	deliveryFingerprint,
	deliveryMemory,
	MAX_WINDOW,
	memoryKey,
} from './dedup';
import { buildItems, judgeDelivery } from './receive';
import {
	checkInPlace,
	deactivateRegistration,
	fetchServiceEvents,
	listRegistrations,
	planRemoval,
	planSync,
	registrationName,
	resolveRegistrationStrings,
	saveRegistration,
} from './registrations';
import {
	forgetIssuedToken,
	issuedToken,
	readScope,
	rememberIssuedToken,
	scopeForMode,
	scopeForRemoval,
	writeScope,
	type ScopeState,
} from './state';

const BATCHED_EVENTS = TRIO_EVENT_NAMES.filter((event) => TRIO_EVENTS[event].batched);

function selectedEvents(context: IHookFunctions | IWebhookFunctions): TrioEventName[] {
	const value = context.getNodeParameter('events', []) as unknown;
	const list = Array.isArray(value) ? value : [];
	return [...new Set(list.filter(isTrioEventName))];
}

/** Errors from the registration steps are node errors already; anything else is wrapped. */
function asNodeError(node: INode, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : new Error(String(error)));
}

/** Identifies this trigger node and scope in the process-wide memories (tokens, duplicates). */
function triggerKey(context: IHookFunctions | IWebhookFunctions, scope: string): string {
	const node = context.getNode();
	return memoryKey(context.getWorkflow().id, node.id, node.name, scope);
}

function currentWebhookUrl(context: IHookFunctions): string {
	const url = context.getNodeWebhookUrl('default');
	if (!url)
		throw new NodeOperationError(
			context.getNode(),
			'n8n did not provide a webhook URL for this trigger',
		);
	return url;
}

export class TrioVmsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Trio VMS Trigger',
		name: 'trioVmsTrigger',
		icon: { light: 'file:trioVms.svg', dark: 'file:trioVms.dark.svg' },
		group: ['trigger'],
		version: 1,
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
					'How many recent deliveries are remembered to recognise duplicates. They are kept in memory and forgotten when n8n restarts; use the Remove Duplicates node for a longer memory.',
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
				const webhookUrl = currentWebhookUrl(this);
				const scope = scopeForMode(this.getMode());
				const stored = readScope(this.getWorkflowStaticData('node'), scope);
				// Nothing remembered: `create` finds and reuses whatever is registered.
				if (!stored) return false;
				const listing = await listRegistrations(createTrioClient(this), this.getNode());
				const check = checkInPlace({ listing, events: selectedEvents(this), stored, webhookUrl });
				if (!check.inPlace)
					this.logger.debug(
						`Trio VMS Trigger: registering again (${check.reason ?? 'not in place'})`,
					);
				return check.inPlace;
			},

			async create(this: IHookFunctions): Promise<boolean> {
				const node = this.getNode();
				const webhookUrl = currentWebhookUrl(this);
				const events = selectedEvents(this);
				if (events.length === 0) {
					throw new NodeOperationError(node, 'Select at least one event in the Trio VMS Trigger');
				}
				const scope = scopeForMode(this.getMode());
				const staticData = this.getWorkflowStaticData('node');
				const stored = readScope(staticData, scope);
				const client = createTrioClient(this);

				const listing = await listRegistrations(client, node);
				const { strings, missing } = resolveRegistrationStrings(
					events,
					await fetchServiceEvents(client, node, this.logger),
				);
				if (missing.length) {
					throw new NodeOperationError(
						node,
						`Trio VMS does not offer ${missing.map((event) => `"${event}"`).join(', ')} to your agency`,
						{
							description:
								'Remove these events from the trigger, or ask your MSP contact to enable them.',
						},
					);
				}

				const token = stored?.token ?? randomBytes(32).toString('hex');
				const workflowName = this.getWorkflow().name;
				const plan = planSync({
					listing,
					events,
					stored,
					webhookUrl,
					token,
					nameFor: (event) => registrationName(workflowName, event, scope),
					registrationString: (event) => strings.get(event) ?? event,
				});

				const state: ScopeState = { webhookUrl, token, ids: {} };
				for (const { event, id } of plan.unchanged) state.ids[event] = id;
				const created: string[] = [];
				try {
					const unknownIds: TrioEventName[] = [];
					for (const { event, request } of plan.save) {
						const step = request.Id
							? `Re-activating the Trio VMS webhook registration for "${event}"`
							: `Registering the Trio VMS webhook for "${event}"`;
						const id = await saveRegistration(client, node, request, step);
						if (id) {
							state.ids[event] = id;
							if (!request.Id) created.push(id);
						} else {
							unknownIds.push(event);
						}
						// Remember progress: if a later step fails, these are found and switched off.
						writeScope(staticData, scope, state);
					}
					if (unknownIds.length) {
						// The service answered without an Id: find the new registrations by their URL.
						const relisted = await listRegistrations(client, node);
						for (const event of unknownIds) {
							const wanted = plan.save.find((save) => save.event === event)?.request.Url;
							const found = relisted.find((registration) => registration.Url === wanted);
							if (!found) {
								throw new NodeOperationError(
									node,
									`Registering the Trio VMS webhook for "${event}" failed: the service did not confirm it`,
								);
							}
							state.ids[event] = found.Id;
							created.push(found.Id);
						}
					}
					for (const request of plan.deactivate) {
						await deactivateRegistration(client, node, request);
					}
				} catch (error) {
					// Switch off what this call created, so a failed activation leaves nothing active behind.
					for (const save of plan.save) {
						const id = state.ids[save.event];
						if (!id || !created.includes(id)) continue;
						try {
							await deactivateRegistration(client, node, {
								...save.request,
								Id: id,
								IsActive: false,
							});
						} catch (rollbackError) {
							this.logger.warn(
								`Trio VMS Trigger: could not switch off registration ${id} after a failed activation: ${(rollbackError as Error).message}`,
							);
						}
					}
					throw asNodeError(node, error);
				}
				writeScope(staticData, scope, state);
				rememberIssuedToken(triggerKey(this, scope), token);
				return true;
			},

			async delete(this: IHookFunctions): Promise<boolean> {
				const webhookUrl = this.getNodeWebhookUrl('default');
				const staticData = this.getWorkflowStaticData('node');
				const scope = scopeForRemoval(staticData, webhookUrl ?? '', this.getMode());
				const stored = readScope(staticData, scope);
				const client = createTrioClient(this);
				const listing = await listRegistrations(client, this.getNode());
				for (const request of planRemoval({ listing, stored, webhookUrl })) {
					await deactivateRegistration(client, this.getNode(), request);
				}
				writeScope(staticData, scope, undefined);
				forgetIssuedToken(triggerKey(this, scope));
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const scope = scopeForMode(this.getMode());
		const stored = readScope(this.getWorkflowStaticData('node'), scope);
		const request = this.getRequestObject();
		const verdict = judgeDelivery({
			expectedToken: stored?.token ?? issuedToken(triggerKey(this, scope)),
			query: this.getQueryData(),
			contentType: request.headers['content-type'],
			parsedBody: this.getBodyData(),
			rawBody: (request as { rawBody?: Buffer }).rawBody,
			selectedEvents: selectedEvents(this),
		});

		const respond = (status: number, body: IDataObject): IWebhookResponseData => {
			this.getResponseObject().status(status).json(body);
			return { noWebhookResponse: true };
		};

		if (verdict.kind === 'refuse') {
			this.logger.warn(
				`Trio VMS Trigger refused a delivery (${verdict.status}): ${verdict.message}`,
			);
			return respond(verdict.status, { message: verdict.message });
		}
		if (verdict.kind === 'ignore') {
			this.logger.info(`Trio VMS Trigger: ${verdict.message}`);
			return respond(200, { received: true, ignored: verdict.message });
		}

		if (this.getNodeParameter('ignoreDuplicates', true) as boolean) {
			const key = triggerKey(this, scope);
			const window = this.getNodeParameter('duplicateWindow', DEFAULT_WINDOW) as number;
			if (deliveryMemory.seen(key, deliveryFingerprint(verdict.event, verdict.payload), window)) {
				this.logger.info(`Trio VMS Trigger dropped a duplicate "${verdict.event}" delivery`);
				return respond(200, { received: true, duplicate: true });
			}
		}

		const items = buildItems({
			event: verdict.event,
			payload: verdict.payload,
			receivedAt: new Date().toISOString(),
			split: this.getNodeParameter('splitShifts', true) as boolean,
		});
		return { workflowData: [this.helpers.returnJsonArray(items)] };
	}
}
