/**
 * The simplified job every node outputs when Simplify is on (Job Get, Job Get Many, the
 * Trigger's Job Update and the Sync Trigger): the dozen or so fields a recruiter posts or files,
 * flat, under the service's own names so that an expression written against it keeps working
 * when Simplify is switched off. Read in any letter case. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldOf, hasField } from './fields';

/**
 * Kept as they are, in this order; `Specialties` becomes text and `ShiftDescription` comes from
 * `Shift`. The job list also carries the current open-position count (spec 2.3), which a single
 * job does not: it is kept when present.
 */
export const SIMPLE_JOB_FIELDS = [
	'Number',
	'Title',
	'JobStatus',
	'FacilityName',
	'City',
	'StateAbbreviation',
	'Profession',
	'Specialties',
	'StartDate',
	'ShiftDescription',
	'RateDescription',
	'NumberOfOpenPositions',
	'NumberOfCurrentOpenPositions',
] as const;

function specialtiesText(value: unknown): unknown {
	if (!Array.isArray(value)) return value ?? null;
	return value
		.filter((entry) => entry !== null && entry !== undefined && String(entry).trim() !== '')
		.map(String)
		.join(', ');
}

function shiftDescription(job: IDataObject): unknown {
	const shift = fieldOf(job, 'Shift');
	if (!shift || typeof shift !== 'object' || Array.isArray(shift)) return null;
	return fieldOf(shift as IDataObject, 'ShiftDescription') ?? null;
}

/** Fields the service did not send stay absent rather than becoming null (ShiftDescription excepted). */
export function simplifyJob(job: IDataObject): IDataObject {
	const simple: IDataObject = {};
	for (const name of SIMPLE_JOB_FIELDS) {
		if (name === 'ShiftDescription') simple.ShiftDescription = shiftDescription(job) as string;
		else if (name === 'Specialties') {
			if (hasField(job, name)) simple.Specialties = specialtiesText(fieldOf(job, name)) as string;
		} else if (hasField(job, name)) simple[name] = fieldOf(job, name) as IDataObject[string];
	}
	return simple;
}

/** Every top-level field of a job (spec 2.3), offered under Output → Selected Fields. */
export const JOB_FIELDS = [
	'Number',
	'Title',
	'JobStatus',
	'JobStatusReason',
	'StartDate',
	'NumberOfPositions',
	'NumberOfOpenPositions',
	'NumberOfCurrentOpenPositions',
	'ClientNumber',
	'ClientName',
	'UnitName',
	'FacilityName',
	'FacilityDescription',
	'JobType',
	'PrimaryAddress',
	'AltAddress',
	'City',
	'State',
	'StateAbbreviation',
	'ZipCode',
	'PrimaryPhone',
	'AltPhone',
	'Profession',
	'InternalRate',
	'Description',
	'DurationDescription',
	'RateDescription',
	'OnCallDescription',
	'WeekendDescription',
	'LicenseDescription',
	'RequirementDescription',
	'AllowsCompactLicense',
	'RelationshipManager',
	'RelationshipManagerEmail',
	'RelationshipManagerPhone',
	'PlacementCoordinator',
	'PlacementCoordinatorEmail',
	'PlacementCoordinatorPhone',
	'IsLocums',
	'Specialties',
	'Segments',
	'Certifications',
	'StateLicenses',
	'Shift',
	'OrientationDates',
	'ModifiedDateUtc',
] as const;

/** The chosen fields as sent (any letter case), always with the job's Number so items stay identifiable. */
function pickJobFields(job: IDataObject, fields: readonly string[]): IDataObject {
	const picked: IDataObject = {};
	for (const name of ['Number', ...fields]) {
		if (hasField(job, name)) picked[name] = fieldOf(job, name) as IDataObject[string];
	}
	return picked;
}

export type JobOutput = 'simple' | 'raw' | 'fields';

/** A job as the node's Output setting asks for it. */
export function shapeJob(
	job: IDataObject,
	output: JobOutput,
	fields: readonly string[],
): IDataObject {
	if (output === 'raw') return job;
	if (output === 'fields') return pickJobFields(job, fields);
	return simplifyJob(job);
}
