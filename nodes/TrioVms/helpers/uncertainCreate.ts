/**
 * A create whose request failed in a way that leaves its outcome unknown (a 5xx answer, or a
 * connection that broke after the request was sent) is never sent again by the transport. This
 * helper looks for the record afterwards, so the user learns whether it went through: found, it
 * is returned as created; not found, the original error says that running the item again is safe
 * (or, after a timeout, that the service may still be working on it).
 */
import type { IDataObject } from 'n8n-workflow';

import { isOutcomeUnknown, mayStillBeRunning } from '../../shared/errors';

export interface UncertainCreate {
	/** Sends the create request once. */
	create(): Promise<IDataObject>;
	/** Looks for what the create would have made; undefined when there is none. */
	lookAgain(): Promise<IDataObject | undefined>;
	/** What was created, for messages: "submission of candidate 5001 to job 100001". */
	what: string;
}

export type CreateOutcome =
	| { action: 'created'; record: IDataObject }
	/** The request failed, but the record exists: the service did the work before the failure. */
	| { action: 'createdDespiteError'; record: IDataObject; error: string };

/** A promise's outcome as a value, so a failure can be looked at before it is passed on. */
async function settle<T>(promise: Promise<T>): Promise<{ value: T } | { failure: unknown }> {
	return await promise.then(
		(value) => ({ value }),
		(failure: unknown) => ({ failure }),
	);
}

export async function createThenLookAgain(steps: UncertainCreate): Promise<CreateOutcome> {
	const attempt = await settle(steps.create());
	if ('value' in attempt) return { action: 'created', record: attempt.value };
	const error = attempt.failure;
	// Refusals, validation errors and failures before sending mean nothing was created: as they are.
	if (!isOutcomeUnknown(error)) throw error;

	const look = await settle(steps.lookAgain());
	if ('failure' in look) {
		const reason = look.failure instanceof Error ? look.failure.message : String(look.failure);
		error.description = [
			`Looking for the ${steps.what} afterwards failed too (${reason}), so whether it was created is still unknown: check in Trio VMS before running this item again.`,
			error.description,
		]
			.filter(Boolean)
			.join('\n\n');
		throw error;
	}
	if (look.value)
		return { action: 'createdDespiteError', record: look.value, error: error.message };
	// After a timeout the service may still be working on the request: finding nothing yet proves nothing.
	const verdict = mayStillBeRunning(error)
		? `A check right after the failure found no ${steps.what} in Trio VMS yet, but Trio may still be working on the request (a gateway gave up waiting, or the connection broke or timed out after sending): check again in a few minutes before running this item again.`
		: `A check right after the failure found no ${steps.what} in Trio VMS, so it was not created: it is safe to run this item again.`;
	error.description = [verdict, error.description].filter(Boolean).join('\n\n');
	throw error;
}
