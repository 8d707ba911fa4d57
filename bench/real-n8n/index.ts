/**
 * The real-n8n part of `npm run bench`: this package inside a running n8n 2.x (the test
 * harness's pinned install, the package installed from its packed tarball as users install it),
 * against the flows users would build from n8n's own generic nodes on the same instance, in the
 * same run, alternating. The sandbox runs in its own process. What is measured: docs/benchmarks.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';

import { ensureN8n } from '../../harness/install';
import { startN8n, type N8nInstance } from '../../harness/n8n';
import { packPackage } from '../../harness/pack';
import { TRIO_EVENT_NAMES } from '../../nodes/shared/events';
import { makePdf, startSandboxProcess } from '../support';
import { chartSvg, renderPng, type Bar } from './chart';
import {
	BULK_LIMIT,
	measureBulk,
	measureBulkScale,
	storeRowsReader,
	type BulkResult,
	type BulkSide,
	type ScaleStep,
} from './bulk';
import {
	measureActivation,
	measureGetMany,
	measureIngestion,
	measureRefusal,
	prepareIngestion,
	type ActivationResult,
	type GetManyResult,
	type IngestionResult,
	type IngestionSetup,
	type RefusalResult,
} from './measures';
import type { Spread } from './stats';

const REPO = resolve(__dirname, '../..');

/**
 * n8n's setting that builds an expression sandbox only when an expression runs; by default n8n
 * builds one for every delivery to an app trigger (docs/benchmarks.md, "Real n8n").
 */
const LAZY_ISOLATES = 'N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true';
const SANDBOX_JOBS = 10_000;
/** Lets the bench have n8n collect its garbage before a measured run (collect-garbage.cjs). */
const COLLECTING_GARBAGE = `--expose-gc --require ${resolve(__dirname, 'collect-garbage.cjs')}`;
const BULK_PDF_BYTES = 1_000_000;

export const REAL_N8N_IDS = [
	'ingestion',
	'ingestion-lazy',
	'refusal',
	'get-many',
	'activation',
	'bulk',
	'scale',
] as const;
export type RealN8nId = (typeof REAL_N8N_IDS)[number];

export interface RealN8nOptions {
	/** Measured runs per side (alternating). */
	runs: number;
	/** Get Many: the pause before each run (see measureGetMany). */
	settleMs: number;
	/** Deliveries per ingestion run at 20 senders (1,000 with --deliveries 1000). */
	deliveries: number;
	/** Spreadsheet rows per bulk-submission run. */
	bulkRows: number;
	/** Measured bulk-submission runs per side (fewer than `runs`: a 1,000-row run takes minutes). */
	bulkRuns: number;
	/** Sheet sizes of the scale measure (the bulk flow without the limit), smallest first. */
	scaleRows: number[];
	only: RealN8nId[];
	/** Results folder; undefined writes nothing. */
	outDir: string | undefined;
	/** Skip `npm run build` (dist/ is packed as it is). */
	noBuild: boolean;
	/** Extra environment for n8n (recorded in the results). */
	n8nEnv: Record<string, string>;
}

interface Goal {
	figure: string;
	measured: string;
	goal: string;
	ratio: number;
	met: boolean;
	bar?: Bar;
}

const fmt = (value: number, digits = 0) => value.toFixed(digits);
const range = (spread: Spread, digits = 0) =>
	`${fmt(spread.median, digits)} (${fmt(spread.min, digits)}-${fmt(spread.max, digits)})`;
const mib = (bytes: number) => bytes / 1_048_576;
const scaled = (spread: Spread, by: number): Spread => ({
	median: spread.median * by,
	min: spread.min * by,
	max: spread.max * by,
	samples: spread.samples.map((value) => value * by),
});

/** Ratio of medians with the range of per-round ratios, lower is better. */
function ratioBar(label: string, ours: Spread, theirs: Spread, invert: boolean, note: string): Bar {
	const pairs = ours.samples.map((value, index) => {
		const other = theirs.samples[index] ?? theirs.median;
		return invert ? other / value : value / other;
	});
	const value = invert ? theirs.median / ours.median : ours.median / theirs.median;
	return { label, value, low: Math.min(...pairs), high: Math.max(...pairs), note };
}

const toMiB = (spread: Spread): Spread => ({
	median: mib(spread.median),
	min: mib(spread.min),
	max: mib(spread.max),
	samples: spread.samples.map(mib),
});

