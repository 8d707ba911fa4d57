/**
 * Reading the service's records whatever the letter case of their field names. The spec itself
 * writes `ModifiedDateUtc` for jobs and `ModifiedDateUTC` for submissions, and shapes it marks
 * "not shown" may come camelCase; every reader in the package goes through here so that no
 * filter or output silently drops a record because of a capital letter. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

/** The value of `name` in `record`: the exact name first (the common case costs one lookup). */
export function fieldOf(record: IDataObject, name: string): unknown {
	if (Object.prototype.hasOwnProperty.call(record, name)) return record[name];
	const wanted = name.toLowerCase();
	for (const key of Object.keys(record)) if (key.toLowerCase() === wanted) return record[key];
	return undefined;
}

/** Whether `record` has a field `name` in any letter case. */
export function hasField(record: IDataObject, name: string): boolean {
	if (Object.prototype.hasOwnProperty.call(record, name)) return true;
	const wanted = name.toLowerCase();
	return Object.keys(record).some((key) => key.toLowerCase() === wanted);
}
