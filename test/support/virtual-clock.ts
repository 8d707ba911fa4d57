/**
 * One virtual clock for the transport's pacer and, when given, the sandbox's rate limit: time
 * moves only when the pacer or a retry waits, so a test of a pace proves it exactly and at once
 * instead of waiting real time (and failing when a busy machine runs late).
 */
import { usePacerClock } from '../../nodes/shared/transport/pacing';

export interface VirtualClock {
	now(): number;
	/** Every wait the pacer asked for (ms), in order. */
	waits: number[];
	/** Moves the clock on, as if `ms` had passed. */
	advance(ms: number): void;
	/** The real clocks again. */
	restore(): void;
}

/** Starts the virtual clock for the pacers created from now on; restore() ends it. */
export function useVirtualClock(
	sandbox?: { useFaultClock(clock: (() => number) | undefined): void },
	start = 1_000_000,
): VirtualClock {
	let now = start;
	const waits: number[] = [];
	usePacerClock({
		now: () => now,
		sleep: async (ms) => {
			waits.push(ms);
			now += ms;
		},
	});
	sandbox?.useFaultClock(() => now);
	return {
		now: () => now,
		waits,
		advance: (ms) => {
			now += ms;
		},
		restore: () => {
			usePacerClock(undefined);
			sandbox?.useFaultClock(undefined);
		},
	};
}
