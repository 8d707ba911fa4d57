/**
 * The example workflows users import (examples/*.json), run in a real n8n 2.x with the packed
 * package installed as users install it, against the local Trio sandbox.
 *
 * The files are read as users get them; only this test changes its in-memory copies:
 * - the Trio credential's placeholder id becomes the id of the test's "Trio VMS account";
 * - Slack nodes become HTTP Request nodes that post the same channel and text to a local
 *   receiver (Slack cannot be reached from here, and its base URL is fixed);
 * - the Send Email node gets a credential for a local SMTP server (the node itself is kept:
 *   the test reads the approval links from the e-mail and clicks one);
 * - Manual and Schedule triggers become Webhook triggers, so the test can start a run;
 * - the spreadsheet example's Folder points into the test's ~/.n8n-files.
 *
 * n8n runs with HOME set to a temporary folder (so n8n 2.x's default file restriction,
 * ~/.n8n-files, applies as it does for users) and in a time zone far from UTC, so any
 * accidental time-zone conversion of a date would show. One n8n for the whole file.
 *
 * Example 01's test also proves the README's quick start 1 (fixtures/quick-start-1.ts), which
 * makes the same claim: both workflows are published together and the same first minute tick
 * after Publish proves both.
 *
 * Run `npm run build` first.
 */
import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { sleep } from 'n8n-workflow';

import type { RunningSandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import {
	nodeItems,
	type ExecutionRecord,
	type N8nInstance,
	type WorkflowRecord,
} from '../../harness/n8n';
import { curlCommands, readRepoFile, section, type ShellRequest } from '../docs/markdown';
import { REPO_ROOT } from '../../harness/pack';
import { postToWebhook, runThroughWebhook } from '../../harness/run-workflow';
import type { CredentialRef } from '../../harness/trio';
import {
	linksIn,
	startSmtpReceiver,
	type HttpReceiver,
	type ReceivedMail,
	type SmtpReceiver,
} from './fixtures/receivers';
import { expectSuccess } from './fixtures/expect-success';
import {
	expectQuickStart1Posted,
	quickStart1Statements,
	quickStart1Workflow,
} from './fixtures/quick-start-1';
import { startReadmeN8n, type ReadmeN8n } from './fixtures/readme-n8n';
import { editorNodes, executed, PACKAGE, type NodeCatalogue } from './fixtures/readme-text';
import { parseCsv } from '../support/csv';

const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
/** examples/README.md: its sandbox commands are run as written, its sample messages compared. */
const EXAMPLES_README = readRepoFile('examples/README.md');
/** The sandbox address the README's commands use (`npm run sandbox`). */
const README_SANDBOX = 'http://127.0.0.1:4010';
const SAMPLE_DATA_DIR = path.join(EXAMPLES_DIR, 'sample-data');
const EXAMPLE_FILES = [
	'01-new-jobs-to-slack.json',
	'02-spreadsheet-to-submissions.json',
	'03-offer-approval-then-accept.json',
	'04-nightly-job-sync-to-data-table.json',
	'05-per-diem-shifts-to-slack.json',
];
const TRIO_CREDENTIAL_TYPE = 'trioVmsApi';
const CREDENTIAL_NAME = 'Trio VMS account';
const CREDENTIAL_PLACEHOLDER_ID = 'REPLACE-WITH-YOUR-TRIO-CREDENTIAL';
/** The spreadsheet example's Folder as shipped: n8n's Docker image's file folder. */
const SHIPPED_FILES_FOLDER = '/home/node/.n8n-files/trio-submissions';
const BROWSER_USER_AGENT =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const RUN_TIMEOUT_MS = 90_000;
/** A poll trigger runs once a minute at the most: a wait for the next poll may take that long. */
const POLL_WAIT_MS = 150_000;

// ------------------------------------------------------------------ example files

interface ExampleNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string | null; name: string }>;
	webhookId?: string;
	[key: string]: unknown;
}

interface Example {
	name: string;
	nodes: ExampleNode[];
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
}

type Json = Record<string, unknown>;

function readExample(file: string): Example {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as Example;
}

function nodeNamed(example: Example, name: string): ExampleNode {
	const node = example.nodes.find((candidate) => candidate.name === name);
	if (!node) throw new Error(`"${example.name}" has no node "${name}"`);
	return node;
}

/** A copy of the example with every Trio node on the test's credential. */
function forTest(file: string, credential: { id: string; name: string }): Example {
	const example = readExample(file);
	for (const node of example.nodes) {
		if (node.credentials?.[TRIO_CREDENTIAL_TYPE])
			node.credentials[TRIO_CREDENTIAL_TYPE] = { ...credential };
	}
	return example;
}

/** Slack "Send message" -> HTTP Request posting `{ channel, text }` (the same expressions) to `url`. */
function swapSlackForReceiver(example: Example, url: string): void {
	for (const node of example.nodes.filter(
		(candidate) => candidate.type === 'n8n-nodes-base.slack',
	)) {
		const channel = (node.parameters.channelId as { value: string }).value;
		node.type = 'n8n-nodes-base.httpRequest';
		node.typeVersion = 4.2;
		delete node.webhookId;
		delete node.credentials;
		node.parameters = {
			method: 'POST',
			url,
			sendBody: true,
			bodyParameters: {
				parameters: [
					{ name: 'channel', value: channel },
					{ name: 'text', value: node.parameters.text },
				],
			},
			options: {},
		};
	}
}

/** Replaces a Manual or Schedule trigger by a Webhook trigger of the same name; returns its path. */
function swapTriggerForWebhook(example: Example, name: string): string {
	const node = nodeNamed(example, name);
	const webhookPath = `example-${randomUUID()}`;
	node.type = 'n8n-nodes-base.webhook';
	node.typeVersion = 2;
	node.webhookId = randomUUID();
	node.parameters = {
		httpMethod: 'POST',
		path: webhookPath,
		responseMode: 'onReceived',
		options: {},
	};
	return webhookPath;
}

function assignments(node: ExampleNode): Array<{ name: string; value: unknown }> {
	return (node.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> })
		.assignments;
}

