/**
 * A workflow holding only the Trio VMS Sync Trigger, watching jobs, as the real-n8n suites
 * create it: scheduled on 29 February only (so within a test only activation polls, unless the
 * test sets a schedule of its own), every change emitted, and a full list on every poll.
 */
import { randomUUID } from 'node:crypto';

import { nodeItems, type ExecutionRecord } from './n8n';

/**
 * n8n's durable scheduler for poll triggers (2.36+; on by default for Schedule Triggers from
 * 2.45) with durable cursors: runs are claimed from the database and the node's static data is
 * committed together with the execution. The same story must hold under it.
 */
export const DURABLE_SCHEDULER = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

export const SYNC_TRIGGER_TYPE = 'n8n-nodes-trio-vms.trioVmsSyncTrigger';
export const SYNC_TRIGGER_NAME = 'Trio VMS Sync Trigger';

/**
 * Midnight on 29 February: n8n accepts it (one fixed second) and it never comes round during a
 * test. "Every hour" did, at minute 0, and a test running then saw a poll it did not start.
 */
const NEVER_DURING_A_TEST = { item: [{ mode: 'custom', cronExpression: '0 0 0 29 2 *' }] };

export function jobSyncWorkflow(name: string, credential: { id: string; name: string }) {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: SYNC_TRIGGER_NAME,
				type: SYNC_TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0] as [number, number],
				parameters: {
					pollTimes: NEVER_DURING_A_TEST as { item: Array<Record<string, unknown>> },
					watch: 'jobs',
					// Every change type, so the suites see closures and updates as well as new jobs.
					jobChanges: ['opened', 'updated', 'closed', 'openPositionsChanged'],
					options: { emitExisting: true, fullListEvery: 1 },
				},
				credentials: { trioVmsApi: credential },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** The items the Sync Trigger output in an execution. */
export const syncItems = (execution: ExecutionRecord): Array<Record<string, unknown>> =>
	nodeItems(execution, SYNC_TRIGGER_NAME);

/** Items as `number:change`, sorted: what a check output, comparable with toEqual. */
export const changesOf = (items: Array<Record<string, unknown>>): string[] =>
	items.map((item) => `${String(item.Number)}:${String(item.change)}`).sort();
