/**
 * Job: Get Many with Return All over every job of a 10,000-job sandbox (the open and on-hold ones
 * it lists), through n8n's engine, with Simplify on and off.
 * Baseline: the same GET /api/v3/Job with fetch and JSON.parse.
 */
import type { IDataObject } from 'n8n-workflow';

import { benchmarkCase, type BenchmarkDefinition } from '../runner';
import { expectSuccess, nodeExecutionTime } from '../support';

function jobGetMany(simplify: boolean): BenchmarkDefinition {
	return {
		id: `job-get-many-${simplify ? 'simplified' : 'raw'}`,
		title: `Job Get Many, Return All, Simplify ${simplify ? 'on' : 'off'}`,
		node: `Source -> Trio VMS (job: getAll, returnAll, simplify ${simplify}) in the engine; one GET /api/v3/Job`,
		baseline: 'fetch GET /api/v3/Job with the key, then JSON.parse of the body',
		async prepare(context) {
			// Loaded here, not at the top: reading the bench's flags and names (--list, --help) then
			// does not load n8n-core.
			const { runNode, trioCredentials } = await import('../../harness/engine/engine');
			const credentials = trioCredentials(context.url, context.key);
			return benchmarkCase({
				node: () =>
					runNode({
						parameters: {
							resource: 'job',
							operation: 'getAll',
							returnAll: true,
							output: simplify ? 'simple' : 'raw',
						},
						credentials,
					}),
				async baseline() {
					const response = await fetch(`${context.apiUrl}/Job`, {
						headers: { 'X-API-KEY': context.key, Accept: 'application/json' },
					});
					return JSON.parse(await response.text()) as IDataObject[];
				},
				check(run, jobs) {
					expectSuccess(run);
					if (!Array.isArray(jobs) || jobs.length < 1000)
						throw new Error(`The baseline received ${String(jobs?.length)} jobs`);
					if (run.output.length !== jobs.length)
						throw new Error(
							`The node returned ${run.output.length} jobs, the baseline ${jobs.length}`,
						);
					const first = run.output[0].json;
					if (first.Number !== jobs[0].Number)
						throw new Error('The node and the baseline disagree on the first job');
					if (simplify === 'Shift' in first)
						throw new Error(`Simplify ${simplify} was not applied`);
				},
				nodeOwnMs: nodeExecutionTime,
			});
		},
	};
}

export const benchmarks: BenchmarkDefinition[] = [jobGetMany(true), jobGetMany(false)];
