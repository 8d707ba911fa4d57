/**
 * Searchable lists for the resource locators. Trio has no search endpoint: the whole list is read
 * and filtered here by the typed text.
 */
import type {
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { PATHS } from '../../shared/service';
import { createTrioClient, INTERACTIVE_CLIENT } from '../../shared/transport';
import { listRegistrations } from '../../shared/webhookRegistrations';
import { objectsOf } from '../helpers/output';
import { jobLabel, matchesFilter, text } from '../helpers/search';

export async function searchJobs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = createTrioClient(this, INTERACTIVE_CLIENT);
	const jobs = objectsOf(await client.request({ method: 'GET', path: PATHS.jobs }));
	const results: INodeListSearchItems[] = [];
	for (const job of jobs) {
		if (job.Number === undefined || job.Number === null) continue;
		const label = jobLabel(job);
		const haystack = [
			label,
			text(job.ClientName),
			text(job.State),
			text(job.Profession),
			text(job.UnitName),
		].join(' ');
		if (!matchesFilter(haystack, filter)) continue;
		results.push({ name: label, value: String(job.Number) });
	}
	return { results };
}

export async function searchWebhooks(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const registrations = await listRegistrations(createTrioClient(this, INTERACTIVE_CLIENT));
	const results: INodeListSearchItems[] = [];
	for (const registration of registrations) {
		const state = registration.IsActive === false ? ' (inactive)' : '';
		const label = `${text(registration.Name) || registration.Id}${state}`;
		if (!matchesFilter(`${label} ${text(registration.Url)} ${registration.Id}`, filter)) continue;
		results.push({ name: label, value: registration.Id });
	}
	return { results };
}
