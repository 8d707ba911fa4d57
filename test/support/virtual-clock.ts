/**
 * Virtual time for the transport's tests. One virtual clock for the pacer and, when given, the
 * sandbox's rate limit: time moves only when the pacer or a retry waits, so a test of a pace
 * proves it exactly and at once instead of waiting real time (and failing when a busy machine
 * runs late). A stepped clock for the deadlines: time moves only when the test moves it.
 */
import type { DeadlineClock } from '../../nodes/shared/transport/body';
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

export interface SteppedClock {
	clock: DeadlineClock;
	/** Moves time on, waking every sleeper that is due, and lets the woken code run. */
	advance(ms: number): Promise<void>;
	/** How many waits on this clock are not yet due: a deadline still watching is one. */
	sleeping(): number;
}

/**
 * A clock for the transport's deadlines that moves only when the test moves it: a timeout comes
 * exactly when the test moves time past it, and never on its own because the machine is busy.
 */
export function steppedClock(start = 0): SteppedClock {
	let now = start;
	const sleepers: Array<{ due: number; wake: () => void }> = [];
	return {
		clock: {
			now: () => now,
			after: async (ms) =>
				await new Promise<void>((wake) => sleepers.push({ due: now + ms, wake })),
		},
		async advance(ms: number) {
			now += ms;
			for (const sleeper of sleepers.splice(0).filter((entry) => {
				if (entry.due <= now) return true;
				sleepers.push(entry);
				return false;
			}))
				sleeper.wake();
			await new Promise((resolve) => setImmediate(resolve));
		},
		sleeping: () => sleepers.length,
	};
}
