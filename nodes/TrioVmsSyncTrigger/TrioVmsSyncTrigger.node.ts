import {
	NodeApiError,
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { TRIO_CREDENTIAL_TYPE } from '../shared/credentials';
import { JOB_STATUSES, PATHS } from '../shared/service';
import { createTrioClient, type TrioClient } from '../shared/transport';
import {
	DEFAULT_FULL_LIST_EVERY,
	DEFAULT_OVERLAP_SECONDS,
	diffJobs,
	diffSubmissions,
	JOB_CHANGES,
	jobItem,
	listFilter,
	passesJobFilters,
	planPoll,
	SUBMISSION_CHANGES,
	submissionItem,
	type JobChange,
	type PollPlan,
} from './diff';
import {
	field,
	readJob,
	readJobs,
	readSubmissions,
	stampOf,
	UnreadableAnswerError,
} from './records';
import { readState, writeState, type WatchKind } from './state';

interface PollSettings {
	watch: WatchKind;
	emitExisting: boolean;
	changes: string[];
	fullListEvery: number;
	overlapSeconds: number;
}

function settings(context: IPollFunctions): PollSettings {
	const watch = context.getNodeParameter('watch', 'jobs') as WatchKind;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const fullListEvery = Number(options.fullListEvery ?? DEFAULT_FULL_LIST_EVERY);
	const overlapSeconds = Number(options.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS);
	if (!Number.isInteger(fullListEvery) || fullListEvery < 1)
		throw new NodeOperationError(
			context.getNode(),
			'Full List Every must be a whole number, 1 or more',
		);
	if (!Number.isFinite(overlapSeconds) || overlapSeconds < 0)
		throw new NodeOperationError(context.getNode(), 'Overlap (Seconds) must be 0 or more');
	const changes = context.getNodeParameter(
		watch === 'jobs' ? 'jobChanges' : 'submissionChanges',
		[],
	) as string[];
	return {
		watch,
		emitExisting: context.getNodeParameter('emitExisting', false) as boolean,
		changes,
		fullListEvery,
		overlapSeconds,
	};
}

/** Reads a list answer, or fails loudly: the state must not move on an answer it cannot read. */
function readOrFail<T>(context: IPollFunctions, read: () => T): T {
	try {
		return read();
	} catch (error) {
		if (!(error instanceof UnreadableAnswerError))
			throw new NodeOperationError(context.getNode(), error as Error);
		throw new NodeApiError(context.getNode(), { message: error.message } as JsonObject, {
			message: `Trio VMS sent an answer the Sync Trigger cannot read: ${error.message}`,
			description:
				'Nothing was emitted and the remembered state was kept, so the next poll tries again.',
		});
	}
}

async function listRecords(client: TrioClient, path: string, plan: PollPlan): Promise<unknown> {
	return await client.request({
		method: 'GET',
		path,
		query: plan.full ? undefined : { modifiedDate: plan.modifiedDate },
		context: { subject: path === PATHS.jobs ? 'the job list' : 'the submission list' },
	});
}

/** `GET /Job/{number}` for a closed job; undefined when the service no longer knows it (404). */
async function fetchClosedJob(
	context: IPollFunctions,
	client: TrioClient,
	number: number,
): Promise<IDataObject | undefined> {
	try {
		const body = await client.request({
			method: 'GET',
			path: PATHS.job,
			pathParams: { number },
			context: { subject: `job ${number}` },
		});
		return readOrFail(context, () => readJob(body, number));
	} catch (error) {
		if (error instanceof NodeApiError && String(error.httpCode) === '404') return undefined;
		throw asNodeError(context, error);
	}
}

/** The transport's failures are node errors already, with Trio's message; anything else becomes one. */
function asNodeError(context: IPollFunctions, error: unknown): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(context.getNode(), error instanceof Error ? error : String(error));
}

