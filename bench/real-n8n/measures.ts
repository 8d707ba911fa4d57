/**
 * The measurements of the real-n8n part. Each takes a running n8n and the sandbox, runs one job
 * with this package's node and with n8n's generic node on the same instance, alternating which
 * side goes first, and returns every sample.
 */
import type { ExecutionRecord, N8nInstance } from '../../harness/n8n';
import { callJson, type SandboxProcess } from '../support';
import { percentile, sampleMax, sleep, spread, type Spread } from './stats';
import {
	ACTION_NODE,
	HTTP_NODE,
	getManyWorkflow,
	httpGetManyWorkflow,
	triggerWorkflow,
	webhookWorkflow,
	type Created,
	type CredentialRef,
} from './workflows';

export type Log = (line: string) => void;

interface Registration {
	Id: string;
	Url: string;
	Events: string[];
	IsActive: boolean;
}

const registrationsOf = async (sandbox: SandboxProcess, urlPrefix: string) =>
	(await callJson<Registration[]>(`${sandbox.apiUrl}/Webhooks`, { key: sandbox.adminKey })).filter(
		(registration) => registration.Url.startsWith(urlPrefix),
	);

/** Every order of the names, each once. */
function permutations<T>(names: T[]): T[][] {
	if (names.length <= 1) return [names];
	return names.flatMap((first, index) =>
		permutations([...names.slice(0, index), ...names.slice(index + 1)]).map((rest) => [
			first,
			...rest,
		]),
	);
}

/**
 * Runs the sides round after round, each round in the next of every possible order (A,B then
 * B,A for two sides; all six orders in turn for three). A run pays for the garbage the run before
 * it left in n8n's memory (a whole raw list of 8,502 jobs is a lot of it), so a side that always
 * ran after the same other side would be measured with that side's leftovers: with three sides
 * reversed per round, the middle one always ran after a heavy run and the HTTP Request node half
 * the time after the light Simplified one. Use a multiple of the order count (2 or 6) as rounds.
 */
export async function alternate<T>(
	rounds: number,
	sides: Record<string, () => Promise<T>>,
	log: Log,
	describe: (value: T) => string,
): Promise<Record<string, T[]>> {
	const names = Object.keys(sides);
	const orders = permutations(names);
	const results: Record<string, T[]> = Object.fromEntries(names.map((name) => [name, []]));
	for (let round = 0; round < rounds; round++) {
		for (const name of orders[round % orders.length]) {
			const value = await sides[name]();
			results[name].push(value);
			log(`round ${round + 1}/${rounds} ${name}: ${describe(value)}`);
		}
	}
	return results;
}

// ------------------------------------------------------------------ ingestion

interface IngestionRun {
	deliveries: number;
	senders: number;
	/** Deliveries answered per second (first request sent to last answer received). */
	perSecond: number;
	/** Deliveries per second until n8n had finished every execution they started. */
	completedPerSecond: number;
	p50: number;
	p99: number;
	failures: number;
}

/** A valid Job Update payload, made distinct by its ModifiedDateUtc so no duplicate is dropped. */
function jobUpdateBodies(job: Record<string, unknown>, start: number, count: number): string[] {
	const original = String(job.ModifiedDateUtc ?? '2026-03-01T00:00:00Z');
	const base = Date.parse(original) || Date.parse('2026-03-01T00:00:00Z');
	return Array.from({ length: count }, (_, index) => {
		let iso = new Date(base + (start + index + 1) * 1000).toISOString();
		if (!/\.\d+/.test(original)) iso = iso.replace(/\.\d{3}/, '');
		if (!original.endsWith('Z')) iso = iso.slice(0, -1);
		return JSON.stringify({ ...job, ModifiedDateUtc: iso });
	});
}

/**
 * n8n 2.x publishes an activated workflow asynchronously: its webhook answers 404 for a moment
 * after activation. Waits (at most 15 s) until it answers something else.
 */
export async function untilServed(url: string): Promise<void> {
	const deadline = Date.now() + 15_000;
	while ((await post(url, '{}')).status === 404) {
		if (Date.now() > deadline) throw new Error(`${url} still answers 404 after 15 s`);
		await sleep(250);
	}
}

