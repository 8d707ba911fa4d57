/* eslint
	"@n8n/community-nodes/no-restricted-globals": "off",
	"@n8n/community-nodes/no-restricted-imports": "off"
	-- not in the package: n8n's rules for the code users install do not apply here */
/**
 * The package installed the way Docker users install community packages, and the only way n8n
 * 3.0's Docker images leave: n8n 2.41.1 started with N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true
 * and N8N_COMMUNITY_PACKAGES naming the package at package.json's version. n8n's own start-up
 * code installs it (its registry checks, `npm pack` from https://registry.npmjs.org, `npm
 * install`), not the harness. The registry is a local stand-in reached under that name through a
 * proxy (fixtures/npm-registry.ts), since the package is not published.
 *
 * n8n 1.x has no environment-managed packages, so this runs on 2.x only.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { describeWithN8n } from '../support/harness/availability';
import { startN8n } from '../support/harness/n8n';
import type { N8nInstance } from '../support/harness/n8n';
import { packPackage, REPO_ROOT } from '../support/harness/pack';
import { NPM_REGISTRY_HOST, startFakeNpmRegistry } from './fixtures/npm-registry';
import type { FakeNpmRegistry } from './fixtures/npm-registry';

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

/** What docs/production.md tells administrators to set (plus the test's registry stand-in). */
function installEnv(
	registry: FakeNpmRegistry,
	unverified: 'true' | 'false',
): Record<string, string> {
	return {
		...registry.env(),
		N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
		N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: PACKAGE, version: VERSION }]),
		N8N_UNVERIFIED_PACKAGES_ENABLED: unverified,
	};
}

interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	installedNodes: Array<{ name: string; type: string }>;
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

	test('the packed package is what the registry stand-in serves, at package.json version', () => {
		const fake = stand();
		expect(fake.packageName).toBe(PACKAGE);
		expect(fake.version).toBe(VERSION);
	});

	test('n8n installs it at start-up and loads its three nodes and its credential', async () => {
		const fake = stand();
		const n8n = await startN8n({
			line: '2.x',
			// Nothing installed by the harness: n8n's start-up does it from the variables.
			tarball: [],
			userFolder,
			env: installEnv(fake, 'true'),
		});
		try {
			report('first start', n8n, fake);
			const nodeTypes = await n8n.nodeTypes();
			expect(NODE_TYPES.filter((type) => nodeTypes.includes(type))).toEqual(NODE_TYPES);
			expect(await n8n.credentialTypes()).toContain(CREDENTIAL_TYPE);

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
		const n8n = await startN8n({
			line: '2.x',
			tarball: [],
			userFolder,
			env: installEnv(fake, 'true'),
		});
		try {
			report('restart', n8n, fake);
			const nodeTypes = await n8n.nodeTypes();
			expect(NODE_TYPES.filter((type) => nodeTypes.includes(type))).toEqual(NODE_TYPES);
			expect(await n8n.credentialTypes()).toContain(CREDENTIAL_TYPE);
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
});
