import {
	NodeApiError,
	NodeOperationError,
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
	type JsonObject,
} from 'n8n-workflow';

import {
	submissionCreateFieldsSchema,
	type AgencyContact,
	type SubmissionCreateFields,
} from '../../../shared/schemas';
import { PATHS } from '../../../shared/service';
import { submissionListNotOffered } from '../../../shared/submissionList';
import type { MultipartPart, TrioClient } from '../../../shared/transport';
import { toStartDateTime } from '../../helpers/dates';
import { objectOf } from '../../helpers/output';
import { readProfileFile } from '../../helpers/profileFile';
import {
	fieldErrorFromZod,
	isBlank,
	optionalAmount,
	optionalText,
	positiveInteger,
	requiredEmail,
	requiredText,
} from '../../helpers/validation';
import { createOnce, type CreateResult } from '../../helpers/createOnce';
import { jobLocator, optionsCollection } from '../common.descriptions';
import { submissionIndexFor } from './submissionIndex';

const properties: INodeProperties[] = [
	jobLocator('The job to submit the candidate to'),
	{
		displayName: 'Candidate Number',
		name: 'candidateNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 20511',
		description:
			'The Trio number of the candidate, for example the "number" that Candidate: Find or Create outputs',
	},
	{
		displayName: 'Resume File Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: "The name of the input's file field that holds the candidate's resume, usually data",
		description:
			"The candidate's resume (Trio calls it the candidate profile document): PDF, DOC, DOCX, RTF or TXT, under 2.5 MB. Trio requires one with every submission.",
	},
	{
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
	},
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
					{
						displayName: 'Email',
						name: 'email',
						type: 'string',
						placeholder: 'e.g. nathan@example.com',
						default: '',
						required: true,
					},
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
				'Whether to look for a submission of this candidate to this job first (in any status) and output it instead of submitting again, so re-running a workflow or retrying the node never submits twice. Turn off to submit the candidate again on purpose.',
		},
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. Jane Doe RN.pdf',
			description:
				"The file name to send instead of the binary data's own name. Its extension decides the format.",
		},
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['submission'], operation: ['create'] } },
	properties,
);

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
		JobNumber: positiveInteger(
			context.getNodeParameter('job', itemIndex, '', { extractValue: true }),
			'Job',
		),
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

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject> {
	const fields = readSubmissionFields(this, itemIndex);
	const { JobNumber: jobNumber, CandidateNumber: candidateNumber } = fields;
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const parts = formParts(fields);

	const { data, ...file } = await readProfileFile(
		this,
		itemIndex,
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
		isBlank(options.fileName) ? undefined : String(options.fileName),
	);
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
}

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
			return { ...result.record, _trio: { action: 'created', matchCount: 0 } };
		case 'createdDespiteError':
			return {
				...result.record,
				_trio: { action: 'createdDespiteError', matchCount: 0, error: result.error },
			};
	}
}
