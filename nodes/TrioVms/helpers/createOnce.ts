/**
 * Runs a create (a candidate, a submission) so that it is sent once: the one path both Candidate
 * and Submission take. In order, with no other create of the same thing running in this process:
 * 1. Trio's own record, when the operation looks first (Find or Create, Skip If Already
 *    Submitted); failing Trio's answer, the record this workflow made in this process;
 * 2. the memory's refusal, when the same create failed lately with an unknown outcome;
 * 3. the request, sent once; when it fails so that its outcome is unknown (a 5xx, or a connection
 *    broken after sending), the create is held, then looked for again: found, it is returned as
 *    created despite the error; not found, the error says whether it was created is unknown,
 *    never that it is safe.
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
	/** Sends the create request once. */
	send: () => Promise<IDataObject>;
	/** Looks for what a create with an unknown outcome would have made. */
	lookAgain?: () => Promise<IDataObject | undefined>;
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

	const attempt = await settled(steps.send());
	if ('value' in attempt) {
		memory.made(what, attempt.value);
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
