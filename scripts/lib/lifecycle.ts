/**
 * Orderly stop for the scripts that start the demo stack: everything started is registered
 * here the moment it exists and is stopped newest first, on Ctrl-C (SIGINT), SIGTERM,
 * SIGHUP, a failed start-up or a normal end. A second signal forces the exit.
 */

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type StopSignal = (typeof SIGNALS)[number];

/** Each stop step is bounded so one hung process cannot keep the others running. */
const STEP_TIMEOUT_MS = 30_000;
/**
 * One Ctrl-C can arrive more than once: the terminal signals the whole process group, and
 * npm and tsx also relay it to their child. Repeats this soon after the first are that echo,
 * not a second press.
 */
const REPEAT_IGNORED_MS = 1500;

export class StoppingError extends Error {
	constructor() {
		super('stopped by a signal');
	}
}

interface Step {
	name: string;
	stop: () => Promise<void>;
}

export class Cleanup {
	private readonly steps: Step[] = [];
	private stopping: Promise<void> | undefined;
	private readonly handlers = new Map<StopSignal, () => void>();
	/** The signal that started the stop, if one did. */
	signal: StopSignal | undefined;
	private signalAt = 0;

	constructor(private readonly log: (line: string) => void) {}

	get isStopping(): boolean {
		return this.stopping !== undefined;
	}

	/** Registers something to stop. Registered after the stop began, it is stopped at once. */
	add(name: string, stop: () => Promise<void>): void {
		const step = { name, stop };
		if (this.stopping) {
			void this.runStep(step);
			return;
		}
		this.steps.push(step);
	}

	/** Start-up code calls this between steps so an interrupted start-up goes no further. */
	throwIfStopping(): void {
		if (this.stopping) throw new StoppingError();
	}

	/** Stops everything registered, newest first; safe to call more than once. */
	stopAll(): Promise<void> {
		this.stopping ??= (async () => {
			while (this.steps.length > 0) await this.runStep(this.steps.pop() as Step);
		})();
		return this.stopping;
	}

	private async runStep(step: Step): Promise<void> {
		const started = Date.now();
		let timer: NodeJS.Timeout | undefined;
		try {
			await Promise.race([
				step.stop(),
				new Promise<void>((_, reject) => {
					timer = setTimeout(
						() => reject(new Error(`did not stop within ${STEP_TIMEOUT_MS / 1000} s`)),
						STEP_TIMEOUT_MS,
					);
				}),
			]);
			this.log(`stopped ${step.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
		} catch (error) {
			this.log(`stopping ${step.name} failed: ${(error as Error).message}`);
		} finally {
			clearTimeout(timer);
		}
	}

	/**
	 * Calls `onSignal` on the first SIGINT/SIGTERM/SIGHUP; a second one (not its echo) exits
	 * at once (the harness's exit hook still kills n8n's process group then).
	 */
	handleSignals(onSignal: (signal: StopSignal) => void): void {
		for (const signal of SIGNALS) {
			const handler = () => {
				if (this.signal) {
					if (Date.now() - this.signalAt < REPEAT_IGNORED_MS) return;
					this.log(`${signal} again: exiting without waiting`);
					process.exit(1);
				}
				this.signal = signal;
				this.signalAt = Date.now();
				onSignal(signal);
			};
			this.handlers.set(signal, handler);
			process.on(signal, handler);
		}
	}

	/**
	 * The real-n8n harness adds its own signal handlers on its first start: they SIGKILL
	 * n8n at once, which is right for a test run but skips n8n's own shutdown. Once n8n is
	 * up and registered here, ours alone handle signals, so n8n gets SIGTERM and time to
	 * finish. (Its exit hook stays: a forced exit still leaves no n8n behind.)
	 */
	takeOverSignals(): void {
		for (const signal of SIGNALS) {
			const ours = this.handlers.get(signal);
			if (!ours) continue;
			for (const listener of process.listeners(signal)) {
				if (listener !== ours)
					process.removeListener(signal, listener as (...args: unknown[]) => void);
			}
		}
	}
}
