/**
 * The package installed the way Docker users install community packages, and the only way n8n
 * 3.0's Docker images leave: n8n 2.41.1 started with N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true
 * and N8N_COMMUNITY_PACKAGES naming the package at package.json's version. n8n's own start-up
 * code installs it (its registry checks, `npm pack` from https://registry.npmjs.org, `npm
 * install`), not the harness. The registry is a local stand-in reached under that name through a
 * proxy (harness/npm-registry.ts), since the package is not published.
 *
 * n8n 1.x has no environment-managed packages, so this runs on 2.x only.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { RunningSandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import { runOrThrow, spawnReaper } from '../../harness/exec';
import { npmEnv } from '../../harness/install';
import { startN8n } from '../../harness/n8n';
import type { N8nInstance } from '../../harness/n8n';
import { packPackage, REPO_ROOT } from '../../harness/pack';
import { startQueueStack } from '../../harness/queue';
import type { QueueStack } from '../../harness/queue';
import { runWebhookWorkflow } from '../../harness/run-workflow';
import { startQueueServices, type QueueServices } from '../../harness/services';
import { NPM_REGISTRY_HOST, startFakeNpmRegistry } from '../../harness/npm-registry';
import type { FakeNpmRegistry } from '../../harness/npm-registry';
import { createTrioCredential } from '../../harness/trio';
import { startTestSandbox } from '../support/sandbox-client';

const PACKAGE = 'n8n-nodes-trio-vms';
const VERSION = (
	JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const NODE_TYPES = [
	`${PACKAGE}.trioVms`,
	`${PACKAGE}.trioVmsSyncTrigger`,
	`${PACKAGE}.trioVmsTrigger`,
];
const CREDENTIAL_TYPE = 'trioVmsApi';
/**
 * A queue test starts main, then the webhook process and the worker (120 s bound each step),
 * runs a workflow (60 s per request) and stops them (25 s each): jest's bound is above the sum,
 * so only those bounds, not the machine's speed, decide a failure.
 */
const QUEUE_TEST_TIMEOUT_MS = 600_000;

/** What docs/production.md tells administrators to set (plus the test's registry stand-in). */
function installEnv(
	registry: FakeNpmRegistry,
	unverified: 'true' | 'false',
	checksum?: string,
): Record<string, string> {
	return {
		...registry.env(),
		N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
		N8N_COMMUNITY_PACKAGES: JSON.stringify([
			{ name: PACKAGE, version: VERSION, ...(checksum ? { checksum } : {}) },
		]),
		N8N_UNVERIFIED_PACKAGES_ENABLED: unverified,
	};
}

interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	installedNodes: Array<{ name: string; type: string }>;
}

/** n8n loaded the package: its three nodes and, unless told otherwise, its credential. */
async function expectLoaded(n8n: N8nInstance, credential = true): Promise<void> {
	const nodeTypes = await n8n.nodeTypes();
	expect(NODE_TYPES.filter((type) => nodeTypes.includes(type))).toEqual(NODE_TYPES);
	if (credential) expect(await n8n.credentialTypes()).toContain(CREDENTIAL_TYPE);
}

