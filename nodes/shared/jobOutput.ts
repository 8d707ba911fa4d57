/**
 * The simplified job every node outputs when its output is simplified (Job Get, Job Get Many, the
 * Trigger's Job Update and the Sync Trigger): the fields a recruiter posts or files, flat, under
 * the service's own names so that an expression written against it keeps working with the raw
 * output. Read in any letter case. Pure.
 *
 * At most ten fields, n8n's guideline for a simplified output.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldOf, hasField } from './recordFields';
import { isRecord } from './listAnswer';

/**
 * The simplified job: at most ten flat fields (n8n's guideline). The
 * title stands for profession and specialties (Trio's titles name both, e.g. "Travel RN - ICU
 * (Nights)"); the tenth field is the open-position count, always named
 * NumberOfCurrentOpenPositions: the job list's current count when Trio sends it, else the
 * record's NumberOfOpenPositions (Job Get, Job Update).
 */
export const SIMPLIFIED_JOB_FIELDS = [
	'Number',
	'Title',
	'JobStatus',
	'FacilityName',
	'City',
	'StateAbbreviation',
	'StartDate',
	'ShiftDescription',
	'RateDescription',
	'NumberOfCurrentOpenPositions',
] as const;

/** The words that list the simplified job's fields, for the nodes' Output descriptions. */
export const SIMPLIFIED_JOB_FIELDS_IN_WORDS =
	'number, title, status, facility, city, state, start date, shift, rate and open positions';

function shiftDescription(shift: unknown): unknown {
	if (!isRecord(shift)) return null;
	return fieldOf(shift, 'ShiftDescription') ?? null;
}

/** The fields a job sends under the simplified job's names, NumberOfCurrentOpenPositions included. */
const SENT_AS_NAMED = [
	...SIMPLIFIED_JOB_FIELDS.filter((name) => name !== 'ShiftDescription'),
	'Shift',
];

const own = (record: IDataObject, name: string) =>
	Object.prototype.hasOwnProperty.call(record, name);

/**
 * The simplified job. Fields the service did not send stay absent rather than becoming null
 * (ShiftDescription excepted). A job that sends every field under its exact name, as each job
 * of the list does, is built as one object literal: V8 makes it in one step, where adding ten
 * fields one by one cost about twice as much over the 8,500 jobs of a whole list. Any other job
 * is read field by field in any letter case, to the same result in the same order.
 */
export function simplifyJob(job: IDataObject): IDataObject {
	if (!SENT_AS_NAMED.every((name) => own(job, name))) return simplifyByField(job);
	return {
		Number: job.Number,
		Title: job.Title,
		JobStatus: job.JobStatus,
		FacilityName: job.FacilityName,
		City: job.City,
		StateAbbreviation: job.StateAbbreviation,
		StartDate: job.StartDate,
		ShiftDescription: shiftDescription(job.Shift) as string,
		RateDescription: job.RateDescription,
		NumberOfCurrentOpenPositions: job.NumberOfCurrentOpenPositions,
	};
}

function simplifyByField(job: IDataObject): IDataObject {
	const simple: IDataObject = {};
	for (const name of SIMPLIFIED_JOB_FIELDS) {
		if (name === 'ShiftDescription')
			simple.ShiftDescription = shiftDescription(fieldOf(job, 'Shift')) as string;
		else if (name === 'NumberOfCurrentOpenPositions') {
			// One name in every node's simplified job, so an expression survives a change of trigger.
			const sent = hasField(job, name) ? name : 'NumberOfOpenPositions';
			if (hasField(job, sent)) simple[name] = fieldOf(job, sent) as IDataObject[string];
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