/**
 * Job Get Many's rows: for each Trio output, node time, node time less the collection pauses
 * within it (what the node and n8n around it did, whoever's garbage was collected), the whole
 * workflow and peak RSS, each against the HTTP Request node. `how` names the garbage setting.
 */
function getManyGoals(result: GetManyResult, how: string): Goal[] {
	const { trioRaw, trioSimplified, httpRequest, jobs } = result;
	const rows: Goal[] = [];
	const row = (figure: string, label: string, ours: Spread, theirs: Spread, unit: string) => {
		const bar = ratioBar(
			label,
			ours,
			theirs,
			false,
			`(${fmt(ours.median)} vs ${fmt(theirs.median)} ${unit})`,
		);
		rows.push({
			figure,
			measured: `Trio VMS ${range(ours)} vs HTTP Request ${range(theirs)}`,
			goal: '<= 1.0x',
			ratio: bar.value,
			met: bar.value <= 1,
			bar,
		});
	};
	for (const [name, side] of [
		['Raw', trioRaw],
		['Simplified', trioSimplified],
	] as const) {
		row(
			`Job Get Many ${jobs} jobs, ${name}, ${how}: node execution time ms (${side.majorGcs} major collections in it over ${result.runs} runs, HTTP Request ${httpRequest.majorGcs})`,
			`Get Many (${name}, ${how}): node time`,
			side.nodeMs,
			httpRequest.nodeMs,
			'ms',
		);
		row(
			`Job Get Many ${jobs} jobs, ${name}, ${how}: node time less n8n's garbage-collection pauses within it, ms (pauses ${range(side.gcMs)} vs ${range(httpRequest.gcMs)})`,
			`Get Many (${name}, ${how}): node time without collection pauses`,
			side.workMs,
			httpRequest.workMs,
			'ms',
		);
		// n8n's executionTime moves with where a collection happens to fall (inside the node or in
		// the saving after it); the whole request is the figure a user waits for.
		row(
			`Job Get Many ${jobs} jobs, ${name}, ${how}: whole workflow ms (request until the last node answered)`,
			`Get Many (${name}, ${how}): whole workflow`,
			side.wallMs,
			httpRequest.wallMs,
			'ms',
		);
		row(
			`Job Get Many, ${name}, ${how}: peak RSS MiB of n8n + runner (growth during the run ${fmt(mib(side.rssGrowth.median))} vs ${fmt(mib(httpRequest.rssGrowth.median))})`,
			`Get Many (${name}, ${how}): peak RSS`,
			toMiB(side.peakRss),
			toMiB(httpRequest.peakRss),
			'MiB',
		);
	}
	return rows;
}

