/**
 * npm run demo [-- options]
 *
 * One command to try the package: builds and packs it, starts the local Trio sandbox with
 * seeded data, starts a real n8n 2.x with the package installed as users install it, creates
 * the owner, the "Trio VMS account" credential (pointing at the sandbox) and imports every
 * examples/*.json. Prints where to log in and curl commands that make the sandbox fire events.
 * Ctrl-C stops n8n and the sandbox.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { isAlive } from '../harness/exec';
import { commandFlags, usage, whole, type FlagSpec } from '../harness/flags';
import { Cleanup, StoppingError } from './lib/lifecycle';
import {
	CREDENTIAL_NAME,
	DEFAULT_SANDBOX_PORT,
	DEMO_WORKFLOW_NAME,
	REPO_ROOT,
	startStack,
} from './lib/stack';
import type { Stack } from './lib/stack';

const DEFAULT_DIR = path.join(REPO_ROOT, '.demo', 'n8n');

const FLAGS = {
	port: {
		value: 'N',
		help: `sandbox port (default ${DEFAULT_SANDBOX_PORT}; taken -> a free one; given explicitly and taken -> error; 0 = any)`,
		read: whole(0, 65_535),
	},
	dir: {
		value: 'PATH',
		help: 'n8n user folder, kept between runs (default .demo/n8n in the repository)',
		read: (text: string) => path.resolve(text),
	},
	temp: { help: 'use a throw-away n8n folder instead (removed on stop)' },
	fresh: { help: 'delete the n8n folder first: new database, owner, credential and examples' },
	'no-build': { help: 'skip `npm run build` (use dist/ as it is)' },
	seed: {
		value: 'N',
		help: 'sandbox data seed (default 1)',
		read: whole(0, Number.MAX_SAFE_INTEGER),
	},
	jobs: { value: 'N', help: 'seeded sandbox jobs (default 300)', read: whole(0, 100_000) },
	'no-activate': { help: 'import trigger examples without activating them' },
	'quiet-sandbox': { help: 'no sandbox request/delivery lines' },
	'exit-after-ready': {
		help: 'stop everything once ready (also DEMO_EXIT_AFTER_READY=1); for scripts and tests',
	},
	'ready-file': {
		value: 'PATH',
		help: 'write the printed details as JSON to PATH once ready',
		read: (text: string) => path.resolve(text),
	},
} satisfies Record<string, FlagSpec>;

const USAGE = `${usage('Usage: npm run demo -- [options]', FLAGS)}

n8n picks a free port each run (the harness chooses it); the editor URL is printed.`;

interface DemoOptions {
	sandboxPort: number;
	sandboxPortExplicit: boolean;
	dir: string | undefined;
	fresh: boolean;
	build: boolean;
	seed: number;
	jobs: number | undefined;
	activate: boolean;
	quietSandbox: boolean;
	exitAfterReady: boolean;
	readyFile: string | undefined;
}

function parseArgs(argv: string[]): DemoOptions {
	const values = commandFlags(argv, FLAGS, USAGE, (given) => {
		if (given.some((argument) => argument.split('=')[0] === '--n8n-port'))
			throw new Error(
				'--n8n-port is not supported: the real-n8n harness picks a free port for n8n and the editor URL is printed',
			);
	});
	const exitAfterReadyEnv = process.env.DEMO_EXIT_AFTER_READY;
	return {
		sandboxPort: values.port ?? DEFAULT_SANDBOX_PORT,
		sandboxPortExplicit: values.port !== undefined,
		// --temp wins over --dir: a throw-away folder is never one the user meant to keep.
		dir: values.temp ? undefined : (values.dir ?? DEFAULT_DIR),
		fresh: values.fresh ?? false,
		build: !values['no-build'],
		seed: values.seed ?? 1,
		jobs: values.jobs,
		activate: !values['no-activate'],
		quietSandbox: values['quiet-sandbox'] ?? false,
		exitAfterReady:
			values['exit-after-ready'] ?? (exitAfterReadyEnv === '1' || exitAfterReadyEnv === 'true'),
		readyFile: values['ready-file'],
	};
}

const startedAt = Date.now();
const stamp = () => `${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)}s`;
const say = (line: string) => process.stdout.write(`[demo ${stamp()}] ${line}\n`);

/** Real records of this sandbox, so the printed commands work as printed. */
function scenarioTargets(stack: Stack): { job?: number; submissions: number[] } {
	const store = stack.sandbox.store;
	const job = [...store.jobs.values()].find((record) => record.job.JobStatus === 'Open')?.job
		.Number;
	const submissions = [...store.submissions.values()]
		.filter(
			(record) =>
				record.submission.Status === 'Submitted' || record.submission.Status === 'Under Review',
		)
		.map((record) => record.submission.Number)
		.sort((a, b) => a - b)
		.slice(0, 3);
	return { job, submissions };
}