function assignment(
	example: Example,
	nodeName: string,
	field: string,
): { name: string; value: unknown } {
	const found = assignments(nodeNamed(example, nodeName)).find((entry) => entry.name === field);
	if (!found) throw new Error(`"${nodeName}" sets no field "${field}"`);
	return found;
}

/** The sandbox commands of an examples/README.md section, in order. */
function readmeCommands(title: string): ShellRequest[] {
	const commands = curlCommands(section(EXAMPLES_README, title));
	expect(commands.length).toBeGreaterThan(0);
	return commands;
}

/**
 * The sample message a section shows (its block quote), as Slack receives it: Markdown bold
 * becomes Slack's, the emoji its name; `numbers` replaces the sample's record numbers.
 */
function readmeMessage(title: string, numbers: Array<[string, number]>): string {
	let text = section(EXAMPLES_README, title)
		.split('\n')
		.filter((line) => line.startsWith('> '))
		.map((line) => line.slice(2))
		.join('\n')
		.replace(/\*\*([^*]+)\*\*/g, '*$1*')
		.replace('🏥', ':hospital:')
		.replace('📅', ':calendar:');
	for (const [sample, actual] of numbers) {
		expect(text).toContain(sample);
		text = text.replace(sample, String(actual));
	}
	return text;
}

