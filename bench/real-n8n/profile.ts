/**
 * npx tsx bench/real-n8n/profile.ts <scenario> [count] [--n8n-env NAME=value ...]
 *
 * Starts the harness's n8n 2.x under V8's CPU profiler (--cpu-prof), sends `count` requests of
 * one scenario, stops n8n (which writes the profile) and prints where n8n's main thread spent its
 * time: self time by package and by function, and the inclusive time of a few functions that
 * matter for the comparisons. Scenarios:
 *
 *   trigger        distinct Job Update deliveries to the Trio VMS Trigger, one sender
 *   webhook        the same bodies to a Webhook node (respond immediately), one sender
 *   refused        deliveries to the trigger with a wrong token (403)
 *   get-many       Job Get Many, Return All, Output Raw (Trio VMS node)
 *   get-many-simplified  the same, Output Simplified
 *   http-get-many  the same GET through the HTTP Request node
 *
 * Measurement tool only (bench/, never in the test suite). The .cpuprofile files are kept in the
 * printed folder for Chrome DevTools.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { startN8n } from '../../harness/n8n';
import { packPackage } from '../../harness/pack';
import { startSandboxProcess } from '../support';
import { measureGetManyOnce, prepareIngestion, sendSequential, untilServed } from './measures';
import { getManyWorkflow, httpGetManyWorkflow, ACTION_NODE, HTTP_NODE } from './workflows';

const SCENARIOS = [
	'trigger',
	'webhook',
	'refused',
	'get-many',
	'get-many-simplified',
	'http-get-many',
] as const;
type Scenario = (typeof SCENARIOS)[number];

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	hitCount?: number;
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

function packageOf(url: string): string {
	if (!url) return '(native/idle)';
	const index = url.lastIndexOf('node_modules/');
	if (index < 0) return url.startsWith('node:') ? 'node core' : url.replace(/^file:\/\//, '');
	const rest = url.slice(index + 'node_modules/'.length).split('/');
	return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
}

/** Self time per package and function, and inclusive time of functions matching `focus`. */
export function summarise(profile: CpuProfile, focus: RegExp): string {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const self = new Map<number, number>();
	for (let index = 0; index < profile.samples.length; index++) {
		const delta = profile.timeDeltas[index] ?? 0;
		self.set(profile.samples[index], (self.get(profile.samples[index]) ?? 0) + delta);
	}
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const total = [...self.values()].reduce((sum, value) => sum + value, 0);
	const idle = [...self.entries()]
		.filter(([id]) => ['(idle)', '(program)'].includes(byId.get(id)?.callFrame.functionName ?? ''))
		.reduce((sum, [, value]) => sum + value, 0);
	const packages = new Map<string, number>();
	const callers = new Map<string, number>();
	const functions = new Map<string, number>();
	const inclusive = new Map<string, number>();
	for (const [id, micros] of self) {
		const node = byId.get(id);
		if (!node) continue;
		const name = node.callFrame.functionName || '(anonymous)';
		if (name === '(idle)' || name === '(program)') continue;
		const pkg = packageOf(node.callFrame.url);
		packages.set(pkg, (packages.get(pkg) ?? 0) + micros);
		const key = `${name} ${pkg}:${node.callFrame.lineNumber + 1}`;
		functions.set(key, (functions.get(key) ?? 0) + micros);
		// Inclusive: charge every distinct matching frame on the stack once.
		const seen = new Set<string>();
		const stack: string[] = [];
		for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) {
			const frame = byId.get(cursor);
			if (!frame) break;
			const label = `${frame.callFrame.functionName} ${packageOf(frame.callFrame.url)}`;
			stack.push(frame.callFrame.functionName || '(anonymous)');
			if (focus.test(label) && !seen.has(label)) {
				seen.add(label);
				inclusive.set(label, (inclusive.get(label) ?? 0) + micros);
			}
		}
		// Who builds expression isolates: the callers above the first isolate-creating frame.
		const build = stack.findIndex((name) =>
			/^(initializeSync|createBridge|initialize|replenish)$/.test(name),
		);
		if (build >= 0) {
			const chain = stack.slice(build, build + 14).join(' < ');
			callers.set(chain, (callers.get(chain) ?? 0) + micros);
		}
	}
	const ms = (micros: number) => `${(micros / 1000).toFixed(0)} ms`;
	const top = (map: Map<string, number>, count: number) =>
		[...map.entries()]
			.sort((a, b) => b[1] - a[1])
			.slice(0, count)
			.map(
				([key, value]) =>
					`  ${ms(value).padStart(8)}  ${((value * 100) / (total - idle)).toFixed(1).padStart(5)}%  ${key}`,
			)
			.join('\n');
	return [
		`busy ${ms(total - idle)} of ${ms(total)} sampled`,
		'self time by package:',
		top(packages, 15),
		'self time by function:',
		top(functions, 25),
		`inclusive time of frames matching ${focus}:`,
		top(inclusive, 25),
		'stacks that build expression isolates (innermost first):',
		top(callers, 8),
	].join('\n');
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	const scenario = args[0] as Scenario;
	if (!SCENARIOS.includes(scenario)) throw new Error(`scenario: ${SCENARIOS.join(' | ')}`);
	const count = Math.min(
		2000,
		Math.max(1, Number(args[1] ?? (scenario.includes('get-many') ? 8 : 300))),
	);
	const env: Record<string, string> = {};
	for (let index = 2; index < args.length; index++) {
		if (args[index] === '--n8n-env') {
			const [key, ...rest] = (args[++index] ?? '').split('=');
			env[key] = rest.join('=');
		}
	}
	const dir = mkdtempSync(join(tmpdir(), `trio-profile-${scenario}-`));
	const tarball = await packPackage();
	const sandbox = await startSandboxProcess(10_000);
	const n8n = await startN8n({
		line: '2.x',
		tarball,
		env: {
			...env,
			NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=200 --require ${resolve(__dirname, 'collect-garbage.cjs')}`,
		},
	});
	try {
		const admin = await n8n.createCredential('admin', 'trioVmsApi', {
			apiKey: sandbox.adminKey,
			environment: 'custom',
			baseUrl: sandbox.url,
		});
		const credential = { id: admin.id, name: admin.name };
		if (scenario.includes('get-many')) {
			const target =
				scenario === 'http-get-many'
					? await httpGetManyWorkflow(n8n, sandbox.apiUrl, sandbox.key)
					: await getManyWorkflow(n8n, credential, scenario === 'get-many-simplified');
			await untilServed(target.url);
			for (let run = 0; run < count; run++) {
				const result = await measureGetManyOnce(
					n8n,
					target,
					scenario === 'http-get-many' ? HTTP_NODE : ACTION_NODE,
				);
				console.log(`run ${run + 1}: node ${result.nodeMs} ms, ${result.items} items`);
			}
		} else {
			const setup = await prepareIngestion(n8n, sandbox, credential, (line) => console.log(line));
			const url =
				scenario === 'webhook'
					? setup.webhook.url
					: scenario === 'refused'
						? setup.deliveryUrl.replace(/token=[^&]+/, `token=${'0'.repeat(64)}`)
						: setup.deliveryUrl;
			const p50 = await sendSequential(setup, url, count, scenario === 'refused' ? 403 : 200);
			console.log(`${count} requests, p50 ${p50.toFixed(1)} ms`);
		}
	} finally {
		await n8n.stop();
		await sandbox.stop();
	}
	const files = readdirSync(dir).filter((file) => file.endsWith('.cpuprofile'));
	// The largest profile is n8n's main process; the task runner's is small.
	const [main] = files
		.map((file) => ({ file, size: readFileSync(join(dir, file)).length }))
		.sort((a, b) => b.size - a.size);
	if (!main) throw new Error(`no profile written in ${dir}`);
	const profile = JSON.parse(readFileSync(join(dir, main.file), 'utf8')) as CpuProfile;
	console.log(`\nprofile ${resolve(dir, main.file)}`);
	console.log(
		summarise(
			profile,
			/^(acquireBridgeSync|initializeSync|createBridge|getBridge|evaluate|getParameterValue|resolveSimpleParameterValue|executeWebhook|runWebhook|webhook|receiveDelivery|judgeDelivery|buildItems|acquire|acquireIsolate|initialize|createBridge|replenish|saveStaticData|getWorkflowStaticData|getPublishedWorkflowData|findWebhook|execute|router|request|httpRequest|httpRequestWithAuthentication|parseBody|simplifyJob|returnJsonArray|constructExecutionMetaData|normalizeItems|parse) /,
		),
	);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : error);
		process.exit(1);
	},
);