describeWithN8n('2.x', 'real n8n 2.x: installed through N8N_COMMUNITY_PACKAGES', () => {
	let registry: FakeNpmRegistry | undefined;
	// Kept between the first start and the restart, like a Docker volume on /home/node/.n8n.
	let userFolder = '';
	let installed = false;

	beforeAll(async () => {
		userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-n8n-2.x-env-'));
		registry = await startFakeNpmRegistry({ tarball: await packPackage() });
	});

	afterAll(async () => {
		await registry?.stop();
		if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
	});

	const stand = (): FakeNpmRegistry => {
		if (!registry) throw new Error('the registry stand-in did not start');
		return registry;
	};

	const report = (label: string, instance: N8nInstance, fake: FakeNpmRegistry) => {
		process.stderr.write(
			`[env install] ${label}: n8n ${instance.version} ready in ${instance.startSeconds} s; ` +
				`registry requests ${JSON.stringify(fake.requests.map((each) => `${each.method} ${each.path} ${each.status}`))}; ` +
				`proxy refused ${JSON.stringify(fake.refused)}\n`,
		);
	};

	/** n8n on the kept user folder, with nothing installed by the harness: its start-up installs. */
	const startOnKeptFolder = (fake: FakeNpmRegistry) =>
		startN8n({ line: '2.x', tarball: [], userFolder, env: installEnv(fake, 'true') });

	test('the packed package is what the registry stand-in serves, at package.json version', () => {
		const fake = stand();
		expect(fake.packageName).toBe(PACKAGE);
		expect(fake.version).toBe(VERSION);
	});

	test('n8n installs it at start-up and loads its three nodes and its credential', async () => {
		const fake = stand();
		const n8n = await startOnKeptFolder(fake);
		try {
			report('first start', n8n, fake);
			await expectLoaded(n8n);

			expect(n8n.logs()).toContain(`Installed community package '${PACKAGE}@${VERSION}' from env`);
			// Settings -> Community nodes shows it as an ordinary installed package.
			const packages = await n8n.rest<InstalledPackage[]>('GET', '/community-packages');
			const ours = packages.find((each) => each.packageName === PACKAGE);
			expect(ours?.installedVersion).toBe(VERSION);
			expect(ours?.installedNodes.map((node) => node.type).sort()).toEqual(NODE_TYPES);
			const onDisk = JSON.parse(
				fs.readFileSync(
					path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE, 'package.json'),
					'utf8',
				),
			) as { version: string };
			expect(onDisk.version).toBe(VERSION);

			// It came from "registry.npmjs.org": n8n checked the version exists, npm downloaded it once.
			expect(fake.requests).toContainEqual({
				method: 'GET',
				path: `/${PACKAGE}/${VERSION}`,
				status: 200,
			});
			expect(fake.tarballDownloads()).toBe(1);
			// n8n asked its own service whether the package is vetted (and its status); unreachable
			// here, so n8n went on with an unverified install, which this variable allows.
			expect(fake.refused).toContain('api.n8n.io:443');
			expect(fake.refused).not.toContain(`${NPM_REGISTRY_HOST}:443`);
			installed = true;
		} finally {
			await n8n.stop();
		}
	});

	test('a restart with the same list downloads nothing and still loads the nodes', async () => {
		if (!installed) throw new Error('needs the first start to have installed the package');
		const fake = stand();
		const downloadsBefore = fake.tarballDownloads();
		const n8n = await startOnKeptFolder(fake);
		try {
			report('restart', n8n, fake);
			await expectLoaded(n8n);
			expect(fake.tarballDownloads()).toBe(downloadsBefore);
			expect(n8n.logs()).not.toContain('Installed community package');
		} finally {
			await n8n.stop();
		}
	});

	test("with N8N_UNVERIFIED_PACKAGES_ENABLED=false (n8n 3.0's default) n8n refuses to start and says why", async () => {
		const fake = stand();
		const downloadsBefore = fake.tarballDownloads();
		let failure: Error | undefined;
		try {
			// A fresh folder (the harness's own), as a new container without a volume.
			const n8n = await startN8n({ line: '2.x', tarball: [], env: installEnv(fake, 'false') });
			await n8n.stop();
		} catch (error) {
			failure = error as Error;
		}
		expect(failure?.message).toMatch(/n8n 2\.x exited during start-up \(code 1/);
		expect(failure?.message).toContain(
			`N8N_COMMUNITY_PACKAGES: no checksum available for '${PACKAGE}@${VERSION}' and unverified packages are disabled`,
		);
		expect(failure?.message).toContain('Exiting due to an error.');
		process.stderr.write(
			`[env install] unverified disabled: ${
				(failure?.message ?? '')
					.split('\n')
					.find((line) => line.includes('no checksum available')) ?? ''
			}\n`,
		);
		// Refused before anything was downloaded.
		expect(fake.tarballDownloads()).toBe(downloadsBefore);
	});

	test('with its checksum in the list, n8n installs it even with N8N_UNVERIFIED_PACKAGES_ENABLED=false', async () => {
		const fake = stand();
		const downloadsBefore = fake.tarballDownloads();
		const n8n = await startN8n({
			line: '2.x',
			tarball: [],
			env: installEnv(fake, 'false', fake.integrity),
		});
		try {
			report('checksum pinned, unverified disabled', n8n, fake);
			await expectLoaded(n8n);
			expect(n8n.logs()).toContain(`Installed community package '${PACKAGE}@${VERSION}' from env`);
			expect(fake.tarballDownloads()).toBe(downloadsBefore + 1);
		} finally {
			await n8n.stop();
		}
	});

	test('with a wrong checksum n8n downloads nothing, says so, and starts without the package', async () => {
		const fake = stand();
		const downloadsBefore = fake.tarballDownloads();
		const wrong = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;
		const n8n = await startN8n({ line: '2.x', tarball: [], env: installEnv(fake, 'false', wrong) });
		try {
			const line = n8n
				.logs()
				.split('\n')
				.find((each) => each.includes('Failed to install community package'));
			process.stderr.write(`[env install] wrong checksum: ${line ?? '(no log line)'}\n`);
			expect(line).toContain(`'${PACKAGE}@${VERSION}' from env`);
			// n8n 2.41.1 compares the registry's integrity with the checksum, then asks `npm view`
			// again, and reports that second mismatch with this (misleading) advice.
			expect(line).toContain(
				'Failed to verify package checksum. Try restarting n8n and attempting the installation again.',
			);
			const nodeTypes = await n8n.nodeTypes();
			expect(NODE_TYPES.filter((type) => nodeTypes.includes(type))).toEqual([]);
			expect(fake.tarballDownloads()).toBe(downloadsBefore);
		} finally {
			await n8n.stop();
		}
	});
});

