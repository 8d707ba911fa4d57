/**
 * Trio's list of an agency's submissions is not part of its published API: the address the
 * package reads may not be offered to an API key. One reading of a failed list request, for
 * every caller (Submission Create's duplicate check, the Sync Trigger).
 */
import { NodeApiError } from 'n8n-workflow';

/**
 * Whether a failed request for the submission list means Trio does not offer it (404 or 405) or
 * could not give it (5xx), rather than a refusal the user can fix (a wrong key, a bad filter).
 */
export function submissionListNotOffered(error: unknown): error is NodeApiError {
	if (!(error instanceof NodeApiError)) return false;
	const status = Number(error.httpCode);
	return status === 404 || status === 405 || status >= 500;
}
