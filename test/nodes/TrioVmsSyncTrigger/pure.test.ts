/**
 * The Sync Trigger's pure parts: reading answers, the compact state, the poll plan and the diffs.
 * No HTTP here; the other tests beside this file run the node in the engine against the sandbox.
 */
import {
	diffJobs,
	diffSubmissions,
	settleAbsentJobs,
	type JobLookup,
} from '../../../nodes/TrioVmsSyncTrigger/diff';
import { ListShrankError } from '../../../nodes/TrioVmsSyncTrigger/shortList';
import { planPoll } from '../../../nodes/TrioVmsSyncTrigger/watermark';
import {
	changedJob,
	jobItem,
	listFilter,
	passesJobFilters,
	submissionItem,
} from '../../../nodes/TrioVmsSyncTrigger/items';
import {
	displayStamp,
	readJobs,
	readStamp,
	readSubmissions,
} from '../../../nodes/TrioVmsSyncTrigger/records';
import { UnreadableAnswerError } from '../../../nodes/shared/listAnswer';
import {
	decodeJob,
	decodeStamp,
	decodeSubmission,
	emptyEntries,
	JOB_CODEC,
	encodeJob,
	encodeStamp,
	encodeSubmission,
	readState,
	storeState,
	writeState,
	type JobState,
} from '../../../nodes/TrioVmsSyncTrigger/state';
import { bound, RememberedRecords } from '../../../nodes/TrioVmsSyncTrigger/rememberedRecords';
import { job as listedJob } from '../../support/listed-jobs';

/** A listed open job (as listed-jobs gives it) with what the filters read: Texas, RN, two open. */
function job(number: number, modified: string | null, extra: Record<string, unknown> = {}) {
	return listedJob(number, {
		ModifiedDateUtc: modified,
		NumberOfCurrentOpenPositions: 2,
		StateAbbreviation: 'TX',
		State: 'Texas',
		Profession: 'RN',
		...extra,
	});
}

/** A listed submission as Trio sends it, with the fields the diff reads. */
function sub(n: number, status: string, code: number, modified: string) {
	return { Number: n, Status: status, StatusCode: code, ModifiedDateUTC: modified };
}

function jobs(...items: Array<ReturnType<typeof job>>) {
	return readJobs(items).records;
}

/** A full list, then every job it left out looked up with the same answer (Closed by default). */
function settled(
	state: JobState,
	listing: ReturnType<typeof jobs>,
	lookup: JobLookup = { outcome: 'closed' },
	options: { maxDropShare?: number } = {},
) {
	const diff = diffJobs(state, listing, { full: true, emitExisting: false, ...options });
	return settleAbsentJobs(diff, new Map(diff.absent.map(({ number }) => [number, lookup])));
}

/** The normal form of a stamp the test knows to be readable. */
const norm = (value: string) => readStamp(value) as string;

const T1 = '2026-03-01T10:00:00.100Z';
const T2 = '2026-03-01T10:00:00.200Z';
const T3 = '2026-03-01T10:05:00.000Z';

describe('timestamps', () => {
	it('puts every way of writing an instant into one comparable form', () => {
		expect(readStamp('2026-03-01T10:00:00Z')).toBe('2026-03-01T10:00:00.0000000Z');
		expect(readStamp('2026-03-01T10:00:00.1234567Z')).toBe('2026-03-01T10:00:00.1234567Z');
		expect(readStamp('2026-03-01T11:00:00.5+01:00')).toBe('2026-03-01T10:00:00.5000000Z');
		// No offset: UTC, as the service notes decide, whatever the machine's zone.
		expect(readStamp('2026-03-01T10:00:00')).toBe('2026-03-01T10:00:00.0000000Z');
		expect(readStamp('2026-03-01')).toBe('2026-03-01T00:00:00.0000000Z');
		expect(readStamp(null)).toBeNull();
		expect(readStamp('yesterday')).toBe(false);
		expect(readStamp(12)).toBe(false);
	});

	it('tells apart two changes in the same millisecond when the service gives ticks', () => {
		const a = readStamp('2026-03-01T10:00:00.1230001Z') as string;
		const b = readStamp('2026-03-01T10:00:00.1230002Z') as string;
		expect(a < b).toBe(true);
		expect(decodeStamp(encodeStamp(a))).toBe(a);
		expect(decodeStamp(encodeStamp(b))).toBe(b);
		expect([displayStamp(a), displayStamp(norm('2026-03-01T10:00:00Z'))]).toEqual([
			'2026-03-01T10:00:00.1230001Z',
			'2026-03-01T10:00:00.000Z',
		]);
	});
});

