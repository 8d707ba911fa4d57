/** Jobs as Trio's list gives them, for the Sync Trigger's tests against scripted answers. */
import type { IDataObject } from 'n8n-workflow';

import { trioCredentials } from '../../harness/engine/engine';
import { pollTrigger } from '../../harness/engine/poll';

/** The stamp every listed job carries unless a test gives it another. */
export const STAMP = '2026-03-01T10:00:00Z';

/** Every job change type, for tests that watch more than new jobs. */
export const EVERY_JOB_CHANGE = ['opened', 'updated', 'closed', 'openPositionsChanged'];

/** An open job with one open position, stamped STAMP, with whatever a test changes. */
export function job(number: number, extra: Record<string, unknown> = {}) {
	return {
		Number: number,
		Title: `Job ${number}`,
		JobStatus: 'Open',
		ModifiedDateUtc: STAMP,
		NumberOfCurrentOpenPositions: 1,
		...extra,
	};
}

/**
 * A Sync Trigger watching every job change and reading the whole list at every check, what most
 * of its tests start from; `parameters` replace these defaults (a test's own `options` included).
 */
export function watchJobs(
	baseUrl: string,
	parameters: IDataObject = {},
	{ staticData, apiKey = 'key' }: { staticData?: IDataObject; apiKey?: string } = {},
) {
	return pollTrigger({
		parameters: {
			watch: 'jobs',
			jobChanges: EVERY_JOB_CHANGE,
			options: { fullListEvery: 1 },
			...parameters,
		},
		credentials: trioCredentials(baseUrl, apiKey),
		staticData,
	});
}
