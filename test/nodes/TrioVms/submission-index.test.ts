/** The per-execution index of submissions by (job, candidate) that Submission Create checks. */
import {
	readSubmissionList,
	SubmissionIndex,
} from '../../../nodes/TrioVms/actions/submission/submissionIndex';
import type { TrioClient } from '../../../nodes/shared/transport';

/** A client that answers every request with the given bodies in turn and counts the requests. */
function answering(...bodies: unknown[]): TrioClient & { calls: number } {
	const client = {
		calls: 0,
		async request() {
			return bodies[Math.min(client.calls++, bodies.length - 1)];
		},
	};
	return client as unknown as TrioClient & { calls: number };
}

describe('readSubmissionList', () => {
	it('reads field names in any letter case, and a list wrapped in an object', () => {
		expect(
			readSubmissionList([
				{ JobNumber: 1, CandidateNumber: 2 },
				{ jobNumber: '3', candidatenumber: 4 },
			]),
		).toHaveLength(2);
		expect(readSubmissionList({ value: [{ JOBNUMBER: 1, candidateNumber: 2 }] })).toHaveLength(1);
		expect(readSubmissionList([])).toEqual([]);
	});

	it.each([
		['a single object', { Number: 1, JobNumber: 1, CandidateNumber: 2 }],
		['text', 'Service Unavailable'],
		['nothing', undefined],
		['a number', 42],
	])('refuses %s, because then nobody knows whether the pair was submitted', (what, body) => {
		expect(() => readSubmissionList(body)).toThrow(
			`answered the list of submissions with ${what}, not a list`,
		);
	});

	it('refuses entries it cannot place, rather than skipping them', () => {
		expect(() =>
			readSubmissionList([
				{ JobNumber: 1, CandidateNumber: 2 },
				{ jobId: 1, candidateId: 2 },
			]),
		).toThrow('listed a submission without a JobNumber and CandidateNumber (entry 2)');
		expect(() => readSubmissionList([null])).toThrow('(entry 1)');
	});
});

describe('SubmissionIndex', () => {
	it('reads the list once, finds pairs newest first, and remembers what the execution created', async () => {
		const client = answering([
			{ Number: 7, JobNumber: 10, CandidateNumber: 20 },
			{ number: 9, jobNumber: 10, candidateNumber: 20 },
			{ Number: 8, JobNumber: 11, CandidateNumber: 20 },
		]);
		const index = new SubmissionIndex(client);
		expect((await index.find(10, 20, 0)).map((s) => s.Number ?? s.number)).toEqual([9, 7]);
		expect(await index.find(12, 20, 1)).toEqual([]);
		index.remember({ Number: 30, JobNumber: 12, CandidateNumber: 20 });
		expect((await index.find(12, 20, 2)).map((s) => s.Number)).toEqual([30]);
		expect(client.calls).toBe(1);
	});

	it('reads the list again when asked to load, e.g. after a failed create', async () => {
		const client = answering([], [{ Number: 5, JobNumber: 1, CandidateNumber: 2 }]);
		const index = new SubmissionIndex(client);
		expect(await index.find(1, 2, 0)).toEqual([]);
		await index.load(0);
		expect((await index.find(1, 2, 0)).map((s) => s.Number)).toEqual([5]);
		expect(client.calls).toBe(2);
	});
});
