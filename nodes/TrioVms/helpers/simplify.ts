/**
 * The fields a recruiter needs from a job, under the service's own names so that expressions
 * keep working when Simplify is switched off. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

/** Job fields kept as they are, in the order they appear in the output. */
export const SIMPLE_JOB_FIELDS = [
	'Number',
	'Title',
	'JobStatus',
	'FacilityName',
	'ClientName',
	'City',
	'StateAbbreviation',
	'Profession',
	'Specialties',
	'StartDate',
	'RateDescription',
	'NumberOfPositions',
	'NumberOfOpenPositions',
	'NumberOfCurrentOpenPositions',
	'ModifiedDateUtc',
] as const;

/**
 * Keeps SIMPLE_JOB_FIELDS (those present) and adds ShiftDescription, read from Shift, after
 * StartDate. Fields the service does not send stay absent rather than becoming null.
 */
export function simplifyJob(job: IDataObject): IDataObject {
	const simple: IDataObject = {};
	for (const field of SIMPLE_JOB_FIELDS) {
		if (field in job) simple[field] = job[field];
		if (field === 'StartDate') {
			const shift = job.Shift as IDataObject | null | undefined;
			simple.ShiftDescription =
				shift && typeof shift === 'object' ? (shift.ShiftDescription ?? null) : null;
		}
	}
	return simple;
}
