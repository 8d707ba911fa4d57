import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
	type JsonObject,
} from 'n8n-workflow';

import {
	submissionCreateFieldsSchema,
	type AgencyContact,
	type CandidateCreateRequest,
	type SubmissionCreateFields,
} from '../../../shared/schemas';
import { PATHS } from '../../../shared/service';
import { submissionListNotOffered } from '../../../shared/failureMarks';
import type { MultipartPart, TrioClient } from '../../../shared/transport';
import {
	checkedValue,
	columnsProperty,
	located,
	onlyWith,
	otherColumnsOption,
	readRow,
	valuesFromProperty,
	type ColumnField,
	type RowValues,
} from '../../helpers/columns';
import { toStartDateTime } from '../../helpers/dates';
import { locatorNumber } from '../../helpers/locators';
import { objectOf } from '../../helpers/output';
import {
	readProfileFile,
	readProfileFileFromDisk,
	type CheckedProfileFile,
} from '../../helpers/profileFile';
import {
	fieldErrorFromZod,
	isBlank,
	optionalAmount,
	optionalText,
	positiveInteger,
	requiredEmail,
	requiredText,
} from '../../helpers/validation';
import { createOnce, sentCreateOutput, type CreateResult } from '../../helpers/createOnce';
import { CANDIDATE_COLUMNS, candidateFromRow } from '../candidate/candidateFields';
import { findOrCreateCandidate } from '../candidate/candidateRequests';
import {
	emailAddressField,
	jobLocator,
	optionsCollection,
	shownUnder,
} from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import { fieldOf } from '../../../shared/fields';
import { submissionIndexFor } from './submissionIndex';

const resumeFileField: INodeProperties = {
	displayName: 'Input Field With the Resume',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: "The name of the input's file field that holds the candidate's resume, usually data",
	description:
		"The candidate's resume: PDF, DOC, DOCX, RTF or TXT, under 2.5 MB. Trio requires one with every submission.",
};

export const description = shownUnder('submission', 'create', [
	valuesFromProperty(
		"Each input row's columns, matched to the fields by name: the candidate is found by Email or created from First Name, Last Name and Phone (or given by a Candidate Number column), then submitted to the row's Job Number with its Bill Rate, Start Date and resume",
	),
	onlyWith('fields', jobLocator('The job to submit the candidate to')),
	onlyWith('columns', {
		...columnsProperty(
			'getSubmissionColumns',
			'Map Automatically takes each column whose name is a field\'s name, in any letter case and spacing ("Job Number", "job_number"): Job Number, Email, First Name and Last Name (or Candidate Number instead of those three), Resume File with a resume folder, and where you have them Phone, Bill Rate, Start Date, State Licenses, Availability, Best Contact, Days Off, Experience, Description. Map Each Column Manually lets you drag a column into each field.',
		),
	}),
	onlyWith('columns', {
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
	}),
	{
		displayName: 'Resume Folder',
		name: 'resumeFolder',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. ~/.n8n-files/resumes',
		displayOptions: { show: { valuesFrom: ['columns'], resumeFrom: ['folder'] } },
		hint: 'The folder on the machine or in the container where n8n runs; ~ is the home folder of the user n8n runs as (/home/node in Docker). n8n 2.x reads files only inside ~/.n8n-files unless N8N_RESTRICT_FILE_ACCESS_TO says otherwise.',
		description:
			"Where the resumes are: each row's Resume File column gives the name of a file in this folder. Files outside it are never read, unless Allow Full Paths in Resume File is on.",
	},
	{
		...resumeFileField,
		displayOptions: { show: { valuesFrom: ['columns'], resumeFrom: ['binary'] } },
	},
	onlyWith('fields', {
		displayName: 'Candidate Number',
		name: 'candidateNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 20511',
		description:
			'The Trio number of the candidate, for example the "number" that Candidate: Find or Create outputs',
	}),
	onlyWith('fields', resumeFileField),
	onlyWith('fields', {
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
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
		],
	}),
	{
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
					emailAddressField,
					{ displayName: 'Phone Number', name: 'phoneNumber', type: 'string', default: '' },
				],
			},
		],
	},
	optionsCollection([
		{
			displayName: 'Skip If Already Submitted',
			name: 'skipIfAlreadySubmitted',
			type: 'boolean',
			default: true,
			description:
				"Whether to look for a submission of this candidate to this job first (in any status) and output it instead of submitting again, so re-running a workflow or retrying the node never submits twice. The check reads Trio's list of your submissions, which Trio's published API does not describe: if Trio does not give the list, the item stops with an error and nothing is submitted. Turn off to submit without the check, or to submit the candidate again on purpose.",
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. Jane Doe RN.pdf',
			description:
				"The file name to send instead of the file's own name. Its extension decides the format.",
		},
		otherColumnsOption,
		{
			displayName: 'Allow Full Paths in Resume File',
			name: 'fullPaths',
			type: 'boolean',
			default: false,
			displayOptions: { show: { '/valuesFrom': ['columns'], '/resumeFrom': ['folder'] } },
			description:
				'Whether a Resume File cell may give a full path (such as /data/cv/jane.pdf) or climb out of Resume Folder with ../, reading any file n8n may read. Off, only files inside Resume Folder are read, so that whoever edits the sheet cannot send other files of the n8n machine to Trio.',
		},
	]),
]);

