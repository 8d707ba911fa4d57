/**
 * The guard against a full job list cut short: a list that suddenly lacks a large share of the
 * known jobs is most likely cut short (Trio busy or changing something), not many jobs closing at
 * once, so it is refused rather than read as closures. Pure.
 */
import type { JobState } from './state';

/** Below this many known jobs the share rule does not apply: a few closures can be most of them. */
const MIN_JOBS_FOR_DROP_RULE = 10;
export const DEFAULT_MAX_DROP_PERCENT = 50;

/** A full list that lost too many known jobs at once: most likely cut short, not mass closure. */
export class ListShrankError extends Error {
	constructor(
		readonly missing: number,
		readonly known: number,
	) {
		super(`The full job list lacks ${missing} of the ${known} jobs known so far`);
	}
}

/**
 * Refuses a full list that lacks `share` of the known jobs or more (10 of 20 at 50%): most
 * likely cut short. Jobs already known to be left out of the list while Trio calls them open
 * do not count, or they would refuse every full list once there are enough of them.
 */
export function guardAgainstShortList(state: JobState, seen: Set<number>, share: number): void {
	if (share >= 1) return;
	const omitted = new Set(state.omitted);
	let known = 0;
	let missing = 0;
	for (const number of state.entries.numbers()) {
		if (omitted.has(number)) continue;
		known++;
		if (!seen.has(number)) missing++;
	}
	if (known >= MIN_JOBS_FOR_DROP_RULE && missing > 0 && missing >= share * known)
		throw new ListShrankError(missing, known);
}
