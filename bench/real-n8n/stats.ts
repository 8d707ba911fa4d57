/** Small statistics for the real-n8n part: medians and ranges of runs, percentiles of latencies. */

export interface Spread {
	median: number;
	min: number;
	max: number;
	samples: number[];
}

export function percentile(values: number[], share: number): number {
	if (!values.length) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1));
	return sorted[rank];
}

function median(values: number[]): number {
	if (!values.length) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function spread(samples: number[]): Spread {
	return {
		median: median(samples),
		min: Math.min(...samples),
		max: Math.max(...samples),
		samples,
	};
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Samples a value every `everyMs` until stopped; returns the largest value seen. */
export function sampleMax(read: () => number, everyMs: number): { stop(): number } {
	let max = read();
	const timer = setInterval(() => {
		max = Math.max(max, read());
	}, everyMs);
	return {
		stop() {
			clearInterval(timer);
			return Math.max(max, read());
		},
	};
}