/** The text fields: node parameter, form part, the label the user sees. */
const TEXT_FIELDS = [
	['bestContactDescription', 'BestContactDescription', 'Best Contact'],
	['availabilityDescription', 'AvailabilityDescription', 'Availability'],
	['daysOffDescription', 'DaysOffDescription', 'Days Off'],
	['experienceDescription', 'ExperienceDescription', 'Experience'],
	['description', 'Description', 'Description'],
	['modifyNote', 'ModifyNote', 'Modify Note'],
] as const satisfies ReadonlyArray<readonly [string, keyof SubmissionCreateFields, string]>;

const LABELS: Record<string, string> = {
	JobNumber: 'Job',
	CandidateNumber: 'Candidate Number',
	BillRateAmount: 'Bill Rate',
	StartDate: 'Start Date',
	AgencyContacts: 'Agency Contacts',
	...Object.fromEntries(TEXT_FIELDS.map(([, part, label]) => [part, label])),
};

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

/** The item's submission fields, read and checked against the service's rules. */
function readSubmissionFields(
	context: IExecuteFunctions,
	itemIndex: number,
): SubmissionCreateFields {
	// Checked in the order the fields appear, so the first problem reported is the first one seen.
	const fields: SubmissionCreateFields = {
		JobNumber: locatorNumber(context, itemIndex, 'job', 'Job'),
		CandidateNumber: positiveInteger(
			context.getNodeParameter('candidateNumber', itemIndex, ''),
			'Candidate Number',
		),
	};
	const additional = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const contacts = readAgencyContacts(
		context.getNodeParameter('agencyContacts.contact', itemIndex, []),
	);
	for (const [key, part, label] of TEXT_FIELDS) fields[part] = optionalText(additional[key], label);
	fields.BillRateAmount = optionalAmount(additional.billRateAmount, 'Bill Rate');
	fields.StartDate = toStartDateTime(additional.startDate, 'Start Date');
	if (contacts.length) fields.AgencyContacts = contacts;
	const checked = submissionCreateFieldsSchema.safeParse(fields);
	if (!checked.success) throw fieldErrorFromZod(checked.error, LABELS);
	return checked.data;
}

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
	...TEXT_FIELDS.map(([id, , label]) => ({ id, displayName: label })),
];

/** The submission a spreadsheet row describes, and the candidate to find or create first. */
function readSubmissionRow(row: RowValues): {
	fields: SubmissionCreateFields;
	candidate?: CandidateCreateRequest;
} {
	const jobNumber = checkedValue(row, 'jobNumber', positiveInteger);
	const given = !isBlank(row.values.candidateNumber);
	const fields: SubmissionCreateFields = {
		JobNumber: jobNumber,
		// A candidate still to be found or created is checked with a stand-in number.
		CandidateNumber: given ? checkedValue(row, 'candidateNumber', positiveInteger) : 1,
	};
	const candidate = given ? undefined : candidateFromRow(row);
	for (const [key, part] of TEXT_FIELDS) fields[part] = checkedValue(row, key, optionalText);
	fields.BillRateAmount = checkedValue(row, 'billRateAmount', optionalAmount);
	fields.StartDate = checkedValue(row, 'startDate', toStartDateTime);
	return { fields, candidate };
}

/**
 * Everything the submission needs, checked before anything is sent: the fields (typed in the node
 * or from the row's columns), the resume, and, for a row without a candidate number, the candidate
 * found by email or created (after the checks, so a bad row creates nobody).
 */
