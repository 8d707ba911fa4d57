/**
 * The real-n8n harness against both supported n8n lines: the packed package must load
 * under its user-facing type names, and an action node must run end to end (webhook in,
 * Trio sandbox behind it). A generated fixture package is installed alongside to check
 * the harness itself independently of the package's own nodes.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { startSandbox } from '../../sandbox';
import { describeWithN8n } from '../harness/availability';
import {
	FIXTURE_CREDENTIAL_TYPE,
	FIXTURE_NODE_TYPE,
	makeFixturePackage,
} from '../harness/fixture-package';
import { N8N_LINES } from '../harness/install';
import { startN8n } from '../harness/n8n';
import type { N8nInstance } from '../harness/n8n';
import { packPackage } from '../harness/pack';
import { runThroughWebhook } from '../harness/run-workflow';

const PACKAGE = 'n8n-nodes-trio-vms';

/** A local server the fixture node fetches from; it checks the credential's header. */
async function startItemsServer(
	token: string,
): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
	let hits = 0;
	const server = http.createServer((request, response) => {
		if (request.url === '/items' && request.headers.authorization === `Bearer ${token}`) {
			hits++;
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end(
				JSON.stringify([
					{ id: 1, name: 'one' },
					{ id: 2, name: 'two' },
				]),
			);
			return;
		}
		response.writeHead(401, { 'content-type': 'application/json' });
		response.end('{"message":"bad token"}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		hits: () => hits,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

for (const line of N8N_LINES) {
	describeWithN8n(line, `real n8n ${line}`, () => {
		let n8n: N8nInstance | undefined;
		let packError: Error | undefined;

		beforeAll(async () => {
			const tarballs = [await makeFixturePackage()];
			// A missing build fails the package's own tests below with a clear message,
			// while the harness checks still run on the fixture.
			try {
				tarballs.unshift(await packPackage());
			} catch (error) {
				packError = error as Error;
			}
			n8n = await startN8n({ line, tarball: tarballs });
		});

		afterAll(async () => {
			await n8n?.stop();
		});

		const started = (): N8nInstance => {
			if (!n8n) throw new Error(`n8n ${line} did not start`);
			return n8n;
		};
		const needPackage = () => {
			if (packError) throw packError;
		};

		test('reports its version and resources', () => {
			const instance = started();
			const rssMiB = instance.rssBytes() / 2 ** 20;
			process.stderr.write(
				`[n8n harness] n8n ${instance.version} (${line}): ready in ${instance.startSeconds} s, RSS ${rssMiB.toFixed(0)} MiB\n`,
			);
			expect(instance.version).toMatch(line === '2.x' ? /^2\./ : /^1\./);
			expect(rssMiB).toBeGreaterThan(100);
		});

		test('lists the package credential and node types under their user-facing names', async () => {
			needPackage();
			const instance = started();
			expect(await instance.credentialTypes()).toContain('trioVmsApi');
			const nodeTypes = await instance.nodeTypes();
			expect(nodeTypes).toContain(`${PACKAGE}.trioVms`);
			expect(nodeTypes).toContain(`${PACKAGE}.trioVmsTrigger`);
		});

		test('harness: runs a fixture node through the webhook wrapper with given input items', async () => {
			const instance = started();
			expect(await instance.nodeTypes()).toContain(FIXTURE_NODE_TYPE);
			const items = await runThroughWebhook(
				instance,
				[{ name: 'Echo', type: FIXTURE_NODE_TYPE, typeVersion: 1, parameters: { mode: 'echo' } }],
				{},
				[{ a: 1 }, { a: 2 }, { a: 3 }],
			);
			expect(items).toEqual([
				{ a: 1, echoed: true, index: 0 },
				{ a: 2, echoed: true, index: 1 },
				{ a: 3, echoed: true, index: 2 },
			]);
		});

		test('harness: a credential created through the public API reaches the node', async () => {
			const instance = started();
			const server = await startItemsServer('fixture-token');
			try {
				const credential = await instance.createCredential('fixture', FIXTURE_CREDENTIAL_TYPE, {
					token: 'fixture-token',
					baseUrl: server.url,
				});
				const items = await runThroughWebhook(
					instance,
					[
						{
							name: 'Fetch',
							type: FIXTURE_NODE_TYPE,
							typeVersion: 1,
							parameters: { mode: 'fetch' },
							credentials: {
								[FIXTURE_CREDENTIAL_TYPE]: { id: credential.id, name: credential.name },
							},
						},
					],
					{},
				);
				expect(items).toEqual([
					{ id: 1, name: 'one' },
					{ id: 2, name: 'two' },
				]);
				expect(server.hits()).toBe(1);
				// runThroughWebhook leaves nothing behind for the next test to trip over.
				const workflows = await instance.api<{ data: Array<{ id: string }> }>('GET', '/workflows');
				expect(workflows.data).toHaveLength(0);
			} finally {
				await server.close();
			}
		});

		test('job "get many" (return all) through real n8n returns the sandbox jobs', async () => {
			needPackage();
			const instance = started();
			const sandbox = await startSandbox({ port: 0, seed: 7, jobs: 12, quiet: true });
			try {
				const credential = await instance.createCredential('Trio sandbox', 'trioVmsApi', {
					apiKey: sandbox.key,
					environment: 'custom',
					baseUrl: sandbox.url,
				});
				const expected = (await (
					await fetch(`${sandbox.url}/api/v3/Job`, {
						headers: { 'X-API-KEY': sandbox.key },
						signal: AbortSignal.timeout(10_000),
					})
				).json()) as Array<{ Number: unknown; Title: unknown }>;
				expect(expected.length).toBeGreaterThan(0);

				const items = await runThroughWebhook(
					instance,
					[
						{
							name: 'Trio VMS',
							type: `${PACKAGE}.trioVms`,
							typeVersion: 1,
							// 'getAll' is n8n's value for the "Get Many" operation.
							parameters: { resource: 'job', operation: 'getAll', returnAll: true },
							credentials: { trioVmsApi: { id: credential.id, name: credential.name } },
						},
					],
					{},
				);
				expect(items.map((item) => item.Number).sort()).toEqual(
					expected.map((job) => job.Number).sort(),
				);
				expect(items.map((item) => item.Title).sort()).toEqual(
					expected.map((job) => job.Title).sort(),
				);
			} finally {
				await sandbox.stop();
			}
		});
	});
}