async function post(url: string, body: string): Promise<{ status: number; ms: number }> {
	const started = performance.now();
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body,
		signal: AbortSignal.timeout(30_000),
	});
	await response.arrayBuffer();
	return { status: response.status, ms: performance.now() - started };
}

/** Waits (bounded) until n8n has no unfinished execution among the workflow's newest 250. */
export async function drained(
	n8n: N8nInstance,
	workflowId: string,
	timeoutMs = 120_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const page = await n8n.api<{ data: ExecutionRecord[] }>(
			'GET',
			`/executions?workflowId=${workflowId}&limit=250&includeData=false`,
		);
		const busy = page.data.filter(
			(execution) =>
				execution.stoppedAt === null || ['new', 'running', 'waiting'].includes(execution.status),
		);
		if (!busy.length) return;
		if (Date.now() > deadline)
			throw new Error(`workflow ${workflowId}: ${busy.length} executions still running`);
		await sleep(100);
	}
}

async function sendAll(
	n8n: N8nInstance,
	target: Created,
	bodies: string[],
	senders: number,
	expectedStatus: number,
): Promise<IngestionRun> {
	const latencies: number[] = [];
	let failures = 0;
	let next = 0;
	const started = performance.now();
	await Promise.all(
		Array.from({ length: senders }, async () => {
			// Bounded: each sender takes the next body until none is left.
			while (next < bodies.length) {
				const body = bodies[next++];
				const answer = await post(target.url, body).catch(() => ({ status: 0, ms: NaN }));
				if (answer.status !== expectedStatus) failures++;
				else latencies.push(answer.ms);
			}
		}),
	);
	const answeredMs = performance.now() - started;
	await drained(n8n, target.id);
	const completedMs = performance.now() - started;
	return {
		deliveries: bodies.length,
		senders,
		perSecond: (bodies.length * 1000) / answeredMs,
		completedPerSecond: (bodies.length * 1000) / completedMs,
		p50: percentile(latencies, 0.5),
		p99: percentile(latencies, 0.99),
		failures,
	};
}

interface SideSummary {
	perSecond: Spread;
	completedPerSecond: Spread;
	p50: Spread;
	p99: Spread;
	failures: number;
}

const summarise = (runs: IngestionRun[]): SideSummary => ({
	perSecond: spread(runs.map((run) => run.perSecond)),
	completedPerSecond: spread(runs.map((run) => run.completedPerSecond)),
	p50: spread(runs.map((run) => run.p50)),
	p99: spread(runs.map((run) => run.p99)),
	failures: runs.reduce((sum, run) => sum + run.failures, 0),
});

export interface IngestionResult {
	senders: number;
	deliveriesPerRun: number;
	runs: number;
	trigger: SideSummary;
	webhook: SideSummary;
}

export interface IngestionSetup {
	trigger: Created;
	webhook: Created;
	/** The registration URL the service calls: the trigger's URL with token and event. */
	deliveryUrl: string;
	job: Record<string, unknown>;
	nextBody: number;
}