/**
 * Queue mode: only the main process reads N8N_COMMUNITY_PACKAGES (n8n 2.41.1 runs the loader in
 * `n8n start` alone). Webhook processes and workers started after it find the package in the
 * shared database's list of installed packages and, with N8N_REINSTALL_MISSING_PACKAGES=true,
 * install it themselves from the registry; without it they only log that packages are missing.
 * Each process has its own folder (separate containers without a shared volume).
 */
describeWithN8n('2.x', 'real n8n 2.x queue mode: every process gets the package', () => {
	let registry: FakeNpmRegistry | undefined;
	let services: QueueServices | undefined;
	let stack: QueueStack | undefined;
	let rootFolder = '';
	let sandbox: RunningSandbox | undefined;

	beforeAll(async () => {
		registry = await startFakeNpmRegistry({ tarball: await packPackage() });
		services = await startQueueServices();
		sandbox = await startTestSandbox({ seed: 7, jobs: 12 });
		rootFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-queue-env-'));
		spawnReaper(process.pid, undefined, [rootFolder]);
		// The harness copies main's community packages to the other processes unless their
		// folders already have a node_modules: give them empty ones, so each process has only
		// what n8n itself installs.
		for (const name of ['webhook-1', 'worker-1']) {
			fs.mkdirSync(path.join(rootFolder, name, '.n8n', 'nodes', 'node_modules'), {
				recursive: true,
			});
		}
	});

	afterAll(async () => {
		await stack?.stop();
		await services?.stop();
		await registry?.stop();
		await sandbox?.stop();
		if (rootFolder) fs.rmSync(rootFolder, { recursive: true, force: true });
	});

	const start = async (reinstallMissing: boolean): Promise<QueueStack> => {
		if (!registry || !services) throw new Error('the services did not start');
		const previous = stack;
		stack = await startQueueStack({
			tarball: [],
			...services,
			database: 'envinstall',
			createDatabase: previous === undefined,
			proxy: previous?.proxy,
			webhookProcesses: 1,
			workers: 1,
			rootFolder,
			env: {
				...installEnv(registry, 'true'),
				...(reinstallMissing ? { N8N_REINSTALL_MISSING_PACKAGES: 'true' } : {}),
			},
		});
		process.stderr.write(
			`[env install] queue stack (N8N_REINSTALL_MISSING_PACKAGES ${reinstallMissing ? 'true' : 'unset'}) ready: ${JSON.stringify(stack.timings)} s; tarball downloads so far ${registry.tarballDownloads()}\n`,
		);
		return stack;
	};

	const runGetMany = async (queue: QueueStack) => {
		if (!sandbox) throw new Error('the sandbox did not start');
		const credential = await createTrioCredential(queue.main, 'Trio sandbox', sandbox, 'plain');
		return runWebhookWorkflow(
			queue.main,
			[
				{
					name: 'Trio VMS',
					type: `${PACKAGE}.trioVms`,
					typeVersion: 1,
					parameters: { resource: 'job', operation: 'getAll', returnAll: true },
					credentials: { trioVmsApi: { id: credential.id, name: credential.name } },
				},
			],
			{},
		);
	};

	const packageOnDisk = (userFolder: string): string | undefined => {
		const file = path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE, 'package.json');
		if (!fs.existsSync(file)) return undefined;
		return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
	};

	test(
		'without N8N_REINSTALL_MISSING_PACKAGES only main has it, and workflows with its nodes fail',
		async () => {
			const queue = await start(false);
			try {
				expect(queue.main.logs()).toContain(
					`Installed community package '${PACKAGE}@${VERSION}' from env`,
				);
				expect(packageOnDisk(queue.main.userFolder)).toBe(VERSION);
				for (const each of [...queue.webhooks, ...queue.workers]) {
					expect(each.logs()).toContain('n8n detected that some packages are missing');
					expect(packageOnDisk(each.userFolder)).toBeUndefined();
				}
				const run = await runGetMany(queue);
				process.stderr.write(
					`[env install] run without the package on the others: ${run.failure ?? 'no failure'}\n`,
				);
				// What users report from queue mode: the webhook process cannot build the workflow.
				expect(run.status).toBe(400);
				expect(run.failure).toContain(`Unrecognized node type: ${PACKAGE}.trioVms`);
			} finally {
				await queue.stopProcesses();
			}
		},
		QUEUE_TEST_TIMEOUT_MS,
	);

	test(
		'with it, the webhook process and the worker install it at start and the workflow runs',
		async () => {
			const fake = registry;
			if (!fake) throw new Error('the registry stand-in did not start');
			const downloadsBefore = fake.tarballDownloads();
			const queue = await start(true);
			for (const each of [...queue.webhooks, ...queue.workers]) {
				expect(each.logs()).toContain('Packages reinstalled successfully');
				expect(packageOnDisk(each.userFolder)).toBe(VERSION);
			}
			// Fetched from the registry again: main already had it, and this start's npm cache was
			// empty. The webhook process and the worker share that cache (the harness gives every
			// process of a stack one environment), so whether the second of them downloads it too
			// or takes it from the cache depends on which starts first: one or two downloads.
			const downloads = fake.tarballDownloads() - downloadsBefore;
			expect(downloads).toBeGreaterThanOrEqual(1);
			expect(downloads).toBeLessThanOrEqual(2);
			await expectLoaded(queue.main, false);

			const run = await runGetMany(queue);
			expect(run.failure).toBeUndefined();
			const expected = (await (
				await fetch(`${sandbox?.url ?? ''}/api/v3/Job`, {
					headers: { 'X-API-KEY': sandbox?.key ?? '' },
					signal: AbortSignal.timeout(10_000),
				})
			).json()) as Array<{ Number: unknown }>;
			expect(expected.length).toBeGreaterThan(0);
			expect(run.items.map((item) => item.Number).sort()).toEqual(
				expected.map((job) => job.Number).sort(),
			);
			expect(queue.workers[0].logs()).toMatch(/Worker started execution \d+/);
		},
		QUEUE_TEST_TIMEOUT_MS,
	);
});

