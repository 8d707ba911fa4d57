/**
 * The Trio VMS Sync Trigger: polls Trio on n8n's schedule and emits every job or submission
 * change once. The node holds its description; a poll's steps are in poll.ts (its parameters in
 * settings.ts, jobs and submissions told apart in watched.ts), the rules in diff.ts and
 * watermark.ts, the lookups of jobs a list left out in lookup.ts, the time n8n gives a poll in
 * budget.ts, the item shapes in items.ts and what it remembers in state.ts.
 */
import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { TRIO_CREDENTIAL_TYPE } from '../shared/credentials';
import { SIMPLIFIED_JOB_FIELDS_IN_WORDS } from '../shared/jobOutput';
import { outputProperty } from '../shared/outputProperty';
import { SIMPLE_SUBMISSION_FIELDS_IN_WORDS } from '../shared/submissionOutput';
import { JOB_STATUS_OPTIONS, US_STATE_OPTIONS } from '../shared/serviceFacts';
import { SUBMISSION_CHANGES } from './diff';
import { DEFAULT_MAX_DROP_PERCENT } from './shortList';
import { pollTrio } from './poll';
import { DEFAULT_FULL_LIST_EVERY, DEFAULT_OVERLAP_SECONDS } from './watermark';

/** The job changes, offered alike by every version (only the preselection differs). */
const JOB_CHANGE_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Opened',
		value: 'opened',
		description: 'A new job, or one back after being closed',
	},
	{
		name: 'Updated',
		value: 'updated',
		description: 'The facility changed the job (putting it On Hold included)',
	},
	{
		name: 'Closed',
		value: 'closed',
		description: 'The job is no longer Open or On Hold',
	},
	{
		name: 'Open Positions Changed',
		value: 'openPositionsChanged',
		description: 'The number of positions still to fill changed',
	},
];

export class TrioVmsSyncTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Trio VMS Sync Trigger',
		name: 'trioVmsSyncTrigger',
		icon: { light: 'file:../shared/trioVms.svg', dark: 'file:../shared/trioVms.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ $parameter["watch"] === "submissions" ? "Submission changes" : ($parameter["jobChanges"] || []).join() === "opened" ? "New jobs" : "Job changes" }}',
		description:
			'Starts the workflow with new jobs, or other job and submission changes, by checking Trio VMS on a schedule. Works with any API key and needs no public address.',
		defaults: {
			name: 'Trio VMS Sync Trigger',
		},
		// Read by n8n's AI workflow builder (2.x); older n8n passes the unknown key through unread.
		builderHint: {
			searchHint:
				'The trigger for new Trio jobs: Watch Jobs with Changes set to Opened, e.g. to post each new job to Slack or a table. Watch Submissions for status changes such as offers. Works with any API key and needs no public address. It only reports changes; add no Trio VMS node after it unless the user asks for one.',
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-trio-vms.trioVms',
					relationHint:
						'Accepts or declines an offer the trigger reports, when the user asks for it',
				},
			],
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: TRIO_CREDENTIAL_TYPE,
				required: true,
			},
		],
		properties: [
			{
				displayName: 'Watch',
				name: 'watch',
				type: 'options',
				noDataExpression: true,
				required: true,
				options: [
					{
						name: 'Jobs',
						value: 'jobs',
						description: 'Jobs opened, updated, closed, or whose open positions changed',
					},
					{
						name: 'Submissions',
						value: 'submissions',
						description:
							"Submissions created or whose status changed. Reads Trio's list of your submissions, which Trio's published API does not describe: if Trio does not give it, each check outputs nothing and shows an error saying so (the Trio VMS Trigger's Submission Update event is the other way).",
					},
				],
				default: 'jobs',
			},
			{
				displayName: 'Changes',
				name: 'jobChanges',
				type: 'multiOptions',
				required: true,
				displayOptions: { show: { watch: ['jobs'] } },
				options: JOB_CHANGE_OPTIONS,
				default: ['opened'],
				description:
					'Which job changes start the workflow. Opened alone gives one item per new job.',
			},
			{
				displayName: 'Changes',
				name: 'submissionChanges',
				type: 'multiOptions',
				required: true,
				displayOptions: { show: { watch: ['submissions'] } },
				options: [
					{
						name: 'Created',
						value: 'created',
						description: 'A new submission',
					},
					{
						name: 'Status Changed',
						value: 'statusChanged',
						description: 'The submission moved to another status, e.g. Offered',
					},
				],
				default: [...SUBMISSION_CHANGES],
			},
			outputProperty({
				simplified: `For a job: ${SIMPLIFIED_JOB_FIELDS_IN_WORDS}; for a submission: ${SIMPLE_SUBMISSION_FIELDS_IN_WORDS}`,
			}),
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				displayOptions: { show: { watch: ['jobs'] } },
				default: {},
				options: [
					{
						displayName: 'Job Status',
						name: 'jobStatuses',
						type: 'multiOptions',
						options: [...JOB_STATUS_OPTIONS],
						default: [],
						description:
							'Output only jobs in these statuses after the change (a closed job is Closed)',
					},
					{
						displayName: 'Profession',
						name: 'professions',
						type: 'string',
						default: '',
						placeholder: 'e.g. RN, LPN',
						description: 'Output only jobs of these professions (comma-separated)',
					},
					{
						displayName: 'State',
						name: 'states',
						type: 'multiOptions',
						options: [...US_STATE_OPTIONS],
						default: [],
						description: 'Output only jobs in these states',
					},
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Most Jobs Closing at Once (%)',
						name: 'maxDropPercent',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 100 },
						default: DEFAULT_MAX_DROP_PERCENT,
						displayOptions: { show: { '/watch': ['jobs'] } },
						description:
							'When the job list suddenly lacks this share of the known jobs or more, the trigger stops with an error instead of reporting them all closed: such a list is most likely cut short. 100 accepts any list.',
					},
					{
						displayName: 'Output Current Jobs on First Check',
						name: 'emitExisting',
						type: 'boolean',
						displayOptions: { show: { '/watch': ['jobs'] } },
						default: false,
						description:
							'Whether the first check outputs every job open now, as opened. Off: the first check only notes them, and later checks output what changes. On: the first check outputs them all, and so does the first check of a copy of this trigger, or of this trigger deleted and added back.',
						hint: 'On: a workflow that posts each new job posts every open job once, and again whenever this trigger is copied or re-added',
					},
					{
						displayName: 'Output Current Submissions on First Check',
						name: 'emitExisting',
						type: 'boolean',
						displayOptions: { show: { '/watch': ['submissions'] } },
						default: false,
						description:
							'Whether the first check outputs every submission there is now, as created. Off: the first check only notes them, and later checks output what changes.',
					},
					{
						displayName: 'Overlap (Seconds)',
						name: 'overlapSeconds',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: DEFAULT_OVERLAP_SECONDS,
						description:
							'Ask for changes from this long before the newest change already seen, so that one Trio records late is not missed. Changes seen before are not output twice.',
					},
					{
						displayName: 'Whole List Every (Checks)',
						name: 'fullListEvery',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: DEFAULT_FULL_LIST_EVERY,
						description:
							'Read the whole list every this many checks, to find closed jobs and changed open positions (the other checks ask Trio only for what changed). 1 reads it every time.',
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrio(this);
	}
}