export async function prepareIngestion(
	n8n: N8nInstance,
	sandbox: SandboxProcess,
	credential: CredentialRef,
	log: Log,
): Promise<IngestionSetup> {
	const trigger = await triggerWorkflow(n8n, credential, ['Job Update']);
	const webhook = await webhookWorkflow(n8n, 'onReceived', 1);
	const deadline = Date.now() + 30_000;
	let registration: Registration | undefined;
	while (!registration) {
		registration = (await registrationsOf(sandbox, trigger.url)).find(
			(each) => each.IsActive && each.Events.includes('Job Update'),
		);
		if (registration) break;
		if (Date.now() > deadline) throw new Error('The trigger registered no Job Update webhook');
		await sleep(100);
	}
	const list = await callJson<Array<{ Number: number }>>(`${sandbox.apiUrl}/Job`, {
		key: sandbox.key,
	});
	const job = await callJson<Record<string, unknown>>(`${sandbox.apiUrl}/Job/${list[0].Number}`, {
		key: sandbox.key,
	});
	const setup: IngestionSetup = {
		trigger,
		webhook,
		deliveryUrl: registration.Url,
		job,
		nextBody: 0,
	};

	// Check once that both sides do the whole job: 200, an execution, and a valid trigger item.
	const [body] = jobUpdateBodies(job, setup.nextBody++, 1);
	for (const [name, target, url] of [
		['trigger', trigger, setup.deliveryUrl],
		['webhook', webhook, webhook.url],
	] as const) {
		const answer = await post(url, body);
		if (answer.status !== 200)
			throw new Error(`${name}: the check delivery answered ${answer.status}`);
		const [execution] = await n8n.waitForExecutions(target.id, 1, 30_000);
		if (execution.status !== 'success')
			throw new Error(`${name}: the check execution ${execution.status}`);
		if (name === 'trigger') {
			const full = await n8n.getExecution(execution.id);
			const item = full.data?.resultData.runData['Trio VMS Trigger']?.[0]?.data?.main[0]?.[0]?.json;
			if (!item || item.event !== 'Job Update' || '_validation' in item)
				throw new Error(`the trigger's check item is wrong: ${JSON.stringify(item).slice(0, 300)}`);
		}
	}
	log(
		`trigger delivery URL ${setup.deliveryUrl.replace(/token=[^&]+/, 'token=…')}, webhook ${webhook.url}`,
	);
	return setup;
}

export async function measureIngestion(
	n8n: N8nInstance,
	setup: IngestionSetup,
	options: { senders: number; deliveries: number; runs: number },
	log: Log,
): Promise<IngestionResult> {
	const side = (target: Created, url: string) => async () => {
		const bodies = jobUpdateBodies(setup.job, setup.nextBody, options.deliveries);
		setup.nextBody += options.deliveries;
		return sendAll(n8n, { ...target, url }, bodies, options.senders, 200);
	};
	// One unmeasured warm-up each: n8n's first executions of a workflow are slower.
	await side(setup.trigger, setup.deliveryUrl)();
	await side(setup.webhook, setup.webhook.url)();
	const runs = await alternate(
		options.runs,
		{
			trigger: side(setup.trigger, setup.deliveryUrl),
			webhook: side(setup.webhook, setup.webhook.url),
		},
		log,
		(run) =>
			`${run.perSecond.toFixed(1)}/s answered, ${run.completedPerSecond.toFixed(1)}/s completed, p50 ${run.p50.toFixed(0)} ms, p99 ${run.p99.toFixed(0)} ms${run.failures ? `, ${run.failures} FAILED` : ''}`,
	);
	return {
		senders: options.senders,
		deliveriesPerRun: options.deliveries,
		runs: options.runs,
		trigger: summarise(runs.trigger),
		webhook: summarise(runs.webhook),
	};
}

// ------------------------------------------------------------------ wrong token

export interface RefusalResult {
	requestsPerRun: number;
	runs: number;
	/** p50 of each run, ms. */
	refused: Spread;
	/** p50 of a whole Webhook-node execution answered when the last node finishes, ms. */
	webhookExecution: Spread;
}

/** Sends `count` fresh bodies one after another; returns the p50 latency in ms. */
export async function sendSequential(
	setup: IngestionSetup,
	url: string,
	count: number,
	status: number,
): Promise<number> {
	const latencies: number[] = [];
	const bodies = jobUpdateBodies(setup.job, setup.nextBody, count);
	setup.nextBody += count;
	for (const body of bodies) {
		const answer = await post(url, body);
		if (answer.status !== status)
			throw new Error(`${url} answered ${answer.status}, not ${status}`);
		latencies.push(answer.ms);
	}
	return percentile(latencies, 0.5);
}

