/**
 * The submission's parameters (spec 3.1): the node's properties for them, the spreadsheet columns
 * that give them, and the one reader that checks a submission's values, typed in the node or from
 * a row, against the service's rules.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	submissionCreateFieldsSchema,
	type AgencyContact,
	type CandidateCreateRequest,
	type SubmissionCreateFields,
} from '../../../shared/schemas';
import { inRow, type ColumnField, type RowValues } from '../../helpers/columns';
import { toStartDateTime } from '../../helpers/dates';
import { locatorNumber } from '../../helpers/locators';
import {
	parameterErrorFromZod,
	isBlank,
	optionalAmount,
	optionalText,
	positiveInteger,
	requiredEmail,
	requiredText,
} from '../../helpers/validation';
import { CANDIDATE_COLUMNS, candidateFromRow } from '../candidate/candidateParameters';
import { additionalFieldsCollection, emailAddressParameter } from '../common.descriptions';

/** The file field of the input that holds the resume. */
export const resumeFileParameter: INodeProperties = {
	displayName: 'Input Field With the Resume',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: "The name of the input's file field that holds the candidate's resume, usually data",
	description:
		"The candidate's resume: PDF, DOC, DOCX, RTF or TXT, under 2.5 MB. Trio requires one with every submission.",
};

/** The candidate, by number, with Values From = Fields Below. */
export const candidateNumberParameter: INodeProperties = {
	displayName: 'Candidate Number',
	name: 'candidateNumber',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 20511',
	description:
		'The Trio number of the candidate, for example the "number" that Candidate: Find or Create outputs',
};

/** Where the rows' resumes come from, with Values From = Spreadsheet Columns. */
export const resumeFromParameter: INodeProperties = {
	displayName: 'Resume From',
	name: 'resumeFrom',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'A File Field of the Input',
			value: 'binary',
			description:
				'A node before this one put the resume in a file field, for example Google Drive: Download',
		},
		{
			name: 'A Folder on Disk',
			value: 'folder',
			description:
				"A folder on the machine (or in the container) where n8n runs: each row's Resume File column gives a file's name in it",
		},
	],
	default: 'folder',
};

/** The folder a row's Resume File names a file in; nothing outside it is read by default. */
export const resumeFolderParameter: INodeProperties = {
	displayName: 'Resume Folder',
	name: 'resumeFolder',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. ~/.n8n-files/resumes',
	displayOptions: { show: { valuesFrom: ['columns'], resumeFrom: ['folder'] } },
	hint: '~ is the home folder of the user n8n runs as (/home/node in Docker). n8n 2.x reads files only inside ~/.n8n-files.',
	description:
		"Where the resumes are, on the machine or in the container where n8n runs: each row's Resume File column gives the name of a file in this folder. Files outside it are never read, unless Allow Full Paths in Resume File is on. N8N_RESTRICT_FILE_ACCESS_TO decides which folders n8n 2.x lets nodes read.",
};

/** Additional Fields of Values From = Fields Below. */
export const additionalFieldsParameter: INodeProperties = additionalFieldsCollection([
	{
		displayName: 'Availability',
		name: 'availabilityDescription',
		type: 'string',
		default: '',
		description: 'When the candidate is available',
	},
	{
		displayName: 'Best Contact',
		name: 'bestContactDescription',
		type: 'string',
		default: '',
		description: 'How and when to best reach the candidate',
	},
	{
		displayName: 'Bill Rate',
		name: 'billRateAmount',
		// Text, so that adding the field sends nothing until a rate is typed (a number field
		// would send 0), and a sheet's "$65.50" is read as 65.50.
		type: 'string',
		default: '',
		placeholder: 'e.g. 65.50',
		description: 'The bill rate offered for the candidate; left empty, none is sent',
	},
	{
		displayName: 'Days Off',
		name: 'daysOffDescription',
		type: 'string',
		default: '',
		description: 'Days the candidate needs off',
	},
	{
		displayName: 'Description',
		name: 'description',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: 'A note about the submission',
	},
	{
		displayName: 'Experience',
		name: 'experienceDescription',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: "A summary of the candidate's experience",
	},
	{
		displayName: 'Modify Note',
		name: 'modifyNote',
		type: 'string',
		default: '',
		description: 'A note recorded with this change',
	},
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		default: '',
		description:
			'When the candidate can start. Sent as written (a date becomes that day at 00:00), never shifted between time zones.',
	},
]);

/** People at the agency, for either choice of Values From. */
export const agencyContactsParameter: INodeProperties = {
	displayName: 'Agency Contacts',
	name: 'agencyContacts',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Agency Contact',
	default: {},
	description: 'People at your agency the facility can contact about this submission',
	options: [
		{
			displayName: 'Contact',
			name: 'contact',
			values: [
				{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true },
				emailAddressParameter,
				{ displayName: 'Phone Number', name: 'phoneNumber', type: 'string', default: '' },
			],
		},
	],
};

/** The text parameters: node parameter, form part, the label the user sees. */
const TEXT_PARAMETERS = [
	['bestContactDescription', 'BestContactDescription', 'Best Contact'],
	['availabilityDescription', 'AvailabilityDescription', 'Availability'],
	['daysOffDescription', 'DaysOffDescription', 'Days Off'],
	['experienceDescription', 'ExperienceDescription', 'Experience'],
	['description', 'Description', 'Description'],
	['modifyNote', 'ModifyNote', 'Modify Note'],
] as const satisfies ReadonlyArray<readonly [string, keyof SubmissionCreateFields, string]>;

type TextKey = (typeof TEXT_PARAMETERS)[number][0];

