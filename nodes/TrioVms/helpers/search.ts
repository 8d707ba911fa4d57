/** Labels and matching for the searchable lists (pure). */
import type { IDataObject } from 'n8n-workflow';

export function text(value: unknown): string {
	return value === undefined || value === null ? '' : String(value);
}

/** "48213 · ICU RN Nights · St. Mary Medical Center · Austin, TX" (on-hold jobs say so). */
export function jobLabel(job: IDataObject): string {
	const place = [text(job.City), text(job.StateAbbreviation || job.State)]
		.filter(Boolean)
		.join(', ');
	const parts = [
		text(job.Number),
		text(job.Title),
		text(job.FacilityName || job.ClientName),
		place,
	].filter(Boolean);
	const onHold = text(job.JobStatus).toLowerCase() === 'onhold' ? ' (on hold)' : '';
	return `${parts.join(' · ')}${onHold}`;
}

/** Case-insensitive: every word of the filter must appear in the job's number, title, facility, client, city or state. */
export function matchesFilter(haystack: string, filter: string | undefined): boolean {
	const words = (filter ?? '').toLowerCase().split(/\s+/).filter(Boolean);
	const lower = haystack.toLowerCase();
	return words.every((word) => lower.includes(word));
}