export async function measureRefusal(
	n8n: N8nInstance,
	setup: IngestionSetup,
	options: { requests: number; runs: number },
	log: Log,
): Promise<RefusalResult> {
	const wrong = new URL(setup.deliveryUrl);
	wrong.searchParams.set('token', '0'.repeat(64));
	const lastNode = await webhookWorkflow(n8n, 'lastNode');
	const side = (url: string, status: number, workflowId?: string) => async () => {
		const latencies: number[] = [];
		const bodies = jobUpdateBodies(setup.job, setup.nextBody, options.requests);
		setup.nextBody += options.requests;
		for (const body of bodies) {
			const answer = await post(url, body);
			if (answer.status !== status)
				throw new Error(`${url} answered ${answer.status}, not ${status}`);
			latencies.push(answer.ms);
		}
		if (workflowId) await drained(n8n, workflowId);
		return percentile(latencies, 0.5);
	};
	await side(wrong.toString(), 403)();
	await side(lastNode.url, 200, lastNode.id)();
	const runs = await alternate(
		options.runs,
		{
			refused: side(wrong.toString(), 403),
			webhookExecution: side(lastNode.url, 200, lastNode.id),
		},
		log,
		(p50) => `p50 ${p50.toFixed(1)} ms`,
	);
	return {
		requestsPerRun: options.requests,
		runs: options.runs,
		refused: spread(runs.refused),
		webhookExecution: spread(runs.webhookExecution),
	};
}

// ------------------------------------------------------------------ job get many

export interface GetManyRun {
	/** n8n's executionTime of the node doing the GET, ms. */
	nodeMs: number;
	/** n8n's garbage-collection pauses within that time, ms (collect-garbage.cjs). */
	gcMs: number;
	/** How many of those pauses were major (mark-compact) collections. */
	majorGcs: number;
	/** The whole request to the workflow's webhook, answered when the last node finished, ms. */
	wallMs: number;
	/** Peak RSS of n8n and its task runner during the run, bytes. */
	peakRss: number;
	/** That peak above the RSS just before the run, bytes. */
	rssGrowth: number;
	items: number;
	/** How many fields the first output item has: a simplified job has at most ten. */
	firstItemFields: number;
}

interface GetManySide {
	nodeMs: Spread;
	/** Node time less the garbage-collection pauses within it: the node's work and n8n's around it. */
	workMs: Spread;
	gcMs: Spread;
	/** Major collections within the node's time, summed over the runs. */
	majorGcs: number;
	wallMs: Spread;
	peakRss: Spread;
	rssGrowth: Spread;
	items: number;
}

export interface GetManyResult {
	runs: number;
	jobs: number;
	trioRaw: GetManySide;
	trioSimplified: GetManySide;
	httpRequest: GetManySide;
}

/** One run of a Get Many workflow, timed from outside; its node time is read later (readGetManyRun). */
interface GetManyTurn {
	executionId: string;
	wallMs: number;
	peakRss: number;
	rssGrowth: number;
}

/**
 * Runs the workflow once and waits until n8n has finished saving its execution, without reading
 * it: reading an execution of 8,502 whole jobs makes n8n load and serialise 17 MB, garbage that
 * would land on the next run measured, which no production run pays.
 */
async function runGetManyOnce(
	n8n: N8nInstance,
	target: Created,
	nodeName: string,
	{ settleMs = 0, collect = false }: { settleMs?: number; collect?: boolean } = {},
): Promise<GetManyTurn> {
	const earlier = (await n8n.listExecutions(target.id)).length;
	if (collect) await collectGarbage(n8n);
	await sleep(settleMs);
	const before = n8n.rssBytes();
	const sampler = sampleMax(() => n8n.rssBytes(), 20);
	const started = performance.now();
	const answer = await post(target.url, '{}');
	const wallMs = performance.now() - started;
	const peakRss = sampler.stop();
	if (answer.status !== 200) throw new Error(`${nodeName}: the workflow answered ${answer.status}`);
	const executions = await n8n.waitForExecutions(target.id, earlier + 1, 30_000);
	return {
		executionId: executions[executions.length - 1].id,
		wallMs,
		peakRss,
		rssGrowth: Math.max(0, peakRss - before),
	};
}

const COLLECTED = /\[trio bench\] garbage collected #(\d+)/g;

