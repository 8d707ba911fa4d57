/**
 * The service's data shapes the nodes send and read (spec sections 2 and 4), defined once; the
 * sandbox takes only their types. The event payloads live beside their events (events.ts), and
 * shapes only the tests read in test/support/service-shapes.ts. Response shapes pass unknown
 * fields through: the service may add fields at any time and nothing a user could map must be
 * dropped.
 *
 * zod is not a runtime dependency of the package: n8n itself ships zod 3 at the top of its
 * node_modules and exposes its module paths to community packages, the same way they get
 * n8n-workflow. The real-n8n tests load the package in n8n 1.x and 2.x to keep that true. The
 * import names `zod/v3`, which zod 3.25 on and zod 4 both offer with zod 3's meaning, so a zod
 * major change in n8n cannot change what these schemas say (test/package/zod-entry.test.ts).
 */
import { DateTime } from 'luxon';
import { z } from 'zod/v3';

import { fieldOf } from './recordFields';
import { isRecord } from './listAnswer';
import { isUsStateAbbreviation } from './serviceFacts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Date and time with optional seconds, fraction and offset (per diem times carry none). */
const ISO_DATE_TIME =
	/^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** Deliberately simple: one @, something on each side, a dot in the domain, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** luxon (n8n's date library) judges whether the written day and time exist: 2026-02-30 does not. */
function exists(value: string): boolean {
	return DateTime.fromISO(value, { setZone: true }).isValid;
}

export const isoDate = z
	.string()
	.regex(ISO_DATE, 'must be a date in the form YYYY-MM-DD')
	.refine(exists, 'is not a real calendar date');
export const isoDateTime = z
	.string()
	.regex(ISO_DATE_TIME, 'must be an ISO 8601 date-time such as 2026-03-01T07:00:00Z')
	.refine(exists, 'is not a real date-time');
const email = z
	.string()
	.trim()
	.regex(EMAIL, 'must be a valid email address such as name@agency.com');
const stateAbbreviation = z
	.string()
	.refine(
		isUsStateAbbreviation,
		'must be a two-letter US state, DC or territory abbreviation such as TX',
	);

export function isValidEmail(value: string): boolean {
	return EMAIL.test(value.trim());
}

// ---------------------------------------------------------------- jobs (spec 2.3)

const certificationSchema = z
	.object({ Code: z.number().int(), Name: z.string(), Description: z.string().nullable() })
	.passthrough();

/** `IsCompat` is spelled so by the service. */
const jobStateLicenseSchema = z
	.object({ Name: z.string(), Abbreviation: z.string(), IsCompat: z.boolean() })
	.passthrough();

const jobShiftSchema = z
	.object({
		ShiftDescription: z.string(),
		ShiftIdentifier: z.string(),
		ShiftStart: z.string(),
		ShiftEnd: z.string(),
		ShiftHours: z.number().int().nullable(),
	})
	.passthrough();

export const jobSchema = z
	.object({
		Number: z.number().int(),
		Title: z.string(),
		JobStatus: z.string(),
		JobStatusReason: z.string().nullable(),
		StartDate: isoDateTime.nullable(),
		NumberOfPositions: z.number().int(),
		NumberOfOpenPositions: z.number().int(),
		/** Only present on list results; current only when the list was read without modifiedDate. */
		NumberOfCurrentOpenPositions: z.number().int().optional(),
		ClientNumber: z.number().int(),
		ClientName: z.string(),
		UnitName: z.string().nullable(),
		FacilityName: z.string().nullable(),
		FacilityDescription: z.string().nullable(),
		/** The spec lists JobType both as a string and as an integer. */
		JobType: z.union([z.string(), z.number()]),
		PrimaryAddress: z.string(),
		AltAddress: z.string().nullable(),
		City: z.string(),
		State: z.string(),
		StateAbbreviation: z.string(),
		ZipCode: z.string(),
		PrimaryPhone: z.string().nullable(),
		AltPhone: z.string().nullable(),
		Profession: z.string(),
		InternalRate: z.string().nullable(),
		Description: z.string().nullable(),
		DurationDescription: z.string().nullable(),
		RateDescription: z.string().nullable(),
		OnCallDescription: z.string().nullable(),
		WeekendDescription: z.string().nullable(),
		LicenseDescription: z.string().nullable(),
		RequirementDescription: z.string().nullable(),
		AllowsCompactLicense: z.boolean(),
		RelationshipManager: z.string().nullable(),
		RelationshipManagerEmail: z.string().nullable(),
		RelationshipManagerPhone: z.string().nullable(),
		PlacementCoordinator: z.string().nullable(),
		PlacementCoordinatorEmail: z.string().nullable(),
		PlacementCoordinatorPhone: z.string().nullable(),
		IsLocums: z.boolean(),
		Specialties: z.array(z.string()),
		Segments: z.array(z.string()),
		Certifications: z.array(certificationSchema),
		StateLicenses: z.array(jobStateLicenseSchema),
		Shift: jobShiftSchema.nullable(),
		OrientationDates: z.string().nullable(),
		ModifiedDateUtc: isoDateTime.nullable(),
	})
	.passthrough();

// ---------------------------------------------------------------- submissions (spec 2.2, 4)

export const submissionSchema = z
	.object({
		Number: z.number().int(),
		Status: z.string(),
		StatusCode: z.number().int(),
		StatusReason: z.string().nullable(),
		JobNumber: z.number().int(),
		CandidateNumber: z.number().int(),
		BestContactDescription: z.string().nullable(),
		BillRateAmount: z.number().nullable(),
		StartDate: isoDateTime.nullable(),
		AvailabilityDescription: z.string().nullable(),
		DaysOffDescription: z.string().nullable(),
		ExperienceDescription: z.string().nullable(),
		ModifiedDateUTC: isoDateTime,
	})
	.passthrough();

const agencyContactSchema = z
	.object({ name: z.string(), email: z.string(), phoneNumber: z.string() })
	.strict();
const agencyContactsSchema = z.array(agencyContactSchema);

const positiveInteger = z
	.number()
	.int('must be a whole number')
	.positive('must be a positive number');

/** The text parts of the multipart submission form, after parsing (the file is checked apart). */
export const submissionCreateFieldsSchema = z.object({
	JobNumber: positiveInteger,
	CandidateNumber: positiveInteger,
	BestContactDescription: z.string().optional(),
	BillRateAmount: z.number().nonnegative('must not be negative').optional(),
	StartDate: isoDateTime.optional(),
	AvailabilityDescription: z.string().optional(),
	DaysOffDescription: z.string().optional(),
	ExperienceDescription: z.string().optional(),
	Description: z.string().optional(),
	ModifyNote: z.string().optional(),
	AgencyContacts: agencyContactsSchema.optional(),
});

// ---------------------------------------------------------------- candidates (spec 2.1)

const candidateStateLicenseSchema = z.object({
	state: stateAbbreviation,
	isCompact: z.boolean().optional(),
	expirationDate: isoDate.optional(),
});

export const candidateCreateSchema = z.object({
	firstName: z.string().trim().min(1, 'is required'),
	lastName: z.string().trim().min(1, 'is required'),
	email1: email,
	phone1: z.string().optional(),
	isNicotineFree: z.boolean().optional(),
	isAlcoholFree: z.boolean().optional(),
	stateLicenses: z.array(candidateStateLicenseSchema).optional(),
});

// ---------------------------------------------------------------- webhooks (spec 2.4)

/** Listing shape is decided, read tolerantly: only Id is needed to manage a registration. */
export const webhookRegistrationSchema = z
	.object({
		Id: z.string(),
		Name: z.string().nullable().optional(),
		Url: z.string().nullable().optional(),
		Events: z.array(z.string()).nullable().optional(),
		IsActive: z.boolean().nullable().optional(),
	})
	.passthrough();

// ---------------------------------------------------------------- types

export type Job = z.infer<typeof jobSchema>;
export type Certification = z.infer<typeof certificationSchema>;
export type JobStateLicense = z.infer<typeof jobStateLicenseSchema>;
export type Submission = z.infer<typeof submissionSchema>;
export type SubmissionCreateFields = z.infer<typeof submissionCreateFieldsSchema>;
export type AgencyContact = z.infer<typeof agencyContactSchema>;
export type CandidateCreateRequest = z.infer<typeof candidateCreateSchema>;
export type CandidateStateLicense = z.infer<typeof candidateStateLicenseSchema>;
export type WebhookRegistration = z.infer<typeof webhookRegistrationSchema>;

/** Reads the name out of a list item that is either a string or an object with `Name` (any letter case). */
export function nameOfListItem(item: unknown): string | undefined {
	if (typeof item === 'string') return item;
	if (isRecord(item)) {
		const name = fieldOf(item, 'Name');
		if (typeof name === 'string') return name;
	}
	return undefined;
}

/** Turns zod issues into "path: message" lines, for reports of payloads that differ from the spec. */
export function describeIssues(error: z.ZodError): string[] {
	return error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
}
