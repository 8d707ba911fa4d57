/**
 * npm run bench [-- --runs 7 --warmup 2 --only job,trigger --out bench/results/latest.json]
 *
 * Runs every benchmark in bench/benchmarks against a sandbox of 10,000 jobs (in its own process,
 * on 127.0.0.1), prints a table and writes the figures with the machine's facts to
 * bench/results/latest.json. What each figure means: docs/benchmarks.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, relative, resolve } from 'node:path';

import { commandFlags, oneOf, usage, whole, type FlagSpec } from '../harness/flags';
import { BENCHMARKS } from './benchmarks';
import { REAL_N8N_IDS, runRealN8n, type RealN8nId } from './real-n8n';
import { runBenchmark, type BenchmarkResult, type Summary } from './runner';
import { startSandboxProcess } from './support';

const SANDBOX_JOBS = 10_000;

/** Counts within these bounds; above them a run would take hours. */
const count = (min: number, max = 1000) => whole(min, max);

const FLAGS = {
	part: {
		value: 'P',
		help: 'in-process | real-n8n | all (default all: in-process first, then real n8n)',
		read: oneOf('in-process', 'real-n8n', 'all'),
	},
	runs: {
		value: 'N',
		help: 'in-process: measured runs per benchmark and side (default 7)',
		read: count(1),
	},
	warmup: { value: 'N', help: 'in-process: warm-up runs before them (default 2)', read: count(1) },
	'real-runs': {
		value: 'N',
		help: 'real n8n: measured runs per side, alternating (default 5)',
		read: count(1, 50),
	},
	'settle-ms': {
		value: 'MS',
		help: 'real n8n: the pause before each Get Many run (default 2000). Get Many runs twice: as\nusers run it, then with n8n collecting its garbage before each run',
		read: whole(0, 60_000),
	},
	deliveries: {
		value: 'N',
		help: "real n8n: deliveries per ingestion run at 20 senders (default 200; the issue's\nfigure is 1000); one sender gets half as many",
		read: count(20, 10_000),
	},
	'bulk-rows': {
		value: 'N',
		help: 'real n8n: spreadsheet rows per bulk-submission run (default 1000)',
		read: count(10, 10_000),
	},
	'bulk-runs': {
		value: 'N',
		help: 'real n8n: measured bulk-submission runs per side (default 2: a package run\nof 1,000 rows takes about 2.7 minutes)',
		read: count(1, 20),
	},
	'scale-rows': {
		value: 'A,B',
		help: "real n8n: sheet sizes of the scale measure, smallest first (default 100,1000; the\nissue's figure adds 10000: about 15 minutes more)",
		read: (text: string, flag: string) => {
			const sizes = text.split(',').map((part) => Number(part.trim()));
			if (sizes.some((size) => !Number.isInteger(size) || size < 10 || size > 20_000))
				throw new Error(`${flag} takes sizes from 10 to 20000, e.g. 100,1000,10000`);
			return sizes;
		},
	},
	'n8n-env': {
		value: 'K=V',
		help: 'real n8n: an extra environment variable for n8n (repeatable), e.g. to compare\nN8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true against the default',
		repeatable: true,
		read: (text: string, flag: string): [string, string] => {
			const [key, ...rest] = text.split('=');
			if (!/^[A-Z0-9_]+$/.test(key) || !rest.length) throw new Error(`${flag} takes NAME=value`);
			return [key, rest.join('=')];
		},
	},
	'no-build': { help: 'real n8n: pack dist/ as it is instead of running npm run build first' },
	only: {
		value: 'A,B',
		help: `only the benchmarks whose id contains one of these (real n8n ids: ${REAL_N8N_IDS.join(', ')})`,
		read: (text: string) =>
			text
				.split(',')
				.map((part) => part.trim())
				.filter(Boolean),
	},
	out: {
		value: 'FILE',
		help: 'where to write the in-process results (default bench/results/latest.json); the\nreal-n8n results go beside it (real-n8n.json, .svg, .png). With --only, nothing\nis written unless --out is given, so a partial run never replaces them',
		read: (text: string) => resolve(text),
	},
	list: { help: 'list the benchmarks and exit' },
} satisfies Record<string, FlagSpec>;

const USAGE = usage('Usage: tsx bench/run.ts [options]', FLAGS);

