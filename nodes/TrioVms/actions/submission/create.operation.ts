import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { submissionCreateFieldsSchema, type SubmissionCreateFields } from '../../../shared/schemas';
import { PATHS } from '../../../shared/serviceFacts';
import { statusText } from '../../../shared/statusWords';
import { submissionListNotOffered } from '../../../shared/failureMarks';
import type { MultipartPart, TrioClient } from '../../../shared/transport';
import {
	columnsProperty,
	located,
	onlyWith,
	otherColumnsOption,
	readRow,
	valuesFromProperty,
} from '../../helpers/columns';
import { objectOf } from '../../helpers/output';
import {
	isRowFailure,
	problemInWords,
	RESULT_COLUMNS,
	RESULT_WORDS,
	ROW_WITH_RESULT,
	rowWithResult,
} from '../../helpers/rowResult';
import { shapeSubmission } from '../../helpers/outputChoices';
import { readProfileFile, type CheckedProfileFile } from '../../helpers/profileFile';
import { checkedResumeFolder, readProfileFileFromDisk } from '../../helpers/resumeFolder';
import { isBlank } from '../../helpers/validation';
import {
	createdWithoutCheck,
	createOnce,
	sentCreateOutput,
	type CreateResult,
	type SentAt,
} from '../../helpers/createOnce';
import { findOrCreateCandidate } from '../candidate/candidateRequests';
import {
	jobLocator,
	optionsCollection,
	shownUnder,
	submissionOutputProperty,
} from '../common.descriptions';
import type { OperationExecute, RowFailure } from '../node.type';
import { fieldOf } from '../../../shared/recordFields';
import { submissionIndexFor, submittedSince } from './submissionIndex';
import {
	additionalFieldsParameter,
	agencyContactsParameter,
	candidateNumberParameter,
	resumeFileParameter,
	resumeFolderParameter,
	resumeFromParameter,
	readSubmissionParameters,
	readSubmissionRow,
	SUBMISSION_COLUMNS,
} from './submissionParameters';

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
	onlyWith('columns', resumeFromParameter),
	resumeFolderParameter,
	{
		...resumeFileParameter,
		displayOptions: { show: { valuesFrom: ['columns'], resumeFrom: ['binary'] } },
	},
	onlyWith('fields', candidateNumberParameter),
	onlyWith('fields', resumeFileParameter),
	onlyWith('fields', additionalFieldsParameter),
	agencyContactsParameter,
	onlyWith('fields', submissionOutputProperty()),
	onlyWith('columns', rowOutputProperty()),
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
	const fromColumns = context.getNodeParameter('valuesFrom', itemIndex, 'fields') === 'columns';
	const fromFolder =
		fromColumns && context.getNodeParameter('resumeFrom', itemIndex, 'folder') === 'folder';
	const resumeFolder = fromFolder
		? (context.getNodeParameter('resumeFolder', itemIndex, '') as string)
		: undefined;
	// The folder before the row: a missing folder is the setting's problem, said once, not each row's.
	if (resumeFolder !== undefined) await checkedResumeFolder(context, resumeFolder);
	const row = fromColumns
		? readRow(context, itemIndex, SUBMISSION_COLUMNS, options.otherColumns)
		: undefined;
	const { fields, candidate } = row
		? readSubmissionRow(context, itemIndex, row)
		: { fields: readSubmissionParameters(context, itemIndex), candidate: undefined };
	const resume =
		row && resumeFolder !== undefined
			? await readProfileFileFromDisk(
					context,
					{ folder: resumeFolder, fullPaths: options.fullPaths === true },
					row.values.resumeFile,
					row.label('resumeFile'),
					fileName,
				).catch((error: unknown) => {
					throw located(error, row.where('resumeFile'));
				})
			: await readProfileFile(
					context,
					itemIndex,
					context.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
					fileName,
				);
	if (candidate) {
		const found = await findOrCreateCandidate(client, candidate, itemIndex);
		// findOrCreateCandidate outputs only candidates whose number it could read.
		fields.CandidateNumber = Number(fieldOf(found, 'number'));
	}
	return { fields, options, resume };
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
	// Issue 46: the status is in the details' technical part, as in every error of an answer.
	const status = Number(error.httpCode);
	return new NodeApiError(context.getNode(), {} as JsonObject, {
		message: `Could not check whether candidate ${candidateNumber} is already submitted to job ${jobNumber}, so nothing was submitted: Trio VMS did not give its list of submissions`,
		description: [
			'The check reads the list of your submissions, which Trio may not offer to this API key. To submit without it, switch off "Skip If Already Submitted" under Options: a re-run or a retry could then submit the candidate twice.',
			`Status: ${status} ${statusText(status)}\nRequest: GET ${PATHS.submissions}`,
		].join('\n\n'),
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
	const lookBeforeResend = async (sent: SentAt) =>
		await submittedSince(client, sent, { jobNumber, candidateNumber }, itemIndex);
	const send = async (look?: () => Promise<IDataObject | undefined>) =>
		objectOf(
			await client.request({
				method: 'POST',
				path: PATHS.submissions,
				multipart: parts,
				// Never repeated once it may have reached Trio: a second request could submit the candidate twice.
				idempotent: false,
				lookBeforeResend: look,
				itemIndex,
				context: { subject: `job ${jobNumber} or candidate ${candidateNumber}` },
			}),
			{ JobNumber: jobNumber, CandidateNumber: candidateNumber },
		);

	if (options.skipIfAlreadySubmitted === false) {
		const created = await createOnce(client, { what, itemIndex, send, lookBeforeResend });
		const { record, trio } = createdWithoutCheck(created);
		return shaped(this, itemIndex, record, trio);
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
		lookBeforeResend,
		lookAgain: async () => {
			await index.load(itemIndex);
			return (await index.find(jobNumber, candidateNumber, itemIndex))[0];
		},
	});
	if (result.action === 'created') index.remember(result.record);
	const { _trio, ...submission } = submissionOutput(result, jobNumber, candidateNumber);
	return shaped(this, itemIndex, submission, _trio as IDataObject);
};

