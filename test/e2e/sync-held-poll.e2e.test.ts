/**
 * A Sync Trigger poll whose job list Trio holds past n8n's poll timeout, in real n8n 2.x under
 * the durable scheduler with durable cursors (n8n's default from 2.45) and a 10 s poll timeout:
 * the poll must end within n8n's budget (none abandoned), and the change made before it must come
 * out exactly once. Polls are a minute apart (n8n's shortest), so this takes about three minutes,
 * mostly waiting: a file of its own so that it can run beside another suite.
 *
 * Run `npm run build` first.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { RunningSandbox as Sandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import { startN8n } from '../../harness/n8n';
import { packPackage } from '../../harness/pack';
import {
	DURABLE_SCHEDULER,
	jobSyncWorkflow,
	syncItems,
	changesOf,
} from '../../harness/sync-trigger-workflow';
import { createTrioCredential } from '../../harness/trio';
import { waitForValue } from '../../harness/wait';
import { callSandbox, listJobs, startTestSandbox } from '../support/sandbox-client';

const line = '2.x';
const EXECUTION_TIMEOUT_MS = 60_000;

/**
 * The durable scheduler's poll timeout for the abandoned-poll test: 10 s, so n8n's budget is
 * 10 s less its margin (max(20 %, 5 s), at most half) = 5 s. The schema allows any whole number
 * of seconds from 1.
 */
const SHORT_POLL_TIMEOUT_S = 10;
/** The sandbox holds the job list this long for one poll: past the poll timeout. */
const HELD_LIST_MS = 15_000;
const ABANDONED = 'Poll exceeded its timeout and was abandoned';

describeWithN8n(
	line,
	'Trio VMS Sync Trigger in real n8n 2.x, durable scheduler, a poll held past its timeout',
	() => {
		let sandbox: Sandbox;
		beforeAll(async () => {
			sandbox = await startTestSandbox({ jobs: 200 });
		});
		afterAll(() => sandbox?.stop());

		test(`a job list held past the ${SHORT_POLL_TIMEOUT_S} s poll timeout for one poll: the poll ends within its budget instead of being abandoned, and the change made before it comes out exactly once`, async () => {
			const started = Date.now();
			const folder = fs.mkdtempSync(path.join(os.tmpdir(), `trio-sync-e2e-timeout-`));
			const short = await startN8n({
				line,
				tarball: await packPackage(),
				userFolder: folder,
				env: { ...DURABLE_SCHEDULER, N8N_SCHEDULER_POLL_TIMEOUT: String(SHORT_POLL_TIMEOUT_S) },
			});
			const listPolls = () =>
				sandbox.requests().filter((each) => each.method === 'GET' && each.path === '/api/v3/Job');
			try {
				const json = jobSyncWorkflow(
					'Trio job sync (short poll timeout)',
					await createTrioCredential(short, 'Trio sandbox', sandbox, 'plain'),
				);
				// n8n refuses polls more often than once a minute.
				json.nodes[0].parameters.pollTimes = { item: [{ mode: 'everyMinute' }] };
				const workflow = await short.createWorkflow(json);
				const activated = listPolls().length;
				await short.activate(workflow.id);
				const [first] = await short.waitForExecutions(workflow.id, 1, EXECUTION_TIMEOUT_MS);
				expect(syncItems(await short.getExecution(first.id)).length).toBeGreaterThan(0);
				await waitForValue(
					'the activation poll',
					listPolls,
					(list) => list.length > activated,
					60_000,
				);

				// The next poll's list is held past the poll timeout, and a change is made before it.
				const listed = await listJobs(sandbox);
				const changed = listed.find((job) => job.JobStatus === 'Open') ?? listed[0];
				const beforeHeld = listPolls().length;
				sandbox.setFaults({ endpoints: { 'GET /api/v3/Job': { latencyMs: HELD_LIST_MS } } });
				await callSandbox(sandbox, 'PATCH', `/_sandbox/jobs/${changed.Number}`, {
					Title: 'Charge RN - PACU (held poll)',
				});
				await waitForValue(
					'the held poll',
					listPolls,
					(list) => list.length > beforeHeld,
					60_000 + HELD_LIST_MS + 30_000,
				);
				sandbox.clearFaults();
				const heldEndedAt = listPolls().length;

				// The polls after it: the change once, then nothing more.
				const emittedLater = async () =>
					(
						await Promise.all(
							(await short.listExecutions(workflow.id))
								.slice(1)
								.map(async (each) => syncItems(await short.getExecution(each.id))),
						)
					).flat();
				const emitted = await waitForValue(
					'the change',
					emittedLater,
					(items) => items.length > 0,
					2 * 60_000 + 30_000,
				);
				// A second change, made once the first is out: when a later poll has emitted it, that
				// poll and every one before it has had its chance to emit the first change again.
				const marker = listed.find((job) => job.Number !== changed.Number) ?? listed[1];
				await callSandbox(sandbox, 'PATCH', `/_sandbox/jobs/${marker.Number}`, {
					Title: 'Charge RN - PACU (marker)',
				});
				const later = await waitForValue(
					'the marker change',
					emittedLater,
					(items) => items.some((item) => item.Number === marker.Number),
					2 * 60_000 + 30_000,
				);
				const executions = await short.listExecutions(workflow.id);
				const abandoned = short.logs().split(ABANDONED).length - 1;
				const failed = executions.filter((each) => each.status === 'error').length;
				process.stderr.write(
					`[sync-trigger] short poll timeout: 1 change, emitted ${later.filter((item) => item.Number === changed.Number).length} time(s); ${abandoned} poll(s) abandoned; ${failed} failed execution(s); ${listPolls().length - activated} list requests; polls after the held one: ${listPolls().length - heldEndedAt}; ${Math.round((Date.now() - started) / 1000)} s\n`,
				);
				expect(changesOf(emitted)).toEqual([`${changed.Number}:updated`]);
				expect(changesOf(later)).toEqual(
					[`${changed.Number}:updated`, `${marker.Number}:updated`].sort(),
				);
				// Within its budget the poll gave up on the list itself, before n8n's timeout.
				expect(abandoned).toBe(0);
				await short.deactivate(workflow.id);
			} finally {
				sandbox.clearFaults();
				await short.stop();
				fs.rmSync(folder, { recursive: true, force: true });
			}
		}, 600_000);
	},
);
