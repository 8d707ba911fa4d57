/**
 * A create whose request failed in a way that leaves its outcome unknown (a 5xx answer, or a
 * connection that broke after the request was sent) is never sent again by the transport. This
 * helper looks for the record afterwards, so the user learns whether it went through: found, it
 * is returned as created; not found, the original error says that whether it was created is still
 * unknown (the service may still be working on it, or not list it yet), never that it is safe.
 */
import type { IDataObject } from 'n8n-workflow';

import { isOutcomeUnknown } from '../../shared/errors';

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
	// Whatever the failure (any 5xx, a broken connection), the service may have stored the record
	// and not list it yet: finding nothing right afterwards never proves it was not created.
	const verdict = `A check right after the failure found no ${steps.what} in Trio VMS yet, but that does not show it was not created: Trio may still be working on the request, or may not list it yet. Whether it was created is unknown: check again in a few minutes before running this item again.`;
	error.description = [verdict, error.description].filter(Boolean).join('\n\n');
	throw error;
}
