/**
 * The time n8n gives one poll (`getPollBudgetMs()`, from n8n 2.38; under the durable scheduler
 * its poll timeout less a margin, and a poll still running at the timeout is abandoned). The
 * budget is read once at the start of a poll and sizes every request of it: how long a request
 * may take is the transport's to say (`worstCaseMs`), so the options chosen here are checked
 * against the transport's own worst case, body trickling, retries and pauses included.
 */
import { NodeApiError, type IPollFunctions, type JsonObject } from 'n8n-workflow';

import { DEFAULT_RETRY_POLICY, worstCaseMs, type TrioClientOptions } from '../shared/transport';
import { declared } from './failure';

/** Under a budget, the longest pause before a retry (the transport's default is up to 20 s). */
const BUDGET_RETRY_PAUSE_MS = 2_000;
/** Kept for diffing, emitting and saving after the last request. */
const BUDGET_RESERVE_MS = 1_000;
/** A lookup gets at most this share of the time left when the lookups start. */
const LOOKUP_SHARE = 1 / 4;
/** Idle timeouts under a budget: the longest, and the shortest worth a retry. */
const LIST_TIMEOUT = { max: 60_000, minWithRetries: 10_000 };
const LOOKUP_TIMEOUT = { max: 15_000, minWithRetries: 2_000, min: 250 };

/** Client options whose worst case the transport computes, and that worst case. */
export interface SizedOptions {
	options: TrioClientOptions;
	worstMs: number;
}

function optionsFor(timeoutMs: number, retries: number): TrioClientOptions {
	return {
		timeoutMs,
		// The whole exchange, body included, ends with the attempt's share of the window: a list
		// that keeps trickling is given up there, not after the transport's 20 minutes.
		maxExchangeMs: 2 * timeoutMs,
		retry: {
			maxRetries: retries,
			maxDelayMs: BUDGET_RETRY_PAUSE_MS,
			maxRetryAfterMs: BUDGET_RETRY_PAUSE_MS,
		},
	};
}

/**
 * Client options for requests that must end within `windowMs`: the transport's retries while
 * each attempt still gets a useful idle timeout, fewer when not, none at the last. The worst
 * case grows by a fixed amount per millisecond of idle timeout, so the timeout that fits is read
 * off two of the transport's own answers.
 */
export function sizedWithin(
	windowMs: number,
	limits: { max: number; minWithRetries: number },
): SizedOptions {
	let retries = DEFAULT_RETRY_POLICY.maxRetries;
	let timeoutMs = 1;
	for (; retries >= 0; retries--) {
		const fixed = worstCaseMs(optionsFor(0, retries));
		const perMs = worstCaseMs(optionsFor(1, retries)) - fixed;
		timeoutMs = Math.max(1, Math.min(limits.max, Math.floor((windowMs - fixed) / perMs)));
		if (retries === 0 || timeoutMs >= limits.minWithRetries) break;
	}
	const options = optionsFor(timeoutMs, Math.max(0, retries));
	return { options, worstMs: worstCaseMs(options) };
}

export interface PollBudget {
	readonly budgetMs: number;
	/** Time left for requests, the reserve for saving taken off (0 when spent). */
	remainingMs(): number;
	spent(): boolean;
	/** Whether a request that may take `worstMs` still ends in time. */
	allows(worstMs: number): boolean;
	/** Options for the list request: it ends, body and retries included, before the budget does. */
	listOptions(): SizedOptions;
	/**
	 * Options for the job lookups and how long one may take, sized from the time left now;
	 * undefined when too little is left for any.
	 */
	lookupSlice(): SizedOptions | undefined;
	/** The error of a list that did not arrive within the budget. */
	ranOut(context: IPollFunctions, subject: string): NodeApiError;
}

/**
 * The most a first check (no state yet) spends on the list. n8n runs a poll trigger's first
 * check inline when the workflow is published, and gives it no budget of its own there
 * (PollContext's five-minute default in n8n 2.41; none before 2.38), while Publish waits for it.
 * This is what n8n's durable scheduler gives a scheduled check by default (its 45 s poll
 * timeout less its 20 % margin): a first check never holds Publish longer than a check may run.
 * A first check that runs out of it, or that Trio refuses for now, takes its baseline at the
 * next check instead (poll.ts).
 */
export const FIRST_CHECK_BUDGET_MS = 36_000;

/** n8n's own budget for this poll (getPollBudgetMs, from n8n 2.38), if it gives one. */
function givenBudgetMs(context: IPollFunctions): number | undefined {
	const read = (context as Partial<Pick<IPollFunctions, 'getPollBudgetMs'>>).getPollBudgetMs;
	if (typeof read !== 'function') return undefined;
	let budgetMs: number;
	try {
		budgetMs = Number(read.call(context));
	} catch {
		return undefined;
	}
	return Number.isFinite(budgetMs) && budgetMs > 0 ? budgetMs : undefined;
}

/**
 * The budget of this poll: n8n's (none before n8n 2.38), held to `capMs` when given (a first
 * check is held to FIRST_CHECK_BUDGET_MS whatever n8n gives).
 */
export function pollBudget(context: IPollFunctions, capMs?: number): PollBudget | undefined {
	const given = givenBudgetMs(context);
	const budgetMs = capMs === undefined ? given : Math.min(given ?? capMs, capMs);
	if (budgetMs === undefined) return undefined;
	const deadline = Date.now() + budgetMs;
	const remainingMs = () => Math.max(0, deadline - BUDGET_RESERVE_MS - Date.now());
	return {
		budgetMs,
		remainingMs,
		spent: () => remainingMs() <= 0,
		allows: (worstMs) => worstMs <= remainingMs(),
		listOptions: () => sizedWithin(remainingMs(), LIST_TIMEOUT),
		lookupSlice() {
			const slice = sizedWithin(remainingMs() * LOOKUP_SHARE, LOOKUP_TIMEOUT);
			return (slice.options.timeoutMs ?? 0) < LOOKUP_TIMEOUT.min ? undefined : slice;
		},
		ranOut(context, subject) {
			const seconds = Math.round(budgetMs / 100) / 10;
			return declared(
				new NodeApiError(context.getNode(), {} as JsonObject, {
					message: `Trio VMS did not send ${subject} within the ${seconds} s n8n gives one check`,
					description:
						'Nothing was output and the trigger still remembers what it had seen; its next check asks again. If Trio is often this slow and n8n runs checks with its durable scheduler, your n8n administrator can give checks more time with N8N_SCHEDULER_POLL_TIMEOUT (and N8N_SCHEDULER_LEASE_DURATION when the timeout is longer than the lease).',
				}),
				// n8n's scheduler then waits a little before the next poll, as for a service that is
				// down for now, instead of giving up on the trigger.
				{ cause: 'temporarily-unavailable' },
			);
		},
	};
}
