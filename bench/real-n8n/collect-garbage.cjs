/**
 * Preloaded into the benchmark's n8n (NODE_OPTIONS `--expose-gc --require` this file). Two jobs:
 *
 * - On SIGUSR2 it collects garbage, so that a measured run can start on a clean heap and pay for
 *   its own garbage only, as the in-process bench does with `gc()` before each run. Each
 *   collection is announced on standard output, numbered, for the bench to wait on
 *   (collectGarbage in measures.ts). n8n does not use SIGUSR2.
 * - It announces every garbage-collection pause V8 reports (`[trio bench] gc <pid> <epoch ms>
 *   <duration ms> <kind>`; n8n's task runner may inherit this preload, and its pauses stop only
 *   itself), so that the bench can tell how much of a node's execution time n8n's
 *   process spent collecting rather than running the node: users' n8n forces no collection, and
 *   a pause lands in whichever node happens to allocate when the heap is full.
 */
const { PerformanceObserver, constants, performance } = require('node:perf_hooks');

let collections = 0;
process.on('SIGUSR2', () => {
	if (typeof globalThis.gc !== 'function') return;
	globalThis.gc();
	collections += 1;
	process.stdout.write(`[trio bench] garbage collected #${collections}\n`);
});

const KINDS = {
	[constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
	[constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
	[constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
	[constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak',
};

new PerformanceObserver((list) => {
	const lines = list
		.getEntries()
		.map(
			(entry) =>
				`[trio bench] gc ${process.pid} ${(performance.timeOrigin + entry.startTime).toFixed(2)} ${entry.duration.toFixed(3)} ${KINDS[entry.detail?.kind] ?? 'other'}\n`,
		);
	process.stdout.write(lines.join(''));
}).observe({ entryTypes: ['gc'] });
