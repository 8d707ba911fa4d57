/**
 * Service responses turned into output items. Response bodies the spec leaves open are read
 * tolerantly: a list may come as an array or (defensively) wrapped in an object, a body may be
 * empty. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

export function isRecord(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** The items of a list response. */
export function listOf(response: unknown): unknown[] {
	if (Array.isArray(response)) return response;
	if (isRecord(response)) {
		for (const key of ['value', 'items', 'Items', 'data', 'Data']) {
			if (Array.isArray(response[key])) return response[key] as unknown[];
		}
		return [response];
	}
	return response === undefined || response === null || response === '' ? [] : [response];
}

/** A list response as output objects; plain values become { value }. */
export function objectsOf(response: unknown): IDataObject[] {
	return listOf(response).map((entry) =>
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