function summary(
	stack: Stack,
	options: DemoOptions,
): { text: string; details: Record<string, unknown> } {
	const { n8n, sandbox, timings } = stack;
	const scenario = `${sandbox.url}/_sandbox`;
	const json = `-H 'Content-Type: application/json'`;
	const targets = scenarioTargets(stack);
	const editorUrl = `${n8n.baseUrl}/home/workflows`;
	const commands: Array<[string, string]> = [];
	if (targets.job !== undefined) {
		commands.push([
			`Job Update (job ${targets.job} changes)`,
			`curl -X PATCH ${scenario}/jobs/${targets.job} ${json} -d '{"Title":"RN - ICU (Nights), updated"}'`,
		]);
	}
	commands.push([
		'Job Update (a new job opens)',
		`curl -X POST ${scenario}/jobs ${json} -d '{"Title":"RN - ICU (Nights)"}'`,
	]);
	if (targets.submissions.length > 0) {
		commands.push([
			`Submission Update (the facility offers submission ${targets.submissions[0]}; others to try: ${targets.submissions.slice(1).join(', ') || 'none'})`,
			`curl -X POST ${scenario}/submissions/${targets.submissions[0]}/status ${json} -d '{"status":"Offered"}'`,
		]);
	}
	commands.push([
		'Per Diem Shift Opened (3 shifts in one delivery)',
		`curl -X POST ${scenario}/per-diem/shifts ${json} -d '{"count":3}'`,
	]);
	commands.push(['What the webhooks received', `curl '${scenario}/deliveries?wait=1'`]);
	commands.push([
		'The runs in n8n (public API)',
		`curl -H 'X-N8N-API-KEY: ${n8n.apiKey}' '${n8n.baseUrl}/api/v1/executions?limit=5'`,
	]);

	const workflowLines = stack.workflows.map((workflow) => {
		const status = workflow.activationError
			? `inactive: ${workflow.activationError}`
			: workflow.active
				? 'active'
				: workflow.usesTrigger
					? 'inactive'
					: 'run it with "Execute workflow"';
		return `    ${workflow.name}  [${workflow.outcome}, ${status}]\n      ${n8n.baseUrl}/workflow/${workflow.id}`;
	});
	for (const skipped of stack.skipped)
		workflowLines.push(`    ${skipped.file}  [NOT imported: ${skipped.reason}]`);
	if (workflowLines.length === 0) workflowLines.push('    (examples/ has no *.json yet)');

	const time = (value: number | undefined) =>
		value === undefined ? 'skipped' : `${value.toFixed(1)} s`;
	const text = `
================================================================================
 Trio VMS demo is ready (n8n ${n8n.version})

 n8n editor      ${editorUrl}
   log in        ${n8n.owner.email} / ${n8n.owner.password}
   API key       ${n8n.apiKey}
   data folder   ${stack.userFolder}${stack.persistent ? ' (kept; --fresh starts over)' : ' (temporary)'}
   files folder  ${stack.filesDir}
                 (n8n's ~/.n8n-files, the only place it reads and writes files, as README's quick
                 start 2 says: put its resumes in ~/.n8n-files/resumes; sample data in trio-submissions/)

 Credential      "${CREDENTIAL_NAME}" (${stack.credential.outcome}): environment Custom URL,
                 base URL ${sandbox.url}, the sandbox's agency-admin key
                 connection test: ${stack.credentialTest.ok ? 'OK' : `FAILED (${stack.credentialTest.message})`}

 Trio sandbox    ${sandbox.url}${stack.sandboxPortWanted !== undefined ? `   (port ${stack.sandboxPortWanted} was taken)` : ''}
   API           ${sandbox.apiUrl}
   admin key     ${sandbox.adminKey}   (everything, including webhooks: the trigger needs it)
   agency key    ${sandbox.key}   (everything but webhook management)
   scenario API  ${scenario}   (state summary and every route)

 Workflows (examples/*.json, and one made by the demo):
${workflowLines.join('\n')}

 Make the sandbox fire events; "${DEMO_WORKFLOW_NAME}" runs on each (see its Executions tab):
${commands.map(([what, command]) => `   # ${what}\n   ${command}`).join('\n')}

 Timings: build ${time(timings.buildSeconds)}, pack ${time(timings.packSeconds)}, n8n install ${time(timings.n8nInstallSeconds)}${
		timings.n8nFromCache ? ' (cached)' : ''
 }, n8n start ${time(timings.n8nStartSeconds)} (ready after ${time(timings.n8nReadySeconds)}), credential + examples ${time(timings.setupSeconds)}; total ${time(timings.totalSeconds)}
================================================================================
${options.exitAfterReady ? 'Stopping (--exit-after-ready).' : 'Ctrl-C stops n8n and the sandbox.'}
`;
	const details = {
		editorUrl,
		n8nUrl: n8n.baseUrl,
		n8nVersion: n8n.version,
		n8nPid: n8n.pid,
		demoPid: process.pid,
		login: { email: n8n.owner.email, password: n8n.owner.password },
		apiKey: n8n.apiKey,
		userFolder: stack.userFolder,
		filesDir: stack.filesDir,
		persistent: stack.persistent,
		credential: stack.credential,
		credentialTest: stack.credentialTest,
		sandbox: {
			url: sandbox.url,
			apiUrl: sandbox.apiUrl,
			port: sandbox.port,
			adminKey: sandbox.adminKey,
			key: sandbox.key,
		},
		workflows: stack.workflows,
		skipped: stack.skipped,
		commands: Object.fromEntries(commands),
		timings,
	};
	return { text, details };
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));

	const cleanup = new Cleanup(say);
	let ready = false;
	cleanup.handleSignals((signal) => {
		say(`${signal}: stopping n8n and the sandbox (again to force)`);
		void cleanup.stopAll().then(() => {
			say('all stopped');
			// A stop asked for once the demo runs is the normal end; during start-up it is not.
			process.exit(ready ? 0 : signal === 'SIGINT' ? 130 : 143);
		});
	});

	if (options.dir && options.fresh) {
		say(`--fresh: deleting ${options.dir}`);
		const lock = path.join(options.dir, 'demo.lock');
		if (fs.existsSync(lock)) {
			const holder = Number(fs.readFileSync(lock, 'utf8'));
			if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
				process.stderr.write(
					`Another demo (pid ${holder}) is using ${options.dir}; stop it before --fresh.\n`,
				);
				process.exit(1);
			}
		}
		fs.rmSync(options.dir, { recursive: true, force: true });
	}

	let stack: Stack;
	try {
		stack = await startStack(
			{
				userFolder: options.dir,
				sandboxPort: options.sandboxPort,
				sandboxPortFallback: !options.sandboxPortExplicit,
				seed: options.seed,
				jobs: options.jobs,
				build: options.build,
				activateTriggers: options.activate,
				sandboxLog: !options.quietSandbox,
				log: say,
			},
			cleanup,
		);
	} catch (error) {
		// Interrupted: the signal handler is already stopping everything and will exit.
		if (cleanup.isStopping) {
			if (!(error instanceof StoppingError))
				say(`start-up interrupted (${(error as Error).message.split('\n')[0]})`);
			return;
		}
		process.stderr.write(`\ndemo: start-up failed: ${(error as Error).message}\n\n`);
		await cleanup.stopAll();
		process.exit(1);
	}
	if (cleanup.isStopping) return;
	ready = true;

	const { text, details } = summary(stack, options);
	process.stdout.write(text);
	if (options.readyFile) {
		fs.mkdirSync(path.dirname(options.readyFile), { recursive: true });
		fs.writeFileSync(options.readyFile, `${JSON.stringify(details, null, 2)}${os.EOL}`);
	}

	if (options.exitAfterReady) {
		await cleanup.stopAll();
		say('all stopped');
		process.exit(0);
	}

	// n8n dying under the demo (out of memory, killed) should not leave a half demo running.
	const watch = setInterval(() => {
		if (cleanup.isStopping) return;
		try {
			process.kill(stack.n8n.pid, 0);
		} catch {
			clearInterval(watch);
			process.stderr.write(
				`\ndemo: n8n (pid ${stack.n8n.pid}) exited unexpectedly. Its last log lines:\n${stack.n8n.logs().split('\n').slice(-30).join('\n')}\n\n`,
			);
			void cleanup.stopAll().then(() => process.exit(1));
		}
	}, 2000);
}

void main().catch((error: unknown) => {
	process.stderr.write(
		`demo: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});
