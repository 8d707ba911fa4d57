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
import { SIMPLIFIED_JOB_FIELDS_IN_WORDS } from '../shared/jobOutput';
import { outputProperty } from '../shared/outputProperty';
import { SIMPLE_SHIFT_FIELDS_IN_WORDS } from '../shared/shiftOutput';
import { SIMPLE_SUBMISSION_FIELDS_IN_WORDS } from '../shared/submissionOutput';
import { DEFAULT_WINDOW, MAX_WINDOW } from './dedup';
import { receiveDelivery } from './deliveries';
import { simplifierFor } from './judge';
import { activateRegistrations, registrationsInPlace, removeRegistrations } from './registrations';

const BATCHED_EVENTS = TRIO_EVENT_NAMES.filter((event) => TRIO_EVENTS[event].batched);
/** Every event but Non Locums Confirmation Signed, whose payload is short and flat as sent. */
const SIMPLIFIED_EVENTS = TRIO_EVENT_NAMES.filter((event) => simplifierFor(event));

/** The docs page that shows how to pin a sample; the files are also in the installed package. */
const SAMPLES_LINK =
	'<a href="https://github.com/n8n-nodes-trio-vms/n8n-nodes-trio-vms/blob/main/docs/trigger.md#testing-with-sample-data" target="_blank">Testing with sample data</a>';
const SAMPLES_FOLDER = "the package's own dist/sample-payloads folder";

export class TrioVmsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Trio VMS Trigger',
		name: 'trioVmsTrigger',
		icon: { light: 'file:../shared/trioVms.svg', dark: 'file:../shared/trioVms.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ ($parameter["events"] || []).length === 1 ? $parameter["events"][0] : ($parameter["events"] || []).length + " events" }}',
		description:
			'Starts the workflow the moment Trio VMS sends a job, submission or per diem shift event. Needs a public https:// address and an administrator API key. For new jobs, use the Trio VMS Sync Trigger: Job Update fires on every change to a job.',
		defaults: {
			name: 'Trio VMS Trigger',
		},
		// Read by n8n's AI workflow builder (2.x); older n8n passes the unknown key through unread.
		builderHint: {
			searchHint:
				'Starts the workflow the moment Trio sends an event. Needs n8n reachable at a public https:// address and an administrator API key; it registers its own webhooks. For new jobs without those, use the Trio VMS Sync Trigger with Changes set to Opened.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-trio-vms.trioVmsSyncTrigger',
					relationHint: 'New jobs by checking on a schedule, with any key and no public address',
				},
				{
					nodeType: 'n8n-nodes-trio-vms.trioVms',
					relationHint: 'Reads the job or submission behind the event and answers offers',
				},
			],
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
		triggerPanel: {
			header: 'Trio VMS sends an event only when something changes in Trio',
			executionsHelp: {
				inactive: `<b>While building your workflow</b>, click 'Listen for test event': n8n registers a test webhook with Trio VMS and waits for the next selected event. Trio sends one only when something changes there (a facility opens or updates a job, a submission changes status, a shift is posted...), so the wait can be long. To try the workflow now, pin a sample as this node's output (Edit Output, paste, then Pin): there is one for every event, linked from ${SAMPLES_LINK} in the trigger's docs, and ${SAMPLES_FOLDER} holds them too.<br /><br /><b>Once you have finished building your workflow</b>, publish it: every selected event then starts an execution, listed under Executions.`,
				active: `<b>Your workflow is published</b>: every selected event Trio VMS sends starts an execution, listed under Executions. Trio sends an event only when something changes there, so a quiet day has none. To test changes, pin a sample as this node's output: see ${SAMPLES_LINK} in the trigger's docs.`,
			},
			activationHint:
				"Once you've finished building your workflow, publish it so Trio VMS sends it events as they happen. n8n must be reachable at a public https:// address.",
		},
		properties: [
			{
				displayName:
					'Trio VMS must reach n8n at a public https:// address, and registering needs an API key with agency administrator permission. Without either, use the Trio VMS Sync Trigger.',
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
				description: 'The changes in Trio VMS that start this workflow',
				options: [...TRIO_EVENT_NAMES]
					.sort((a, b) => a.localeCompare(b))
					.map((event) => ({
						name: event,
						value: event,
						description: TRIO_EVENTS[event].description,
					})),
			},
			outputProperty({
				simplified: `For a Job Update: ${SIMPLIFIED_JOB_FIELDS_IN_WORDS}; for a Submission Update: ${SIMPLE_SUBMISSION_FIELDS_IN_WORDS}; for a per diem shift: ${SIMPLE_SHIFT_FIELDS_IN_WORDS} (the ones its event carries)`,
				displayOptions: { show: { events: SIMPLIFIED_EVENTS } },
			}),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Deliveries to Remember',
						name: 'duplicateWindow',
						type: 'number',
						default: DEFAULT_WINDOW,
						typeOptions: { minValue: 1, maxValue: MAX_WINDOW },
						description:
							'How many recent deliveries this trigger remembers, to recognise one Trio sends twice (for a job or a submission, the last one about it). Each item has a field named deliveryKey that is the same whenever Trio sends the same delivery again: to drop such copies also after n8n restarts or when it runs on several workers, add a Remove Duplicates node that compares deliveryKey. Used while Ignore Duplicate Deliveries is on.',
					},
					{
						displayName: 'Ignore Duplicate Deliveries',
						name: 'ignoreDuplicates',
						type: 'boolean',
						default: true,
						description:
							'Whether to drop a delivery identical to a recent one (for a job or a submission, to the last one about it). Trio VMS may send the same delivery more than once.',
					},
					{
						displayName: 'Split Shifts Into Items',
						name: 'splitShifts',
						type: 'boolean',
						default: true,
						description:
							'Whether a delivery of several opened or cancelled per diem shifts gives one item per shift instead of one item listing them all',
						displayOptions: { show: { '/events': BATCHED_EVENTS } },
					},
				],
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
