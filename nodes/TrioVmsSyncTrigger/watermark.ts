/**
 * How far each poll reaches and how far the state moves, as pure functions: which list to ask
 * for (planPoll), the watermark (only the service's own stamps, never beyond its clock), which
 * listed record is an older copy, and the state a diff leaves behind, the same way for jobs and
 * submissions.
 */
import { isOlder, laterStamp, readStamp, stampMs } from './records';
import type { SyncState } from './state';

/** A full list every 10 polls: at n8n's default of one poll a minute, counts are ≤ 10 min old. */
export const DEFAULT_FULL_LIST_EVERY = 10;
/** Cheap polls ask for changes after the watermark minus this. */
export const DEFAULT_OVERLAP_SECONDS = 300;

export interface PollPlan {
	/** Read the whole list (finds closures and open-position changes). */
	full: boolean;
	/** For a cheap poll: the `modifiedDate` to send (the service answers records modified strictly after it). */
	modifiedDate?: string;
	/** Why a full list is read: 'new state', 'no watermark' or 'every N checks'. */
	reason?: string;
}

export interface PlanOptions {
	fullListEvery: number;
	overlapSeconds: number;
}

export function planPoll(state: SyncState<unknown> | undefined, options: PlanOptions): PollPlan {
	if (!state) return { full: true, reason: 'new state' };
	if (state.watermark === null) return { full: true, reason: 'no watermark' };
	if (state.pollsSinceFullList + 1 >= Math.max(1, options.fullListEvery))
		return { full: true, reason: 'every N checks' };
	const from = Math.max(0, stampMs(state.watermark) - Math.max(0, options.overlapSeconds) * 1000);
	return { full: false, modifiedDate: new Date(from).toISOString() };
}

export interface DiffOptions {
	/** Whether the listing is the full list (no modifiedDate). */
	full: boolean;
	/** With no state yet: emit every current record as opened / created. */
	emitExisting: boolean;
	/**
	 * Stamps after this (the service's own time plus a margin, normal form) do not move the
	 * watermark: one record stamped 2099 would otherwise blind every cheap poll until then.
	 */
	notAfter?: string | null;
	/**
	 * Whether `notAfter` comes from n8n's clock because the service sent no Date header. Then a
	 * watermark that no stamp may move (n8n's clock far behind the service's) is set to the
	 * oldest stamp of the answer instead of staying unset.
	 */
	localClock?: boolean;
	/** A full list missing this share of the known jobs or more is refused (0 to 1). */
	maxDropShare?: number;
	/** Numbers of records listed but unreadable: they are listed, so not missing. */
	alsoListed?: Iterable<number>;
}

/** The watermark moves to `stamp` unless it lies beyond what the service itself calls now. */
export function nextWatermark(
	watermark: string | null,
	stamp: string | null,
	notAfter: string | null | undefined,
): string | null {
	if (stamp !== null && notAfter && stamp > notAfter) return watermark;
	return laterStamp(watermark, stamp);
}

/**
 * With no trustworthy clock (no Date header) and no stamp near n8n's, the oldest stamp of the
 * answer: lower than the ideal watermark, so nothing is missed (what is seen again is dropped),
 * and never an outlier beyond every other record.
 */
function fallbackWatermark(
	watermark: string | null,
	listing: Array<{ stamp: string | null }>,
	options: DiffOptions,
): string | null {
	if (watermark !== null || !options.localClock) return watermark;
	let oldest: string | null = null;
	for (const record of listing)
		if (record.stamp !== null && (oldest === null || record.stamp < oldest)) oldest = record.stamp;
	return oldest;
}

/**
 * Whether a listed record is an older copy of the remembered one (listed twice, or from a copy
 * of Trio's data lagging behind), to be passed over. A remembered stamp beyond the service's own
 * clock (the bound the watermark keeps to) proves nothing: one record stamped 2099, or by a Trio
 * machine whose clock runs fast, must not hide every later change of that job.
 */
export function isStaleCopy(
	stamp: string | null,
	remembered: string | null,
	notAfter: string | null | undefined,
): boolean {
	if (remembered !== null && notAfter && remembered > notAfter) return false;
	return isOlder(stamp, remembered);
}

/**
 * The state after a diff, the same way for jobs and submissions: the watermark (or its
 * fallback), the count of cheap polls, and what the diff does not touch carried over.
 */
export function nextState<Entry>(
	kind: SyncState<Entry>['kind'],
	state: SyncState<Entry> | undefined,
	moved: Pick<SyncState<Entry>, 'entries' | 'missing' | 'omitted'> & {
		watermark: string | null;
	},
	listing: Array<{ stamp: string | null }>,
	options: DiffOptions,
): SyncState<Entry> {
	return {
		kind,
		watermark: fallbackWatermark(moved.watermark, listing, options),
		pollsSinceFullList: options.full ? 0 : (state?.pollsSinceFullList ?? 0) + 1,
		checks: (state?.checks ?? 0) + 1,
		entries: moved.entries,
		missing: moved.missing,
		omitted: moved.omitted,
		// A pending baseline's moment only sorts the records of the check that takes the baseline.
		forgottenUpTo: state?.baselinePending ? null : (state?.forgottenUpTo ?? null),
		forgottenNumber: state?.forgottenNumber ?? null,
		reported: state?.reported ?? [],
	};
}

/** A record neither remembered nor newer than what was forgotten at the size limit is new. */
export function isForgotten(state: SyncState<unknown> | undefined, stamp: string | null): boolean {
	const floor = state?.forgottenUpTo ?? null;
	return floor !== null && stamp !== null && stamp <= floor;
}

/**
 * A pending baseline's moment is written on n8n's clock: the first check had no successful answer
 * from Trio to read a time from (a failed answer's Date may be a gateway's). The check that takes
 * the baseline reads it on Trio's clock, moved by how far Trio's clock (the Date of this check's
 * successful answer) is from n8n's; without a Date to believe, as it is.
 */
export function sinceOnServiceClock<State extends SyncState<unknown>>(
	state: State | undefined,
	serviceAheadMs: number | undefined,
): State | undefined {
	if (!state?.baselinePending || state.forgottenUpTo === null || !serviceAheadMs) return state;
	const moved = readStamp(new Date(stampMs(state.forgottenUpTo) + serviceAheadMs).toISOString());
	return moved ? { ...state, forgottenUpTo: moved } : state;
}