function goals(results: {
	ingestion20?: IngestionResult;
	ingestion1?: IngestionResult;
	/** The same on an n8n started with LAZY_ISOLATES (the README's production advice). */
	lazyIngestion20?: IngestionResult;
	lazyIngestion1?: IngestionResult;
	refusal?: RefusalResult;
	/** No collection forced: as users' n8n runs it. */
	getMany?: GetManyResult;
	/** n8n collects its garbage before each run: each run pays for its own garbage only. */
	getManyCollected?: GetManyResult;
	activation?: ActivationResult;
	bulk?: BulkResult;
	scale?: ScaleStep[];
}): Goal[] {
	const list: Goal[] = [];
	for (const [ingestion, setting] of [
		[results.ingestion20, ''],
		[results.ingestion1, ''],
		[results.lazyIngestion20, ', lazy isolates'],
		[results.lazyIngestion1, ', lazy isolates'],
	] as const) {
		if (!ingestion) continue;
		const { trigger, webhook } = ingestion;
		const senders = `${ingestion.senders} sender(s)${setting}`;
		const through = ratioBar(
			`ingestion ${senders}: throughput`,
			trigger.perSecond,
			webhook.perSecond,
			true,
			`(${fmt(trigger.perSecond.median, 1)} vs ${fmt(webhook.perSecond.median, 1)}/s)`,
		);
		list.push({
			figure: `Ingestion, ${senders}, ${ingestion.deliveriesPerRun} deliveries: throughput (answered/s)${setting ? ` (n8n with ${LAZY_ISOLATES})` : ''}`,
			measured: `trigger ${range(trigger.perSecond, 1)} vs Webhook node ${range(webhook.perSecond, 1)}; completed ${fmt(trigger.completedPerSecond.median, 1)} vs ${fmt(webhook.completedPerSecond.median, 1)}/s`,
			goal: '>= 1.0x',
			ratio: 1 / through.value,
			met: through.value <= 1,
			bar: through,
		});
		const p99 = ratioBar(
			`ingestion ${senders}: p99`,
			trigger.p99,
			webhook.p99,
			false,
			`(${fmt(trigger.p99.median)} vs ${fmt(webhook.p99.median)} ms)`,
		);
		list.push({
			figure: `Ingestion, ${senders}: latency p99 ms (p50 ${fmt(trigger.p50.median)} vs ${fmt(webhook.p50.median)})`,
			measured: `trigger ${range(trigger.p99)} vs Webhook node ${range(webhook.p99)}`,
			goal: '<= 1.0x',
			ratio: p99.value,
			met: p99.value <= 1,
			bar: p99,
		});
	}
	if (results.refusal) {
		const { refused, webhookExecution } = results.refusal;
		const bar = ratioBar(
			'wrong token (403) p50',
			refused,
			webhookExecution,
			false,
			`(${fmt(refused.median, 1)} vs ${fmt(webhookExecution.median, 1)} ms)`,
		);
		list.push({
			figure:
				'Wrong token: p50 ms of a 403, vs a whole Webhook-node execution (answer after last node)',
			measured: `403 ${range(refused, 1)} vs execution ${range(webhookExecution, 1)}`,
			goal: '<= 1.0x',
			ratio: bar.value,
			met: bar.value <= 1,
			bar,
		});
	}
	if (results.getMany) list.push(...getManyGoals(results.getMany, 'as users run it'));
	if (results.getManyCollected)
		list.push(...getManyGoals(results.getManyCollected, 'each run collected first'));
	if (results.activation) {
		const { ms, events } = results.activation;
		list.push({
			figure: `Activation with all ${events} events until every registration is active, ms`,
			measured: range(ms),
			goal: '< 1000 ms',
			ratio: ms.median / 1000,
			met: ms.median < 1000,
			bar: {
				label: `activation, ${events} events (vs 1 s)`,
				value: ms.median / 1000,
				low: ms.min / 1000,
				high: ms.max / 1000,
				note: `(${fmt(ms.median)} ms)`,
			},
		});
	}
	if (results.bulk) {
		const { trio, httpRequest, trioUnlimited, rows, runs, limit } = results.bulk;
		const side = (name: string, each: BulkSide) =>
			`${name} ${range(scaled(each.share, 100))}% (${fmt(each.acceptedPerSecond.median, 1)} accepted calls/s, ${range(each.rateLimited)} x 429, ${fmt(each.requestsPerRow.median, 2)} requests per row, ${fmt(each.rowsPerSecond.median, 1)} rows/s, wall ${range(scaled(each.wallMs, 1 / 1000), 1)} s)`;
		const generic = side('HTTP Request', httpRequest);
		list.push({
			figure: `Bulk submissions, a sheet of ${rows} rows (every 20th a bad e-mail), ${runs} runs per side (one Trio VMS node, Submission Create from Spreadsheet Columns with a ${fmt(results.bulk.pdfBytes / 1e6)} MB resume from a folder; HTTP Request nodes sent the good rows), limit ${limit.limit} per ${limit.windowMs} ms answered 429 + Retry-After: accepted API calls as a share of what the limit allows`,
			measured: `${side('Trio VMS', trio)} vs ${generic}; share package / generic ${fmt(trio.share.median / httpRequest.share.median, 2)}x; the Trio VMS flow without the limit: ${fmt(trioUnlimited.acceptedPerSecond.median, 1)} calls/s (${range(trioUnlimited.acceptedPerSecond)}), ${fmt((trioUnlimited.acceptedPerSecond.median * limit.windowMs) / limit.limit / 10, 0)}% of the limit's rate`,
			goal: '>= 95% of the limit',
			ratio: trio.share.median / httpRequest.share.median,
			met: trio.share.median >= 0.95,
			bar: {
				label: `bulk ${rows} rows: 95% / share of the limit`,
				value: 0.95 / trio.share.median,
				low: 0.95 / trio.share.max,
				high: 0.95 / trio.share.min,
				note: `(${fmt(trio.share.median * 100)}%; HTTP Request ${fmt(httpRequest.share.median * 100)}%, ${fmt(httpRequest.rowsPerSecond.median, 1)} rows/s)`,
			},
		});
		const losses = (each: BulkSide) =>
			`lost ${each.lost}, duplicated ${each.duplicated}${each.extraCandidates ? `, ${each.extraCandidates} extra candidates` : ''}${each.otherErrors ? `, ${each.otherErrors} other error answers` : ''}${each.failedRuns ? `, ${each.failedRuns} failed run(s)` : ''}`;
		const bad =
			trio.lost +
			trio.duplicated +
			trio.badSent +
			trio.goodNotSubmitted +
			(trio.badRows - trio.badReported);
		list.push({
			figure: `Bulk submissions: rows lost, submissions duplicated and bad rows answered 'not submitted' over ${runs} x ${rows} rows per side`,
			measured: `Trio VMS ${losses(trio)}, bad rows ${trio.badReported} of ${trio.badRows} answered 'not submitted' (${trio.badSent} sent, ${trio.goodNotSubmitted} good rows not answered 'submitted'); vs HTTP Request ${losses(httpRequest)}`,
			goal: "0 lost, 0 duplicated, every bad row answered 'not submitted' and none sent",
			ratio: bad / (rows * runs),
			met: bad === 0,
		});
	}
	if (results.bulk) {
		const { trio, trioUnlimited, runs } = results.bulk;
		const writes = trio.storeWrites + trioUnlimited.storeWrites;
		list.push({
			figure: `Bulk submissions: runs that wrote to n8n's database for the create memory (its duplicate store), of the ${runs * 2} Trio VMS runs with and without the limit (no create's outcome was unknown: a 429 is a refusal)`,
			measured: `${writes} of ${runs * 2}; peak RSS of n8n ${range(scaled(trio.peakRss, 1 / 1_048_576))} MiB under the limit, ${range(scaled(trioUnlimited.peakRss, 1 / 1_048_576))} MiB without`,
			goal: 'none',
			ratio: writes / (runs * 2),
			met: writes === 0,
		});
	}
	const scale = results.scale ?? [];
	if (scale.length > 1) {
		const first = scale[0];
		const last = scale[scale.length - 1];
		const reference = scale.find((step) => step.rows >= 1000 && step !== last) ?? first;
		const own = (step: ScaleStep) => Math.max(0, step.trio.rssGrowth - step.rowsOnly.rssGrowth);
		const steps = scale
			.map(
				(step) =>
					`${step.rows} rows ${fmt(step.trio.wallMs / 1000, 1)} s = ${fmt(step.trio.msPerRow, 1)} ms per row, RSS +${fmt(mib(step.trio.rssGrowth))} MiB (n8n's own flow +${fmt(mib(step.rowsOnly.rssGrowth))}), lost ${step.trio.lost}, duplicated ${step.trio.duplicated}, database ${step.trio.storeWritten ? 'written' : 'not written'}`,
			)
			.join('; ');
		const timeRatio = last.trio.msPerRow / reference.trio.msPerRow;
		list.push({
			figure: `Bulk submissions without the limit at ${scale.map((step) => step.rows).join(', ')} rows: time per row at ${last.rows} rows against ${reference.rows}`,
			measured: steps,
			goal: 'linear: at most 1.15x the time per row',
			ratio: timeRatio,
			met: timeRatio <= 1.15 && scale.every((step) => !step.trio.lost && !step.trio.duplicated),
		});
		const memoryRatio = (own(last) + 1_048_576) / (own(first) + 1_048_576);
		list.push({
			figure: `Bulk submissions without the limit: peak RSS growth beyond n8n's own flow over the same rows, ${last.rows} rows against ${first.rows}`,
			measured: `${fmt(mib(own(last)))} MiB against ${fmt(mib(own(first)))} MiB (the Trio VMS flow +${fmt(mib(last.trio.rssGrowth))} against +${fmt(mib(first.trio.rssGrowth))} MiB)`,
			goal: 'flat: at most 1.5x, or both under 32 MiB',
			ratio: memoryRatio,
			met: memoryRatio <= 1.5 || Math.max(own(first), own(last)) < 32 * 1_048_576,
		});
	}
	return list;
}