/** The number of the last collection n8n announced (collect-garbage.cjs), 0 if none. */
function lastCollection(n8n: N8nInstance): number {
	let last = 0;
	for (const match of n8n.logs().matchAll(COLLECTED)) last = Number(match[1]);
	return last;
}

/**
 * Has n8n collect its garbage (SIGUSR2 to the preloaded collect-garbage.cjs) and waits, bounded,
 * until it says it has: the run measured next then pays for no earlier run's garbage, whichever
 * side that was. Fails loudly when n8n was started without the preload.
 */
async function collectGarbage(n8n: N8nInstance): Promise<void> {
	const before = lastCollection(n8n);
	process.kill(n8n.pid, 'SIGUSR2');
	for (let waited = 0; waited < 10_000; waited += 20) {
		if (lastCollection(n8n) > before) return;
		await sleep(20);
	}
	throw new Error(
		'n8n did not collect its garbage within 10 s: was it started with bench/real-n8n/collect-garbage.cjs preloaded?',
	);
}

const PAUSE = /\[trio bench\] gc (\d+) ([\d.]+) ([\d.]+) (\w+)/g;

interface Pause {
	/** Epoch ms, as n8n records a node's start. */
	start: number;
	ms: number;
	major: boolean;
}

/**
 * The garbage-collection pauses of n8n's main process so far (collect-garbage.cjs announces
 * each), read once for all the runs they are matched with.
 */
function collectionPauses(n8n: N8nInstance): Pause[] {
	const pauses: Pause[] = [];
	for (const [, pid, start, duration, kind] of n8n.logs().matchAll(PAUSE)) {
		if (Number(pid) !== n8n.pid) continue;
		pauses.push({ start: Number(start), ms: Number(duration), major: kind === 'major' });
	}
	if (!pauses.length)
		throw new Error(
			"n8n announced no garbage-collection pause: was it started with bench/real-n8n/collect-garbage.cjs preloaded, and is n8n's pid its own?",
		);
	return pauses;
}

/**
 * How long the pauses held the process within [from, to] (epoch ms), summed, and how many of
 * them were major (mark-compact) collections.
 */
function pausesWithin(pauses: Pause[], from: number, to: number): { ms: number; major: number } {
	let ms = 0;
	let major = 0;
	for (const pause of pauses) {
		const overlap = Math.min(to, pause.start + pause.ms) - Math.max(from, pause.start);
		if (overlap <= 0) continue;
		ms += overlap;
		if (pause.major) major += 1;
	}
	return { ms, major };
}

/** n8n's record of a run: the node's execution time and what it output. */
async function readGetManyRun(
	n8n: N8nInstance,
	turn: GetManyTurn,
	nodeName: string,
	pauses: Pause[] = collectionPauses(n8n),
): Promise<GetManyRun> {
	const full = await n8n.getExecution(turn.executionId);
	const run = full.data?.resultData.runData[nodeName]?.[0] as
		| {
				startTime?: number;
				executionTime?: number;
				data?: { main: Array<Array<{ json?: Record<string, unknown> }> | null> };
		  }
		| undefined;
	if (
		!run ||
		typeof run.executionTime !== 'number' ||
		typeof run.startTime !== 'number' ||
		full.status !== 'success'
	)
		throw new Error(`${nodeName}: execution ${turn.executionId} ${full.status}, no run data`);
	const within = pausesWithin(pauses, run.startTime, run.startTime + run.executionTime);
	return {
		nodeMs: run.executionTime,
		gcMs: within.ms,
		majorGcs: within.major,
		wallMs: turn.wallMs,
		peakRss: turn.peakRss,
		rssGrowth: turn.rssGrowth,
		items: run.data?.main[0]?.length ?? 0,
		firstItemFields: Object.keys(run.data?.main[0]?.[0]?.json ?? {}).length,
	};
}

export async function measureGetManyOnce(
	n8n: N8nInstance,
	target: Created,
	nodeName: string,
): Promise<GetManyRun> {
	return await readGetManyRun(n8n, await runGetManyOnce(n8n, target, nodeName), nodeName);
}