/**
 * The Output choice shapes the submission and `_trio` says what the node did; Row With Result
 * gives the input row instead, with the outcome beside its columns.
 */
function shaped(
	context: IExecuteFunctions,
	itemIndex: number,
	submission: IDataObject,
	trio: IDataObject,
): IDataObject {
	if (context.getNodeParameter('output', itemIndex, 'simple') !== ROW_WITH_RESULT)
		return { ...shapeSubmission(context, itemIndex, submission), _trio: trio };
	return rowWithResult(context.getInputData()[itemIndex]?.json ?? {}, {
		result:
			trio.action === 'already submitted' ? RESULT_WORDS.alreadySubmitted : RESULT_WORDS.submitted,
		submissionNumber: fieldOf(submission, 'number'),
		candidateNumber: fieldOf(submission, 'candidateNumber'),
	});
}

/** Under Row With Result a row's own failure is its outcome, and the rows after it still go. */
export const rowFailure: RowFailure = function (itemIndex, caught, error) {
	if (this.getNodeParameter('output', itemIndex, 'simple') !== ROW_WITH_RESULT) return undefined;
	if (!isRowFailure(caught)) return undefined;
	return rowWithResult(this.getInputData()[itemIndex]?.json ?? {}, {
		result: RESULT_WORDS.notSubmitted,
		problem: problemInWords(error.message, error.description),
	});
};

/** Output for Values From = Spreadsheet Columns: the row with its outcome by default. */
function rowOutputProperty() {
	const output = submissionOutputProperty();
	return {
		...output,
		default: ROW_WITH_RESULT,
		options: [
			{
				name: 'Row With Result',
				value: ROW_WITH_RESULT,
				description: `The row's own columns with ${RESULT_COLUMNS.result} (${Object.values(RESULT_WORDS).join(', ')}), ${RESULT_COLUMNS.problem}, ${RESULT_COLUMNS.submission} and ${RESULT_COLUMNS.candidate} beside them, ready to write back to the sheet. A row that cannot be submitted comes out with the reason and the other rows go on.`,
			},
			...(output.options ?? []),
		],
	};
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
				_trio: { action: 'already submitted', matchCount: result.matches.length },
			};
		case 'madeByThisWorkflow':
			return {
				JobNumber: jobNumber,
				CandidateNumber: candidateNumber,
				...result.record,
				_trio: { action: 'already submitted', matchCount: 0, submittedByThisWorkflow: true },
			};
		case 'created':
		case 'createdDespiteError':
			return sentCreateOutput(result);
	}
}