describe('reading list answers', () => {
	it('reads field names in any letter case and keeps every field', () => {
		const [record] = readJobs([
			{ number: 7, modifieddateutc: T1, jobStatus: 'OnHold', extra: { a: 1 } },
		]).records;
		expect(record).toMatchObject({ number: 7, status: 'OnHold', stamp: norm(T1) });
		expect(record.raw.extra).toEqual({ a: 1 });
		const [submission] = readSubmissions([
			{ Number: 90001, Status: 'Offered', StatusCode: 3, ModifiedDateUtc: T1 },
		]).records;
		expect(submission).toMatchObject({ number: 90001, statusCode: 3, status: 'Offered' });
	});

	it('fails loudly on an answer that is not a list at all', () => {
		expect(() => readJobs({ jobs: [] })).toThrow(UnreadableAnswerError);
	});

	it('sets aside each record it cannot read, in words, and reads the others', () => {
		const reading = readJobs([
			{ Title: 'no number' },
			job(1, '/Date(1767225600000)/'),
			job(2, T1),
			'x',
			job(3, T1, { Number: '3a' }),
		]);
		expect(reading.records.map((r) => r.number)).toEqual([2]);
		expect(reading.unreadable.map((r) => [r.number, r.problem])).toEqual([
			[null, expect.stringContaining('no number')],
			[1, expect.stringContaining('last-changed time of job 1 is not a date and time')],
			[null, expect.stringContaining('not a job')],
			[null, expect.stringContaining('"3a"')],
		]);
		// The same record sent again is recognised, so it is reported once.
		expect(readJobs([job(1, '/Date(1767225600000)/')]).unreadable[0].fingerprint).toBe(
			reading.unreadable[1].fingerprint,
		);
		expect(readSubmissions(['x']).unreadable).toHaveLength(1);
	});
});

/** A job remembered without a state or profession (the list gave none). */
const NO_PLACE = { stateAbbreviation: '', profession: '' };

describe('a list answer that is not a list', () => {
	it('says in words what came instead', () => {
		expect(() => readJobs({ jobs: [] })).toThrow(/a list was expected, it sent an object\)/);
		expect(() => readJobs('[]')).toThrow(/it sent a text\)/);
		expect(() => readSubmissions(null)).toThrow(/it sent nothing \(null\)\)/);
	});
});

