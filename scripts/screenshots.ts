/* eslint
	"@n8n/community-nodes/no-restricted-globals": "off",
	"@n8n/community-nodes/no-restricted-imports": "off",
	"@n8n/community-nodes/require-node-api-error": "off"
	-- not in the package: n8n's rules for the code users install do not apply here */
/**
 * npx tsx scripts/screenshots.ts [--no-build] [--out DIR] [--only a,b,c,d]
 *
 * Regenerates docs/screenshots/*.png from the real n8n editor: starts the same stack as
 * `npm run demo` (scripts/lib/stack.ts) in a throw-away folder, logs in with headless
 * Chromium (Debian's /usr/bin/chromium driven by playwright-core; no browser is downloaded)
 * and captures:
 *   a  node-actions.png       the node panel after searching "Trio": every Trio VMS action
 *   b  submission-create.png  Submission: Create in the node details view
 *   c  trigger-events.png     the trigger's Events list, opened
 *   d  example-run.png        the spreadsheet example on the canvas after a run against the sandbox
 *
 * n8n's editor changes between versions: selectors prefer data-test-id attributes and
 * visible text, and every wait is bounded.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { IDataObject } from 'n8n-workflow';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';

import { jobLabel } from '../nodes/TrioVms/helpers/search';
import { readFlags } from '../sandbox/cli-args';
import { Cleanup, StoppingError } from './lib/lifecycle';
import {
	ACTION_NODE_TYPE,
	CREDENTIAL_TYPE,
	DEMO_WORKFLOW_NAME,
	REPO_ROOT,
	startStack,
	TRIGGER_NODE_TYPE,
} from './lib/stack';
import type { Stack } from './lib/stack';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--no-first-run',
];
const WAIT_MS = 30_000;
const RUN_WAIT_MS = 120_000;

const SHOTS = {
	a: 'node-actions.png',
	b: 'submission-create.png',
	c: 'trigger-events.png',
	d: 'example-run.png',
} as const;
type ShotKey = keyof typeof SHOTS;

interface Options {
	build: boolean;
	out: string;
	only: ShotKey[];
}

function parseArgs(argv: string[]): Options {
	const options: Options = {
		build: true,
		out: path.join(REPO_ROOT, 'docs', 'screenshots'),
		only: Object.keys(SHOTS) as ShotKey[],
	};
	readFlags(argv, (flag, value, argument) => {
		if (flag === '--no-build') options.build = false;
		else if (flag === '--out') options.out = path.resolve(value());
		else if (flag === '--only') {
			const keys = value()
				.split(',')
				.map((key) => key.trim());
			const unknown = keys.filter((key) => !(key in SHOTS));
			if (unknown.length > 0)
				throw new Error(`--only takes ${Object.keys(SHOTS).join(',')}; got ${unknown.join(',')}`);
			options.only = keys as ShotKey[];
		} else if (flag === '--help' || flag === '-h') {
			process.stdout.write(
				'Usage: npx tsx scripts/screenshots.ts [--no-build] [--out DIR] [--only a,b,c,d]\n',
			);
			process.exit(0);
		} else throw new Error(`unknown option ${argument}`);
	});
	return options;
}

const startedAt = Date.now();
const say = (line: string) =>
	process.stdout.write(
		`[screenshots ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)}s] ${line}\n`,
	);

// ---- workflows made for the pictures (the examples stay as they are) ----

async function createShotWorkflows(stack: Stack): Promise<{ submission: string; trigger: string }> {
	const credentials = {
		[CREDENTIAL_TYPE]: { id: stack.credential.id, name: stack.credential.name },
	};
	// The first open job, labelled exactly as the node's job list labels it.
	const job = [...stack.sandbox.store.jobs.values()]
		.map((record) => record.job)
		.find((each) => each.JobStatus === 'Open');
	if (!job) throw new Error('the sandbox has no open job');
	const candidate = [...stack.sandbox.store.candidates.values()][0];
	const candidateNumber = String(candidate?.number ?? 5001);
	const manual = 'When clicking ‘Execute workflow’';
	const submission = await stack.n8n.createWorkflow({
		name: 'Submit a candidate',
		settings: { executionOrder: 'v1' },
		connections: {
			[manual]: { main: [[{ node: 'Submit the candidate', type: 'main', index: 0 }]] },
		},
		nodes: [
			{
				id: randomUUID(),
				name: manual,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: randomUUID(),
				name: 'Submit the candidate',
				type: ACTION_NODE_TYPE,
				typeVersion: 1,
				position: [240, 0],
				credentials,
				parameters: {
					resource: 'submission',
					operation: 'create',
					job: {
						__rl: true,
						mode: 'list',
						value: String(job.Number),
						cachedResultName: jobLabel(job as unknown as IDataObject),
					},
					candidateNumber,
					binaryPropertyName: 'data',
					additionalFields: { billRateAmount: 65.5, startDate: '2027-01-04T07:00:00' },
					agencyContacts: {
						contact: [
							{
								name: 'Dana Recruiter',
								email: 'dana@your-agency.com',
								phoneNumber: '(512) 555-0100',
							},
						],
					},
					options: {},
				},
			},
		],
	});
	const trigger = await stack.n8n.createWorkflow({
		name: 'Trio VMS events',
		settings: { executionOrder: 'v1' },
		connections: {},
		nodes: [
			{
				id: randomUUID(),
				name: 'Trio VMS Trigger',
				type: TRIGGER_NODE_TYPE,
				typeVersion: 1.1,
				position: [0, 0],
				webhookId: randomUUID(),
				credentials,
				parameters: { events: ['Job Update', 'Submission Update'] },
			},
		],
	});
	return { submission: submission.id, trigger: trigger.id };
}

/** The example to show after a run: the spreadsheet one, else any example that runs by hand. */
function exampleToRun(stack: Stack): { id: string; name: string } {
	const preferred = stack.workflows.find((workflow) => /spreadsheet/i.test(workflow.file));
	const fallback = stack.workflows.find(
		(workflow) => !workflow.usesTrigger && workflow.name !== DEMO_WORKFLOW_NAME,
	);
	const chosen = preferred ?? fallback;
	if (!chosen)
		throw new Error('no example workflow that runs by hand was imported (examples/*.json)');
	return chosen;
}

