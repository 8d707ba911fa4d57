/**
 * Fetch Test Event of the Sync Trigger: what a check found, or when it found nothing, one
 * existing record of the list (the newest, preferring one the chosen changes could show) marked
 * as a sample, so a workflow can be built before a change comes. It writes no state.
 */
import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../shared/listAnswer';
import { fieldOf } from '../shared/recordFields';
import type { TrioClient } from '../shared/transport';
import { listOf, stampOf, type ListReading } from './records';
import type { PollSettings } from './settings';
import type { JobState, SubmissionState, WatchKind } from './state';
import type { PollPlan } from './watermark';
import type { ListedRecord, Outcome, Watched } from './watched';

/** Said on the one existing record Fetch Test Event shows when nothing has changed. */
const SAMPLE_NOTE =
	'Example only: there is no new change to show, so this is an existing record showing what the trigger outputs';

/** Fetch Test Event shows a sample of what a poll emits, never the whole list. */
const TEST_EVENT_ITEMS = 3;

/**
 * Fetch Test Event: the check's items, or when it found none, a record of the list as a sample,
 * at most TEST_EVENT_ITEMS of them.
 */
export async function testEventItems<
	Entry extends ListedRecord,
	Change extends { change: string },
	State extends JobState | SubmissionState,
	Diff extends Outcome<Change, State>,
>(
	client: TrioClient,
	watched: Watched<Entry, Change, State, Diff>,
	at: {
		plan: PollPlan;
		reading: ListReading<Entry>;
		options: PollSettings;
		receivedAt: string;
		check: number;
	},
	items: IDataObject[],
): Promise<IDataObject[]> {
	const { plan, reading, options, receivedAt, check } = at;
	const preferred = (record: IDataObject) =>
		watched.samplePreferred?.(record, options.changes) === true;
	const sample =
		items.length === 0 && (await sampleRecord(client, watched, plan, reading, preferred));
	// Marked, so that nobody takes an old record for a change.
	if (sample)
		items.push({
			...watched.item(watched.sample(sample, options.changes), receivedAt, options.simplify, check),
			sample: SAMPLE_NOTE,
		});
	return items.slice(0, TEST_EVENT_ITEMS);
}

/** The most recently modified record, from this poll's answer or, when it was empty, the full list. */
async function sampleRecord(
	client: TrioClient,
	watched: { kind: WatchKind; path: string; stampField: string },
	plan: PollPlan,
	reading: ListReading<ListedRecord>,
	preferred: (record: IDataObject) => boolean,
): Promise<IDataObject | undefined> {
	let candidates: Array<{ stamp: string | null; raw: IDataObject }> = reading.records;
	if (candidates.length === 0 && !plan.full) {
		const body = await client.request({ method: 'GET', path: watched.path });
		candidates = listOf(body, watched.kind === 'jobs' ? 'job' : 'submission')
			.filter(isRecord)
			.map((raw) => ({ stamp: stampOf(fieldOf(raw, watched.stampField)), raw }));
	}
	const wanted = candidates.filter((record) => preferred(record.raw));
	let best: { stamp: string | null; raw: IDataObject } | undefined;
	for (const record of wanted.length ? wanted : candidates)
		if (!best || (record.stamp ?? '') > (best.stamp ?? '')) best = record;
	return best?.raw;
}
