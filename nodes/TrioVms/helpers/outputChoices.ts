/**
 * The item's output choices, read when the node runs: Return All / Limit, and the job and
 * submission Output
 * (the fields for both are described in actions/common.descriptions.ts).
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { hasField } from '../../shared/recordFields';
import { shapeJob, type JobOutput } from '../../shared/jobOutput';
import { simplifySubmission } from '../../shared/submissionOutput';
import { limited } from './output';

/** Applies the item's Return All / Limit (returnAllAndLimit's fields) to a list that arrived whole. */
export function applyReturnAllOrLimit<T>(
	context: IExecuteFunctions,
	itemIndex: number,
	list: T[],
): T[] {
	const returnAll = context.getNodeParameter('returnAll', itemIndex, false) as boolean;
	return limited(list, returnAll, returnAll ? 0 : context.getNodeParameter('limit', itemIndex, 50));
}

/** Jobs shaped as the item's Output asks. */
export function shapeJobs(
	context: IExecuteFunctions,
	itemIndex: number,
	jobs: IDataObject[],
): IDataObject[] {
	const output = context.getNodeParameter('output', itemIndex, 'simple') as JobOutput;
	const fields =
		output === 'fields' ? (context.getNodeParameter('fields', itemIndex, []) as string[]) : [];
	return jobs.map((job) => shapeJob(job, output, fields));
}

/**
 * A submission shaped as the item's Output asks. An answer that is not a submission (Accept,
 * Decline and Withdraw answers are not shown in the spec) is passed on whole: simplifying it
 * would drop what Trio said.
 */
export function shapeSubmission(
	context: IExecuteFunctions,
	itemIndex: number,
	submission: IDataObject,
): IDataObject {
	if (context.getNodeParameter('output', itemIndex, 'simple') === 'raw') return submission;
	if (!hasField(submission, 'Status')) return submission;
	return simplifySubmission(submission);
}