const summariseGetMany = (runs: GetManyRun[]): GetManySide => ({
	nodeMs: spread(runs.map((run) => run.nodeMs)),
	workMs: spread(runs.map((run) => run.nodeMs - run.gcMs)),
	gcMs: spread(runs.map((run) => run.gcMs)),
	majorGcs: runs.reduce((sum, run) => sum + run.majorGcs, 0),
	wallMs: spread(runs.map((run) => run.wallMs)),
	peakRss: spread(runs.map((run) => run.peakRss)),
	rssGrowth: spread(runs.map((run) => run.rssGrowth)),
	items: runs[0]?.items ?? 0,
});

/**
 * Job Get Many against the HTTP Request node on one n8n, the sides taking every order in turn
 * (alternate), the bench waiting `settleMs` before each run. `collect` decides the garbage:
 * false runs them as users' n8n does, collecting whenever V8 decides, so a run of 8,502 whole
 * jobs may pay for the tens of megabytes an earlier run left; true has n8n collect before each
 * run, as the in-process bench does, so each run pays for its own garbage only (a pause alone
 * does not: V8 collects when it allocates). Either way each run records the collection pauses
 * within the node's time. The executions are read once all rounds have run.
 */
export async function measureGetMany(
	n8n: N8nInstance,
	sandbox: SandboxProcess,
	credential: CredentialRef,
	options: { runs: number; settleMs?: number; collect: boolean },
	log: Log,
): Promise<GetManyResult> {
	// Each side: its workflow and the node whose time n8n records.
	const sides = {
		trioRaw: { target: await getManyWorkflow(n8n, credential, false), node: ACTION_NODE },
		trioSimplified: { target: await getManyWorkflow(n8n, credential, true), node: ACTION_NODE },
		httpRequest: {
			target: await httpGetManyWorkflow(n8n, sandbox.apiUrl, sandbox.key),
			node: HTTP_NODE,
		},
	};
	type Side = keyof typeof sides;
	const names = Object.keys(sides) as Side[];
	for (const name of names) await untilServed(sides[name].target.url);
	// Warm-up and check: every side returns the same number of jobs, one item each, and each Trio
	// side the output it asked for (a simplified job has at most ten fields, a raw one all).
	const warmUp: GetManyRun[] = [];
	for (const name of names)
		warmUp.push(await measureGetManyOnce(n8n, sides[name].target, sides[name].node));
	const counts = warmUp.map((run) => run.items);
	if (counts[0] < 1000 || counts.some((count) => count !== counts[0]))
		throw new Error(`Get Many item counts differ: ${counts.join(', ')}`);
	const [rawFields, simplifiedFields, httpFields] = warmUp.map((run) => run.firstItemFields);
	if (simplifiedFields > 10 || rawFields !== httpFields)
		throw new Error(
			`Get Many outputs are not what each side asked for: raw ${rawFields} fields, simplified ${simplifiedFields}, HTTP Request ${httpFields}`,
		);
	// The rounds only run the workflows; n8n's records of them are read once all have run.
	const turns = await alternate(
		options.runs,
		Object.fromEntries(
			names.map((name) => [
				name,
				() => runGetManyOnce(n8n, sides[name].target, sides[name].node, options),
			]),
		) as Record<Side, () => Promise<GetManyTurn>>,
		log,
		(turn) =>
			`wall ${turn.wallMs.toFixed(0)} ms, peak RSS ${(turn.peakRss / 1_048_576).toFixed(0)} MiB (+${(turn.rssGrowth / 1_048_576).toFixed(0)})`,
	);
	const runs = { trioRaw: [], trioSimplified: [], httpRequest: [] } as Record<Side, GetManyRun[]>;
	const pauses = collectionPauses(n8n);
	for (const name of names)
		for (const turn of turns[name]) {
			const run = await readGetManyRun(n8n, turn, sides[name].node, pauses);
			if (run.items !== counts[0])
				throw new Error(`${name}: execution ${turn.executionId} output ${run.items} items`);
			runs[name].push(run);
		}
	log(
		`node ms (of which collecting garbage): ${names.map((name) => `${name} ${runs[name].map((run) => `${run.nodeMs} (${run.gcMs.toFixed(0)})`).join(', ')}`).join('; ')}`,
	);
	return {
		runs: options.runs,
		jobs: counts[0],
		trioRaw: summariseGetMany(runs.trioRaw),
		trioSimplified: summariseGetMany(runs.trioSimplified),
		httpRequest: summariseGetMany(runs.httpRequest),
	};
}

