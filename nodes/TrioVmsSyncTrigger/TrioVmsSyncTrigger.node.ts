/**
 * The Trio VMS Sync Trigger: polls Trio on n8n's schedule and emits every job or submission
 * change once. The node holds its description; a poll's steps are in poll.ts, the rules in
 * diff.ts, the item shapes in items.ts and what it remembers in state.ts.
 */
import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { TRIO_CREDENTIAL_TYPE } from '../shared/credentials';
import { JOB_STATUS_OPTIONS, US_STATE_OPTIONS } from '../shared/service';
import {
	DEFAULT_FULL_LIST_EVERY,
	DEFAULT_MAX_DROP_PERCENT,
	DEFAULT_OVERLAP_SECONDS,
	JOB_CHANGES,
	SUBMISSION_CHANGES,
} from './diff';
import { pollTrio } from './poll';

export class TrioVmsSyncTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Trio VMS Sync Trigger',
		name: 'trioVmsSyncTrigger',
		icon: { light: 'file:trioVms.svg', dark: 'file:trioVms.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{ $parameter["watch"] === "submissions" ? "Submissions" : "Jobs" }}',
		description:
			'Polls Trio VMS and starts the workflow with every job or submission change, none missed and none twice',
		defaults: {
			name: 'Trio VMS Sync Trigger',
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
				options: [
					{
						name: 'Jobs',
						value: 'jobs',
						description: 'Jobs opened, updated, closed, or whose open positions changed',
					},
					{
						name: 'Submissions',
						value: 'submissions',
						description: 'Submissions created or whose status changed',
					},
				],
				default: 'jobs',
			},
			{
				displayName: 'Changes',
				name: 'jobChanges',
				type: 'multiOptions',
				displayOptions: { show: { watch: ['jobs'] } },
				options: [
					{
						name: 'Opened',
						value: 'opened',
						description: 'A new job, or one back after being closed',
					},
					{
						name: 'Updated',
						value: 'updated',
						description: 'The facility changed the job (putting it on hold included)',
					},
					{
						name: 'Closed',
						value: 'closed',
						description: 'The job is no longer open or on hold',
					},
					{
						name: 'Open Positions Changed',
						value: 'openPositionsChanged',
						description: 'The number of positions still to fill changed',
					},
				],
				default: [...JOB_CHANGES],
			},
			{
				displayName: 'Changes',
				name: 'submissionChanges',
				type: 'multiOptions',
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
			{
				displayName: 'Emit Existing Jobs on First Run',
				name: 'emitExisting',
				type: 'boolean',
				displayOptions: { show: { watch: ['jobs'] } },
				default: false,
				description:
					'Whether the first poll emits every current job as opened. Off: it only records them, and later polls emit what changes.',
			},
			{
				displayName: 'Emit Existing Submissions on First Run',
				name: 'emitExisting',
				type: 'boolean',
				displayOptions: { show: { watch: ['submissions'] } },
				default: false,
				description:
					'Whether the first poll emits every current submission as created. Off: it only records them, and later polls emit what changes.',
			},
			{
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: true,
				description:
					'Whether to return about ten fields per job or submission instead of everything Trio sends',
			},
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
							'Emit only jobs in these statuses after the change (a closed job is Closed)',
					},
					{
						displayName: 'Profession',
						name: 'professions',
						type: 'string',
						default: '',
						placeholder: 'RN, LPN',
						description: 'Emit only jobs of these professions (comma-separated)',
					},
					{
						displayName: 'State',
						name: 'states',
						type: 'multiOptions',
						options: [...US_STATE_OPTIONS],
						default: [],
						description: 'Emit only jobs in these states',
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
						displayName: 'Full List Every (Polls)',
						name: 'fullListEvery',
						type: 'number',
						typeOptions: { minValue: 1 },
						default: DEFAULT_FULL_LIST_EVERY,
						description:
							'Read the whole list every this many polls, to find closed jobs and changed open positions (the other polls ask Trio only for what changed). 1 reads it every time.',
					},
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
						displayName: 'Overlap (Seconds)',
						name: 'overlapSeconds',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: DEFAULT_OVERLAP_SECONDS,
						description:
							'Ask for changes from this long before the newest change already seen, so that one Trio records late is not missed. Changes seen before are not emitted twice.',
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrio(this);
	}
}
