/** Labels and matching for the searchable lists (pure). */
import type { IDataObject } from 'n8n-workflow';

import { fieldOf } from '../../shared/recordFields';

export function text(value: unknown): string {
	return value === undefined || value === null ? '' : String(value);
}

/** A job's field as text, whatever the letter case of its name (number, Number, NUMBER). */
export function jobText(job: IDataObject, name: string): string {
	return text(fieldOf(job, name));
}

/** "48213 · ICU RN Nights · St. Mary Medical Center · Austin, TX" (on-hold jobs say so). */
export function jobLabel(job: IDataObject): string {
	const field = (name: string) => jobText(job, name);
	const place = [field('City'), field('StateAbbreviation') || field('State')]
		.filter(Boolean)
		.join(', ');
	const parts = [
		field('Number'),
		field('Title'),
		field('FacilityName') || field('ClientName'),
		place,
	].filter(Boolean);
	const onHold =
		field('JobStatus').toLowerCase().replace(/\s+/g, '') === 'onhold' ? ' (On Hold)' : '';
	return `${parts.join(' · ')}${onHold}`;
}

/** Case-insensitive: every word of the filter must appear in the job's number, title, facility, client, city or state. */
export function matchesFilter(haystack: string, filter: string | undefined): boolean {
	const words = (filter ?? '').toLowerCase().split(/\s+/).filter(Boolean);
	const lower = haystack.toLowerCase();
	return words.every((word) => lower.includes(word));
}
