/**
 * The simplified per diem shift the Trio VMS Trigger outputs when its output is simplified: the
 * fields a recruiter puts in a message (what, where, when, who), flat, so that a Slack or SMS
 * node reads `{{ $json.FacilityName }}` rather than an object. Every per diem event is simplified
 * alike: a field the event does not carry stays absent. Read in any letter case. Pure.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldOf, hasField } from './recordFields';
import { isRecord } from './listAnswer';

/**
 * The simplified shift's fields, in the order they are output, each with the payload field it
 * comes from. The service's { Id, Name } fields (spec 2.5, NamedIdentifier) become their name
 * under `<field>Name`, the name a reader guesses from the raw payload. At most twelve (an opened
 * shift has all but CandidateName): Id to follow a shift from event to event, Number for people,
 * then what, when, where and who. StaffingPoolClient (the pool's name says where the clinicians
 * are), PeriodOfWork, Duration, ShiftType and Timestamp stay in the raw output; Action repeats the
 * item's `event`.
 */
const SHIFT_FIELDS: ReadonlyArray<{ name: string; from: string; named?: true }> = [
	{ name: 'Id', from: 'Id' },
	{ name: 'Number', from: 'Number' },
	{ name: 'Status', from: 'Status' },
	{ name: 'Profession', from: 'Profession' },
	{ name: 'Specialty', from: 'Specialty' },
	{ name: 'Start', from: 'Start' },
	{ name: 'End', from: 'End' },
	{ name: 'StaffingPoolName', from: 'StaffingPool', named: true },
	{ name: 'FacilityName', from: 'Facility', named: true },
	{ name: 'UnitName', from: 'Unit', named: true },
	{ name: 'RateType', from: 'RateType' },
	{ name: 'Notes', from: 'Notes' },
	{ name: 'CandidateName', from: 'Candidate', named: true },
];

export const SIMPLE_SHIFT_FIELDS = SHIFT_FIELDS.map(({ name }) => name);

/** The words that list the simplified shift's fields, for the trigger's Output description. */
export const SIMPLE_SHIFT_FIELDS_IN_WORDS =
	'id, number, status, profession, specialty, start, end, staffing pool, facility, unit, rate type, notes and candidate';

/** A NamedIdentifier's name; null when Trio sent it empty (an opened shift's Facility may be). */
function nameOf(value: unknown): IDataObject[string] {
	if (!isRecord(value)) return (value ?? null) as IDataObject[string];
	return (fieldOf(value, 'Name') ?? null) as IDataObject[string];
}

/** Fields the event does not carry stay absent rather than becoming null. */
export function simplifyShift(shift: IDataObject): IDataObject {
	const simple: IDataObject = {};
	for (const { name, from, named } of SHIFT_FIELDS) {
		if (!hasField(shift, from)) continue;
		const value = fieldOf(shift, from);
		simple[name] = named ? nameOf(value) : (value as IDataObject[string]);
	}
	return simple;
}