const LABELS: Record<string, string> = {
	JobNumber: 'Job',
	CandidateNumber: 'Candidate Number',
	BillRateAmount: 'Bill Rate',
	StartDate: 'Start Date',
	AgencyContacts: 'Agency Contacts',
	...Object.fromEntries(TEXT_PARAMETERS.map(([, part, label]) => [part, label])),
};

/** The submission's fields as spreadsheet columns; the candidate's come from Find or Create's. */
export const SUBMISSION_COLUMNS: ColumnField[] = [
	{ id: 'jobNumber', displayName: 'Job Number', required: true, aliases: ['Job', 'Job No'] },
	{ id: 'candidateNumber', displayName: 'Candidate Number' },
	// Not marked required (the mapper would then demand them): a Candidate Number column stands in
	// for them, which their names in the mapper say.
	...CANDIDATE_COLUMNS.map((field) => ({
		...field,
		required: false,
		...(field.required && {
			mapperName: `${field.displayName} (required without a Candidate Number)`,
		}),
	})),
	{ id: 'billRateAmount', displayName: 'Bill Rate', aliases: ['Rate'] },
	{ id: 'startDate', displayName: 'Start Date' },
	{
		id: 'resumeFile',
		displayName: 'Resume File',
		mapperName: 'Resume File (required with a resume folder)',
		aliases: ['Resume', 'Resume Path'],
	},
	...TEXT_PARAMETERS.map(([id, , label]) => ({ id, displayName: label })),
];

/** A submission's values as read from the node or a row, before any check, by column id. */
type SubmissionValues = Partial<
	Record<'jobNumber' | 'candidateNumber' | 'billRateAmount' | 'startDate' | TextKey, unknown>
>;

/**
 * The one rule book: each value checked in the order the fields appear (through `check`, so that
 * a row's message names its column and row), the candidate of a row between the numbers and the
 * rest as its columns come, then Agency Contacts and the service's schema.
 */
function submissionFromValues(
	values: SubmissionValues,
	labels: (id: keyof SubmissionValues) => string,
	contactEntries: unknown,
	check: <T>(id: keyof SubmissionValues, run: () => T) => T,
	readCandidate: () => CandidateCreateRequest | undefined = () => undefined,
): { fields: SubmissionCreateFields; candidate?: CandidateCreateRequest } {
	const number = (id: 'jobNumber' | 'candidateNumber') =>
		check(id, () => positiveInteger(values[id], labels(id)));
	const fields: SubmissionCreateFields = {
		JobNumber: number('jobNumber'),
		CandidateNumber: number('candidateNumber'),
	};
	const candidate = readCandidate();
	for (const [key, part] of TEXT_PARAMETERS)
		fields[part] = check(key, () => optionalText(values[key], labels(key)));
	fields.BillRateAmount = check('billRateAmount', () =>
		optionalAmount(values.billRateAmount, labels('billRateAmount')),
	);
	fields.StartDate = check('startDate', () =>
		toStartDateTime(values.startDate, labels('startDate')),
	);
	const contacts = readAgencyContacts(contactEntries);
	if (contacts.length) fields.AgencyContacts = contacts;
	const checked = submissionCreateFieldsSchema.safeParse(fields);
	if (!checked.success) throw parameterErrorFromZod(checked.error, LABELS);
	return { fields: checked.data, candidate };
}

function readAgencyContacts(entries: unknown): AgencyContact[] {
	const list = Array.isArray(entries) ? (entries as IDataObject[]) : [];
	return list.map((entry, index) => {
		const where = `Agency Contacts (contact ${index + 1})`;
		return {
			name: requiredText(entry.name, `${where}: Name`),
			email: requiredEmail(entry.email, `${where}: Email`),
			phoneNumber: optionalText(entry.phoneNumber, `${where}: Phone Number`) ?? '',
		};
	});
}

const PARAMETER_LABELS: Record<keyof SubmissionValues, string> = {
	jobNumber: 'Job',
	candidateNumber: 'Candidate Number',
	billRateAmount: 'Bill Rate',
	startDate: 'Start Date',
	...(Object.fromEntries(TEXT_PARAMETERS.map(([key, , label]) => [key, label])) as Record<
		TextKey,
		string
	>),
};

/** The item's submission parameters typed in the node, checked. */
export function readSubmissionParameters(
	context: IExecuteFunctions,
	itemIndex: number,
): SubmissionCreateFields {
	const additional = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return submissionFromValues(
		{
			// The locator is read and checked by its own helper.
			jobNumber: locatorNumber(context, itemIndex, 'job', 'Job'),
			candidateNumber: context.getNodeParameter('candidateNumber', itemIndex, ''),
			billRateAmount: additional.billRateAmount,
			startDate: additional.startDate,
			...Object.fromEntries(TEXT_PARAMETERS.map(([key]) => [key, additional[key]])),
		},
		(id) => PARAMETER_LABELS[id],
		context.getNodeParameter('agencyContacts.contact', itemIndex, []),
		(_id, run) => run(),
	).fields;
}

/**
 * The submission a spreadsheet row describes, and the candidate to find or create first. A row
 * without a Candidate Number is checked with a stand-in: the candidate is found or created only
 * after every check of the row has passed.
 */
export function readSubmissionRow(
	context: IExecuteFunctions,
	itemIndex: number,
	row: RowValues,
): { fields: SubmissionCreateFields; candidate?: CandidateCreateRequest } {
	const given = !isBlank(row.values.candidateNumber);
	return submissionFromValues(
		{ ...row.values, candidateNumber: given ? row.values.candidateNumber : 1 },
		(id) => row.label(id),
		context.getNodeParameter('agencyContacts.contact', itemIndex, []),
		(id, run) => inRow(row, id, run),
		() => (given ? undefined : candidateFromRow(row)),
	);
}
