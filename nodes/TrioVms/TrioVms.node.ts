/**
 * The Trio VMS action node. Thin on purpose: the fields of each operation live beside its code in
 * actions/<resource>/<operation>.operation.ts, the item loop in actions/router.ts, and the
 * dropdown and search methods in methods/.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as candidate from './actions/candidate';
import * as job from './actions/job';
import { router } from './actions/router';
import * as submission from './actions/submission';
import * as webhook from './actions/webhook';
import { listSearch, loadOptions, resourceMapping } from './methods';

export class TrioVms implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Trio VMS',
		name: 'trioVms',
		icon: { light: 'file:../shared/trioVms.svg', dark: 'file:../shared/trioVms.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Work with the Trio VMS healthcare staffing platform: read open jobs, find or create candidates, submit them with their resume, answer offers and manage webhooks',
		defaults: { name: 'Trio VMS' },
		// Read by n8n's AI workflow builder (2.x); older n8n passes the unknown key through unread.
		builderHint: {
			searchHint:
				'New jobs: the Trio VMS Sync Trigger (Watch: Jobs, Changes: Opened), not a schedule and Job Get Many. Sheet rows to submissions: one node, Submission > Create with Values From: Spreadsheet Columns; it finds or creates each candidate and reads the resume. One candidate: Candidate > Find or Create. Submit only when asked to. Never give the Webhook resource to an AI agent.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-trio-vms.trioVmsSyncTrigger',
					relationHint: 'Starts the workflow with new jobs (Changes: Opened) or other changes',
				},
				{
					nodeType: 'n8n-nodes-trio-vms.trioVmsTrigger',
					relationHint: 'Starts the workflow the moment Trio sends an event',
				},
			],
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'trioVmsApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Candidate',
						value: 'candidate',
						description: 'People your agency puts forward for jobs',
					},
					{
						name: 'Job',
						value: 'job',
						description: 'Open and On Hold positions posted by facilities',
					},
					{
						name: 'Submission',
						value: 'submission',
						description: 'A candidate put forward for a job, and its offer',
					},
					{
						name: 'Webhook',
						value: 'webhook',
						description: 'Addresses Trio sends job, submission and shift events to',
					},
				],
				default: 'submission',
			},
			...job.description,
			...candidate.description,
			...submission.description,
			...webhook.description,
		],
	};

	methods = { loadOptions, listSearch, resourceMapping };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, this.continueOnFail());
	}
}
