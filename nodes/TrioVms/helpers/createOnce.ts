/**
 * Runs a create (a candidate, a submission) so that it is sent once: the one path both Candidate
 * and Submission take. In order, with no other create of the same thing running in this process:
 * 1. Trio's own record, when the operation looks first (Find or Create, Skip If Already
 *    Submitted); failing Trio's answer, the record this workflow made in this process;
 * 2. the memory's refusal, when the same create failed lately with an unknown outcome;
 * 3. the request, sent once; when it fails so that its outcome is unknown (a 5xx, or a connection
 *    broken after sending), the create is held, then looked for again: found, it is returned as
 *    created despite the error; not found, the error says whether it was created is unknown,
 *    never that it is safe. After a 429 the transport waits, then runs the create's look before
 *    sending it again (retry.ts states the rule): found, it is returned as created despite the
 *    429, since a gateway may rate-limit after it passed the create on.
 */
import type { IDataObject } from 'n8n-workflow';

import { isOutcomeUnknown } from '../../shared/failureMarks';
import type { TrioClient } from '../../shared/transport';
import { CreateMemory, holdAdvice, refusedCreate, unreadableMemory } from './createMemory';

export interface CreateSteps {
	/** What is created, in words and as the memory's key: "submission of candidate 5 to job 7". */
	what: string;
	itemIndex: number;
	/** Trio's records of it, looked up before sending; omitted to create it again on purpose. */
	existing?: () => Promise<IDataObject[]>;
	/** Sends the create request once, handing the transport the look below when there is one. */
	send: (lookBeforeResend?: () => Promise<IDataObject | undefined>) => Promise<IDataObject>;
	/** Looks, with one request, whether Trio stored the create it answered 429. */
	lookBeforeResend?: (sent: SentAt) => Promise<IDataObject | undefined>;
	/** Looks for what a create with an unknown outcome would have made. */
	lookAgain?: () => Promise<IDataObject | undefined>;
}

/**
 * When the create was first sent: n8n's clock, and this process's monotonic clock, from which a
 * look can tell Trio's clock at the send once Trio's own answer has given it its Date.
 */
export interface SentAt {
	atMs: number;
	monotonicMs: number;
}

export type CreateResult =
	/** Trio lists it already: `matches` are its records. */
	| { action: 'found'; matches: IDataObject[] }
	/** Trio does not list it (yet), but answered this workflow's create of it in this process. */
	| { action: 'madeByThisWorkflow'; record: IDataObject }
	| { action: 'created'; record: IDataObject }
	/** The request failed, but the record exists: the service did the work before the failure. */
	| { action: 'createdDespiteError'; record: IDataObject; error: string };

/**
 * The item for a create this run sent, the same for candidates and submissions: `_trio` says it
 * was created, or created although its answer was an error (with that error).
 */
export function sentCreateOutput(
	result: Extract<CreateResult, { action: 'created' | 'createdDespiteError' }>,
): IDataObject {
	if (result.action === 'created')
		return { ...result.record, _trio: { action: 'created', matchCount: 0 } };
	return {
		...result.record,
		_trio: { action: 'created despite an error', matchCount: 0, error: result.error },
	};
}

/**
 * The record of a create sent without looking first (its option off), and its `_trio`: no
 * matchCount, as nothing was looked up; created, or created although Trio answered 429 (found by
 * the look before re-sending).
 */
export function createdWithoutCheck(result: CreateResult): {
	record: IDataObject;
	trio: IDataObject;
} {
	if (result.action === 'createdDespiteError')
		return {
			record: result.record,
			trio: { action: 'created despite an error', error: result.error },
		};
	return { record: (result as { record: IDataObject }).record, trio: { action: 'created' } };
}

const memories = new WeakMap<TrioClient, CreateMemory>();

