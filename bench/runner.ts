/**
 * The shared runner: what a benchmark is, how one run is measured, and how runs become figures.
 *
 * Every benchmark pairs the package's way of doing a job ("node") with the plainest way of doing
 * the same job ("baseline"). Both are measured in the same process, in alternating order, so the
 * figures that matter are the ratios node / baseline, which hold across machines far better than
 * milliseconds do. See docs/benchmarks.md.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { GCProfiler } from 'node:v8';

/** What a benchmark gets from the runner: the sandbox and its keys. */
export interface BenchContext {
	/** 'http://127.0.0.1:PORT', the credential's Base URL. */
	url: string;
	/** `${url}/api/v3` */
	apiUrl: string;
	/** The plain agency key (everything but webhook management). */
	key: string;
	/** The agency administrator key (webhook management). */
	adminKey: string;
}

/** One prepared benchmark: the two ways of doing the same job. Both must leave the sandbox reusable. */
export interface BenchmarkCase<N = unknown, B = unknown> {
	node(): Promise<N>;
	baseline(): Promise<B>;
	/** Called once, with the first warm-up's results: throws unless both did the whole job. */
	check?(node: NoInfer<N>, baseline: NoInfer<B>): void | Promise<void>;
	/** The Trio VMS node's own time in a run (n8n's executionTime), to tell it from the engine's. */
	nodeOwnMs?(node: NoInfer<N>): number | undefined;
	/**
	 * For sub-millisecond work: the time of a run is the mean over this many back-to-back
	 * operations (default 1). Memory is still that of one operation.
	 */
	operationsPerRun?: number;
	/** Undoes what prepare() set up (servers, registrations). */
	dispose?(): Promise<void>;
}

/** Types a case by what its two sides return, so check() and nodeOwnMs() see those types. */
export function benchmarkCase<N, B>(bench: BenchmarkCase<N, B>): BenchmarkCase {
	return bench as BenchmarkCase;
}

export interface BenchmarkDefinition {
	/** Short, stable id: the key in results/latest.json and what --only matches. */
	id: string;
	title: string;
	/** One line each: what the node side and the baseline side do. */
	node: string;
	baseline: string;
	prepare(context: BenchContext): Promise<BenchmarkCase>;
}

export interface RunOptions {
	warmup: number;
	runs: number;
}

/** One measured run. */
interface Sample {
	ms: number;
	/** Peak of V8 heap used + external memory during the run, above its value at the start (bytes). */
	peakBytes: number;
	nodeOwnMs?: number;
}

export interface Summary {
	median: number;
	min: number;
	max: number;
	/** (max - min) / median: 0.1 means the runs spanned 10% of the median. */
	spread: number;
}

interface SideResult {
	ms: Summary;
	peakBytes: Summary;
	samples: Sample[];
}

export interface BenchmarkResult {
	id: string;
	title: string;
	node: SideResult & { ownMs?: Summary };
	baseline: SideResult;
	/** median(node) / median(baseline) */
	ratio: { time: number; memory: number };
	operationsPerRun: number;
}

type Gc = () => void;

function memoryNow(): number {
	const usage = process.memoryUsage();
	return usage.heapUsed + usage.external;
}

/**
 * Full collections until memory stops falling. One is not enough: V8 frees the memory behind
 * Buffers on a background thread after a collection, so the external figure drops a turn later,
 * and a run that started before that would be credited with the previous run's garbage.
 */
async function settle(gc: Gc): Promise<number> {
	let previous = Number.POSITIVE_INFINITY;
	for (let attempt = 0; attempt < 5; attempt++) {
		gc();
		await nextTurn();
		const now = memoryNow();
		if (now > previous - 64 * 1024) return now;
		previous = now;
	}
	return previous;
}

/**
 * Runs `operation` once and measures it. Memory: once collections free nothing more (settle), the
 * V8 heap used plus external memory (Buffers, ArrayBuffers) is the starting point; between two
 * collections memory only grows, so the peak is the larger of the value just before each
 * collection during the run (V8's GCProfiler reports it) and the value at the end (the result is
 * still held then). The figure is that peak minus the starting point.
 */
