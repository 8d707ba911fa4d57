/**
 * The simplified submission every node outputs when its output is simplified (Submission Create,
 * Get, Get Many, Accept, Decline and Withdraw in the action node; the Trio VMS Trigger's
 * Submission Update; the Sync Trigger's submissions):
 * the fields a recruiter reads, flat, under the service's own names, so that an expression
 * written against it keeps working with the raw output. Read in any letter case. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldOf, hasField } from './recordFields';

/** Spec 2.2's fields a recruiter reads; the free-text descriptions stay in the raw output. */
export const SIMPLE_SUBMISSION_FIELDS = [
	'Number',
	'Status',
	'StatusReason',
	'JobNumber',
	'CandidateNumber',
	'StartDate',
	'BillRateAmount',
	'ModifiedDateUTC',
] as const;

/** The words that list the simplified submission's fields, for the nodes' Output descriptions. */
export const SIMPLE_SUBMISSION_FIELDS_IN_WORDS =
	'number, status, reason, job, candidate, start date, bill rate and last change';

/** The named fields the record has, under the names it uses for them in the simplified output. */
function pickFields(record: IDataObject, names: readonly string[]): IDataObject {
	const picked: IDataObject = {};
	for (const name of names)
		if (hasField(record, name)) picked[name] = fieldOf(record, name) as IDataObject[string];
	return picked;
}

/** Fields the service did not send stay absent rather than becoming null. */
export function simplifySubmission(submission: IDataObject): IDataObject {
	return pickFields(submission, SIMPLE_SUBMISSION_FIELDS);
}
