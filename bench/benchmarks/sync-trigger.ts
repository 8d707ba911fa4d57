/**
 * The Sync Trigger's polls over a 10,000-job sandbox, through n8n-core's PollContext and poll
 * executor (harness/engine/poll.ts), with the static data saved and read back as n8n stores it:
 * - a full-list poll (one GET /api/v3/Job of every open and on-hold job, diffed against a state
 *   of all of them; nothing changed, so nothing is emitted);
 * - a cheap poll (GET /api/v3/Job?modifiedDate= from the watermark minus the overlap).
 * Baseline: the same GET with fetch and JSON.parse.
 *
 * prepare() also prints the size of the stored state: for the sandbox's list, and for exactly
 * 10,000 jobs (built with the same pure functions from 10,000 list items).
 */
import type { IDataObject } from 'n8n-workflow';

import { diffJobs } from '../../nodes/TrioVmsSyncTrigger/diff';
import { readJobs } from '../../nodes/TrioVmsSyncTrigger/records';
import { storeState, type JobState } from '../../nodes/TrioVmsSyncTrigger/state';
import type { PollResult } from '../../harness/engine/poll';
import { benchmarkCase, type BenchContext, type BenchmarkDefinition } from '../runner';

/** Bytes of the node's static data as n8n stores it (JSON). */
function stateBytes(staticData: IDataObject): number {
	return Buffer.byteLength(JSON.stringify(staticData));
}

/** The stored state for `count` jobs modified over six weeks, with counts and both statuses. */
function syntheticStateBytes(count: number): number {
	const start = Date.parse('2026-01-15T00:00:00Z');
	const items = Array.from({ length: count }, (_, index) => ({
		Number: 100_001 + index,
		JobStatus: index % 6 === 0 ? 'OnHold' : 'Open',
		ModifiedDateUtc: new Date(start + index * 362_880 + (index % 997)).toISOString(),
		NumberOfCurrentOpenPositions: index % 5,
	}));
	const { next } = diffJobs(undefined, readJobs(items).records, {
		full: true,
		emitExisting: false,
	});
	return stateBytes({ sync: storeState(next as JobState) as unknown as IDataObject });
}

function syncPoll(kind: 'full' | 'cheap'): BenchmarkDefinition {
	return {
		id: `sync-trigger-${kind}-poll`,
		title: `Sync Trigger, ${kind === 'full' ? 'full-list' : 'cheap'} poll, 10,000-job sandbox`,
		node:
			kind === 'full'
				? 'Sync Trigger poll (Full List Every 1) in n8n-core PollTriggerExecutor: GET /api/v3/Job, diff against the state of every listed job, state saved'
				: 'Sync Trigger poll in n8n-core PollTriggerExecutor: GET /api/v3/Job?modifiedDate=(watermark - 300 s), nothing changed',
		baseline:
			kind === 'full'
				? 'fetch GET /api/v3/Job with the key, then JSON.parse of the body'
				: 'fetch the same GET /api/v3/Job?modifiedDate=, then JSON.parse',
		async prepare(context: BenchContext) {
			// Loaded here, not at the top: reading the bench's flags and names (--list, --help) then
			// does not load n8n-core.
			const { trioCredentials } = await import('../../harness/engine/engine');
			const { pollTrigger } = await import('../../harness/engine/poll');
			const poller = pollTrigger({
				parameters: {
					watch: 'jobs',
					options: { fullListEvery: kind === 'full' ? 1 : 1000 },
				},
				credentials: trioCredentials(context.url, context.key),
			});
			const first = await poller.poll();
			if (first.error) throw first.error;
			const sync = poller.staticData().sync as { wm: string; e: object };
			const listed = Object.keys(sync.e).length;
			if (kind === 'full') {
				console.log(
					`  sync-trigger state: ${stateBytes(poller.staticData())} bytes for the ${listed} listed jobs; ` +
						`${syntheticStateBytes(10_000)} bytes for 10,000 jobs`,
				);
			}
			// What the node sends on a cheap poll: the watermark (normal form) minus 300 s.
			const modifiedDate = new Date(Date.parse(`${sync.wm.slice(0, 23)}Z`) - 300_000).toISOString();
			const url =
				kind === 'full'
					? `${context.apiUrl}/Job`
					: `${context.apiUrl}/Job?modifiedDate=${encodeURIComponent(modifiedDate)}`;
			return benchmarkCase({
				node: () => poller.poll(),
				async baseline() {
					const response = await fetch(url, {
						headers: { 'X-API-KEY': context.key, Accept: 'application/json' },
					});
					return JSON.parse(await response.text()) as IDataObject[];
				},
				check(run: PollResult, jobs: IDataObject[]) {
					if (run.error) throw run.error;
					if (run.items.length !== 0)
						throw new Error(`Nothing changed, yet the poll emitted ${run.items.length} items`);
					if (!run.saved) throw new Error('The poll did not end with its state saved');
					if (kind === 'full' && jobs.length !== listed)
						throw new Error(`The state holds ${listed} jobs, the list ${jobs.length}`);
				},
			});
		},
	};
}

export const benchmarks: BenchmarkDefinition[] = [syncPoll('full'), syncPoll('cheap')];
