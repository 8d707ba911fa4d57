/** Jobs as Trio's list gives them, for the Sync Trigger's tests against scripted answers. */

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
