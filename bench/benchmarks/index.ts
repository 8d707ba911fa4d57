/** Every benchmark, in the order they run. A new benchmark is a new file here plus one line below. */
import type { BenchmarkDefinition } from '../runner';
import { benchmarks as candidateFindOrCreate } from './candidate-find-or-create';
import { benchmarks as jobGetMany } from './job-get-many';
import { benchmarks as submissionCreate } from './submission-create';
import { benchmarks as syncTrigger } from './sync-trigger';
import { benchmarks as triggerReceive } from './trigger-receive';

export const BENCHMARKS: BenchmarkDefinition[] = [
	...jobGetMany,
	...submissionCreate,
	...triggerReceive,
	...candidateFindOrCreate,
	...syncTrigger,
];
