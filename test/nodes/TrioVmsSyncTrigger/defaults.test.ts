/**
 * The Sync Trigger as the editor adds it (issue 26 points 6, 8 and 11): new jobs only by default,
 * the ten-field simplified job under Output, and a Fetch Test Event sample marked as one on a
 * quiet day. Inside n8n's engine, against the sandbox over HTTP.
 */
import type { INodeParameters } from 'n8n-workflow';

import { SIMPLIFIED_JOB_FIELDS } from '../../../nodes/shared/jobOutput';
import type { RunningSandbox } from '../../../sandbox';
import { trioCredentials } from '../../../harness/engine/engine';
import { pollTrigger, type PollTrigger } from '../../../harness/engine/poll';
import { emittedKeys, scenario, useSyncSandbox } from '../../support/sync-history';

let sandbox: RunningSandbox;
useSyncSandbox(50, (started) => (sandbox = started));

/** A node as the editor adds it: only the parameters a test sets, every other one its default. */
function newNode(parameters: INodeParameters = {}): PollTrigger {
	return pollTrigger({ parameters, credentials: trioCredentials(sandbox.url, sandbox.key) });
}

const META = ['event', 'change', 'receivedAt'];

describe('Sync Trigger, with the defaults the editor gives', () => {
	test('outputs new jobs only, each as ten job fields, and no updates', async () => {
		const current = newNode();
		await current.poll();
		const job = sandbox.store.listJobs()[0];
		await scenario(sandbox, 'PATCH', `/jobs/${job.Number}`, { Title: 'Changed title' });
		await scenario(sandbox, 'POST', '/jobs', { State: 'Texas', StateAbbreviation: 'TX' });

		const fresh = (await current.poll()).items;
		expect(fresh.map((item) => item.change)).toEqual(['opened']);
		expect(Object.keys(fresh[0])).toEqual([...META, ...SIMPLIFIED_JOB_FIELDS, 'changeKey']);
	});

	test('Output Raw gives every field Trio sends', async () => {
		const trigger = newNode({ output: 'raw', options: { emitExisting: true } });
		const { items } = await trigger.poll();
		expect(items.length).toBeGreaterThan(0);
		expect(items[0]).toHaveProperty('Certifications');
		expect(items[0]).toHaveProperty('Description');
	});

	test('Fetch Test Event on a quiet day marks its one existing job as an example', async () => {
		const trigger = newNode();
		await trigger.poll();
		const quiet = await trigger.poll({ mode: 'manual' });
		expect(quiet.items).toHaveLength(1);
		expect(quiet.items[0].sample).toMatch(/^Example only: there is no new change to show/);
		// Before the first check too.
		const first = await newNode().poll({ mode: 'manual' });
		expect(first.items[0].sample).toMatch(/^Example only/);

		// A real pending change is not marked.
		await scenario(sandbox, 'POST', '/jobs', { State: 'Texas', StateAbbreviation: 'TX' });
		const pending = await trigger.poll({ mode: 'manual' });
		expect(emittedKeys(pending.items)).toHaveLength(1);
		expect(pending.items[0]).not.toHaveProperty('sample');
	});
});