function sha256(file: string): string {
	return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

// ------------------------------------------------------------------ the suite

describeWithN8n(
	'2.x',
	'example workflows (examples/*.json) in real n8n 2.x against the Trio sandbox',
	() => {
		let setup: ReadmeN8n | undefined;
		let sandbox: RunningSandbox;
		let n8n: N8nInstance;
		let receiver: HttpReceiver;
		let smtp: SmtpReceiver;
		let home: string;
		let filesFolder: string;
		let credential: CredentialRef;
		let smtpCredential: { id: string; name: string };
		let created: WorkflowRecord[];
		let scenario: ReadmeN8n['scenario'];
		let trio: ReadmeN8n['trio'];
		let waitFor: ReadmeN8n['waitFor'];

		beforeAll(async () => {
			smtp = await startSmtpReceiver();
			setup = await startReadmeN8n({
				name: 'examples',
				credentialName: CREDENTIAL_NAME,
				filesFolder: 'trio-submissions',
				fill: (folder) => fs.cpSync(SAMPLE_DATA_DIR, folder, { recursive: true }),
			});
			({ sandbox, n8n, receiver, home, filesFolder, credential, created, scenario, trio, waitFor } =
				setup);
			const mail = await n8n.createCredential('Test SMTP', 'smtp', {
				user: '',
				password: '',
				host: '127.0.0.1',
				port: smtp.port,
				secure: false,
				disableStartTls: true,
			});
			smtpCredential = { id: mail.id, name: mail.name };
		});

		afterAll(async () => {
			await setup?.stop();
			await smtp?.close();
			// Quick start 1's share of the docs test's report (docs.e2e prints quick start 2's).
			process.stdout.write(
				`\nDocs test, quick start 1: ${executed.statements.length} statements asserted, ${executed.expressions.length} expressions executed\n`,
			);
		});

		// -------------------------------------------------------------- helpers that need the instance

		/** Runs one of the README's sandbox commands as written, at this test's sandbox. */
		async function runReadmeCommand<T = Json>(command: ShellRequest): Promise<T> {
			expect(command.url.startsWith(README_SANDBOX)).toBe(true);
			const response = await fetch(command.url.replace(README_SANDBOX, sandbox.url), {
				method: command.method,
				headers: command.headers,
				body: command.body,
				signal: AbortSignal.timeout(30_000),
			});
			const text = await response.text();
			if (!response.ok) throw new Error(`${command.command} -> ${response.status}: ${text}`);
			try {
				return JSON.parse(text) as T;
			} catch {
				return text as T;
			}
		}

		async function createWorkflow(example: Example): Promise<WorkflowRecord> {
			const record = await n8n.createWorkflow({
				...example,
				name: `${example.name} (test ${created.length + 1})`,
			});
			created.push(record);
			return record;
		}

		/** The trigger's registrations at the sandbox (its URLs start with the node's production URL). */
		async function registrationsOf(
			triggerNode: ExampleNode,
		): Promise<Array<{ Url: string; Events: string[]; IsActive: boolean }>> {
			const prefix = n8n.productionWebhookUrl(triggerNode.webhookId ?? '', 'webhook');
			const all =
				await trio<Array<{ Url: string; Events: string[]; IsActive: boolean }>>('/Webhooks');
			return all.filter((registration) => registration.Url.startsWith(prefix));
		}

		/**
		 * Activates (publishes) or deactivates a Trio-triggered workflow and waits until its
		 * registration at the sandbox is on, or off (n8n 2.x publishes asynchronously: the trigger
		 * registers a moment after the call returns).
		 */
		async function switchTrigger(
			workflow: WorkflowRecord,
			triggerNode: ExampleNode,
			on: boolean,
		): Promise<void> {
			await (on ? n8n.activate(workflow.id) : n8n.deactivate(workflow.id));
			await waitFor(
				`the trigger of "${workflow.name}" to switch its registration ${on ? 'on' : 'off'}`,
				async () => {
					const registrations = await registrationsOf(triggerNode);
					const switched = on
						? registrations.some((registration) => registration.IsActive)
						: registrations.every((registration) => !registration.IsActive);
					return switched ? true : undefined;
				},
			);
			if (!on) await sandbox.idle();
		}

		/** Starts one run of a webhook-started copy and returns its execution with run data. */
		async function runOnce(
			workflow: WorkflowRecord,
			webhookPath: string,
		): Promise<ExecutionRecord> {
			const before = (await n8n.listExecutions(workflow.id)).length;
			const response = await postToWebhook(n8n.productionWebhookUrl('', webhookPath), {});
			expect(response.status).toBe(200);
			await response.arrayBuffer();
			const executions = await n8n.waitForExecutions(workflow.id, before + 1, RUN_TIMEOUT_MS);
			return n8n.getExecution(executions[executions.length - 1].id);
		}

		/** Waits until the workflow has `count` executions that all succeeded; returns them, oldest first. */
		async function successfulExecutions(
			workflow: WorkflowRecord,
			count: number,
		): Promise<ExecutionRecord[]> {
			const list = await waitFor(
				`${count} successful executions of "${workflow.name}"`,
				async () => {
					const executions = await n8n.listExecutions(workflow.id);
					if (
						executions.some(
							(execution) => execution.status === 'error' || execution.status === 'crashed',
						)
					)
						return executions;
					return executions.length >= count &&
						executions.every((execution) => execution.status === 'success')
						? executions
						: undefined;
				},
			);
			const full = await Promise.all(list.map((execution) => n8n.getExecution(execution.id)));
			for (const execution of full) expectSuccess(execution);
			expect(full).toHaveLength(count);
			return full;
		}

		// -------------------------------------------------------------- the files as users import them

		test('the five examples import cleanly, use node versions n8n 2.x has, hold no secrets and link "Trio VMS account" by name', async () => {
			expect(
				fs
					.readdirSync(EXAMPLES_DIR)
					.filter((file) => file.endsWith('.json'))
					.sort(),
			).toEqual(EXAMPLE_FILES);

			// The node types the editor loads (community packages included), as the logged-in owner.
			// `rest` prefixes /rest; the URL parser folds the `..` back to /types/nodes.json.
			const types = await n8n.rest<Array<{ name: string; version: number | number[] }>>(
				'GET',
				'/../types/nodes.json',
			);
			const versions = new Map<string, Set<number>>();
			for (const type of types) {
				const set = versions.get(type.name) ?? new Set<number>();
				for (const version of [type.version].flat()) set.add(version);
				versions.set(type.name, set);
			}

			for (const file of EXAMPLE_FILES) {
				const text = fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8');
				expect(text).not.toMatch(
					/sandbox-(admin|agency)-key|"apiKey"|"password"|127\.0\.0\.1|localhost/i,
				);
				const example = JSON.parse(text) as Example;
				expect(example.name).toMatch(/^Trio VMS: /);
				expect(
					example.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote').length,
				).toBeGreaterThanOrEqual(3);
				expect(new Set(example.nodes.map((node) => node.name)).size).toBe(example.nodes.length);
				for (const node of example.nodes) {
					expect({
						file,
						node: node.name,
						type: node.type,
						version: node.typeVersion,
						known: versions.get(node.type)?.has(node.typeVersion) ?? false,
					}).toEqual({
						file,
						node: node.name,
						type: node.type,
						version: node.typeVersion,
						known: true,
					});
					if (node.type.startsWith(`${PACKAGE}.`)) {
						expect(node.credentials).toEqual({
							[TRIO_CREDENTIAL_TYPE]: { id: CREDENTIAL_PLACEHOLDER_ID, name: CREDENTIAL_NAME },
						});
					} else {
						// Slack and e-mail credentials are the user's to pick.
						expect(node.credentials).toBeUndefined();
					}
				}

				// Imported exactly as the file is: n8n replaces the unknown placeholder id with the
				// user's credential of the same name and type.
				const record = await n8n.createWorkflow({ ...example });
				const stored = await n8n.api<{ nodes: ExampleNode[] }>('GET', `/workflows/${record.id}`);
				for (const node of stored.nodes.filter((each) => each.type.startsWith(`${PACKAGE}.`))) {
					expect(node.credentials?.[TRIO_CREDENTIAL_TYPE]).toEqual(credential);
				}
				await n8n.deleteWorkflow(record.id);
			}
		});

		// -------------------------------------------------------------- 1. job -> Slack

		test('01 and quick start 1, on one tick: each new job gives one Slack message, built from the simplified job; an update or a closure posts nothing', async () => {
			const example = forTest('01-new-jobs-to-slack.json', credential);
			const trigger = nodeNamed(example, 'When a new job is posted');
			expect(trigger.type).toBe(`${PACKAGE}.trioVmsSyncTrigger`);
			expect(trigger.parameters).toEqual(
				expect.objectContaining({ watch: 'jobs', jobChanges: ['opened'] }),
			);
			expect(nodeNamed(example, 'Post in Slack').type).toBe('n8n-nodes-base.slack');
			swapSlackForReceiver(example, `${receiver.url}/slack-01`);
			// Every minute instead of every 5 minutes, the shortest n8n allows for a poll trigger.
			trigger.parameters.pollTimes = { item: [{ mode: 'everyMinute' }] };
			// The README's quick start 1, built from its text with the nodes n8n's editor adds today
			// (fixtures/quick-start-1.ts): the same claim, proven on the same tick.
			const catalogue = await n8n.rest<NodeCatalogue>('GET', '/../types/nodes.json');
			const quickStart = quickStart1Workflow(
				editorNodes(catalogue, credential),
				`${receiver.url}/quick-start-1`,
			);
			const jobLists = () =>
				sandbox.requests().filter((request) => request.route === 'GET /api/v3/Job').length;
			// Two jobs of this test's own, open before Publish (the other tests' jobs stay as they are).
			const openBefore = await Promise.all(
				['Before Publish RN - Med-Surg', 'Before Publish RN - PACU'].map((Title) =>
					scenario<{ Number: number }>('POST', '/jobs', { Title }),
				),
			);
			const workflow = await createWorkflow(example);
			const quickStart1 = await n8n.createWorkflow(quickStart);
			created.push(quickStart1);
			// Published one after the other, each one's check at publishing seen before the next.
			// n8n 2.41.1 ticks each workflow at a second of the minute it draws at random, so no
			// moment is safer than another: what remains is the first workflow's tick falling in the
			// second or two of the second one's wait, where it would pass for that one's check.
			for (const published of [workflow, quickStart1]) {
				sandbox.clearRequests();
				await n8n.activate(published.id);
				// The check at publishing remembers the jobs already open.
				await waitFor(
					`the check at publishing of "${published.name}"`,
					async () => (jobLists() >= 1 ? true : undefined),
					POLL_WAIT_MS,
				);
			}
			// Quick start 1's step 4, all of it proven by the first check after Publish.
			quickStart1Statements();
			// Before the next check: an open job is edited and another closed, and the README's
			// command opens a new one.
			await scenario('PATCH', `/jobs/${openBefore[0].Number}`, { Title: 'Travel RN - ICU (Days)' });
			await scenario('POST', `/jobs/${openBefore[1].Number}/close`, {
				reason: 'Filled by another agency',
			});
			// The job the README's "Try it against the sandbox" command opens, as written.
			const [openJob] = readmeCommands('1. New jobs');
			const job = await runReadmeCommand<{ Number: number }>(openJob);
			const [opened] = await receiver.waitFor('/slack-01', 1, POLL_WAIT_MS);
			const [posted] = await receiver.waitFor('/quick-start-1', 1, POLL_WAIT_MS);
			// The README's sample message is what Slack receives.
			expect((opened.body as { text: string }).text).toBe(
				readmeMessage('1. New jobs', [['100301', job.Number]]),
			);
			expect(opened.body).toEqual({
				channel: '#open-jobs',
				text: [
					`:hospital: *New job*: Travel RN - ICU (Nights) (job ${job.Number})`,
					'*Facility:* Saint Alphonsus Medical Center',
					'*Location:* Boise, ID',
					// Midnight UTC, shown as the date Trio sends although n8n runs at UTC+14.
					// Written as quick start 1 writes it.
					'*Start date:* 15 Feb 2027',
					'*Shift:* 3x12 Nights 19:00-07:30',
					'*Rate:* $2,850/wk',
					'*Open positions:* 2',
				].join('\n'),
			});

			// The check that posted it output the new job alone: the edit and the closure it also
			// saw post nothing. Every execution is counted in (a check with nothing to output
			// starts none). A message leaves before n8n has saved the execution that sent it.
			await successfulExecutions(workflow, 1);
			await n8n.waitForExecutions(quickStart1.id, 1, POLL_WAIT_MS);
			await n8n.deactivate(workflow.id);
			await n8n.deactivate(quickStart1.id);
			const outputs = await Promise.all(
				(await n8n.listExecutions(workflow.id)).map((each) =>
					n8n
						.getExecution(each.id)
						.then((execution) =>
							nodeItems(execution, 'When a new job is posted').map((item) => item.Number),
						),
				),
			);
			// Quick start 1's check output the same job alone, its message as the README shows it.
			await expectQuickStart1Posted(
				n8n,
				quickStart1.id,
				job.Number,
				(posted.body as { text: string }).text,
			);
			await sandbox.idle();
			expect(outputs).toEqual([[job.Number]]);
			expect(receiver.received.filter((request) => request.path === '/slack-01')).toHaveLength(1);
			expect(receiver.received.filter((request) => request.path === '/quick-start-1')).toHaveLength(
				1,
			);
		}, 480_000);

		// -------------------------------------------------------------- 2. spreadsheet -> submissions

		test('02: CSV rows become submissions once each; every row lands in the results file with its outcome, and a rerun of that file submits only what was fixed', async () => {
			const settingsNode = 'Settings: where the files are';
			const shipped = readExample('02-spreadsheet-to-submissions.json');
			expect(assignment(shipped, settingsNode, 'Folder').value).toBe(SHIPPED_FILES_FOLDER);
			expect(assignment(shipped, settingsNode, 'Candidates File').value).toBe('candidates.csv');
			// Row With Result, n8n's default On Error: a bad row is an outcome, not a stop.
			expect(nodeNamed(shipped, 'Submit to the job').onError).toBeUndefined();
			// One Trio node and no expression in it: the row's columns are mapped by name.
			const submit = nodeNamed(shipped, 'Submit to the job');
			expect(submit.parameters).toMatchObject({
				valuesFrom: 'columns',
				columns: { mappingMode: 'autoMapInputData' },
				resumeFrom: 'folder',
				resumeFolder: `${SHIPPED_FILES_FOLDER}/resumes`,
			});
			expect(JSON.stringify(submit.parameters)).not.toContain('{{');

			const copy = (candidatesFile: string) => {
				const example = forTest('02-spreadsheet-to-submissions.json', credential);
				assignment(example, settingsNode, 'Folder').value = filesFolder;
				assignment(example, settingsNode, 'Candidates File').value = candidatesFile;
				nodeNamed(example, 'Submit to the job').parameters.resumeFolder = path.join(
					filesFolder,
					'resumes',
				);
				const webhookPath = swapTriggerForWebhook(example, 'Start');
				return { example, webhookPath };
			};
			/** One successful run on `candidatesFile`, its requests alone in the sandbox's log. */
			const runOnFile = async (candidatesFile: string) => {
				sandbox.clearRequests();
				const { example, webhookPath } = copy(candidatesFile);
				const workflow = await createWorkflow(example);
				await n8n.activate(workflow.id);
				const run = await runOnce(workflow, webhookPath);
				expectSuccess(run);
				await n8n.deactivate(workflow.id);
				return run;
			};
			const resume = (file: string) => path.join(SAMPLE_DATA_DIR, 'resumes', file);
			const submissionPosts = () =>
				sandbox.requests().filter((request) => request.route === 'POST /api/v3/Submission');
			const candidatePosts = () =>
				sandbox.requests().filter((request) => request.route === 'POST /api/v3/candidates');
			const seededSubmissions = new Set(
				(await trio<Array<{ Number: number }>>('/Submission')).map(
					(submission) => submission.Number,
				),
			);
			const newSubmissions = async () =>
				(
					await trio<
						Array<{
							Number: number;
							JobNumber: number;
							CandidateNumber: number;
							BillRateAmount: number | null;
							StartDate: string | null;
						}>
					>('/Submission')
				).filter((submission) => !seededSubmissions.has(submission.Number));
			const candidateNumber = async (email: string) => {
				const found = await trio<Array<{ number: number }>>(
					`/candidates?email=${encodeURIComponent(email)}`,
				);
				expect(found).toHaveLength(1);
				return found[0].number;
			};
			const resultFiles = () =>
				fs
					.readdirSync(filesFolder)
					.filter((file) => /^results-.*\.csv$/.test(file))
					.sort();
			const outcomes = (run: ExecutionRecord) =>
				nodeItems(run, 'Submit to the job').map((row) => row['Trio Result']);

			// ---- first run: the sample file as shipped
			const run1 = await runOnFile('candidates.csv');

			const jane = await candidateNumber('jane.doe@example.com');
			expect(await candidateNumber('rachel.anderson.5001@example.com')).toBe(5001);
			const submitted = await newSubmissions();
			expect(
				submitted.map(({ JobNumber, CandidateNumber, BillRateAmount, StartDate }) => ({
					JobNumber,
					CandidateNumber,
					BillRateAmount,
					StartDate,
				})),
			).toEqual([
				{
					JobNumber: 100001,
					CandidateNumber: jane,
					BillRateAmount: 65.5,
					StartDate: '2027-01-04T00:00:00',
				},
				{
					JobNumber: 100003,
					CandidateNumber: 5001,
					BillRateAmount: 72,
					StartDate: '2027-01-11T00:00:00',
				},
				{
					JobNumber: 100004,
					CandidateNumber: jane,
					BillRateAmount: 68.25,
					StartDate: '2027-02-01T00:00:00',
				},
			]);
			const files = await Promise.all(
				submitted.map((submission) =>
					scenario<Json>('GET', `/submissions/${submission.Number}/file`),
				),
			);
			expect(
				files.map(({ filename, contentType, sha256: hash }) => ({
					filename,
					contentType,
					sha256: hash,
				})),
			).toEqual([
				{
					filename: 'jane-doe-rn.pdf',
					contentType: 'application/pdf',
					sha256: sha256(resume('jane-doe-rn.pdf')),
				},
				{
					filename: 'rachel-anderson.txt',
					contentType: 'text/plain',
					sha256: sha256(resume('rachel-anderson.txt')),
				},
				{
					filename: 'jane-doe-rn.pdf',
					contentType: 'application/pdf',
					sha256: sha256(resume('jane-doe-rn.pdf')),
				},
			]);
			// Sent once each: three accepted, plus Luis's, which Trio refused (job on hold). The bad
			// e-mail, the missing resume, the PNG and the text-in-a-.pdf never reached Trio.
			expect(submissionPosts().map((request) => request.status)).toEqual([200, 200, 200, 400]);
			// Candidates created once: Jane (her second row finds her) and Luis. A row whose resume
			// is refused creates nobody: every check comes before the candidate is created.
			expect(candidatePosts()).toHaveLength(2);

			// In the order of the rows: every row comes out, with its outcome beside its columns.
			const rows1 = nodeItems(run1, 'Submit to the job');
			expect(outcomes(run1)).toEqual([
				'submitted',
				'submitted',
				'submitted',
				'not submitted',
				'not submitted',
				'not submitted',
				'not submitted',
				'not submitted',
			]);
			expect(rows1.slice(0, 3)).toEqual(
				submitted.map((submission) =>
					expect.objectContaining({
						'Job Number': String(submission.JobNumber),
						'Candidate Number': submission.CandidateNumber,
						'Submission Number': submission.Number,
						'Trio Problem': '',
					}),
				),
			);
			const expectedProblems = [
				{
					Email: 'tom.brown@example',
					'Trio Problem': expect.stringContaining('"Email" must be a valid email address'),
				},
				{
					Email: 'maria.garcia@example.com',
					'Trio Problem': expect.stringContaining('format .png is not accepted'),
				},
				{
					Email: 'luis.ortiz@example.com',
					'Trio Problem': expect.stringMatching(
						/^Trio VMS refused it: job 100002 is On Hold; only Open jobs accept submissions\. Trio VMS did not carry it out\. The job must take submissions again/,
					),
				},
				{
					Email: 'sam.lee@example.com',
					'Trio Problem': expect.stringContaining(
						`"Resume File" names "sam-lee.docx", which is no file n8n may read in the Resume Folder ${filesFolder}/resumes`,
					),
				},
				{
					Email: 'priya.shah@example.com',
					'Trio Problem': expect.stringContaining('its content is plain text'),
				},
			];
			expect(rows1.slice(3)).toEqual(
				expectedProblems.map((problem) => expect.objectContaining(problem)),
			);

			const [resultFile] = resultFiles();
			expect(resultFiles()).toHaveLength(1);
			const resultRows = parseCsv(fs.readFileSync(path.join(filesFolder, resultFile), 'utf8'));
			expect(Object.keys(resultRows[0])).toEqual([
				'First Name',
				'Last Name',
				'Email',
				'Phone',
				'Job Number',
				'Bill Rate',
				'Start Date',
				'Resume File',
				'Trio Result',
				'Trio Problem',
				'Submission Number',
				'Candidate Number',
			]);
			expect(resultRows.map((row) => row['Trio Result'])).toEqual(outcomes(run1));
			expect(resultRows.slice(3)).toEqual(
				expectedProblems.map((problem) => expect.objectContaining(problem)),
			);
			expect(resultRows.find((row) => row.Email === 'luis.ortiz@example.com')).toEqual(
				expect.objectContaining({
					'First Name': 'Luis',
					'Last Name': 'Ortiz',
					Phone: '(305) 555-0190',
					'Job Number': '100002',
					'Bill Rate': '55.00',
					'Start Date': '2027-01-04',
					'Resume File': 'luis-ortiz.txt',
				}),
			);

			// ---- second run: the results file as the input, after the facility reopened Luis's job
			const [reopen, listSubmissions, submissionFile] = readmeCommands('2. Spreadsheet');
			expect(reopen.url).toMatch(/\/jobs\/100002\/reopen$/);
			await runReadmeCommand(reopen);
			// The file name carries the time to the second: make sure the second run's differs.
			await sleep(1100);
			const run2 = await runOnFile(resultFile);

			const luis = await candidateNumber('luis.ortiz@example.com');
			expect(candidatePosts()).toHaveLength(0);
			expect(submissionPosts().map((request) => request.status)).toEqual([200]);
			const afterRerun = await newSubmissions();
			expect(afterRerun).toHaveLength(4);
			expect(afterRerun[3]).toEqual(
				expect.objectContaining({
					JobNumber: 100002,
					CandidateNumber: luis,
					BillRateAmount: 55,
					StartDate: '2027-01-04T00:00:00',
				}),
			);
			expect(outcomes(run2)).toEqual([
				'already submitted',
				'already submitted',
				'already submitted',
				'not submitted',
				'not submitted',
				'submitted',
				'not submitted',
				'not submitted',
			]);
			expect(nodeItems(run2, 'Submit to the job')[5]).toEqual(
				expect.objectContaining({ 'Job Number': '100002', 'Candidate Number': luis }),
			);
			expect(resultFiles()).toHaveLength(2);

			// Every good row of the sample is in Trio exactly once.
			const pairs = afterRerun.map(
				(submission) => `${submission.JobNumber}/${submission.CandidateNumber}`,
			);
			expect(pairs).toEqual([`100001/${jane}`, '100003/5001', `100004/${jane}`, `100002/${luis}`]);

			// The README's commands for reading what the sandbox received, as written.
			const listed = await runReadmeCommand<Array<{ Number: number }>>(listSubmissions);
			expect(listed.map((submission) => submission.Number)).toEqual(
				expect.arrayContaining(afterRerun.map((submission) => submission.Number)),
			);
			const fileNumber = Number(/submissions\/(\d+)\/file$/.exec(submissionFile.url)![1]);
			expect(afterRerun.map((submission) => submission.Number)).toContain(fileNumber);
			expect(await runReadmeCommand<Json>(submissionFile)).toEqual(
				expect.objectContaining({ filename: expect.any(String) }),
			);

			// ---- third run: the same file as the first. The README and the sticky note say it
			// submits nobody twice (Skip If Already Submitted, on by default).
			expect(section(EXAMPLES_README, '2. Spreadsheet')).toContain(
				'Running the same file again submits nobody twice',
			);
			const shippedNote = (nodeNamed(shipped, 'Note: trio').parameters as { content: string })
				.content;
			expect(shippedNote).toContain('Running the same file again submits nobody twice');
			const run3 = await runOnFile('candidates.csv');
			expect(submissionPosts()).toHaveLength(0);
			expect(candidatePosts()).toHaveLength(0);
			expect(await newSubmissions()).toEqual(afterRerun);
			expect(outcomes(run3)).toEqual([
				'already submitted',
				'already submitted',
				'already submitted',
				'not submitted',
				'not submitted',
				'already submitted',
				'not submitted',
				'not submitted',
			]);
		});

		test('02: outside ~/.n8n-files n8n 2.x refuses to read the file, with the message the README quotes', async () => {
			const outside = fs.mkdtempSync(path.join(home, 'not-allowed-'));
			fs.copyFileSync(
				path.join(SAMPLE_DATA_DIR, 'candidates.csv'),
				path.join(outside, 'candidates.csv'),
			);
			const example = forTest('02-spreadsheet-to-submissions.json', credential);
			assignment(example, 'Settings: where the files are', 'Folder').value = outside;
			const webhookPath = swapTriggerForWebhook(example, 'Start');
			const workflow = await createWorkflow(example);
			await n8n.activate(workflow.id);
			sandbox.clearRequests();
			const run = await runOnce(workflow, webhookPath);
			await n8n.deactivate(workflow.id);
			expect(run.status).toBe('error');
			expect(run.data?.resultData.error?.message).toBe('Access to the file is not allowed.');
			expect(run.data?.resultData.lastNodeExecuted).toBe('Read the candidates file');
			expect(sandbox.requests()).toHaveLength(0);
		});

		// -------------------------------------------------------------- 3. offer -> approval -> accept

		test('03: an offer e-mails a recruiter; "Accept the offer" accepts it in Trio, "Do not accept" sends nothing', async () => {
			const example = forTest('03-offer-approval-then-accept.json', credential);
			const trigger = nodeNamed(example, 'When a submission changes status');
			expect(trigger.parameters.events).toEqual(['Submission Update']);
			const mailNode = nodeNamed(example, 'Ask a recruiter by email');
			expect(mailNode.parameters.operation).toBe('sendAndWait');
			mailNode.credentials = { smtp: { ...smtpCredential } };
			const workflow = await createWorkflow(example);
			await switchTrigger(workflow, trigger, true);

			const candidates = (
				await trio<
					Array<{
						Number: number;
						Status: string;
						JobNumber: number;
						BillRateAmount: number | null;
						StartDate: string | null;
					}>
				>('/Submission')
			).filter(
				(submission) => submission.Status === 'Submitted' || submission.Status === 'Under Review',
			);
			expect(candidates.length).toBeGreaterThanOrEqual(2);
			const [toAccept, toLeave] = candidates;
			const job = await trio<{ Title: string; FacilityName: string | null; ClientName: string }>(
				`/Job/${toAccept.JobNumber}`,
			);

			sandbox.clearRequests();
			await scenario('POST', `/submissions/${toAccept.Number}/status`, {
				status: 'Offered',
				reason: 'Start date confirmed',
			});
			await smtp.waitFor(1);
			await scenario('POST', `/submissions/${toLeave.Number}/status`, { status: 'Offered' });
			const mails = await smtp.waitFor(2);
			const mailFor = (number: number): ReceivedMail => {
				const mail = mails.find(
					(each) => each.subject === `Offer on submission ${number}: accept it in Trio?`,
				);
				if (!mail)
					throw new Error(
						`No e-mail for submission ${number}: ${mails.map((each) => each.subject).join(' | ')}`,
					);
				return mail;
			};
			const acceptMail = mailFor(toAccept.Number);
			expect(acceptMail.to).toEqual(['<recruiter@your-agency.com>']);
			expect(acceptMail.body).toContain(
				`The facility made an offer on submission ${toAccept.Number}.`,
			);
			expect(acceptMail.body).toContain(`Job: ${job.Title} (job ${toAccept.JobNumber})`);
			expect(acceptMail.body).toContain(`Facility: ${job.FacilityName || job.ClientName}`);
			expect(acceptMail.body).toContain('Note from the facility: Start date confirmed');
			expect(acceptMail.body).toContain(
				`Start date: ${toAccept.StartDate ? toAccept.StartDate.slice(0, 10) : 'not given'}`,
			);

			// The e-mail leaves before the Wait node puts its execution in waiting: until then n8n
			// answers a click 409 "is running already", resuming nothing, so the click is repeated
			// (a recruiter reads the mail first; once seen, the test clicked within milliseconds).
			const click = async (mail: ReceivedMail, approved: boolean) => {
				const link = linksIn(mail.body).find((href) => href.includes(`approved=${approved}`));
				expect(link).toBeDefined();
				const response = await waitFor(`a click on ${link} that n8n takes`, async () => {
					const answer = await fetch(link as string, {
						headers: { 'user-agent': BROWSER_USER_AGENT },
						signal: AbortSignal.timeout(30_000),
					});
					if (answer.status !== 409) return answer;
					const text = await answer.text();
					if (!text.includes('is running already')) throw new Error(`409: ${text}`);
					return undefined;
				});
				expect(response.status).toBe(200);
				await response.arrayBuffer();
			};
			await click(mailFor(toLeave.Number), false);
			await click(acceptMail, true);

			await waitFor(`submission ${toAccept.Number} to be Accepted`, async () => {
				const record = await scenario<{ submission: { Status: string } }>(
					'GET',
					`/submissions/${toAccept.Number}`,
				);
				return record.submission.Status === 'Accepted' ? true : undefined;
			});
			// Two offers, and the Submission Update of the accept itself (stopped by the filter).
			const executions = await successfulExecutions(workflow, 3);
			await switchTrigger(workflow, trigger, false);

			expect(
				(
					await scenario<{ submission: { Status: string } }>(
						'GET',
						`/submissions/${toLeave.Number}`,
					)
				).submission.Status,
			).toBe('Offered');
			const accepts = sandbox
				.requests()
				.filter((request) => request.route === 'POST /api/v3/Submission/Accept');
			expect(accepts.map((request) => request.status)).toEqual([200]);
			const ranAccept = executions.filter(
				(execution) => nodeItems(execution, 'Accept the offer in Trio').length > 0,
			);
			expect(ranAccept).toHaveLength(1);
			expect(nodeItems(ranAccept[0], 'Accept the offer in Trio')).toEqual([
				expect.objectContaining({ Number: toAccept.Number, Status: 'Accepted' }),
			]);
			expect(
				executions.filter(
					(execution) => nodeItems(execution, 'Not approved: nothing is sent').length > 0,
				),
			).toHaveLength(1);
			const stoppedByFilter = executions.filter(
				(execution) => nodeItems(execution, 'Only offers').length === 0,
			);
			expect(
				stoppedByFilter.map(
					(execution) => nodeItems(execution, 'When a submission changes status')[0].Status,
				),
			).toEqual(['Accepted']);
		});

		// -------------------------------------------------------------- 4. nightly job sync

		test('04: each poll of the Sync Trigger saves what changed in the "Trio jobs" data table: filled on publishing, then closed, new and recounted jobs, and a reopened one', async () => {
			const example = forTest('04-nightly-job-sync-to-data-table.json', credential);
			const trigger = nodeNamed(example, 'When Trio jobs change');
			expect(trigger.type).toBe(`${PACKAGE}.trioVmsSyncTrigger`);
			expect(trigger.typeVersion).toBe(1);
			expect(trigger.parameters).toEqual(
				expect.objectContaining({
					pollTimes: { item: [{ mode: 'everyDay', hour: 2 }] },
					watch: 'jobs',
					// The node preselects Opened alone: the example names all four changes.
					jobChanges: ['opened', 'updated', 'closed', 'openPositionsChanged'],
					output: 'raw',
					options: { emitExisting: true, fullListEvery: 1 },
				}),
			);
			expect(nodeNamed(example, 'Make sure the table exists').executeOnce).toBe(true);
			// The poll trigger runs as shipped: publishing runs its first poll, as it does for users.
			const workflow = await createWorkflow(example);

			type Row = {
				jobNumber: number;
				status: string;
				title: string;
				currentOpenPositions: number;
				openPositions: number;
				closedAt: string;
				lastChange: string;
				syncRun: string;
				lastSeenAt: string;
				startDate: string;
			};
			const readTable = async (): Promise<Map<number, Row>> => {
				const rows = (await runThroughWebhook(
					n8n,
					[
						{
							name: 'Read the Trio jobs table',
							type: 'n8n-nodes-base.dataTable',
							typeVersion: 1.1,
							parameters: {
								operation: 'get',
								dataTableId: { __rl: true, mode: 'name', value: 'Trio jobs' },
								returnAll: true,
							},
						},
					],
					{},
				)) as unknown as Row[];
				return new Map(rows.map((row) => [row.jobNumber, row]));
			};
			type Listed = {
				Number: number;
				JobStatus: string;
				Title: string;
				NumberOfCurrentOpenPositions: number;
				NumberOfOpenPositions: number;
				NumberOfPositions: number;
				StartDate: string | null;
				FacilityName: string | null;
				ClientName: string | null;
				City: string | null;
				StateAbbreviation: string | null;
				Profession: string | null;
				RateDescription: string | null;
				Shift: { ShiftDescription?: string | null } | null;
			};
			/** n8n 2.x publishes asynchronously; wait until (un)publishing, and so the first poll, is done. */
			const settle = async (wanted: 'published' | 'not_published') =>
				waitFor(`workflow ${workflow.id} to be ${wanted}`, async () => {
					const status = await n8n.rest<{ status: string }>(
						'GET',
						`/workflows/${workflow.id}/publication-status`,
					);
					return status.status === wanted ? true : undefined;
				});
			let polls = 0;
			/** Publishes the workflow (which polls once) and returns that poll's execution. */
			const poll = async (): Promise<ExecutionRecord> => {
				await n8n.activate(workflow.id);
				await settle('published');
				polls += 1;
				const executions = await n8n.waitForExecutions(workflow.id, polls, RUN_TIMEOUT_MS);
				await n8n.deactivate(workflow.id);
				await settle('not_published');
				return n8n.getExecution(executions[executions.length - 1].id);
			};

			// ---- poll 1: the table is created and filled with every listed job
			const run1 = await poll();
			expectSuccess(run1);
			const listed1 = await trio<Listed[]>('/Job');
			const table1 = await readTable();
			expect(table1.size).toBe(listed1.length);
			for (const job of listed1) {
				expect({ job: job.Number, row: table1.get(job.Number) }).toEqual({
					job: job.Number,
					row: expect.objectContaining({
						status: job.JobStatus,
						title: job.Title,
						// Every column the table gets from the job (issue 34: shift was always empty).
						facility: job.FacilityName || job.ClientName || '',
						client: job.ClientName || '',
						city: job.City || '',
						state: job.StateAbbreviation || '',
						profession: job.Profession || '',
						shift: job.Shift?.ShiftDescription || '',
						rate: job.RateDescription || '',
						positions: job.NumberOfPositions,
						currentOpenPositions: job.NumberOfCurrentOpenPositions,
						openPositions: job.NumberOfOpenPositions,
						startDate: job.StartDate ? job.StartDate.slice(0, 10) : '',
						closedAt: '',
						lastChange: 'opened',
						syncRun: run1.id,
					}),
				});
			}

			// ---- between polls: the facility closes a job, opens a new one, and fills a position
			await scenario('POST', '/jobs/100001/close', { reason: 'Filled' });
			const opened = await scenario<{ Number: number }>('POST', '/jobs', {
				Title: 'Night Shift RN - Telemetry',
			});
			const withPositions = listed1.find(
				(job) =>
					job.JobStatus === 'Open' && job.NumberOfCurrentOpenPositions > 0 && job.Number !== 100001,
			) as Listed;
			await scenario('POST', `/jobs/${withPositions.Number}/open-positions`, {
				count: withPositions.NumberOfCurrentOpenPositions - 1,
			});

			// ---- poll 2: the new job, the count, and the closed job: missing from the full list,
			// and Trio's own answer about it says Closed
			const run2 = await poll();
			expectSuccess(run2);
			expect(
				nodeItems(run2, 'When Trio jobs change')
					.map((item) => `${item.Number}:${item.change}`)
					.sort(),
			).toEqual(
				[
					`${opened.Number}:opened`,
					`${withPositions.Number}:openPositionsChanged`,
					'100001:closed',
				].sort(),
			);
			const table2 = await readTable();
			expect(table2.size).toBe(listed1.length + 1);
			expect(table2.get(opened.Number)).toEqual(
				expect.objectContaining({
					title: 'Night Shift RN - Telemetry',
					status: 'Open',
					lastChange: 'opened',
					syncRun: run2.id,
				}),
			);
			expect(table2.get(withPositions.Number)).toEqual(
				expect.objectContaining({
					currentOpenPositions: withPositions.NumberOfCurrentOpenPositions - 1,
					lastChange: 'openPositionsChanged',
				}),
			);
			const closed = [...table2.values()].filter((row) => row.status === 'Closed');
			expect(closed.map((row) => row.jobNumber)).toEqual([100001]);
			expect(closed[0].closedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
			expect(closed[0]).toEqual(
				expect.objectContaining({ lastChange: 'closed', syncRun: run2.id }),
			);
			// Rows nothing happened to are left as poll 1 wrote them.
			const untouched = listed1.find(
				(job) => ![100001, opened.Number, withPositions.Number].includes(job.Number),
			) as Listed;
			expect(table2.get(untouched.Number)?.syncRun).toBe(run1.id);

			// ---- the job is opened again: the next poll saves it as open
			await scenario('POST', '/jobs/100001/reopen', {});
			const run3 = await poll();
			expectSuccess(run3);
			expect(nodeItems(run3, 'When Trio jobs change').map((item) => item.change)).toEqual([
				'opened',
			]);
			const table3 = await readTable();
			expect(table3.get(100001)).toEqual(
				expect.objectContaining({ status: 'Open', closedAt: '', syncRun: run3.id }),
			);
			expect([...table3.values()].filter((row) => row.status === 'Closed')).toEqual([]);
		});

		// -------------------------------------------------------------- 5. per diem shifts

		test("05: one delivery of two opened shifts gives two Slack messages, Start and End in words at the wall-clock time Trio sent, never moved by n8n's time zone", async () => {
			const example = forTest('05-per-diem-shifts-to-slack.json', credential);
			const trigger = nodeNamed(example, 'When per diem shifts are opened');
			expect(trigger.parameters).toEqual(
				expect.objectContaining({
					events: ['Per Diem Shift Opened'],
					options: { splitShifts: true },
				}),
			);
			swapSlackForReceiver(example, `${receiver.url}/slack-05`);
			const workflow = await createWorkflow(example);
			await switchTrigger(workflow, trigger, true);

			sandbox.clearDeliveries();
			// The shifts the README's "Try it against the sandbox" command opens, as written.
			const [openShifts] = readmeCommands('5. Per diem shifts');
			const shifts =
				await runReadmeCommand<Array<{ Number: number; Start: string; End: string }>>(openShifts);
			const messages = await receiver.waitFor('/slack-05', 2);
			await successfulExecutions(workflow, 1);
			await switchTrigger(workflow, trigger, false);

			const openedDeliveries = sandbox
				.deliveries()
				.filter((delivery) => delivery.event === 'Per Diem Shift Opened');
			expect(openedDeliveries).toHaveLength(1);
			const texts = messages.map(
				(message) => (message.body as { channel: string; text: string }).text,
			);
			expect(messages.map((message) => (message.body as { channel: string }).channel)).toEqual([
				'#per-diem-shifts',
				'#per-diem-shifts',
			]);
			// The README's sample message is what Slack receives for the first shift.
			expect(texts[0]).toBe(readmeMessage('5. Per diem shifts', [['700041', shifts[0].Number]]));
			expect(texts[0]).toBe(
				[
					':calendar: *Per diem shift open*: RN - Telemetry',
					'*Where:* Mercy General Hospital, 3 North Telemetry',
					'*Starts:* Mon 1 Mar 2027, 07:00',
					'*Ends:* Mon 1 Mar 2027, 19:30',
					'_(local time of the staffing pool Sacramento RN Float Pool)_',
					'*Rate type:* Premium',
					'*Notes:* Badge pickup at security',
					`Shift ${shifts[0].Number}`,
				].join('\n'),
			);
			const second = texts[1].split('\n');
			expect(second).toContain('*Where:* facility not given');
			expect(second).toContain('*Starts:* Tue 2 Mar 2027, 23:00');
			expect(second).toContain('*Ends:* Wed 3 Mar 2027, 07:30');
			expect(second.some((line) => line.startsWith('*Notes:*'))).toBe(false);
			expect(second[second.length - 1]).toBe(`Shift ${shifts[1].Number}`);
		});
	},
);
