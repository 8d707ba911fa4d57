/**
 * The Sync Trigger in n8n 2.x queue mode (PostgreSQL, Redis, main and one worker) under n8n's
 * durable scheduler with durable cursors: runs are claimed from the database and the node's
 * static data is committed together with the execution. Changes made between polls, and while
 * every process is down, come out once each. A file of its own (not a describe of
 * queue-mode.e2e.test.ts) so that, waiting on n8n's minute ticks, it can run beside another suite.
 *
 * Run `npm run build` first.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { RunningSandbox as Sandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import { packPackage } from '../../harness/pack';
import {
	changesOf,
	DURABLE_SCHEDULER,
	jobSyncWorkflow,
	syncItems,
} from '../../harness/sync-trigger-workflow';
import { logExcerpt, startQueueStack, type QueueStack } from '../../harness/queue';
import { startQueueServices, type QueueServices } from '../../harness/services';
import { createTrioCredential } from '../../harness/trio';
import { pollUntil } from '../../harness/wait';
import { callSandbox, listJobs, startTestSandbox } from '../support/sandbox-client';

const EXECUTION_TIMEOUT_MS = 120_000;

describeWithN8n(
	'2.x',
	'Sync Trigger in queue mode under the durable scheduler with durable cursors',
	() => {
		let sandbox: Sandbox;
		let services: QueueServices | undefined;
		let stack: QueueStack;
		const note = (text: string) => process.stderr.write(`[queue-mode sync] ${text}\n`);

		beforeAll(async () => {
			sandbox = await startTestSandbox({ jobs: 60 });
			services = await startQueueServices();
			stack = await startQueueStack({
				tarball: await packPackage(),
				...services,
				database: 'queue_sync',
				webhookProcesses: 0,
				workers: 1,
				// n8n's scheduler says at debug level only why a check started no execution (its
				// cursor commit refused, a result discarded): a failure below prints those lines.
				env: { ...DURABLE_SCHEDULER, N8N_LOG_LEVEL: 'debug' },
			});
			note(`stack ready: ${JSON.stringify(stack.timings)} s`);
		}, 300_000);

		afterAll(async () => {
			await stack?.stop();
			await services?.stop();
			await sandbox?.stop();
		});

		test(
			'changes made between polls are emitted once each, also across a restart of every process',
			async () => {
				const started = Date.now();
				const json = jobSyncWorkflow(
					'Job sync (queue, durable scheduler)',
					await createTrioCredential(stack.main, 'Trio sandbox (plain key)', sandbox, 'plain'),
				);
				json.nodes[0].parameters.pollTimes = { item: [{ mode: 'everyMinute' }] };
				const workflow = await stack.main.createWorkflow(json);
				const listRequests = () =>
					sandbox.requests().filter((each) => each.method === 'GET' && each.path === '/api/v3/Job');
				/** Every emitted change after the activation's, as `number:change`, with repeats. */
				const emitted = async (): Promise<string[]> => {
					const executions = await stack.main.listExecutions(workflow.id);
					const later = await Promise.all(
						executions
							.slice(1)
							.map(async (each) => syncItems(await stack.main.getExecution(each.id))),
					);
					return changesOf(later.flat());
				};
				const changesMade: string[] = [];
				const change = async (label: string, method: string, route: string, body: unknown) => {
					changesMade.push(`${new Date().toISOString().slice(11, 23)} ${label}`);
					return callSandbox<{ Number: number }>(sandbox, method, route, body);
				};
				/**
				 * What n8n did meanwhile, so that a failure says why and not only what; compact, since CI
				 * shows only the end of its output: every execution of any status (the editor's list; the
				 * public API leaves out new and running ones) with what it emitted, the times of
				 * the changes and of the list requests, and the main process's scheduler lines.
				 */
				const explain = async (missing: string[], timeoutMs: number): Promise<string> => {
					const executions = await stack.main.newestExecutions(workflow.id);
					const described = await Promise.all(
						[...executions]
							.sort((a, b) => Number(a.id) - Number(b.id))
							.map(async (each) => {
								const record = await stack.main.getExecution(each.id);
								const keys = changesOf(syncItems(record));
								const kinds: Record<string, number> = {};
								for (const key of keys) {
									const kind = key.split(':')[1];
									kinds[kind] = (kinds[kind] ?? 0) + 1;
								}
								const error = record.data?.resultData.error?.message;
								return `  #${each.id} ${each.status} ${String(record.startedAt ?? '').slice(11, 23)} ${keys.length} item(s) ${JSON.stringify(kinds)}${keys.length <= 6 ? ` ${keys.join(' ')}` : ''}${error ? ` error: ${error}` : ''}`;
							}),
					);
					const lists = listRequests().map(
						(each) => `${each.time.slice(11, 23)}${each.status === 200 ? '' : `(${each.status})`}`,
					);
					const logs = stack.logs();
					const dump = path.join(os.tmpdir(), `trio-queue-sync-${Date.now()}.log`);
					fs.writeFileSync(dump, logs);
					const scheduler = logExcerpt(
						logs.split('===== worker-1 =====')[0],
						(line) =>
							/scheduler|cursor|lease|discard|Poll |poll trigger|Received event/i.test(line) &&
							!/Provisioned|IsolatedVm/.test(line),
						25,
					)
						.split('\n')
						.map((line) => line.replace(/^\S+T(\S+)Z \| (\w+)\s*\| /, '$1 $2 ').slice(0, 220))
						.join('\n');
					return [
						`missing ${missing.join(', ')} after ${timeoutMs / 1000} s; whole logs in ${dump}`,
						`changes made: ${changesMade.join('; ')}`,
						`job list requests (${lists.length}): ${lists.join(' ')}`,
						`executions (${executions.length}, any status):`,
						...described,
						`main's scheduler lines (last 25):`,
						scheduler,
						`missing ${missing.join(', ')}`,
					].join('\n');
				};
				/** Waits until every wanted change has come out; fails naming the ones that did not. */
				const until = async (wanted: string[], timeoutMs: number): Promise<string[]> => {
					const keys = await pollUntil(
						emitted,
						(seen) => wanted.every((key) => seen.includes(key)),
						timeoutMs,
						2_000,
					);
					const missing = wanted.filter((key) => !keys.includes(key));
					if (missing.length) note(await explain(missing, timeoutMs));
					expect(missing).toEqual([]);
					return keys;
				};
				const listed = await listJobs(sandbox);
				const open = listed.filter((job) => job.JobStatus === 'Open').map((job) => job.Number);
				const expected: string[] = [];
				const rounds: string[] = [];

				await stack.main.activate(workflow.id);
				const [first] = await stack.main.waitForExecutions(workflow.id, 1, EXECUTION_TIMEOUT_MS);
				const opened = syncItems(await stack.main.getExecution(first.id));
				expect(opened.map((item) => item.Number).sort()).toEqual(
					listed.map((job) => job.Number).sort(),
				);

				// Between two polls: an edit, a closure and an open-position count.
				await change(`${open[0]} edited`, 'PATCH', `/_sandbox/jobs/${open[0]}`, {
					Title: 'Charge RN - ICU (queue)',
				});
				await change(`${open[1]} closed`, 'POST', `/_sandbox/jobs/${open[1]}/close`, {
					reason: 'Filled',
				});
				await change(`${open[2]} positions`, 'POST', `/_sandbox/jobs/${open[2]}/open-positions`, {
					count: 0,
				});
				expected.push(`${open[0]}:updated`, `${open[1]}:closed`, `${open[2]}:openPositionsChanged`);
				let keys = await until(expected, 3 * 60_000);
				rounds.push(`before the restart: ${keys.length} item(s)`);

				// While every process is down: an edit and a new job.
				const stopped = await stack.stopProcesses();
				await change(`${open[3]} edited`, 'PATCH', `/_sandbox/jobs/${open[3]}`, {
					Title: 'Night RN - ER (queue)',
				});
				const added = await change('new job', 'POST', '/_sandbox/jobs', {
					Title: 'Travel RN - Cath Lab',
				});
				expected.push(`${open[3]}:updated`, `${added.Number}:opened`);
				stack = await stack.startAgain();
				note(
					`restart: stops ${JSON.stringify(stopped)} s, start ${JSON.stringify(stack.timings)} s`,
				);
				keys = await until(expected, 4 * 60_000);
				rounds.push(`after the restart: ${keys.length} item(s)`);

				// After the restart: a closure.
				await change(`${open[4]} closed`, 'POST', `/_sandbox/jobs/${open[4]}/close`, {
					reason: 'Cancelled',
				});
				expected.push(`${open[4]}:closed`);
				keys = await until(expected, 3 * 60_000);
				// One more poll: a change made now comes out in it, and nothing before it comes out again.
				await change(`${open[5]} edited`, 'PATCH', `/_sandbox/jobs/${open[5]}`, {
					Title: 'Float RN - Med-Surg (queue)',
				});
				expected.push(`${open[5]}:updated`);
				keys = await until(expected, 3 * 60_000);
				const counts: Record<string, number> = {};
				for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
				const executions = await stack.main.newestExecutions(workflow.id);
				note(
					`${expected.length} changes; emitted per change ${JSON.stringify(counts)}; ${rounds.join('; ')}; ${executions.length} executions of any status (${executions.filter((each) => each.status !== 'success').length} not successful); ${listRequests().length} list requests; abandoned polls ${stack.logs().split('Poll exceeded its timeout and was abandoned').length - 1}; ${Math.round((Date.now() - started) / 1000)} s`,
				);
				expect(counts).toEqual(Object.fromEntries(expected.map((key) => [key, 1])));
				// None left behind where the public API cannot see it (new or running for ever).
				expect(executions.filter((each) => each.status !== 'success')).toEqual([]);
				expect(executions.length).toBeGreaterThanOrEqual(4);
				await stack.main.deactivate(workflow.id);
			},
			20 * 60_000,
		);
	},
);
