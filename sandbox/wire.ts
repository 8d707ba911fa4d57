/**
 * The sandbox's own reading of the wire, written from the specification (shared/spec/, sections
 * 2, 4, 6 and 8) and the service notes, not from the nodes. The sandbox imports no runtime value
 * from nodes/ (test/sandbox/independence.test.ts enforces it): if the nodes misread a path, a
 * part name or a limit, the sandbox does not misread it with them, and the contract tests
 * (test/sandbox/contract.test.ts) fail. Only the nodes' data types are imported, for the seed.
 *
 * The route table is in api.ts, as literal paths; this module holds the prefix, the event
 * names, the limits and the shapes the sandbox accepts and sends.
 */
import { z } from 'zod/v3';

import { isRealCalendarDay } from './time';

/** Spec 9: every operation is under /api/v3. */
export const API_PREFIX = '/api/v3';

// ---------------------------------------------------------------- events (spec 6, service notes)

/**
 * Registration strings: `Job Update` and `Submission Update` are confirmed; the others are
 * decided equal to the event names of spec 6.2 and 6.3. In the spec's order.
 */
export const EVENT_NAMES = [
	'Job Update',
	'Submission Update',
	'Non Locums Confirmation Signed',
	'Per Diem Shift Opened',
	'Per Diem Shift Assigned',
	'Per Diem Shift Confirmed',
	'Per Diem Shift Cancelled',
	'Per Diem Shift Removed',
	'Per Diem Shift Released',
	'Per Diem Shift Declined',
	'Per Diem Shift Staffing Pool Changed',
	'Per Diem Shift Location Changed',
	'Per Diem Shift Time Changed',
	'Per Diem Shift Rate Changed',
	'Per Diem Shift Note Changed',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export function isEventName(value: unknown): value is EventName {
	return (EVENT_NAMES as readonly unknown[]).includes(value);
}

// ---------------------------------------------------------------- limits (spec 8, service notes)

/** "Under 2.5 MB", read conservatively: a file of 2,500,000 bytes or more is refused. */
export const PROFILE_FILE_LIMIT_BYTES = 2_500_000;
/** "PDF, DOC, DOCX, RTF, TXT", judged by the file name's extension in any letter case. */
export const PROFILE_FILE_TYPES: readonly string[] = ['pdf', 'doc', 'docx', 'rtf', 'txt'];
/** The multipart part that carries the profile document (spec 4). */
export const PROFILE_FILE_PART = 'CandidateProfileFile';

/**
 * Decided: a candidate's license state is a two-letter US state, DC or territory abbreviation.
 * The names fill the seeded jobs' `State`.
 */
// prettier-ignore
export const US_STATE_NAMES: Readonly<Record<string, string>> = {
	AL: 'Alabama', AK: 'Alaska', AS: 'American Samoa', AZ: 'Arizona', AR: 'Arkansas',
	CA: 'California', CO: 'Colorado', CT: 'Connecticut', DE: 'Delaware', DC: 'District of Columbia',
	FL: 'Florida', GA: 'Georgia', GU: 'Guam', HI: 'Hawaii', ID: 'Idaho', IL: 'Illinois',
	IN: 'Indiana', IA: 'Iowa', KS: 'Kansas', KY: 'Kentucky', LA: 'Louisiana', ME: 'Maine',
	MD: 'Maryland', MA: 'Massachusetts', MI: 'Michigan', MN: 'Minnesota', MS: 'Mississippi',
	MO: 'Missouri', MT: 'Montana', NE: 'Nebraska', NV: 'Nevada', NH: 'New Hampshire',
	NJ: 'New Jersey', NM: 'New Mexico', NY: 'New York', NC: 'North Carolina', ND: 'North Dakota',
	MP: 'Northern Mariana Islands', OH: 'Ohio', OK: 'Oklahoma', OR: 'Oregon', PA: 'Pennsylvania',
	PR: 'Puerto Rico', RI: 'Rhode Island', SC: 'South Carolina', SD: 'South Dakota',
	TN: 'Tennessee', TX: 'Texas', VI: 'U.S. Virgin Islands', UT: 'Utah', VT: 'Vermont',
	VA: 'Virginia', WA: 'Washington', WV: 'West Virginia', WI: 'Wisconsin', WY: 'Wyoming',
};

// ---------------------------------------------------------------- values

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Seconds, fraction and offset optional: per diem Start/End carry no offset. */
const DATE_TIME =
	/^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** YYYY-MM-DD naming a day that exists (2026-02-30 does not). */
export function isDate(value: string): boolean {
	return DATE.test(value) && isRealCalendarDay(value);
}
/** An ISO 8601 date-time whose day exists. */
export function isDateTime(value: string): boolean {
	return DATE_TIME.test(value) && isRealCalendarDay(value);
}

const date = z.string().refine(isDate, 'must be a date in the form YYYY-MM-DD');
const dateTime = z
	.string()
	.refine(isDateTime, 'must be an ISO 8601 date-time such as 2026-03-01T07:00:00Z');
const whole = z.number().int('must be a whole number');
const positiveWhole = whole.positive('must be a positive number');
const required = z.string().trim().min(1, 'is required');

// ---------------------------------------------------------------- requests (spec 2.1, 2.4, 4)

/** Spec 2.1; required fields and formats decided (service notes). */
export const candidateCreateRequest = z.object({
	firstName: required,
	lastName: required,
	email1: z
		.string()
		.trim()
		.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be a valid email address such as name@agency.com'),
	phone1: z.string().optional(),
	isNicotineFree: z.boolean().optional(),
	isAlcoholFree: z.boolean().optional(),
	stateLicenses: z
		.array(
			z.object({
				state: z
					.string()
					.refine(
						(state) => Object.prototype.hasOwnProperty.call(US_STATE_NAMES, state),
						'must be a two-letter US state, DC or territory abbreviation such as TX',
					),
				isCompact: z.boolean().optional(),
				expirationDate: date.optional(),
			}),
		)
		.optional(),
});
export type CandidateCreateRequest = z.infer<typeof candidateCreateRequest>;

/** Spec 4, Accept: the reason is optional free text. */
export const acceptRequest = z.object({
	submissionNumber: positiveWhole,
	reason: z.string().optional(),
});

/** Spec 4, Decline and Withdraw: the reason comes from the withdraw reasons list. */
export const reasonedRequest = z.object({
	submissionNumber: positiveWhole,
	reason: z.string().min(1, 'is required'),
	description: z.string().optional(),
});

/** Spec 2.4: without `Id` a create, with `Id` an update. */
export const webhookRegistrationRequest = z.object({
	Id: z.string().min(1).optional(),
	Name: required,
	Url: z.string().url('must be an absolute URL'),
	Events: z.array(z.string().min(1)).min(1, 'must name at least one event'),
	IsActive: z.boolean(),
});
export type WebhookRegistrationRequest = z.infer<typeof webhookRegistrationRequest>;

/** Spec 4: `AgencyContacts` is text holding a JSON array of these, no other keys. */
export const agencyContacts = z.array(
	z.object({ name: z.string(), email: z.string(), phoneNumber: z.string() }).strict(),
);
export type AgencyContact = z.infer<typeof agencyContacts>[number];

/** The text parts of the submission form (spec 4) once numbers and JSON are read. */
export const submissionFormFields = z.object({
	JobNumber: positiveWhole,
	CandidateNumber: positiveWhole,
	BestContactDescription: z.string().optional(),
	BillRateAmount: z.number().nonnegative('must not be negative').optional(),
	StartDate: dateTime.optional(),
	AvailabilityDescription: z.string().optional(),
	DaysOffDescription: z.string().optional(),
	ExperienceDescription: z.string().optional(),
	Description: z.string().optional(),
	ModifyNote: z.string().optional(),
	AgencyContacts: agencyContacts.optional(),
});
export type SubmissionFormFields = z.infer<typeof submissionFormFields>;

// ---------------------------------------------------------------- what the sandbox sends

const text = z.string();
const maybe = <T extends z.ZodTypeAny>(schema: T) => schema.nullable();

/** Spec 2.3: the job of GET /Job/{number} and of the Job Update payload. */
export const job = z.object({
	Number: whole,
	Title: text,
	JobStatus: text,
	JobStatusReason: maybe(text),
	StartDate: maybe(dateTime),
	NumberOfPositions: whole,
	NumberOfOpenPositions: whole,
	ClientNumber: whole,
	ClientName: text,
	UnitName: maybe(text),
	FacilityName: maybe(text),
	FacilityDescription: maybe(text),
	/** The spec lists JobType twice, as a string and as an integer. */
	JobType: z.union([text, whole]),
	PrimaryAddress: text,
	AltAddress: maybe(text),
	City: text,
	State: text,
	StateAbbreviation: text,
	ZipCode: text,
	PrimaryPhone: maybe(text),
	AltPhone: maybe(text),
	Profession: text,
	InternalRate: maybe(text),
	Description: maybe(text),
	DurationDescription: maybe(text),
	RateDescription: maybe(text),
	OnCallDescription: maybe(text),
	WeekendDescription: maybe(text),
	LicenseDescription: maybe(text),
	RequirementDescription: maybe(text),
	AllowsCompactLicense: z.boolean(),
	RelationshipManager: maybe(text),
	RelationshipManagerEmail: maybe(text),
	RelationshipManagerPhone: maybe(text),
	PlacementCoordinator: maybe(text),
	PlacementCoordinatorEmail: maybe(text),
	PlacementCoordinatorPhone: maybe(text),
	IsLocums: z.boolean(),
	Specialties: z.array(text),
	Segments: z.array(text),
	Certifications: z.array(z.object({ Code: whole, Name: text, Description: maybe(text) })),
	/** `IsCompat` is spelled so by the service. */
	StateLicenses: z.array(z.object({ Name: text, Abbreviation: text, IsCompat: z.boolean() })),
	Shift: maybe(
		z.object({
			ShiftDescription: text,
			ShiftIdentifier: text,
			ShiftStart: text,
			ShiftEnd: text,
			ShiftHours: maybe(whole),
		}),
	),
	OrientationDates: maybe(text),
	ModifiedDateUtc: maybe(dateTime),
});

/** Spec 2.2: the submission the API answers and Submission Update carries. */
const submission = z.object({
	Number: whole,
	Status: text,
	StatusCode: whole,
	StatusReason: maybe(text),
	JobNumber: whole,
	CandidateNumber: whole,
	BestContactDescription: maybe(text),
	BillRateAmount: maybe(z.number()),
	StartDate: maybe(dateTime),
	AvailabilityDescription: maybe(text),
	DaysOffDescription: maybe(text),
	ExperienceDescription: maybe(text),
	ModifiedDateUTC: dateTime,
});

/** Spec 2.5: both may be null (the opened event's Facility and Unit). */
export const namedIdentifier = z.object({ Id: maybe(text), Name: maybe(text) });

/** Spec 6.3, one item of Per Diem Shift Opened. Start and End are pool-local, no offset. */
export const openedShift = z.object({
	Id: text,
	Number: whole,
	StaffingPool: namedIdentifier,
	StaffingPoolClient: namedIdentifier,
	Facility: namedIdentifier,
	Unit: namedIdentifier,
	Profession: text,
	Specialty: text,
	Start: dateTime,
	End: dateTime,
	PeriodOfWork: maybe(text),
	Duration: maybe(z.number()),
	Status: text,
	RateType: text,
	ShiftType: text,
	Notes: maybe(text),
	Timestamp: dateTime,
});

/** An event payload with `Action` equal to the event name (spec 6.3), then its fields. */
function withAction<E extends EventName>(name: E, fields: z.ZodRawShape) {
	return z.object({ Action: z.literal(name), ...fields });
}
const shift = { Id: text, Timestamp: dateTime };
const withCandidate = { ...shift, Candidate: namedIdentifier };

/**
 * The payload the sandbox sends for each event, checked before every delivery. Non Locums
 * Confirmation Signed is not shown by the spec; its payload is decided (docs/service-decisions.md).
 */
export const EVENT_PAYLOADS: Readonly<Record<EventName, z.ZodTypeAny>> = {
	'Job Update': job,
	'Submission Update': submission,
	'Non Locums Confirmation Signed': withAction('Non Locums Confirmation Signed', {
		SubmissionNumber: whole,
		JobNumber: whole,
		CandidateNumber: whole,
		SignedBy: maybe(text),
		SignedDateUtc: dateTime,
		Timestamp: dateTime,
	}),
	'Per Diem Shift Opened': withAction('Per Diem Shift Opened', { Items: z.array(openedShift) }),
	'Per Diem Shift Assigned': withAction('Per Diem Shift Assigned', {
		...withCandidate,
		Status: text,
	}),
	'Per Diem Shift Confirmed': withAction('Per Diem Shift Confirmed', {
		...withCandidate,
		Status: text,
	}),
	'Per Diem Shift Cancelled': withAction('Per Diem Shift Cancelled', {
		Items: z.array(z.object({ ...shift, Status: text })),
	}),
	'Per Diem Shift Removed': withAction('Per Diem Shift Removed', shift),
	'Per Diem Shift Released': withAction('Per Diem Shift Released', withCandidate),
	'Per Diem Shift Declined': withAction('Per Diem Shift Declined', withCandidate),
	'Per Diem Shift Staffing Pool Changed': withAction('Per Diem Shift Staffing Pool Changed', {
		...shift,
		StaffingPool: namedIdentifier,
		StaffingPoolClient: namedIdentifier,
		Profession: text,
		Specialty: text,
	}),
	'Per Diem Shift Location Changed': withAction('Per Diem Shift Location Changed', {
		...shift,
		Facility: namedIdentifier,
		Unit: namedIdentifier,
	}),
	'Per Diem Shift Time Changed': withAction('Per Diem Shift Time Changed', {
		...shift,
		Start: dateTime,
		End: dateTime,
	}),
	'Per Diem Shift Rate Changed': withAction('Per Diem Shift Rate Changed', {
		...shift,
		RateType: text,
	}),
	'Per Diem Shift Note Changed': withAction('Per Diem Shift Note Changed', {
		...shift,
		Notes: maybe(text),
	}),
};
