/**
 * Searchable lists for the resource locators. Trio has no search endpoint: the whole list is read
 * and filtered here by the typed text.
 */
import {
	NodeOperationError,
	type ILoadOptionsFunctions,
	type INodeListSearchItems,
	type INodeListSearchResult,
} from 'n8n-workflow';

import { setNewest } from '../../shared/boundedMap';
import { PATHS } from '../../shared/serviceFacts';
import { INTERACTIVE_CLIENT, TrioClient } from '../../shared/transport';
import { listRegistrations } from '../../shared/webhookRegistrations';
import { withdrawReasonNames } from '../actions/submission/declineOrWithdraw';
import { objectsOf } from '../helpers/output';
import { jobLabel, jobText, matchesFilter, text } from '../helpers/search';

interface JobChoice {
	name: string;
	value: string;
	haystack: string;
}

/**
 * n8n calls the search on every keystroke, and Trio can only send the whole job list (17 MB at
 * 10,000 jobs). So the choices of one list are kept for a minute per credential, in this process,
 * and each keystroke filters them. Bounded: a few credentials, labels only.
 */
const JOB_CHOICES_TTL_MS = 60_000;
const JOB_CHOICES_KEPT = 20;
const jobChoices = new Map<string, { at: number; choices: JobChoice[] }>();

async function loadJobChoices(context: ILoadOptionsFunctions): Promise<JobChoice[]> {
	const client = new TrioClient(context, INTERACTIVE_CLIENT);
	const key = await client.credentialKey();
	const kept = jobChoices.get(key);
	if (kept && Date.now() - kept.at < JOB_CHOICES_TTL_MS) return kept.choices;
	const jobs = objectsOf(await client.request({ method: 'GET', path: PATHS.jobs }));
	const choices: JobChoice[] = [];
	for (const job of jobs) {
		// Field names in any letter case: a camelCase list is as searchable as a PascalCase one.
		const number = jobText(job, 'Number');
		if (!number) continue;
		const name = jobLabel(job);
		const haystack = [
			name,
			jobText(job, 'ClientName'),
			jobText(job, 'State'),
			jobText(job, 'Profession'),
			jobText(job, 'UnitName'),
		].join(' ');
		choices.push({ name, value: number, haystack });
	}
	setNewest(jobChoices, key, { at: Date.now(), choices }, JOB_CHOICES_KEPT);
	return choices;
}

export async function searchJobs(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const results: INodeListSearchItems[] = [];
	for (const { name, value, haystack } of await loadJobChoices(this)) {
		if (matchesFilter(haystack, filter)) results.push({ name, value });
	}
	return { results };
}

export async function searchWebhooks(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const registrations = await listRegistrations(new TrioClient(this, INTERACTIVE_CLIENT));
	const results: INodeListSearchItems[] = [];
	for (const registration of registrations) {
		const state = registration.IsActive === false ? ' (inactive)' : '';
		const label = `${text(registration.Name) || registration.Id}${state}`;
		if (!matchesFilter(`${label} ${text(registration.Url)} ${registration.Id}`, filter)) continue;
		results.push({ name: label, value: registration.Id });
	}
	return { results };
}

/**
 * Trio's own withdraw reasons, filtered by the typed text. There is no list to fall back to: a
 * reason the project made up would be refused at every run. When the list cannot be loaded, n8n
 * shows this error in the list, and the field still takes a reason typed By Text.
 */
export async function searchWithdrawReasons(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const typeIt =
		'Choose By Text and type the reason exactly as Trio lists it, or map it from an earlier node.';
	let names: string[];
	try {
		const client = new TrioClient(this, INTERACTIVE_CLIENT);
		const response = await client.request({ method: 'GET', path: PATHS.withdrawReasons });
		names = withdrawReasonNames(response);
	} catch (error) {
		throw new NodeOperationError(
			this.getNode(),
			`Trio's list of withdraw reasons could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
			{ description: typeIt },
		);
	}
	if (!names.length) {
		throw new NodeOperationError(this.getNode(), 'Trio answered with no withdraw reasons', {
			description: typeIt,
		});
	}
	return {
		results: names
			.filter((name) => matchesFilter(name, filter))
			.map((name) => ({ name, value: name })),
	};
}