async function pollJobs(
	context: IPollFunctions,
	client: TrioClient,
	options: PollSettings,
	manual: boolean,
): Promise<IDataObject[]> {
	const staticData = context.getWorkflowStaticData('node');
	const state = readState(staticData, 'jobs');
	const plan = planPoll(state, options);
	const body = await listRecords(client, PATHS.jobs, plan);
	const records = readOrFail(context, () => readJobs(body));
	const diff = diffJobs(state, records, { full: plan.full, emitExisting: options.emitExisting });
	const wanted = diff.changes.filter((change) => options.changes.includes(change.change));
	// Every request happens before the state is touched: a failure here loses nothing.
	const ready: JobChange[] = [];
	for (const change of wanted) {
		if (change.change === 'closed' && !change.job)
			ready.push({ ...change, job: await fetchClosedJob(context, client, change.number) });
		else ready.push(change);
	}
	const detectedAt = new Date().toISOString();
	const filters = {
		statuses: listFilter(context.getNodeParameter('filters.jobStatuses', [])),
		states: listFilter(context.getNodeParameter('filters.states', '')),
		professions: listFilter(context.getNodeParameter('filters.professions', '')),
	};
	const items = ready
		.map((change) => jobItem(change, detectedAt))
		.filter((item) => passesJobFilters(item, filters));
	if (!manual) writeState(staticData, diff.next);
	else if (items.length === 0) {
		// Fetch Test Event: nothing pending, so show the most recently modified job as a sample.
		const sample = await sampleRecord(client, PATHS.jobs, plan, records, 'ModifiedDateUtc');
		if (sample) items.push(jobItem({ change: 'opened', number: 0, job: sample }, detectedAt));
	}
	return items;
}

async function pollSubmissions(
	context: IPollFunctions,
	client: TrioClient,
	options: PollSettings,
	manual: boolean,
): Promise<IDataObject[]> {
	const staticData = context.getWorkflowStaticData('node');
	const state = readState(staticData, 'submissions');
	const plan = planPoll(state, options);
	const body = await listRecords(client, PATHS.submissions, plan);
	const records = readOrFail(context, () => readSubmissions(body));
	const diff = diffSubmissions(state, records, {
		full: plan.full,
		emitExisting: options.emitExisting,
	});
	const items = diff.changes
		.filter((change) => options.changes.includes(change.change))
		.map(submissionItem);
	if (!manual) writeState(staticData, diff.next);
	else if (items.length === 0) {
		const sample = await sampleRecord(client, PATHS.submissions, plan, records, 'ModifiedDateUTC');
		if (sample) items.push(submissionItem({ change: 'created', number: 0, submission: sample }));
	}
	return items;
}

/** The most recently modified record, from this poll's answer or, when it was empty, the full list. */
async function sampleRecord(
	client: TrioClient,
	path: string,
	plan: PollPlan,
	records: Array<{ stamp: string | null; raw: IDataObject }>,
	stampField: string,
): Promise<IDataObject | undefined> {
	let candidates = records;
	if (candidates.length === 0 && !plan.full) {
		const body = await listRecords(client, path, { full: true });
		candidates = (Array.isArray(body) ? body : [])
			.filter((raw): raw is IDataObject => !!raw && typeof raw === 'object')
			.map((raw) => {
				return { stamp: stampOf(field(raw, stampField)), raw };
			});
	}
	let best: { stamp: string | null; raw: IDataObject } | undefined;
	for (const record of candidates)
		if (!best || (record.stamp ?? '') > (best.stamp ?? '')) best = record;
	return best?.raw;
}

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
				displayName:
					'Works with any agency API key (no administrator permission needed). Each poll asks Trio only for what changed since the last one; every few polls it reads the whole list to find closed jobs and open-position changes.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
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
						description: 'First seen, or back in the list after being closed',
					},
					{
						name: 'Updated',
						value: 'updated',
						description: 'ModifiedDateUtc moved (put on hold included)',
					},
					{
						name: 'Closed',
						value: 'closed',
						description: 'No longer returned by the full job list',
					},
					{
						name: 'Open Positions Changed',
						value: 'openPositionsChanged',
						description: 'NumberOfCurrentOpenPositions differs from the last full list',
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
						description: 'A submission seen for the first time',
					},
					{
						name: 'Status Changed',
						value: 'statusChanged',
						description: 'Status or StatusCode differs from the last seen',
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
						options: JOB_STATUSES.map((status) => ({ name: status, value: status })),
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
						type: 'string',
						default: '',
						placeholder: 'TX, CA',
						description: 'Emit only jobs in these states: abbreviations or names, comma-separated',
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
							'Read the whole list every this many polls, to find closed jobs and open-position changes (the other polls ask only for what changed). 1 reads it every time.',
					},
					{
						displayName: 'Overlap (Seconds)',
						name: 'overlapSeconds',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: DEFAULT_OVERLAP_SECONDS,
						description:
							'Ask for changes from this long before the newest change already seen, so that a change stamped with the same time but published later is not lost. Changes seen before are recognised and not emitted twice.',
					},
				],
			},
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const options = settings(this);
		const manual = this.getMode() === 'manual';
		const client = createTrioClient(this);
		const items =
			options.watch === 'submissions'
				? await pollSubmissions(this, client, options, manual)
				: await pollJobs(this, client, options, manual);
		return items.length > 0 ? [this.helpers.returnJsonArray(items)] : null;
	}
}