interface CliOptions {
	part: 'in-process' | 'real-n8n' | 'all';
	realRuns: number;
	settleMs: number;
	deliveries: number;
	bulkRows: number;
	bulkRuns: number;
	scaleRows: number[];
	noBuild: boolean;
	n8nEnv: Record<string, string>;
	runs: number;
	warmup: number;
	only: string[];
	/** undefined: bench/results/latest.json for a full run, nothing for a partial one. */
	out: string | undefined;
	list: boolean;
}

function parseArgs(argv: string[]): CliOptions {
	const values = commandFlags(argv, FLAGS, USAGE);
	const only = values.only ?? [];
	return {
		part: values.part ?? 'all',
		realRuns: values['real-runs'] ?? 5,
		settleMs: values['settle-ms'] ?? 2000,
		deliveries: values.deliveries ?? 200,
		bulkRows: values['bulk-rows'] ?? 1000,
		bulkRuns: values['bulk-runs'] ?? 2,
		scaleRows: values['scale-rows'] ?? [100, 1000],
		noBuild: values['no-build'] ?? false,
		n8nEnv: Object.fromEntries(values['n8n-env'] ?? []),
		runs: values.runs ?? 7,
		warmup: values.warmup ?? 2,
		only,
		out: values.out ?? (only.length ? undefined : resolve(__dirname, 'results/latest.json')),
		list: values.list ?? false,
	};
}

/**
 * The runner collects garbage before every run, which needs node's --expose-gc. Without it this
 * script starts itself again with the flag (keeping tsx's loader flags) and passes on the exit code.
 */
function gcOrRestart(): () => void {
	const gc = (globalThis as { gc?: () => void }).gc;
	if (typeof gc === 'function') return gc;
	if (process.env.BENCH_RESTARTED) throw new Error('global.gc is missing even with --expose-gc');
	const child = spawnSync(
		process.execPath,
		[...process.execArgv, '--expose-gc', process.argv[1], ...process.argv.slice(2)],
		{
			stdio: 'inherit',
			env: { ...process.env, BENCH_RESTARTED: '1' },
		},
	);
	process.exit(child.status ?? 1);
}

const ms = (value: number) =>
	value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(bytes >= 10 * 1_048_576 ? 0 : 1);
const ratio = (value: number) =>
	Number.isFinite(value) ? `${value.toFixed(value >= 10 ? 0 : value >= 2 ? 1 : 2)}x` : 'n/a';
const spread = (summary: Summary) => `±${Math.round((summary.spread * 100) / 2)}%`;

