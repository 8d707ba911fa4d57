/**
 * Service responses turned into output items. Response bodies the spec leaves open are read
 * tolerantly: a list by the one rule of shared/listAnswer.ts, a body that may be empty. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { answerInWords, isRecord, readList } from '../../shared/listAnswer';

/**
 * The items of a list response, by the one rule of shared/listAnswer.ts; an empty answer is an
 * empty list (nothing to output).
 */
export function listOrEmpty(response: unknown): unknown[] {
	return readList(response, {
		emptyIsNone: true,
		refused: (sent) => `Trio VMS answered with ${answerInWords(sent)} instead of a list`,
	});
}

/** A list response as output objects; plain values become { value }. */
export function objectsOf(response: unknown): IDataObject[] {
	return listOrEmpty(response).map((entry) =>
		isRecord(entry) ? entry : { value: entry as IDataObject[string] },
	);
}

/** A single-object response; an empty or non-object body is replaced by `fallback`. */
export function objectOf(response: unknown, fallback: IDataObject): IDataObject {
	if (isRecord(response)) return response;
	if (typeof response === 'string' && response.trim())
		return { ...fallback, message: response.trim() };
	return fallback;
}

/** Applies Return All / Limit to a list that arrived whole. */
export function limited<T>(list: T[], returnAll: boolean, limit: unknown): T[] {
	if (returnAll) return list;
	const max = Math.max(1, Math.floor(Number(limit) || 50));
	return list.slice(0, max);
}