// ------------------------------------------------------------------ activation

export interface ActivationResult {
	runs: number;
	events: number;
	/** From the activate call until every registration is active at the service, ms. */
	ms: Spread;
	/** From the activate call until the trigger's first request reached the service, ms. */
	untilFirstCall: Spread;
	/** From the first to the last registration POST's answer at the service, ms. */
	registrationSpan: Spread;
	/** The service's own time per registration POST (median per run), ms. */
	servicePerPost: Spread;
	/** Registration POSTs per activation. */
	posts: number;
}

interface RequestRecord {
	time: string;
	method: string;
	path: string;
	durationMs: number;
}

export async function measureActivation(
	n8n: N8nInstance,
	sandbox: SandboxProcess,
	credential: CredentialRef,
	events: string[],
	options: { runs: number },
	log: Log,
): Promise<ActivationResult> {
	const target = await triggerWorkflow(n8n, credential, events, false);
	const samples: number[] = [];
	const firstCall: number[] = [];
	const span: number[] = [];
	const perPost: number[] = [];
	let posts = 0;
	const active = async () =>
		(await registrationsOf(sandbox, target.url)).filter((each) => each.IsActive);
	for (let run = 0; run <= options.runs; run++) {
		await callJson(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' });
		const startedWall = Date.now();
		const started = performance.now();
		await n8n.activate(target.id);
		const deadline = Date.now() + 30_000;
		// Bounded polling (10 ms) of the service's registrations for this workflow's URL.
		while ((await active()).length < events.length) {
			if (Date.now() > deadline) throw new Error('activation did not register every event in 30 s');
			await sleep(10);
		}
		const ms = performance.now() - started;
		if (run > 0) {
			// Where the time goes, from the service's request log. The bench polls GET /Webhooks
			// too, so the trigger's first call counted is its GET /Webhooks/Events or first POST.
			const requests = await callJson<RequestRecord[]>(`${sandbox.url}/_sandbox/requests`);
			const trigger = requests.filter(
				(entry) => !(entry.method === 'GET' && entry.path.endsWith('/Webhooks')),
			);
			const saves = requests.filter(
				(entry) => entry.method === 'POST' && entry.path.endsWith('/Webhooks'),
			);
			const startOf = (entry: RequestRecord) => Date.parse(entry.time);
			const first = Math.min(...[...trigger, ...saves].map(startOf));
			samples.push(ms);
			firstCall.push(first - startedWall);
			if (saves.length) {
				span.push(
					Math.max(...saves.map((entry) => startOf(entry) + entry.durationMs)) -
						Math.min(...saves.map(startOf)),
				);
				perPost.push(
					percentile(
						saves.map((entry) => entry.durationMs),
						0.5,
					),
				);
			}
			posts = saves.length;
			log(
				`run ${run}/${options.runs}: ${ms.toFixed(0)} ms; first call after ${first - startedWall} ms, ${saves.length} POSTs over ${span[span.length - 1]?.toFixed(0)} ms (service ${perPost[perPost.length - 1]?.toFixed(1)} ms each)`,
			);
		}
		await n8n.deactivate(target.id);
		const gone = Date.now() + 30_000;
		while ((await active()).length) {
			if (Date.now() > gone) throw new Error('deactivation left registrations active for 30 s');
			await sleep(100);
		}
		await sleep(500);
	}
	return {
		runs: options.runs,
		events: events.length,
		ms: spread(samples),
		untilFirstCall: spread(firstCall),
		registrationSpan: spread(span),
		servicePerPost: spread(perPost),
		posts,
	};
}