// ---- the browser ----

async function login(context: BrowserContext, stack: Stack): Promise<void> {
	const page = await context.newPage();
	await page.goto(`${stack.n8n.baseUrl}/signin`);
	await page
		.locator('[data-test-id="emailOrLdapLoginId"] input, input[name="emailOrLdapLoginId"]')
		.first()
		.fill(stack.n8n.owner.email);
	await page
		.locator('[data-test-id="password"] input, input[name="password"]')
		.first()
		.fill(stack.n8n.owner.password);
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: WAIT_MS });
	await page.close();
}

/** Toasts come and go on their own schedule; they never belong in a picture. */
const HIDE_CSS =
	'.el-notification, [data-test-id="toast"], .n8n-toast { display: none !important; }';

/** Opens a workflow in a fresh tab (no unsaved-changes prompt between shots) with the checklist and tips closed. */
async function openWorkflow(
	context: BrowserContext,
	stack: Stack,
	id: string,
	viewport: { width: number; height: number },
): Promise<Page> {
	const page = await context.newPage();
	await page.setViewportSize(viewport);
	await page.goto(`${stack.n8n.baseUrl}/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: WAIT_MS });
	await page.addStyleTag({ content: HIDE_CSS });
	await dismissPopups(page);
	return page;
}

async function dismissPopups(page: Page): Promise<void> {
	// "Production checklist" and similar panels n8n opens on a workflow; absent is fine.
	for (const selector of ['[data-test-id="suggested-actions-close"]']) {
		const button = page.locator(selector).first();
		if (await button.isVisible().catch(() => false))
			await button.click({ timeout: 5000 }).catch(() => undefined);
	}
	// A modal of any kind (what's new, surveys) on top of the canvas.
	for (let i = 0; i < 3; i++) {
		const modal = page
			.locator(
				'.el-overlay:visible .el-dialog__headerbtn, [role="dialog"]:visible [aria-label="Close"]',
			)
			.first();
		if (!(await modal.isVisible().catch(() => false))) break;
		await modal.click({ timeout: 5000 }).catch(() => undefined);
		await page.waitForTimeout(300);
	}
}

/** Nothing hovered, nothing animating. */
async function settle(page: Page): Promise<void> {
	await page.mouse.move(1, 1);
	await page.waitForTimeout(800);
}

async function shoot(page: Page, file: string): Promise<void> {
	await settle(page);
	await page.screenshot({ path: file });
	say(`wrote ${path.relative(REPO_ROOT, file)}`);
}

async function shotNodeActions(context: BrowserContext, stack: Stack, file: string): Promise<void> {
	const demo = stack.workflows.find((workflow) => workflow.name === DEMO_WORKFLOW_NAME);
	if (!demo) throw new Error('the demo workflow is missing');
	const page = await openWorkflow(context, stack, demo.id, { width: 1440, height: 1240 });
	await page.locator('[data-test-id="node-creator-plus-button"]').click();
	const search = page.locator('[data-test-id="node-creator-search-bar"]');
	await search.waitFor({ timeout: WAIT_MS });
	await search.fill('Trio');
	await page
		.locator('[data-test-id="item-iterator-item"]', { hasText: 'Trio VMS' })
		.first()
		.click();
	// The actions panel lists the node's operations by resource.
	await page.getByText('Create a submission', { exact: true }).waitFor({ timeout: WAIT_MS });
	await page
		.getByText('Update a webhook registration', { exact: true })
		.waitFor({ timeout: WAIT_MS });
	await shoot(page, file);
	await page.close();
}

async function shotSubmissionCreate(
	context: BrowserContext,
	stack: Stack,
	workflowId: string,
	file: string,
): Promise<void> {
	const page = await openWorkflow(context, stack, workflowId, { width: 1440, height: 1320 });
	await page
		.locator('[data-test-id="canvas-node"][data-node-name="Submit the candidate"]')
		.dblclick();
	await page
		.locator('[data-test-id="parameter-input-candidateNumber"]')
		.waitFor({ timeout: WAIT_MS });
	await page.getByText('Agency Contacts', { exact: true }).waitFor({ timeout: WAIT_MS });
	await shoot(page, file);
	await page.close();
}

async function shotTriggerEvents(
	context: BrowserContext,
	stack: Stack,
	workflowId: string,
	file: string,
): Promise<void> {
	const page = await openWorkflow(context, stack, workflowId, { width: 1440, height: 900 });
	await page.locator('[data-test-id="canvas-node"][data-node-name="Trio VMS Trigger"]').dblclick();
	const events = page.locator('[data-test-id="parameter-input-events"]');
	await events.waitFor({ timeout: WAIT_MS });
	await events.click();
	// The opened list: an option that is not selected yet, with its description.
	await page.getByText('Per Diem Shift Assigned', { exact: true }).waitFor({ timeout: WAIT_MS });
	await page
		.getByText('A per diem shift is assigned to one of your clinicians', { exact: false })
		.first()
		.waitFor({ timeout: WAIT_MS });
	await page.waitForTimeout(500);
	// Clicking moved the mouse over the list; keep it there so the list stays open.
	await page.screenshot({ path: file });
	say(`wrote ${path.relative(REPO_ROOT, file)}`);
	await page.close();
}

async function shotExampleRun(context: BrowserContext, stack: Stack, file: string): Promise<void> {
	const example = exampleToRun(stack);
	const before = new Set(
		(await stack.n8n.listExecutions(example.id)).map((execution) => execution.id),
	);
	// Wide: the example is a long row of nodes, and the canvas scales it to fit.
	const page = await openWorkflow(context, stack, example.id, { width: 1920, height: 1080 });
	await page.locator('[data-test-id="execute-workflow-button"]').click();
	// Done when n8n has stored the run; then the canvas shows it.
	const deadline = Date.now() + RUN_WAIT_MS;
	for (;;) {
		const finished = (await stack.n8n.listExecutions(example.id)).filter(
			(execution) =>
				!before.has(execution.id) &&
				execution.stoppedAt !== null &&
				!['new', 'running', 'waiting'].includes(execution.status),
		);
		if (finished.length > 0) {
			say(`"${example.name}" ran: ${finished[0].status}`);
			break;
		}
		if (Date.now() > deadline)
			throw new Error(`"${example.name}" did not finish within ${RUN_WAIT_MS / 1000} s`);
		await page.waitForTimeout(500);
	}
	await page
		.getByText(/\d+ items?/)
		.first()
		.waitFor({ timeout: WAIT_MS });
	await page
		.locator('[data-test-id="zoom-to-fit"]')
		.click()
		.catch(() => undefined);
	await page.waitForTimeout(1500);
	await shoot(page, file);
	await page.close();
}

async function main(): Promise<void> {
	let options: Options;
	try {
		options = parseArgs(process.argv.slice(2));
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n`);
		process.exit(2);
	}
	if (!fs.existsSync(CHROMIUM)) {
		process.stderr.write(
			`${CHROMIUM} is missing; install Debian's chromium (apt-get install chromium). No browser is downloaded.\n`,
		);
		process.exit(1);
	}
	const cleanup = new Cleanup(say);
	cleanup.handleSignals((signal) => {
		say(`${signal}: stopping`);
		void cleanup.stopAll().then(() => process.exit(130));
	});

	let failed = false;
	try {
		const stack = await startStack(
			{
				userFolder: undefined,
				sandboxPort: 0,
				build: options.build,
				activateTriggers: true,
				sandboxLog: false,
				log: say,
			},
			cleanup,
		);
		say(`n8n ${stack.n8n.version} ready at ${stack.n8n.baseUrl} (${stack.timings.totalSeconds} s)`);
		const ids = await createShotWorkflows(stack);

		const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-screenshots-chromium-'));
		cleanup.add('chromium profile', async () =>
			fs.rmSync(userDataDir, { recursive: true, force: true }),
		);
		const context = await chromium.launchPersistentContext(userDataDir, {
			executablePath: CHROMIUM,
			headless: true,
			args: CHROMIUM_ARGS,
			viewport: { width: 1440, height: 900 },
			deviceScaleFactor: 1,
			locale: 'en-US',
			timezoneId: 'UTC',
		});
		cleanup.add('chromium', () => context.close());
		context.setDefaultTimeout(WAIT_MS);
		await login(context, stack);
		cleanup.throwIfStopping();

		fs.mkdirSync(options.out, { recursive: true });
		const target = (key: ShotKey) => path.join(options.out, SHOTS[key]);
		const steps: Record<ShotKey, () => Promise<void>> = {
			a: () => shotNodeActions(context, stack, target('a')),
			b: () => shotSubmissionCreate(context, stack, ids.submission, target('b')),
			c: () => shotTriggerEvents(context, stack, ids.trigger, target('c')),
			d: () => shotExampleRun(context, stack, target('d')),
		};
		for (const key of options.only) {
			try {
				await steps[key]();
			} catch (error) {
				if (error instanceof StoppingError || cleanup.isStopping) throw error;
				failed = true;
				// What the browser showed when the step gave up, to fix the selector.
				const debug = path.join(os.tmpdir(), `trio-screenshot-failed-${SHOTS[key]}`);
				for (const page of context.pages().slice(-1))
					await page.screenshot({ path: debug }).catch(() => undefined);
				say(
					`${SHOTS[key]} FAILED: ${(error as Error).message.split('\n')[0]} (the page as it was: ${debug})`,
				);
			}
		}
	} catch (error) {
		if (cleanup.isStopping) return;
		process.stderr.write(`screenshots: ${(error as Error).message}\n`);
		failed = true;
	}
	if (cleanup.isStopping) return;
	await cleanup.stopAll();
	process.exit(failed ? 1 : 0);
}

void main();
