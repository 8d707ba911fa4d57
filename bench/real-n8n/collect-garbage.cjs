/**
 * Preloaded into the benchmark's n8n (NODE_OPTIONS `--expose-gc --require` this file): on SIGUSR2
 * it collects garbage, so that a measured run starts on a clean heap and pays for its own garbage
 * only, as the in-process bench does with `gc()` before each run. Each collection is announced on
 * standard output, numbered, for the bench to wait on (collectGarbage in measures.ts). n8n does
 * not use SIGUSR2.
 */
let collections = 0;
process.on('SIGUSR2', () => {
	if (typeof globalThis.gc !== 'function') return;
	globalThis.gc();
	collections += 1;
	process.stdout.write(`[trio bench] garbage collected #${collections}\n`);
});
