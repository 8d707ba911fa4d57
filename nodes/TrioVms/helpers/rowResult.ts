/**
 * A spreadsheet row and what became of it, for Submission Create's Output = Row With Result: the
 * row's own columns as they came, and beside them the outcome under column names a recruiter can
 * add to the sheet, so that a Google Sheets Update Row or a CSV of every row needs no expression.
 * Also which failures belong to one row (the others go on) and which to the whole run.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { isOutcomeUnknown } from '../../shared/failureMarks';
import { isHeldCreate } from './createMemory';
import { ParameterError } from './validation';

/** The Output choice's value. */
export const ROW_WITH_RESULT = 'row';

/** The columns the node adds to each row, in the order a sheet shows them. */
export const RESULT_COLUMNS = {
	result: 'Trio Result',
	problem: 'Trio Problem',
	submission: 'Submission Number',
	candidate: 'Candidate Number',
} as const;

/** Trio Result in words, as a recruiter filters the sheet on it. */
export const RESULT_WORDS = {
	submitted: 'submitted',
	alreadySubmitted: 'already submitted',
	notSubmitted: 'not submitted',
} as const;

/** The most of a problem a cell holds: a sheet cell takes 50,000 characters, a reader far fewer. */
const PROBLEM_CHARS = 600;

export interface RowOutcome {
	result: (typeof RESULT_WORDS)[keyof typeof RESULT_WORDS];
	problem?: string;
	submissionNumber?: unknown;
	candidateNumber?: unknown;
}

/** The row with its outcome beside its own columns; the outcome's columns are always all there. */
export function rowWithResult(row: IDataObject, outcome: RowOutcome): IDataObject {
	return {
		...row,
		[RESULT_COLUMNS.result]: outcome.result,
		[RESULT_COLUMNS.problem]: outcome.problem ?? '',
		[RESULT_COLUMNS.submission]: (outcome.submissionNumber as IDataObject[string]) ?? '',
		// A row that failed keeps the candidate number it came with, if it had one.
		[RESULT_COLUMNS.candidate]:
			(outcome.candidateNumber as IDataObject[string]) ?? row[RESULT_COLUMNS.candidate] ?? '',
	};
}

/**
 * Statuses that say the same about every row: the key (401, 403) and the pace (429, once the
 * node has waited what it may). Any other refusal is about what this row sent.
 */
const RUN_STATUSES = new Set(['401', '403', '429']);

/**
 * Whether a failure belongs to this row alone, so the next rows still go: the row's own values
 * (found before anything is sent), Trio refusing what this row sent, or this row's create having
 * an unknown outcome or being held after one. A failure of Trio itself (5xx, no connection) or of the key is the run's.
 */
export function isRowFailure(error: unknown): boolean {
	if (error instanceof ParameterError || isOutcomeUnknown(error) || isHeldCreate(error))
		return true;
	if (!(error instanceof NodeApiError)) return false;
	const status = Number(error.httpCode);
	return status >= 400 && status < 500 && !RUN_STATUSES.has(String(status));
}

/**
 * A failure in words for the row's Trio Problem cell: the message, then the first paragraph of
 * its details (what to do); the technical lines after it stay in the error.
 */
export function problemInWords(message: string, description?: string | null): string {
	const advice = (description ?? '').split(/\n\s*\n/)[0]?.trim();
	const text = advice ? `${message.replace(/[.\s]*$/, '')}. ${advice}` : message;
	return text.length > PROBLEM_CHARS ? `${text.slice(0, PROBLEM_CHARS - 1)}…` : text;
}