describe('state', () => {
	it('round-trips entries in a compact string each', () => {
		const entry = { stamp: norm(T1), status: 'OnHold', openPositions: 3, ...NO_PLACE };
		expect(encodeJob(entry)).toMatch(/^[0-9a-z]+\|H\|3\|\|$/);
		expect(decodeJob(encodeJob(entry))).toEqual(entry);
		const unknown = { stamp: null, status: 'Pending | review', openPositions: null, ...NO_PLACE };
		expect(decodeJob(encodeJob(unknown))).toEqual({ ...unknown, status: 'Pending / review' });
		const submission = { stamp: norm(T2), statusCode: 2, status: 'Under Review' };
		expect(decodeSubmission(encodeSubmission(submission))).toEqual(submission);
	});

	it('keeps what the State and Profession filters read', () => {
		const entry = {
			stamp: norm(T1),
			status: 'Open',
			openPositions: 3,
			stateAbbreviation: 'TX',
			profession: 'RN',
		};
		expect(encodeJob(entry)).toMatch(/^[0-9a-z]+\|O\|3\|TX\|RN$/);
		expect(decodeJob(encodeJob(entry))).toEqual(entry);
		const named = { ...entry, stateAbbreviation: '', stateName: 'Texas', profession: '' };
		expect(decodeJob(encodeJob(named))).toEqual(named);
		const { next } = diffJobs(
			undefined,
			jobs(job(1, T1, { StateAbbreviation: '', State: 'Ohio' })),
			{
				full: true,
				emitExisting: false,
			},
		);
		expect(next.entries.get(1)).toMatchObject({ stateAbbreviation: '', stateName: 'Ohio' });
	});

	it('is versioned and kind-specific: anything else reads as new state', () => {
		const staticData = {};
		const { next } = diffJobs(undefined, jobs(job(1, T1)), { full: true, emitExisting: false });
		writeState(staticData, next);
		expect(readState(staticData, 'jobs')?.entries.get(1)).toEqual({
			stamp: norm(T1),
			status: 'Open',
			openPositions: 2,
			stateAbbreviation: 'TX',
			profession: 'RN',
		});
		expect(readState(staticData, 'submissions')).toBeUndefined();
		expect(readState({ sync: { ...storeState(next), v: 0 } }, 'jobs')).toBeUndefined();
		expect(readState({}, 'jobs')).toBeUndefined();
		expect(JSON.parse(JSON.stringify(staticData))).toEqual(staticData);
	});

	it('reads entries lazily: a copy changes apart, and only changed entries are re-encoded', () => {
		const stored = {
			'1': encodeJob({ stamp: norm(T1), status: 'Open', openPositions: 1, ...NO_PLACE }),
			'2': 'kept as stored',
		};
		const entries = new RememberedRecords(JOB_CODEC, stored);
		const copy = entries.copy();
		copy.set(3, { stamp: norm(T2), status: 'OnHold', openPositions: null, ...NO_PLACE });
		copy.delete(1);
		expect([entries.size, copy.size]).toEqual([2, 2]);
		expect([entries.has(1), copy.has(1), copy.has(3), entries.has(3)]).toEqual([
			true,
			false,
			true,
			false,
		]);
		expect(copy.get(3)?.status).toBe('OnHold');
		// Entry 2 was never read or changed: its stored string is copied as it is.
		expect(copy.toRecord().record).toEqual({
			'2': 'kept as stored',
			'3': expect.stringMatching(/\|H\|\|\|$/),
		});
		expect(entries.toRecord().record).toEqual(stored);
		expect([...copy.copy()].map(([number]) => number).sort()).toEqual([2, 3]);
	});

	it('is bounded: beyond the limit the least recently modified are forgotten', () => {
		const entries = new Map(
			[1, 2, 3].map((n) => [n, { stamp: norm(`2026-03-0${n}`), status: 'Open' }]),
		);
		expect([...bound(entries, 2).kept.keys()].sort()).toEqual([2, 3]);
		expect(bound(entries, 2).forgottenUpTo).toBe(norm('2026-03-01'));
		const lazy = new RememberedRecords(JOB_CODEC);
		for (const [number, entry] of entries)
			lazy.set(number, { ...entry, openPositions: null, ...NO_PLACE });
		expect(Object.keys(lazy.toRecord(2).record).sort()).toEqual(['2', '3']);
	});
});

describe('planPoll', () => {
	const options = { fullListEvery: 3, overlapSeconds: 300 };
	const state = (n: number, watermark: string | null = norm(T3)): JobState => ({
		kind: 'jobs',
		watermark,
		pollsSinceFullList: n,
		checks: 0,
		entries: emptyEntries('jobs'),
		missing: [],
		omitted: [],
		forgottenUpTo: null,
		forgottenNumber: null,
		reported: [],
	});

	it('reads the full list for a new state, without a watermark, and every N polls', () => {
		expect(planPoll(undefined, options)).toMatchObject({ full: true, reason: 'new state' });
		expect(planPoll(state(0, null), options)).toMatchObject({ full: true });
		expect(planPoll(state(2), options)).toMatchObject({ full: true, reason: 'every N checks' });
		expect(planPoll(state(0), { ...options, fullListEvery: 1 }).full).toBe(true);
	});

	it('asks cheap polls for changes after the service watermark minus the overlap', () => {
		// From the service's own stamp, never n8n's clock.
		expect(planPoll(state(0), options)).toEqual({
			full: false,
			modifiedDate: '2026-03-01T10:00:00.000Z',
		});
		expect(planPoll(state(1), { ...options, overlapSeconds: 0 }).modifiedDate).toBe(
			'2026-03-01T10:05:00.000Z',
		);
	});
});