async function measureOnce<T>(
	gc: Gc,
	operation: () => Promise<T>,
): Promise<{ sample: Sample; result: T }> {
	const start = await settle(gc);
	const profiler = new GCProfiler();
	profiler.start();
	const began = performance.now();
	const result = await operation();
	const ms = performance.now() - began;
	const end = memoryNow();
	const { statistics } = profiler.stop();
	let peak = end;
	for (const collection of statistics) {
		const before = collection.beforeGC.heapStatistics;
		peak = Math.max(peak, before.usedHeapSize + before.externalMemory);
	}
	return { sample: { ms, peakBytes: Math.max(0, peak - start) }, result };
}

/** Mean wall time of `count` back-to-back operations, starting from a settled heap. */
async function meanTime(gc: Gc, operation: () => Promise<unknown>, count: number): Promise<number> {
	await settle(gc);
	const began = performance.now();
	for (let index = 0; index < count; index++) await operation();
	return (performance.now() - began) / count;
}

async function sampleOf<T>(
	gc: Gc,
	operation: () => Promise<T>,
	operations: number,
): Promise<{ sample: Sample; result: T }> {
	const measured = await measureOnce(gc, operation);
	if (operations > 1) measured.sample.ms = await meanTime(gc, operation, operations);
	return measured;
}

function summarize(values: number[]): Summary {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	const min = sorted[0];
	const max = sorted[sorted.length - 1];
	return { median, min, max, spread: median > 0 ? (max - min) / median : 0 };
}

function side(samples: Sample[]): SideResult {
	return {
		ms: summarize(samples.map((s) => s.ms)),
		peakBytes: summarize(samples.map((s) => s.peakBytes)),
		samples,
	};
}

/**
 * Warm-up runs, then measured runs; node and baseline alternate which goes first in each round so
 * that neither always runs on a freshly collected or freshly warmed process.
 */
export async function runBenchmark(
	definition: BenchmarkDefinition,
	context: BenchContext,
	options: RunOptions,
	gc: Gc,
	progress: (line: string) => void = () => undefined,
): Promise<BenchmarkResult> {
	const bench = await definition.prepare(context);
	const operations = Math.max(1, Math.floor(bench.operationsPerRun ?? 1));
	const nodeSamples: Sample[] = [];
	const baselineSamples: Sample[] = [];
	try {
		const rounds = options.warmup + options.runs;
		for (let round = 0; round < rounds; round++) {
			const measured = round >= options.warmup;
			const runNode = async () => {
				const { sample, result } = await sampleOf(gc, () => bench.node(), operations);
				const own = bench.nodeOwnMs?.(result);
				if (own !== undefined) sample.nodeOwnMs = own;
				return { sample, result };
			};
			const runBaseline = () => sampleOf(gc, () => bench.baseline(), operations);
			let nodeRun: Awaited<ReturnType<typeof runNode>>;
			let baselineRun: Awaited<ReturnType<typeof runBaseline>>;
			if (round % 2 === 0) {
				baselineRun = await runBaseline();
				nodeRun = await runNode();
			} else {
				nodeRun = await runNode();
				baselineRun = await runBaseline();
			}
			if (round === 0) await bench.check?.(nodeRun.result, baselineRun.result);
			if (measured) {
				nodeSamples.push(nodeRun.sample);
				baselineSamples.push(baselineRun.sample);
			}
			progress(
				`${measured ? 'run' : 'warm-up'} ${measured ? round - options.warmup + 1 : round + 1}: node ${nodeRun.sample.ms.toFixed(1)} ms, baseline ${baselineRun.sample.ms.toFixed(1)} ms`,
			);
		}
	} finally {
		await bench.dispose?.();
	}
	const node = side(nodeSamples);
	const own = nodeSamples.map((s) => s.nodeOwnMs).filter((ms): ms is number => ms !== undefined);
	const baseline = side(baselineSamples);
	return {
		id: definition.id,
		title: definition.title,
		node:
			own.length === nodeSamples.length && own.length > 0
				? { ...node, ownMs: summarize(own) }
				: node,
		baseline,
		ratio: {
			time: node.ms.median / baseline.ms.median,
			memory:
				baseline.peakBytes.median > 0
					? node.peakBytes.median / baseline.peakBytes.median
					: Number.NaN,
		},
		operationsPerRun: operations,
	};
}
