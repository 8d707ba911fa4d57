/**
 * The packed package in both supported n8n lines, installed as users install it: n8n starts with
 * it, lists its credential and nodes under their user-facing names, and runs the action node end
 * to end (webhook in, Trio sandbox behind it).
 */
import { startSandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import { N8N_LINES } from '../../harness/install';
import { startN8n } from '../../harness/n8n';
import type { N8nInstance } from '../../harness/n8n';
import { packPackage } from '../../harness/pack';
import { runThroughWebhook } from '../../harness/run-workflow';

const PACKAGE = 'n8n-nodes-trio-vms';

for (const line of N8N_LINES) {
	describeWithN8n(line, `real n8n ${line}`, () => {
		let n8n: N8nInstance | undefined;

		beforeAll(async () => {
			n8n = await startN8n({ line, tarball: await packPackage() });
		});

		afterAll(async () => {
			await n8n?.stop();
		});

		const started = (): N8nInstance => {
			if (!n8n) throw new Error(`n8n ${line} did not start`);
			return n8n;
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
			const instance = started();
			expect(await instance.credentialTypes()).toContain('trioVmsApi');
			const nodeTypes = await instance.nodeTypes();
			expect(nodeTypes).toContain(`${PACKAGE}.trioVms`);
			expect(nodeTypes).toContain(`${PACKAGE}.trioVmsTrigger`);
		});

		test('serves the one icon pair every node and the credential name', async () => {
			const icons = await started().icons(PACKAGE);
			expect(new Set(icons.map((icon) => icon.type))).toEqual(
				new Set([
					// The action node is listed twice: as itself and as the tool an AI agent uses.
					`${PACKAGE}.trioVms`,
					`${PACKAGE}.trioVmsTool`,
					`${PACKAGE}.trioVmsTrigger`,
					`${PACKAGE}.trioVmsSyncTrigger`,
					'trioVmsApi',
				]),
			);
			for (const icon of icons) expect(icon).toMatchObject({ status: 200, contentType: /svg/ });
			// One pair, in dist/nodes/shared, for every node and the credential.
			const elsewhere = icons
				.filter((icon) => !/\/dist\/nodes\/shared\/trioVms(\.dark)?\.svg$/.test(icon.url))
				.map((icon) => icon.type);
			expect(elsewhere).toEqual([]);
		});

		test('job "get many" (return all) through real n8n returns the sandbox jobs', async () => {
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
