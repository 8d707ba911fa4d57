/** The second look after a create failed with an unknown outcome (pure, with the real errors). */
import type { INode } from 'n8n-workflow';

import { connectionError, mayStillBeRunning, serviceError } from '../../../nodes/shared/errors';
import { createThenLookAgain } from '../../../nodes/TrioVms/helpers/uncertainCreate';
import {
	rememberUncertainCreate,
	uncertainCreateRefusedUntil,
	UNCERTAIN_CREATE_MS,
} from '../../../nodes/shared/transport';

const node: INode = {
	id: '1',
	name: 'Trio VMS',
	type: 'trioVms',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const what = 'submission of candidate 5 to job 7';
const broken = (code: string) =>
	connectionError(node, { code, method: 'POST', path: '/Submission', outcomeUnknown: true });
const failing = (error: unknown) => async () => {
	throw error;
};

describe('createThenLookAgain', () => {
	it('returns what the create answered, without looking', async () => {
		let looked = 0;
		const outcome = await createThenLookAgain({
			what,
			create: async () => ({ Number: 1 }),
			lookAgain: async () => {
				looked++;
				return undefined;
			},
		});
		expect(outcome).toEqual({ action: 'created', record: { Number: 1 } });
		expect(looked).toBe(0);
	});

	it('returns the record found after a connection broke, with the failure', async () => {
		const outcome = await createThenLookAgain({
			what,
			create: failing(broken('ECONNRESET')),
			lookAgain: async () => ({ Number: 2 }),
		});
		expect(outcome).toEqual({
			action: 'createdDespiteError',
			record: { Number: 2 },
			error: 'Could not reach Trio VMS (ECONNRESET) for POST /Submission',
		});
	});

	// Issue 27 point 3 turned this test round: it asserted that nothing found after a 500 made
	// running again "safe". Trio may store the record and fail while answering, and its list may
	// lag behind the create, so a 500 leaves the outcome as unknown as a gateway's 504.
	it('never calls running again safe when nothing was found after a 500', async () => {
		const error = serviceError(node, {
			status: 500,
			body: '',
			method: 'POST',
			path: '/Submission',
			context: { creates: true },
		});
		expect(mayStillBeRunning(error)).toBe(true);
		const said = await createThenLookAgain({
			what,
			create: failing(error),
			lookAgain: async () => undefined,
		}).catch((failure: Error & { description?: string }) => failure);
		expect(said).toMatchObject({ message: expect.stringContaining('500') });
		const description = String((said as { description?: string }).description);
		expect(description).toMatch(
			/^A check right after the failure found no submission of candidate 5 to job 7 in Trio VMS yet, but that does not show it was not created/,
		);
		expect(description).toMatch(/Whether it was created is unknown/);
		expect(description).not.toMatch(/safe/);
	});

	// Issue 22 point 5: a reset after sending and a gateway's 502/504 are as unknown as a timeout
	// (this used to assert that a reset was not).
	it.each([
		['a timeout', () => broken('ECONNABORTED')],
		['a reset after sending', () => broken('ECONNRESET')],
		...[500, 502, 503, 504].map((status) => [
			`a ${status}`,
			() =>
				serviceError(node, {
					status,
					body: '',
					method: 'POST',
					path: '/Submission',
					context: { creates: true },
				}),
		]),
	] as Array<[string, () => Error]>)(
		'after %s, does not call nothing-found safe: Trio may still be working on it',
		async (_, makeError) => {
			const error = makeError();
			expect(mayStillBeRunning(error)).toBe(true);
			await expect(
				createThenLookAgain({ what, create: failing(error), lookAgain: async () => undefined }),
			).rejects.toMatchObject({
				description: expect.stringContaining(
					'found no submission of candidate 5 to job 7 in Trio VMS yet, but that does not show it was not created: Trio may still be working on the request',
				),
			});
		},
	);

	it('says the outcome is still unknown when the second look fails too', async () => {
		await expect(
			createThenLookAgain({
				what,
				create: failing(broken('ECONNRESET')),
				lookAgain: failing(new Error('Trio VMS answered 503 Service Unavailable')),
			}),
		).rejects.toMatchObject({
			description: expect.stringContaining(
				'Looking for the submission of candidate 5 to job 7 afterwards failed too (Trio VMS answered 503 Service Unavailable), so whether it was created is still unknown',
			),
		});
	});

	it('passes other failures on untouched, without looking', async () => {
		const refused = serviceError(node, {
			status: 400,
			body: { title: 'Bad' },
			method: 'POST',
			path: '/Submission',
			context: { creates: true },
		});
		const description = refused.description;
		let looked = 0;
		await expect(
			createThenLookAgain({
				what,
				create: failing(refused),
				lookAgain: async () => {
					looked++;
					return { Number: 3 };
				},
			}),
		).rejects.toBe(refused);
		expect(refused.description).toBe(description);
		expect(looked).toBe(0);
	});
});

describe('the memory of outcome-unknown creates', () => {
	it('refuses the same create for UNCERTAIN_CREATE_MS, then lets it through (clock injected)', () => {
		const key = `https://trio.example.com/api/v3\nabc\nsubmission ${Math.random()}`;
		expect(uncertainCreateRefusedUntil(key, 1_000)).toBeUndefined();
		const until = rememberUncertainCreate(key, 1_000);
		expect(until).toBe(1_000 + UNCERTAIN_CREATE_MS);
		expect(uncertainCreateRefusedUntil(key, until - 1)).toBe(until);
		expect(uncertainCreateRefusedUntil(key, until)).toBeUndefined();
	});
});