async function memoryOf(client: TrioClient, itemIndex: number): Promise<CreateMemory> {
	const known = memories.get(client);
	if (known) return known;
	const memory = new CreateMemory({
		helpers: client.helpers,
		credential: await client.credentialKey(itemIndex),
		workflowId: client.workflowId ?? '',
		// n8n's clock, never Trio's: a hold is written and read on the same one (createMemory.ts).
		now: () => Date.now(),
	});
	memories.set(client, memory);
	return memory;
}

async function settled<T>(promise: Promise<T>): Promise<{ value: T } | { failure: unknown }> {
	return await promise.then(
		(value) => ({ value }),
		(failure: unknown) => ({ failure }),
	);
}

const STORED_BEFORE_429 =
	'Trio VMS answered 429 (Too Many Requests) after storing it: the node found it in Trio before sending it again, so it was not sent twice';

/** Sends the create with its look, and says whether the look found it after a 429. */
async function sendWithLook(
	steps: CreateSteps,
): Promise<{ value: IDataObject; foundAfter429: boolean } | { failure: unknown }> {
	const { lookBeforeResend } = steps;
	const sent: SentAt = { atMs: Date.now(), monotonicMs: performance.now() };
	let foundAfter429 = false;
	const look =
		lookBeforeResend &&
		(async () => {
			const record = await lookBeforeResend(sent);
			foundAfter429 = record !== undefined;
			return record;
		});
	const attempt = await settled(steps.send(look));
	return 'value' in attempt ? { value: attempt.value, foundAfter429 } : attempt;
}

export async function createOnce(client: TrioClient, steps: CreateSteps): Promise<CreateResult> {
	const memory = await memoryOf(client, steps.itemIndex);
	return await memory.oneAtATime(steps.what, async () => await runCreate(client, memory, steps));
}

async function runCreate(
	client: TrioClient,
	memory: CreateMemory,
	steps: CreateSteps,
): Promise<CreateResult> {
	const { what, itemIndex } = steps;
	if (steps.existing) {
		const look = await settled(steps.existing());
		if ('value' in look && look.value.length) return { action: 'found', matches: look.value };
		// Trio's list may lag behind a create this workflow made moments ago in this process.
		const made = memory.madeByThisWorkflow(what);
		if (made) return { action: 'madeByThisWorkflow', record: made as IDataObject };
		if ('failure' in look) throw look.failure;
	}

	const state = await memory.state(what);
	if ('unreadable' in state) throw unreadableMemory(client.node, what, state.unreadable, itemIndex);
	if (state.held) throw refusedCreate(client.node, what, state, itemIndex);

	const attempt = await sendWithLook(steps);
	if ('value' in attempt) {
		memory.made(what, attempt.value);
		if (attempt.foundAfter429)
			return { action: 'createdDespiteError', record: attempt.value, error: STORED_BEFORE_429 };
		return { action: 'created', record: attempt.value };
	}
	const error = attempt.failure;
	// Refusals, validation errors and failures before sending mean nothing was created: as they are.
	if (!isOutcomeUnknown(error)) throw error;

	const hold = await memory.hold(what);
	const advice = holdAdvice(what, hold.until, hold.notShared);
	if (!steps.lookAgain) {
		error.description = [error.description, advice].filter(Boolean).join('\n\n');
		throw error;
	}
	const look = await settled(steps.lookAgain());
	if ('value' in look && look.value) {
		memory.made(what, look.value);
		return { action: 'createdDespiteError', record: look.value, error: error.message };
	}
	// Whatever the failure, the service may have stored the record and not list it yet: finding
	// nothing right afterwards never proves it was not created.
	const verdict =
		'failure' in look
			? `Looking for the ${what} afterwards failed too (${look.failure instanceof Error ? look.failure.message : String(look.failure)}), so whether it was created is still unknown: check in Trio VMS before running this item again.`
			: `A check right after the failure found no ${what} in Trio VMS yet, but that does not show it was not created: Trio may still be working on the request, or may not list it yet. Whether it was created is unknown: check again in a few minutes before running this item again.`;
	error.description = [verdict, error.description, advice].filter(Boolean).join('\n\n');
	throw error;
}