describe('diffJobs', () => {
	const first = diffJobs(undefined, jobs(job(1, T1), job(2, T1)), {
		full: true,
		emitExisting: false,
	});

	it('records the first list without emitting, or emits it as opened when asked', () => {
		expect(first.changes).toEqual([]);
		expect(first.next.watermark).toBe(norm(T1));
		expect(first.next.entries.size).toBe(2);
		const emitted = diffJobs(undefined, jobs(job(1, T1)), { full: true, emitExisting: true });
		expect(emitted.changes.map((c) => c.change)).toEqual(['opened']);
	});

	it('does not emit a change seen before (overlap), and emits one stamped the same as another', () => {
		// Job 2 changed in the same millisecond as job 1, but was published after the last poll.
		const cheap = diffJobs(first.next, jobs(job(1, T1), job(2, T2), job(3, T1)), {
			full: false,
			emitExisting: false,
		});
		expect(cheap.changes.map((c) => [c.number, c.change])).toEqual([
			[2, 'updated'],
			[3, 'opened'],
		]);
		expect(cheap.changes[0].previous).toEqual({ ModifiedDateUtc: T1 });
		expect(cheap.next.pollsSinceFullList).toBe(1);
		expect(cheap.next.watermark).toBe(norm(T2));
		// A job first seen in a cheap poll has no count from a full list yet.
		expect(cheap.next.entries.get(3)?.openPositions).toBeNull();
	});

	it('finds closures and open-position changes only in the full list', () => {
		const listing = jobs(job(1, T1, { NumberOfCurrentOpenPositions: 0 }));
		const cheap = diffJobs(first.next, listing, { full: false, emitExisting: false });
		expect(cheap.changes).toEqual([]);
		expect(cheap.next.entries.get(1)?.openPositions).toBe(2);
		const full = diffJobs(cheap.next, listing, { full: true, emitExisting: false });
		expect(full.changes.map((c) => [c.number, c.change, c.previous])).toEqual([
			[1, 'openPositionsChanged', { NumberOfCurrentOpenPositions: 2 }],
		]);
		// Job 2 is left out: its own lookup decides, at this first miss.
		expect(full.absent.map((absence) => absence.number)).toEqual([2]);
		const again = settleAbsentJobs(full, new Map([[2, { outcome: 'closed' } as const]]));
		expect(again.changes.map((c) => [c.number, c.change])).toEqual([
			[1, 'openPositionsChanged'],
			[2, 'closed'],
		]);
		expect(again.next.entries.has(2)).toBe(false);
		expect(again.next.pollsSinceFullList).toBe(0);
	});

	it('reports a hold as updated with the previous status, and a reopened job as opened', () => {
		const held = diffJobs(first.next, jobs(job(1, T2, { JobStatus: 'OnHold' })), {
			full: false,
			emitExisting: false,
		});
		expect(held.changes[0]).toMatchObject({
			change: 'updated',
			previous: { ModifiedDateUtc: T1, JobStatus: 'Open' },
		});
		const closed = settled(first.next, jobs(job(1, T1)));
		const reopened = diffJobs(closed.next, jobs(job(2, T3)), { full: false, emitExisting: false });
		expect(reopened.changes.map((c) => [c.number, c.change])).toEqual([[2, 'opened']]);
	});

	it('never moves the watermark back', () => {
		const later = diffJobs(first.next, jobs(job(1, T3)), { full: false, emitExisting: false });
		const older = diffJobs(later.next, jobs(job(2, T2)), { full: false, emitExisting: false });
		expect(older.next.watermark).toBe(norm(T3));
	});
});

describe('diffSubmissions', () => {
	it('emits created for new submissions and statusChanged only when the status differs', () => {
		const read = (...items: unknown[]) => readSubmissions(items).records;
		const first = diffSubmissions(undefined, read(sub(1, 'Offered', 3, T1)), {
			full: true,
			emitExisting: false,
		});
		const next = diffSubmissions(
			first.next,
			read(sub(1, 'Accepted', 4, T2), sub(2, 'Submitted', 1, T2), sub(1, 'Accepted', 4, T2)),
			{ full: false, emitExisting: false },
		);
		expect(next.changes.map((c) => [c.number, c.change, c.previous])).toEqual([
			[1, 'statusChanged', { Status: 'Offered', StatusCode: 3, ModifiedDateUTC: T1 }],
			[2, 'created', undefined],
		]);
		const same = diffSubmissions(next.next, read(sub(2, 'Submitted', 1, T3)), {
			full: false,
			emitExisting: false,
		});
		expect(same.changes).toEqual([]);
		expect(same.next.watermark).toBe(norm(T3));
	});
});