/**
 * docs/production.md's troubleshooting row for "Unrecognized node type" after a manual install: `npm install`
 * into the volume's nodes folder while n8n runs changes nothing until n8n starts again, because n8n
 * reads community packages only at start.
 */
describeWithN8n('2.x', 'real n8n 2.x: installed by hand into ~/.n8n/nodes', () => {
	let sandbox: RunningSandbox | undefined;
	let n8n: N8nInstance | undefined;
	let userFolder = '';

	beforeAll(async () => {
		sandbox = await startTestSandbox({ seed: 7, jobs: 6 });
		userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-n8n-2.x-by-hand-'));
	});

	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
		if (userFolder) fs.rmSync(userFolder, { recursive: true, force: true });
	});

	/** Runs Job Get Many behind a webhook; what happened, in one line. */
	const getMany = async (
		instance: N8nInstance,
		credential?: { id: string; name: string },
	): Promise<string> => {
		const node = {
			name: 'Trio VMS',
			type: `${PACKAGE}.trioVms`,
			typeVersion: 1,
			parameters: { resource: 'job', operation: 'getAll', returnAll: true },
			...(credential ? { credentials: { trioVmsApi: credential } } : {}),
		};
		try {
			const run = await runWebhookWorkflow(instance, [node], {});
			return run.failure ?? `ran: ${run.items.length} items`;
		} catch (error) {
			return (error as Error).message;
		}
	};

	const createCredential = async (instance: N8nInstance) => {
		if (!sandbox) throw new Error('the sandbox did not start');
		return await createTrioCredential(instance, 'Trio sandbox', sandbox, 'plain');
	};

	test('n8n sees the package only after a restart', async () => {
		n8n = await startN8n({ line: '2.x', tarball: [], userFolder });
		const port = n8n.port;
		expect(await n8n.nodeTypes()).not.toContain(`${PACKAGE}.trioVms`);

		// What the README's manual install says, run while n8n is up.
		const nodesDir = path.join(userFolder, '.n8n', 'nodes');
		await runOrThrow(
			'npm',
			['install', '--legacy-peer-deps', '--no-audit', '--no-fund', await packPackage()],
			{ cwd: nodesDir, env: npmEnv(), timeoutMs: 180_000 },
		);
		expect(fs.existsSync(path.join(nodesDir, 'node_modules', PACKAGE, 'package.json'))).toBe(true);
		expect(await n8n.nodeTypes()).not.toContain(`${PACKAGE}.trioVms`);
		expect(await n8n.credentialTypes()).not.toContain(CREDENTIAL_TYPE);
		const before = await getMany(n8n);
		process.stderr.write(`[by hand] before the restart: ${before.split('\n')[0]}\n`);
		expect(before).toContain(`Unrecognized node type: ${PACKAGE}.trioVms`);

		await n8n.stop();
		n8n = await startN8n({ line: '2.x', tarball: [], userFolder, port });
		await expectLoaded(n8n, false);
		expect(await getMany(n8n, await createCredential(n8n))).toMatch(/^ran: [1-9]\d* items$/);
	});
});
