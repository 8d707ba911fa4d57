/**
 * A workflow holding only the Trio VMS Sync Trigger, watching jobs, as the real-n8n suites
 * create it: hourly (so only activation polls within a test), every change emitted, and a full
 * list on every poll.
 */
import { randomUUID } from 'node:crypto';

export const SYNC_TRIGGER_TYPE = 'n8n-nodes-trio-vms.trioVmsSyncTrigger';
export const SYNC_TRIGGER_NAME = 'Trio VMS Sync Trigger';

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
					pollTimes: { item: [{ mode: 'everyHour' }] },
					watch: 'jobs',
					emitExisting: true,
					options: { fullListEvery: 1 },
				},
				credentials: { trioVmsApi: credential },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}