describe('trust under hostile lists', () => {
	const many = Array.from({ length: 20 }, (_, index) => job(index + 1, T1));
	const known = diffJobs(undefined, jobs(...many), { full: true, emitExisting: false }).next;

	it('refuses a full list that lost more than the allowed share of the known jobs', () => {
		expect(() => diffJobs(known, [], { full: true, emitExisting: false })).toThrow(ListShrankError);
		expect(() =>
			diffJobs(known, jobs(...many.slice(0, 9)), { full: true, emitExisting: false }),
		).toThrow(/lacks 11 of the 20 jobs/);
		// Exactly half is refused too (10 of 20 at 50%); less than half passes, and any share
		// when the user allows it.
		expect(() =>
			diffJobs(known, jobs(...many.slice(0, 10)), { full: true, emitExisting: false }),
		).toThrow(/lacks 10 of the 20 jobs/);
		expect(
			diffJobs(known, jobs(...many.slice(0, 11)), { full: true, emitExisting: false }).absent,
		).toHaveLength(9);
		expect(() =>
			diffJobs(known, jobs(...many.slice(0, 16)), {
				full: true,
				emitExisting: false,
				maxDropShare: 0.2,
			}),
		).toThrow(/lacks 4 of the 20 jobs/);
		expect(() =>
			diffJobs(known, jobs(...many), { full: true, emitExisting: false, maxDropShare: 0 }),
		).not.toThrow();
		expect(() =>
			diffJobs(known, [], { full: true, emitExisting: false, maxDropShare: 1 }),
		).not.toThrow();
	});

	it('closes nothing on one list cut short: a job back in the next list was never closed', () => {
		for (const lookup of [{ outcome: 'open' }, { outcome: 'unanswered' }] as JobLookup[]) {
			const short = settled(known, jobs(...many.slice(0, 15)), lookup);
			expect(short.changes).toEqual([]);
			const whole = diffJobs(short.next, jobs(...many), { full: true, emitExisting: false });
			expect(whole.changes).toEqual([]);
			expect([whole.next.missing, whole.next.omitted, whole.absent]).toEqual([[], [], []]);
			expect(whole.next.entries.size).toBe(20);
		}
	});

	it('closes a job at the first full list that misses it when its lookup says Closed, 404 or 410', () => {
		const closedJob = { ...job(20, T2), JobStatus: 'Closed' };
		const diff = diffJobs(known, jobs(...many.slice(0, 17)), { full: true, emitExisting: false });
		const next = settleAbsentJobs(
			diff,
			new Map<number, JobLookup>([
				[18, { outcome: 'closed' }],
				[20, { outcome: 'closed', job: closedJob }],
			]),
		);
		expect(next.changes.map((c) => [c.number, c.change, c.job])).toEqual([
			[18, 'closed', undefined],
			[20, 'closed', closedJob],
		]);
		expect(next.changes[0].last).toMatchObject({ stamp: norm(T1), status: 'Open' });
		// Job 19 was not answered for: never closed on a failed lookup, asked again next time.
		expect([next.next.missing, next.next.omitted]).toEqual([[19], []]);
		expect([18, 19, 20].map((n) => next.next.entries.has(n))).toEqual([false, true, false]);
		const again = diffJobs(next.next, jobs(...many.slice(0, 17)), {
			full: true,
			emitExisting: false,
		});
		expect(again.absent.map((absence) => absence.number)).toEqual([19]);
		// A cheap poll keeps it missing; listing it again makes it known and listed.
		const cheap = diffJobs(next.next, jobs(job(1, T1)), { full: false, emitExisting: false });
		expect(cheap.next.missing).toEqual([19]);
		expect(
			diffJobs(next.next, jobs(job(19, T1)), { full: false, emitExisting: false }).next.missing,
		).toEqual([]);
	});

	it('does not count jobs the list leaves out but Trio calls open as missing: full lists go on', () => {
		// Five of twenty left out (25%), each still Open by its lookup.
		const first = settled(known, jobs(...many.slice(5)), { outcome: 'open' });
		expect(first.changes).toEqual([]);
		expect(first.next.omitted).toEqual([1, 2, 3, 4, 5]);
		expect(first.next.missing).toEqual([]);
		// Five more closed: ten of twenty left out, but only five of the fifteen still listed
		// before. Counting the first five would refuse every full list from now on.
		const second = settled(first.next, jobs(...many.slice(10), job(21, T3)), { outcome: 'open' });
		expect(second.changes.map((c) => [c.number, c.change])).toEqual([[21, 'opened']]);
		const third = diffJobs(second.next, jobs(...many.slice(10), job(21, T3)), {
			full: true,
			emitExisting: false,
		});
		// They are still asked about at each full list, so a later closure is found.
		expect(third.absent.map((absence) => absence.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
		const closedLater = settleAbsentJobs(third, new Map([[3, { outcome: 'closed' } as const]]));
		expect(closedLater.changes.map((c) => [c.number, c.change])).toEqual([[3, 'closed']]);
	});

	it('does not let a stamp beyond the service clock move the watermark', () => {
		const notAfter = norm('2026-03-02T00:00:00Z');
		const next = diffJobs(known, jobs(job(30, '2099-01-01T00:00:00Z'), job(31, T3)), {
			full: false,
			emitExisting: false,
			notAfter,
		});
		expect(next.changes.map((c) => c.number)).toEqual([30, 31]);
		expect(next.next.watermark).toBe(norm(T3));
	});

	it('does not take records forgotten at the size limit for new ones', () => {
		const stored = storeState({ ...known }, 5);
		const bounded = readState({ sync: stored as never }, 'jobs') as JobState;
		expect(bounded.entries.size).toBe(5);
		expect(bounded.forgottenUpTo).toBe(norm(T1));
		const full = diffJobs(bounded, jobs(...many, job(21, T3)), { full: true, emitExisting: false });
		expect(full.changes.map((c) => [c.number, c.change])).toEqual([[21, 'opened']]);
		const subs = diffSubmissions(
			{ ...bounded, kind: 'submissions', entries: emptyEntries('submissions') },
			readSubmissions([{ Number: 1, Status: 'Submitted', StatusCode: 1, ModifiedDateUTC: T1 }])
				.records,
			{ full: true, emitExisting: false },
		);
		expect(subs.changes).toEqual([]);
	});
});

describe('stale copies, clocks and forgotten records', () => {
	const known = diffJobs(undefined, jobs(job(1, T1), job(2, T1)), {
		full: true,
		emitExisting: false,
	}).next;

	it('does not take a record older than the remembered one for a change, nor go back to it', () => {
		// One answer lists job 1 twice, the new version first, then the old one.
		const twice = diffJobs(
			known,
			jobs(job(1, T2, { Title: 'new' }), job(1, T1, { Title: 'old' })),
			{
				full: false,
				emitExisting: false,
			},
		);
		expect(twice.changes.map((c) => [c.change, c.job?.Title])).toEqual([['updated', 'new']]);
		expect(twice.next.entries.get(1)?.stamp).toBe(norm(T2));
		// A replica lagging behind answers v1 after v2, then v2 again: nothing more.
		const lagging = diffJobs(twice.next, jobs(job(1, T1, { Title: 'old' })), {
			full: true,
			emitExisting: false,
		});
		expect(lagging.changes).toEqual([]);
		expect(lagging.next.entries.get(1)?.stamp).toBe(norm(T2));
		expect(
			diffJobs(lagging.next, jobs(job(1, T2)), { full: false, emitExisting: false }).changes,
		).toEqual([]);

		const sub = (status: string, code: number, modified: string) => ({
			Number: 7,
			Status: status,
			StatusCode: code,
			ModifiedDateUTC: modified,
		});
		const subs = diffSubmissions(undefined, readSubmissions([sub('Submitted', 1, T1)]).records, {
			full: true,
			emitExisting: false,
		});
		const offered = diffSubmissions(
			subs.next,
			readSubmissions([sub('Offered', 3, T2), sub('Submitted', 1, T1)]).records,
			{ full: false, emitExisting: false },
		);
		expect(offered.changes.map((c) => [c.change, c.submission.Status])).toEqual([
			['statusChanged', 'Offered'],
		]);
		const old = diffSubmissions(offered.next, readSubmissions([sub('Submitted', 1, T1)]).records, {
			full: true,
			emitExisting: false,
		});
		expect(old.changes).toEqual([]);
		expect(old.next.entries.get(7)?.status).toBe('Offered');
	});

	it("without a Date header, sets the watermark from the oldest stamp when none is near n8n's clock", () => {
		// n8n's clock two hours behind every stamp: none may move the watermark by n8n's clock.
		const notAfter = norm('2026-03-01T09:00:00Z');
		const listing = jobs(job(1, T3), job(2, T1), job(3, T2));
		const trusted = diffJobs(undefined, listing, { full: true, emitExisting: false, notAfter });
		expect(trusted.next.watermark).toBeNull();
		const local = diffJobs(undefined, listing, {
			full: true,
			emitExisting: false,
			notAfter,
			localClock: true,
		});
		expect(local.next.watermark).toBe(norm(T1));
		// A stamp near n8n's clock still wins, and an outlier beyond it still cannot.
		const mixed = diffJobs(undefined, jobs(job(1, '2026-03-01T08:00:00Z'), job(2, '2099-01-01')), {
			full: true,
			emitExisting: false,
			notAfter,
			localClock: true,
		});
		expect(mixed.next.watermark).toBe(norm('2026-03-01T08:00:00Z'));
		const subs = diffSubmissions(
			undefined,
			readSubmissions([{ Number: 1, Status: 'Submitted', StatusCode: 1, ModifiedDateUTC: T2 }])
				.records,
			{ full: true, emitExisting: false, notAfter, localClock: true },
		);
		expect(subs.next.watermark).toBe(norm(T2));
	});

	it('emits a submission forgotten at the size limit that changes again as statusChanged', () => {
		const listing = [1, 2, 3, 4, 5].map((n) => sub(n, 'Submitted', 1, `2026-03-01T10:0${n}:00Z`));
		const first = diffSubmissions(undefined, readSubmissions(listing).records, {
			full: true,
			emitExisting: false,
		});
		// Bounded to three: submissions 1 and 2 (the least recently modified) are forgotten.
		const bounded = readState({ sync: storeState(first.next, 3) as never }, 'submissions')!;
		expect([bounded.entries.has(1), bounded.entries.has(2), bounded.forgottenNumber]).toEqual([
			false,
			false,
			2,
		]);
		const next = diffSubmissions(
			bounded,
			readSubmissions([...listing.slice(1), sub(1, 'Offered', 3, T3), sub(6, 'Submitted', 1, T3)])
				.records,
			{ full: true, emitExisting: false },
		);
		expect(next.changes.map((c) => [c.number, c.change, c.previous])).toEqual([
			[1, 'statusChanged', undefined],
			[6, 'created', undefined],
		]);
		// The number floor is kept as the state is stored again.
		expect(storeState(next.next).fn).toBe(2);
	});
});

describe('items and filters', () => {
	const at = '2026-03-02T00:00:00.000Z';

	it('starts every item with the same metadata as the webhook trigger, then the simplified job', () => {
		const item = jobItem(
			{ change: 'updated', number: 1, job: job(1, T1), previous: { JobStatus: 'Open' } },
			at,
			true,
			0,
		);
		expect(Object.keys(item).slice(0, 3)).toEqual(['event', 'change', 'receivedAt']);
		expect(item).toMatchObject({
			event: 'Job Update',
			change: 'updated',
			receivedAt: at,
			Number: 1,
			Title: 'Job 1',
			previousJobStatus: 'Open',
		});
		for (const value of Object.values(item))
			if (value !== null) expect(typeof value).not.toBe('object');
		expect(Object.keys(item).length).toBeLessThanOrEqual(17);
		const raw = jobItem(
			{ change: 'updated', number: 1, job: job(1, T1), previous: {} },
			at,
			false,
			0,
		);
		expect(raw).toMatchObject({ State: 'Texas', previous: {} });
		const submission = submissionItem(
			{
				change: 'statusChanged',
				number: 9,
				submission: { Number: 9, Status: 'Offered', StatusCode: 3, Extra: { a: 1 } },
				previous: { Status: 'Submitted', StatusCode: 1 },
			},
			at,
			true,
			4,
		);
		expect(submission).toEqual({
			event: 'Submission Update',
			change: 'statusChanged',
			receivedAt: at,
			Number: 9,
			Status: 'Offered',
			previousStatus: 'Submitted',
			previousStatusCode: 1,
			changeKey: 'submission:9:statusChanged::3:Offered#4',
		});
	});

	it('keys a change on its own content, and adds the check only where Trio kept the stamp', () => {
		const updated = { Number: 3, JobStatus: 'OnHold', ModifiedDateUtc: T2 };
		const key = (change: Parameters<typeof jobItem>[0], check: number) =>
			jobItem(change, at, true, check).changeKey;
		// A stamp of its own: the same key whichever check finds it.
		const moved = { change: 'updated' as const, number: 3, job: updated };
		expect(key(moved, 4)).toBe(`job:3:updated:${norm(T2)}:OnHold`);
		expect(key(moved, 9)).toBe(key(moved, 4));
		// The stamp stood still: only the check tells it from an earlier change alike.
		const kept = { ...moved, stampStood: true as const };
		expect(key(kept, 4)).toBe(`job:3:updated:${norm(T2)}:OnHold#4`);
		// A closure: Trio's record of it has a stamp of its own, else the last one and the check.
		const last = { stamp: norm(T1), status: 'Open', openPositions: 1, ...NO_PLACE };
		const closedRecord = { Number: 3, JobStatus: 'Closed', ModifiedDateUtc: T2 };
		expect(key({ change: 'closed', number: 3, job: closedRecord, last }, 4)).toBe(
			`job:3:closed:${norm(T2)}`,
		);
		expect(key({ change: 'closed', number: 3, last }, 4)).toBe(`job:3:closed:${norm(T1)}#4`);
	});

	it('builds a closed item from the job Trio gave, or the last known one, in its letter case', () => {
		const item = jobItem(
			{
				change: 'closed',
				number: 5,
				job: { number: 5, jobStatus: 'Closed', StateAbbreviation: 'TX' },
				last: { stamp: norm(T1), status: 'OnHold', openPositions: 1, ...NO_PLACE },
			},
			at,
			false,
			7,
		);
		expect(item).toEqual({
			event: 'Job Update',
			change: 'closed',
			receivedAt: at,
			number: 5,
			jobStatus: 'Closed',
			StateAbbreviation: 'TX',
			previous: { JobStatus: 'OnHold' },
			changeKey: `job:5:closed:${norm(T1)}#7`,
		});
		const remembered = jobItem(
			{
				change: 'closed',
				number: 6,
				last: {
					stamp: null,
					status: 'Open',
					openPositions: null,
					stateAbbreviation: 'TX',
					profession: 'RN',
				},
			},
			at,
			true,
			7,
		);
		expect(remembered).toMatchObject({
			change: 'closed',
			Number: 6,
			JobStatus: 'Closed',
			StateAbbreviation: 'TX',
		});
	});

	it('judges a closure built from memory by the State and Profession it remembered', () => {
		const filters = { statuses: ['Closed'], states: ['CA'], professions: ['LPN'] };
		const remembered = {
			change: 'closed' as const,
			number: 4,
			last: {
				stamp: norm(T1),
				status: 'Open',
				openPositions: 1,
				stateAbbreviation: 'TX',
				profession: 'RN',
			},
		};
		expect(passesJobFilters(changedJob(remembered), filters)).toBe(false);
		const inCalifornia = {
			...remembered,
			last: { ...remembered.last, stateAbbreviation: 'CA', profession: 'LPN' },
		};
		expect(passesJobFilters(changedJob(inCalifornia), filters)).toBe(true);
	});

	it('filters by status, state (abbreviation or name) and profession', () => {
		const item = { ...job(1, T1), JobStatus: 'OnHold' };
		const none = { statuses: [], states: [], professions: [] };
		expect(passesJobFilters(item, none)).toBe(true);
		expect(passesJobFilters(item, { ...none, statuses: ['Open'] })).toBe(false);
		expect(passesJobFilters(item, { ...none, states: listFilter('ca, texas') })).toBe(true);
		expect(passesJobFilters(item, { ...none, states: ['CA'] })).toBe(false);
		expect(passesJobFilters(item, { ...none, states: listFilter(['TX']) })).toBe(true);
		expect(passesJobFilters(item, { ...none, professions: listFilter(' rn ,LPN') })).toBe(true);
		expect(passesJobFilters(item, { ...none, professions: ['CNA'] })).toBe(false);
	});
});