function build(): void {
	const result = spawnSync('npm', ['run', 'build'], { cwd: REPO, encoding: 'utf8' });
	if (result.status !== 0)
		throw new Error(`npm run build failed:\n${result.stdout}\n${result.stderr}`);
}

export async function runRealN8n(options: RealN8nOptions): Promise<boolean> {
	const startedAt = new Date();
	const log = (line: string) => console.log(`  ${line}`);
	const wanted = (id: RealN8nId) => !options.only.length || options.only.includes(id);
	console.log(`\nReal n8n part: ${options.runs} measured runs per side, alternating`);
	if (!options.noBuild) {
		log('npm run build');
		build();
	}
	const install = await ensureN8n('2.x');
	const tarball = await packPackage();
	// The bulk flows read their PDF with Read/Write Files from Disk, which n8n 2.x allows only
	// inside N8N_RESTRICT_FILE_ACCESS_TO (default ~/.n8n-files): a folder of the bench's own.
	const filesFolder = mkdtempSync(join(tmpdir(), 'trio-bench-files-'));
	const bulkPdf = join(filesFolder, 'Bulk Candidate RN.pdf');
	writeFileSync(bulkPdf, makePdf(BULK_PDF_BYTES));
	const sandbox = await startSandboxProcess(SANDBOX_JOBS);
	let n8n: N8nInstance | undefined;
	const results: Parameters<typeof goals>[0] = {};
	try {
		const startInstance = (extraEnv: Record<string, string> = {}) =>
			startN8n({
				line: '2.x',
				tarball,
				env: {
					N8N_RESTRICT_FILE_ACCESS_TO: filesFolder,
					NODE_OPTIONS: COLLECTING_GARBAGE,
					...options.n8nEnv,
					...extraEnv,
				},
			});
		const credentialFor = async (instance: N8nInstance, name: string, apiKey: string) => {
			const created = await instance.createCredential(name, 'trioVmsApi', {
				apiKey,
				environment: 'custom',
				baseUrl: sandbox.url,
			});
			return { id: created.id, name: created.name };
		};
		/** At 20 senders, then at one sender with half as many deliveries (at least 50). */
		const measureBothIngestions = async (instance: N8nInstance, setup: IngestionSetup) => {
			console.log(`  20 senders, ${options.deliveries} distinct deliveries per run`);
			const twenty = await measureIngestion(
				instance,
				setup,
				{ senders: 20, deliveries: options.deliveries, runs: options.runs },
				log,
			);
			const single = Math.max(50, Math.round(options.deliveries / 2));
			console.log(`  1 sender, ${single} distinct deliveries per run`);
			const one = await measureIngestion(
				instance,
				setup,
				{ senders: 1, deliveries: single, runs: options.runs },
				log,
			);
			return [twenty, one] as const;
		};

		n8n = await startInstance();
		log(
			`n8n ${n8n.version} on Node ${install.nodeVersion}, ready in ${n8n.startSeconds.toFixed(1)} s`,
		);
		const adminRef = await credentialFor(n8n, 'Trio sandbox (admin)', sandbox.adminKey);
		const plainRef = await credentialFor(n8n, 'Trio sandbox', sandbox.key);

		if (wanted('ingestion') || wanted('refusal')) {
			console.log(
				'\nWebhook ingestion: Trio VMS Trigger (Job Update) vs Webhook node (respond immediately)',
			);
			const setup = await prepareIngestion(n8n, sandbox, adminRef, log);
			if (wanted('ingestion')) {
				[results.ingestion20, results.ingestion1] = await measureBothIngestions(n8n, setup);
			}
			if (wanted('refusal')) {
				console.log(
					"\nWrong token: the trigger's 403 vs a Webhook node execution answered after its last node, one sender",
				);
				results.refusal = await measureRefusal(
					n8n,
					setup,
					{ requests: 50, runs: options.runs },
					log,
				);
			}
		}
		if (wanted('get-many')) {
			console.log(
				'\nJob Get Many, Return All: Trio VMS node vs HTTP Request node (same GET and header), as users run it (no collection forced)',
			);
			results.getMany = await measureGetMany(
				n8n,
				sandbox,
				plainRef,
				{ runs: options.runs, settleMs: options.settleMs, collect: false },
				log,
			);
			console.log('\nThe same, n8n collecting its garbage before each run');
			results.getManyCollected = await measureGetMany(
				n8n,
				sandbox,
				plainRef,
				{ runs: options.runs, settleMs: options.settleMs, collect: true },
				log,
			);
		}
		if (wanted('bulk')) {
			console.log(
				`\nBulk submissions, ${options.bulkRows} rows, limit ${BULK_LIMIT.limit} per ${BULK_LIMIT.windowMs} ms: Trio VMS nodes vs HTTP Request nodes (retry on fail)`,
			);
			results.bulk = await measureBulk(
				{ n8n, sandbox, storeRows: storeRowsReader(n8n, install.nodeBinary) },
				plainRef,
				{
					rows: options.bulkRows,
					runs: options.bulkRuns,
					pdfPath: bulkPdf,
					pdfBytes: BULK_PDF_BYTES,
				},
				log,
			);
		}
		if (wanted('scale')) {
			console.log(
				`\nBulk submissions without the limit at ${options.scaleRows.join(', ')} rows, each beside n8n's own flow over the same rows (Webhook, Split Out, No Operation)`,
			);
			results.scale = await measureBulkScale(
				{ n8n, sandbox, storeRows: storeRowsReader(n8n, install.nodeBinary) },
				plainRef,
				{ sizes: options.scaleRows, pdfPath: bulkPdf },
				log,
			);
		}
		if (wanted('activation')) {
			console.log(`\nActivation with all ${TRIO_EVENT_NAMES.length} events`);
			results.activation = await measureActivation(
				n8n,
				sandbox,
				adminRef,
				[...TRIO_EVENT_NAMES],
				{ runs: options.runs },
				log,
			);
		}
		if (wanted('ingestion-lazy')) {
			await n8n.stop();
			const [key, value] = LAZY_ISOLATES.split('=');
			n8n = await startInstance({ [key]: value });
			console.log(`\nWebhook ingestion again, n8n started with ${LAZY_ISOLATES}`);
			const setup = await prepareIngestion(
				n8n,
				sandbox,
				await credentialFor(n8n, 'Trio sandbox (admin)', sandbox.adminKey),
				log,
			);
			[results.lazyIngestion20, results.lazyIngestion1] = await measureBothIngestions(n8n, setup);
		}
	} finally {
		await n8n?.stop();
		await sandbox.stop();
		rmSync(filesFolder, { recursive: true, force: true });
	}

	const list = goals(results);
	console.log(
		`\nReal n8n ${install.version}: medians (min-max) of ${options.runs} runs per side; ratio = package / generic node (throughput: the other way round), same instance, same run\n`,
	);
	const rows = list.map((goal) => [
		goal.figure,
		goal.measured,
		`${goal.ratio.toFixed(2)}x`,
		goal.goal,
		goal.met ? 'met' : 'MISSED',
	]);
	for (const row of rows)
		console.log(`- ${row[0]}\n    ${row[1]}\n    ratio ${row[2]}, goal ${row[3]}: ${row[4]}`);

	if (!options.outDir) {
		console.log('\nNot written: a partial run writes results only with --out.');
		return list.every((goal) => goal.met);
	}
	mkdirSync(options.outDir, { recursive: true });
	const cpuList = cpus();
	const machine = {
		cpus: cpuList.length,
		cpuModel: cpuList[0]?.model.trim(),
		totalMemoryGB: Math.round((totalmem() / 1_073_741_824) * 10) / 10,
		loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100),
		benchNode: process.version,
		n8nNode: install.nodeVersion,
	};
	const report = {
		date: startedAt.toISOString(),
		durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
		n8n: install.version,
		commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
			cwd: REPO,
			encoding: 'utf8',
		}).stdout.trim(),
		machine,
		settings: {
			runs: options.runs,
			ingestionDeliveries: options.deliveries,
			bulkRows: options.bulkRows,
			bulkRuns: options.bulkRuns,
			scaleRows: options.scaleRows,
			sandboxJobs: SANDBOX_JOBS,
		},
		goals: list.map(({ bar: _bar, ...goal }) => goal),
		results,
	};
	const jsonPath = join(options.outDir, 'real-n8n.json');
	writeFileSync(
		jsonPath,
		`${JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value), '\t')}\n`,
	);
	const svg = chartSvg(
		`n8n-nodes-trio-vms inside n8n ${install.version}: package / n8n's generic node`,
		`${report.date.slice(0, 10)}, ${machine.cpus} CPUs (${machine.cpuModel ?? '?'}), load ${machine.loadAverageAtEnd[0]}; ${options.runs} alternating runs per side; commit ${report.commit}`,
		list.flatMap((goal) => (goal.bar ? [goal.bar] : [])),
	);
	const svgPath = join(options.outDir, 'real-n8n.svg');
	writeFileSync(svgPath, svg);
	const pngPath = join(options.outDir, 'real-n8n.png');
	const rendered = await renderPng(svg, pngPath).catch((error: unknown) => {
		console.log(`  chart PNG not rendered: ${String(error)}`);
		return false;
	});
	console.log(
		`\nWritten to ${relative(process.cwd(), jsonPath)}, ${relative(process.cwd(), svgPath)}${rendered ? ` and ${relative(process.cwd(), pngPath)}` : ' (no PNG: apt-get install chromium)'} (${report.durationSeconds} s).`,
	);
	return list.every((goal) => goal.met);
}
