/**
 * Fields that several operations share, and the two wrappers every operation's fields go through
 * (shownUnder) and every resource's (resourceProperties). Each operation file still lists its own
 * fields in order; what reads them when the node runs is in helpers/outputChoices.ts and
 * helpers/locators.ts.
 */
import {
	updateDisplayOptions,
	type INodeProperties,
	type INodePropertyMode,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { JOB_FIELDS, SIMPLIFIED_JOB_FIELDS_IN_WORDS } from '../../shared/jobOutput';
import { outputProperty } from '../../shared/outputProperty';
import { SIMPLE_SUBMISSION_FIELDS_IN_WORDS } from '../../shared/submissionOutput';
import type { TrioOperation, TrioResource } from './node.type';

/**
 * A resource's Operation dropdown, then every field of its operations. The dropdown is written
 * beside the `operations` the router runs (the resource's index.ts), so that the two are read
 * together; operation-contract.test.ts fails when they disagree.
 */
export function resourceProperties(
	resource: TrioResource,
	operations: Record<string, TrioOperation>,
	{ options, default: defaultOperation }: { options: INodePropertyOptions[]; default: string },
): INodeProperties[] {
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options,
			default: defaultOperation,
		},
		...Object.values(operations).flatMap((operation) => operation.description),
	];
}

/**
 * An operation's fields, shown only under its resource and operation: several operations have a
 * field of the same name (Job, Options, Output), and n8n must show and read the chosen one's.
 */
export function shownUnder(
	resource: TrioResource,
	operation: string,
	properties: INodeProperties[],
): INodeProperties[] {
	return updateDisplayOptions(
		{ show: { resource: [resource], operation: [operation] } },
		properties,
	);
}

const PAUSE_OPTION: INodeProperties = {
	// The unit is in the hint, in words: n8n's scanner wants labels in title case, "(Ms)" included.
	displayName: 'Pause Between Requests',
	name: 'pauseBetweenCallsMs',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	hint: 'In thousandths of a second: 1000 is one second, 500 half a second',
	description:
		'Wait at least this long between two requests to Trio VMS. Trio asks callers to pause between requests. Without a pause the node slows down by itself once Trio answers "Too Many Requests", to the pace Trio allowed.',
};

/** The Options collection every operation has: the pause, then the operation's own options. */
export function optionsCollection(extra: INodeProperties[] = []): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [...extra, PAUSE_OPTION].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

/** The Additional Fields collection: an operation's optional parameters, each added when wanted. */
export function additionalFieldsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options,
	};
}

/**
 * A required locator whose list is searched by a method of methods/listSearch.ts, with a second
 * mode where the value is typed as text, for when the list cannot be loaded or an expression maps
 * it.
 */
export function searchableLocator(
	field: { displayName: string; name: string; description: string; hint?: string },
	list: { placeholder: string; searchListMethod: string },
	{ displayName, name, ...typed }: Omit<INodePropertyMode, 'type'>,
): INodeProperties {
	return {
		displayName: field.displayName,
		name: field.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: field.description,
		...(field.hint === undefined ? {} : { hint: field.hint }),
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: list.placeholder,
				typeOptions: { searchListMethod: list.searchListMethod, searchable: true },
			},
			{ displayName, name, type: 'string', ...typed },
		],
	};
}

export const jobLocator = (description: string): INodeProperties =>
	searchableLocator(
		{ displayName: 'Job', name: 'job', description },
		{ placeholder: 'Select a job...', searchListMethod: 'searchJobs' },
		{
			displayName: 'By Number',
			name: 'number',
			placeholder: 'e.g. 48213',
			validation: [
				{
					type: 'regex',
					properties: {
						// Trio numbers jobs from 1 (spec 2.3); n8n's AI builder refuses a value this rejects.
						regex: '^\\s*0*[1-9][0-9]*\\s*$',
						errorMessage: 'A job number is made of digits only and is 1 or more, e.g. 48213',
					},
				},
			],
		},
	);

export const webhookLocator = (description: string): INodeProperties =>
	searchableLocator(
		{ displayName: 'Webhook Registration', name: 'webhook', description },
		{ placeholder: 'Select a registration...', searchListMethod: 'searchWebhooks' },
		{
			displayName: 'By ID',
			name: 'id',
			placeholder: 'e.g. 7d0c2b1e-...',
			// Trio's registration IDs are strings of a form the spec does not give: one word, whatever
			// its characters, so a pasted ID passes and a sentence or a blank does not.
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^\\s*\\S+\\s*$',
						errorMessage: 'A registration ID has no spaces: copy it as Trio lists it',
					},
				},
			],
		},
	);

/** A person's email address (a candidate's, an agency contact's), typed with the same example. */
export const emailAddressParameter: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	placeholder: 'e.g. nathan@example.com',
	default: '',
	required: true,
};

export const submissionNumberParameter = (description: string): INodeProperties => ({
	displayName: 'Submission Number',
	name: 'submissionNumber',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 90311',
	description,
});

export function returnAllAndLimit(what: string): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 50,
			description: 'Max number of results to return',
			hint: `Trio VMS sends every matching ${what} at once; the limit is applied after they arrive`,
			displayOptions: { show: { returnAll: [false] } },
		},
	];
}

export function modifiedAfterFilter(what: string, note?: string): INodeProperties {
	const sentences = [
		`Only return ${what} changed after this moment. A plain date (2026-03-01) means midnight UTC; a date and time without an offset is read in the workflow's time zone.`,
	];
	if (note) sentences.push(note);
	return {
		displayName: 'Modified After',
		name: 'modifiedAfter',
		type: 'dateTime',
		default: '',
		description: sentences.join(' '),
	};
}

/** A job field name in words: `NumberOfOpenPositions` -> "Number of Open Positions". */
function fieldWords(name: string): string {
	return name
		.replace(/Utc$/, ' (UTC)')
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.replace(/ (Of|And) /g, (word) => word.toLowerCase());
}

const SELECTED_FIELDS: INodePropertyOptions = {
	name: 'Selected Fields',
	value: 'fields',
	description: 'Only the fields you choose',
};

/**
 * Output as n8n's own nodes offer it (Microsoft Outlook, Gmail): Simplified for people,
 * Raw for everything Trio sends, Selected Fields for an AI agent that needs only a few. The
 * simplified job is the same ten fields as both triggers'.
 */
export function jobOutputProperties(): INodeProperties[] {
	return [
		outputProperty({
			simplified: `Ten fields: ${SIMPLIFIED_JOB_FIELDS_IN_WORDS}`,
			extra: [SELECTED_FIELDS],
		}),
		{
			displayName: 'Fields',
			name: 'fields',
			type: 'multiOptions',
			default: [],
			description: 'The job details to output; the job number is always included',
			displayOptions: { show: { output: ['fields'] } },
			// Alphabetical, as n8n's lint asks: the quickest way to find one of some forty fields.
			options: JOB_FIELDS.filter((name) => name !== 'Number')
				.map((name) => ({ name: fieldWords(name), value: name }))
				.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })),
		},
	];
}

/**
 * The submission operations' Output, worded as the jobs' one: the simplified submission is the
 * same fields as the Sync Trigger's.
 */
export function submissionOutputProperty(): INodeProperties {
	const words = SIMPLE_SUBMISSION_FIELDS_IN_WORDS;
	return outputProperty({ simplified: `${words[0].toUpperCase()}${words.slice(1)}` });
}