async function prepareSubmission(
	context: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<{
	fields: SubmissionCreateFields;
	options: IDataObject;
	resume: CheckedProfileFile & { data: Buffer };
}> {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fileName = isBlank(options.fileName) ? undefined : String(options.fileName);
	if (context.getNodeParameter('valuesFrom', itemIndex, 'fields') !== 'columns') {
		const fields = readSubmissionFields(context, itemIndex);
		const resume = await readProfileFile(
			context,
			itemIndex,
			context.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
			fileName,
		);
		return { fields, options, resume };
	}
	const row = readRow(context, itemIndex, SUBMISSION_COLUMNS, options.otherColumns);
	const { fields, candidate } = readSubmissionRow(row);
	const contacts = readAgencyContacts(
		context.getNodeParameter('agencyContacts.contact', itemIndex, []),
	);
	if (contacts.length) fields.AgencyContacts = contacts;
	const checked = submissionCreateFieldsSchema.safeParse(fields);
	if (!checked.success) throw fieldErrorFromZod(checked.error, LABELS);
	const resume =
		context.getNodeParameter('resumeFrom', itemIndex, 'folder') === 'binary'
			? await readProfileFile(
					context,
					itemIndex,
					context.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
					fileName,
				)
			: await readProfileFileFromDisk(
					context,
					{
						folder: context.getNodeParameter('resumeFolder', itemIndex, '') as string,
						fullPaths: options.fullPaths === true,
					},
					row.values.resumeFile,
					row.label('resumeFile'),
					fileName,
				).catch((error: unknown) => {
					throw located(error, row.where('resumeFile'));
				});
	if (candidate) {
		const found = await findOrCreateCandidate(client, candidate, itemIndex);
		// findOrCreateCandidate outputs only candidates whose number it could read.
		checked.data.CandidateNumber = Number(fieldOf(found, 'number'));
	}
	return { fields: checked.data, options, resume };
}

/** One form part per given field, in the schema's order; AgencyContacts travels as JSON text. */
function formParts(fields: SubmissionCreateFields): MultipartPart[] {
	const parts: MultipartPart[] = [];
	for (const name of Object.keys(submissionCreateFieldsSchema.shape) as Array<
		keyof SubmissionCreateFields
	>) {
		const value = fields[name];
		if (value === undefined) continue;
		parts.push({ name, value: typeof value === 'object' ? JSON.stringify(value) : String(value) });
	}
	return parts;
}

/**
 * The duplicate check reads Trio's submission list, whose address the spec does not show: when
 * Trio does not answer it, say so plainly, and that nothing was submitted.
 */
function checkFailed(
	context: IExecuteFunctions,
	error: unknown,
	jobNumber: number,
	candidateNumber: number,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (!submissionListNotOffered(error)) {
		return error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(context.getNode(), error as Error, { itemIndex });
	}
	return new NodeApiError(context.getNode(), {} as JsonObject, {
		message: `Could not check whether candidate ${candidateNumber} is already submitted to job ${jobNumber}, so nothing was submitted (Trio VMS answered ${error.httpCode ?? 'with an error'} to the list of submissions)`,
		description:
			'The check reads the list of your submissions, which Trio may not offer to this API key. To submit without it, switch off "Skip If Already Submitted" under Options: a re-run or a retry could then submit the candidate twice.',
		httpCode: error.httpCode ?? undefined,
		itemIndex,
	});
}

export const execute: OperationExecute = async function (itemIndex, client) {
	const { fields, options, resume } = await prepareSubmission(this, itemIndex, client);
	const { JobNumber: jobNumber, CandidateNumber: candidateNumber } = fields;
	const parts = formParts(fields);

	const { data, ...file } = resume;
	parts.push({
		name: 'CandidateProfileFile',
		fileName: file.fileName,
		contentType: file.contentType,
		data,
	});

	const what = `submission of candidate ${candidateNumber} to job ${jobNumber}`;
	const send = async () =>
		objectOf(
			await client.request({
				method: 'POST',
				path: PATHS.submissions,
				multipart: parts,
				// Never repeated once it may have reached Trio: a second request could submit the candidate twice.
				idempotent: false,
				itemIndex,
				context: { subject: `job ${jobNumber} or candidate ${candidateNumber}` },
			}),
			{ JobNumber: jobNumber, CandidateNumber: candidateNumber },
		);

	if (options.skipIfAlreadySubmitted === false) {
		const result = await createOnce(client, { what, itemIndex, send });
		return { ...(result as { record: IDataObject }).record, _trio: { action: 'created' } };
	}

	// Every check of the item is done above, so a bad row fails the same way whether or not it was submitted.
	const index = submissionIndexFor(client);
	const result: CreateResult = await createOnce(client, {
		what,
		itemIndex,
		existing: async () => {
			try {
				return await index.find(jobNumber, candidateNumber, itemIndex);
			} catch (error) {
				throw checkFailed(this, error, jobNumber, candidateNumber, itemIndex);
			}
		},
		send,
		lookAgain: async () => {
			await index.load(itemIndex);
			return (await index.find(jobNumber, candidateNumber, itemIndex))[0];
		},
	});
	if (result.action === 'created') index.remember(result.record);
	return submissionOutput(result, jobNumber, candidateNumber);
};

/** matchCount as Find or Create gives it: present when the node looked, 0 when it found none before. */
function submissionOutput(
	result: CreateResult,
	jobNumber: number,
	candidateNumber: number,
): IDataObject {
	switch (result.action) {
		case 'found':
			return {
				...result.matches[0],
				_trio: { action: 'alreadySubmitted', matchCount: result.matches.length },
			};
		case 'madeByThisWorkflow':
			return {
				JobNumber: jobNumber,
				CandidateNumber: candidateNumber,
				...result.record,
				_trio: { action: 'alreadySubmitted', matchCount: 0, submittedByThisWorkflow: true },
			};
		case 'created':
		case 'createdDespiteError':
			return sentCreateOutput(result);
	}
}
