/**
 * Reading a list answer: one rule for every list the nodes read (jobs, submissions, candidates,
 * webhook registrations and events, withdraw reasons). The service notes decide that list
 * endpoints return whole JSON arrays, and ask answers to be read tolerantly:
 *
 *   - a JSON array is the list, its entries as sent (extra fields kept, letter case left to the
 *     reader of each entry, e.g. fields.ts);
 *   - a list wrapped in an object under `value`, `items` or `data`, or under the list's own
 *     name (`submissions`, `webhooks`...), in any letter case, is the list too;
 *   - anything else is refused loudly with UnreadableAnswerError, never taken for an empty list.
 *
 * Two readers differ, each for a reason given where it asks (ListRule): whether an answer with no
 * body is an empty list, and whether one entry on its own stands for a list of one.
 */
import type { IDataObject } from 'n8n-workflow';

/**
 * A plain JSON object (not an array, not null). n8n-workflow has an `isObject`, but its package
 * index does not export it (2.41), so the nodes share this one.
 */
export function isRecord(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** What came instead of a list, in words: "nothing", "text", "a single object", "a number". */
export function answerInWords(body: unknown): string {
	if (body === undefined || body === null || body === '') return 'nothing';
	if (typeof body === 'string') return 'text';
	return isRecord(body) ? 'a single object' : `a ${typeof body}`;
}

/** An answer that cannot be read as the list it should be; its message says what came instead. */
export class UnreadableAnswerError extends Error {}

const WRAPPERS = ['value', 'items', 'data'];

export interface ListRule {
	/** The list's own names, when it is wrapped under one: `submissions`, `webhooks`. */
	names?: readonly string[];
	/**
	 * An answer with no body (nothing, null, '') counts as an empty list. So it always has for what
	 * the action node outputs, its dropdowns and searches, the candidate lookup and the webhook
	 * listing. The Sync Trigger and Submission Create's duplicate check refuse it: there an empty
	 * list taken for granted would report every known job as closed, or submit a pair twice.
	 */
	emptyIsNone?: boolean;
	/** An object on its own that is one entry (a registration with an Id), read as a list of one. */
	single?: (entry: IDataObject) => boolean;
	/** The refusal in the caller's words, with what came instead of a list. */
	refused: (body: unknown) => string;
}

/** The entries of a list answer by the one rule above; throws UnreadableAnswerError otherwise. */
export function readList(body: unknown, rule: ListRule): unknown[] {
	if (Array.isArray(body)) return body;
	if (rule.emptyIsNone && (body === undefined || body === null || body === '')) return [];
	if (isRecord(body)) {
		const names = new Set([...WRAPPERS, ...(rule.names ?? [])]);
		const key = Object.keys(body).find(
			(name) => names.has(name.toLowerCase()) && Array.isArray(body[name]),
		);
		if (key !== undefined) return body[key] as unknown[];
		if (rule.single?.(body)) return [body];
	}
	throw new UnreadableAnswerError(rule.refused(body));
}