function table(results: BenchmarkResult[]): string {
	const header = [
		'benchmark',
		'node ms',
		'baseline ms',
		'time ratio',
		'in node ms',
		'node MB',
		'baseline MB',
		'memory ratio',
	];
	const rows = results.map((result) => [
		result.title,
		`${ms(result.node.ms.median)} ${spread(result.node.ms)}`,
		`${ms(result.baseline.ms.median)} ${spread(result.baseline.ms)}`,
		ratio(result.ratio.time),
		result.node.ownMs ? ms(result.node.ownMs.median) : '-',
		mb(result.node.peakBytes.median),
		mb(result.baseline.peakBytes.median),
		ratio(result.ratio.memory),
	]);
	const widths = header.map((title, column) =>
		Math.max(title.length, ...rows.map((row) => row[column].length)),
	);
	const line = (cells: string[]) =>
		`| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join(' | ')} |`;
	const rule = `|${widths.map((width, column) => (column === 0 ? `:${'-'.repeat(width + 1)}` : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
	return [line(header), rule, ...rows.map(line)].join('\n');
}

function gitCommit(): string | undefined {
	const result = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
		cwd: __dirname,
		encoding: 'utf8',
	});
	return result.status === 0 ? result.stdout.trim() : undefined;
}

async function main(): Promise<void> {
	const gc = gcOrRestart();
	const options = parseArgs(process.argv.slice(2));
	const selected = BENCHMARKS.filter(
		(definition) =>
			!options.only.length || options.only.some((part) => definition.id.includes(part)),
	);
	const realSelected = REAL_N8N_IDS.filter(
		(id) => !options.only.length || options.only.some((part) => id.includes(part)),
	);
	if (options.list) {
		for (const definition of BENCHMARKS)
			console.log(`${definition.id.padEnd(28)} ${definition.title}`);
		for (const id of REAL_N8N_IDS) console.log(`${id.padEnd(28)} (real n8n part)`);
		return;
	}
	const inProcess = options.part !== 'real-n8n' && selected.length > 0;
	const real = options.part !== 'in-process' && realSelected.length > 0;
	if (!inProcess && !real)
		throw new Error(`No benchmark id contains ${options.only.join(' or ')}; see --list`);
	if (inProcess) await runInProcess(options, selected, gc);
	if (real) {
		const allMet = await runRealN8n({
			runs: options.realRuns,
			settleMs: options.settleMs,
			deliveries: options.deliveries,
			bulkRows: options.bulkRows,
			bulkRuns: options.bulkRuns,
			scaleRows: options.scaleRows,
			only: options.only.length ? (realSelected as RealN8nId[]) : [],
			outDir: options.out ? dirname(options.out) : undefined,
			noBuild: options.noBuild,
			n8nEnv: options.n8nEnv,
		});
		console.log(
			allMet
				? '\nEvery real-n8n goal met.'
				: '\nSome real-n8n goals are missed (see MISSED above).',
		);
	}
}

async function runInProcess(
	options: CliOptions,
	selected: typeof BENCHMARKS,
	gc: () => void,
): Promise<void> {
	const startedAt = new Date();
	console.log(
		`Trio VMS benchmarks: ${selected.length} benchmark(s), ${options.warmup} warm-up + ${options.runs} measured runs each, node ${process.version}, ${cpus().length} CPUs`,
	);
	const sandbox = await startSandboxProcess(SANDBOX_JOBS);
	const results: BenchmarkResult[] = [];
	try {
		for (const definition of selected) {
			console.log(
				`\n${definition.title}\n  node:     ${definition.node}\n  baseline: ${definition.baseline}`,
			);
			const result = await runBenchmark(definition, sandbox, options, gc, (line) =>
				console.log(`  ${line}`),
			);
			console.log(
				`  -> time ratio ${ratio(result.ratio.time)}, memory ratio ${ratio(result.ratio.memory)}`,
			);
			results.push(result);
		}
	} finally {
		await sandbox.stop();
	}

	console.log(
		`\nMedians of ${options.runs} runs; ± is half the min-max range; ratio = node / baseline; MB = peak heap + external above the start of a run.\n`,
	);
	console.log(table(results));

	const cpuList = cpus();
	const report = {
		date: startedAt.toISOString(),
		durationSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
		machine: {
			node: process.version,
			v8: process.versions.v8,
			platform: `${process.platform} ${process.arch}`,
			cpus: cpuList.length,
			cpuModel: cpuList[0]?.model.trim(),
			totalMemoryGB: Math.round((totalmem() / 1_073_741_824) * 10) / 10,
		},
		commit: gitCommit(),
		settings: {
			warmup: options.warmup,
			runs: options.runs,
			sandboxJobs: SANDBOX_JOBS,
			n8nCore: packageVersion('n8n-core'),
			n8nWorkflow: packageVersion('n8n-workflow'),
		},
		memory:
			'peakBytes: peak of V8 heap used + external memory (Buffers) during a run, above its value at the start, taken after full collections until memory stopped falling; the peak is the largest value just before a collection during the run (V8 GCProfiler) or at its end (process.memoryUsage)',
		results: results.map((result) => ({
			...result,
			measures: describe(result.id),
			node: { ...result.node, samples: undefined },
			baseline: { ...result.baseline, samples: undefined },
			samples: { node: result.node.samples, baseline: result.baseline.samples },
		})),
	};
	if (!options.out) {
		console.log(
			`\nNot written: a partial run (--only) writes results only with --out (${report.durationSeconds} s in all).`,
		);
		return;
	}
	mkdirSync(dirname(options.out), { recursive: true });
	writeFileSync(
		options.out,
		`${JSON.stringify(report, (_key, value: unknown) => roundNumbers(value), '\t')}\n`,
	);
	console.log(
		`\nWritten to ${relative(process.cwd(), options.out)} (${report.durationSeconds} s in all).`,
	);
}

function describe(id: string): { node: string; baseline: string } | undefined {
	const definition = BENCHMARKS.find((entry) => entry.id === id);
	return definition && { node: definition.node, baseline: definition.baseline };
}

function roundNumbers(value: unknown): unknown {
	return typeof value === 'number' && !Number.isInteger(value)
		? Math.round(value * 1000) / 1000
		: value;
}

function packageVersion(name: string): string | undefined {
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		return (require(`${name}/package.json`) as { version: string }).version;
	} catch {
		return undefined;
	}
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : error);
		process.exit(1);
	},
);
