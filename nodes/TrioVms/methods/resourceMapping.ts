import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { CANDIDATE_COLUMNS } from '../actions/candidate/candidateParameters';
import { SUBMISSION_COLUMNS } from '../actions/submission/submissionParameters';
import { mapperFields } from '../helpers/columns';

/** The fields Candidate Find or Create takes from a row: fixed by the service, no request needed. */
export async function getCandidateColumns(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	return mapperFields(CANDIDATE_COLUMNS);
}

/** The fields Submission Create takes from a row, the candidate's among them. */
export async function getSubmissionColumns(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	return mapperFields(SUBMISSION_COLUMNS);
}
