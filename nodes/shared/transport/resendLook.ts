/**
 * A create's look between a 429's wait and its re-send (retry.ts states the rule), run for the
 * client: what it found becomes the create's answer, nothing found lets the create go again, and
 * a look that fails ends the create unsent with its outcome unknown, never sent blindly.
 */
import type { NodeApiError } from 'n8n-workflow';

/**
 * Runs the look. `answerError` builds the 429's error with the reason the look failed; it is
 * thrown then, since a create whose look failed may already be stored.
 */
export async function lookBeforeResend(
	look: () => Promise<unknown>,
	answerError: (lookFailed: string) => NodeApiError,
): Promise<{ record: unknown } | undefined> {
	let record: unknown;
	try {
		record = await look();
	} catch (failure) {
		throw answerError(failure instanceof Error ? failure.message : String(failure));
	}
	return record === undefined || record === null ? undefined : { record };
}
