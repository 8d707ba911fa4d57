/**
 * The 15 webhook events of spec section 6: the registration string (decided: equal to the event
 * name where the spec does not give one), when the service fires it, and its payload schema.
 * The per diem and confirmation payloads are written here, beside their events; Job Update and
 * Submission Update carry the service's job and submission shapes (schemas.ts).
 */
import { z, type AnyZodObject } from 'zod/v3';

import { isoDateTime, jobSchema, submissionSchema } from './schemas';

// ---------------------------------------------------------------- payloads (spec 6.3)

const namedIdentifierSchema = z
	.object({ Id: z.string().nullable(), Name: z.string().nullable() })
	.passthrough();

const timestamp = isoDateTime;
/** Pool-local time without offset: passed through untouched, never shifted. */
const poolLocalDateTime = isoDateTime;

const action = <T extends string>(name: T) => z.literal(name);

export const perDiemShiftOpenedItemSchema = z
	.object({
		Id: z.string(),
		Number: z.number().int(),
		StaffingPool: namedIdentifierSchema,
		StaffingPoolClient: namedIdentifierSchema,
		Facility: namedIdentifierSchema,
		Unit: namedIdentifierSchema,
		Profession: z.string(),
		Specialty: z.string(),
		Start: poolLocalDateTime,
		End: poolLocalDateTime,
		PeriodOfWork: z.string().nullable(),
		Duration: z.number().nullable(),
		Status: z.string(),
		RateType: z.string(),
		ShiftType: z.string(),
		Notes: z.string().nullable(),
		Timestamp: timestamp,
	})
	.passthrough();

const perDiemShiftCancelledItemSchema = z
	.object({ Id: z.string(), Status: z.string(), Timestamp: timestamp })
	.passthrough();

const perDiemShiftOpenedSchema = z
	.object({ Action: action('Per Diem Shift Opened'), Items: z.array(perDiemShiftOpenedItemSchema) })
	.passthrough();
const perDiemShiftAssignedSchema = z
	.object({
		Action: action('Per Diem Shift Assigned'),
		Id: z.string(),
		Candidate: namedIdentifierSchema,
		Status: z.string(),
		Timestamp: timestamp,
	})
	.passthrough();
const perDiemShiftConfirmedSchema = z
	.object({
		Action: action('Per Diem Shift Confirmed'),
		Id: z.string(),
		Candidate: namedIdentifierSchema,
		Status: z.string(),
		Timestamp: timestamp,
	})
	.passthrough();
const perDiemShiftCancelledSchema = z
	.object({
		Action: action('Per Diem Shift Cancelled'),
		Items: z.array(perDiemShiftCancelledItemSchema),
	})
	.passthrough();
const perDiemShiftRemovedSchema = z
	.object({ Action: action('Per Diem Shift Removed'), Id: z.string(), Timestamp: timestamp })
	.passthrough();
const perDiemShiftReleasedSchema = z
	.object({
		Action: action('Per Diem Shift Released'),
		Id: z.string(),
		Candidate: namedIdentifierSchema,
		Timestamp: timestamp,
	})
	.passthrough();
const perDiemShiftDeclinedSchema = z
	.object({
		Action: action('Per Diem Shift Declined'),
		Id: z.string(),
		Candidate: namedIdentifierSchema,
		Timestamp: timestamp,
	})
	.passthrough();
const perDiemShiftStaffingPoolChangedSchema = z
	.object({
		Action: action('Per Diem Shift Staffing Pool Changed'),
		Id: z.string(),
		StaffingPool: namedIdentifierSchema,
		StaffingPoolClient: namedIdentifierSchema,
		Profession: z.string(),
		Specialty: z.string(),
		Timestamp: timestamp,
	})
	.passthrough();
const perDiemShiftLocationChangedSchema = z
	.object({
		Action: action('Per Diem Shift Location Changed'),
		Id: z.string(),
		Facility: namedIdentifierSchema,
		Unit: namedIdentifierSchema,
		Timestamp: timestamp,
	})
	.passthrough();
const perDiemShiftTimeChangedSchema = z
	.object({
		Action: action('Per Diem Shift Time Changed'),
		Id: z.string(),
		Start: poolLocalDateTime,
		End: poolLocalDateTime,
		Timestamp: timestamp,
	})
	.passthrough();
const perDiemShiftRateChangedSchema = z
	.object({
		Action: action('Per Diem Shift Rate Changed'),
		Id: z.string(),
		RateType: z.string(),
		Timestamp: timestamp,
	})
	.passthrough();
const perDiemShiftNoteChangedSchema = z
	.object({
		Action: action('Per Diem Shift Note Changed'),
		Id: z.string(),
		Notes: z.string().nullable(),
		Timestamp: timestamp,
	})
	.passthrough();

/**
 * Non Locums Confirmation Signed: the spec shows neither when it fires nor its payload.
 * Decided (docs/service-decisions.md): it fires when the confirmation document of a
 * non-locums placement is signed, and carries the submission it belongs to.
 */
const nonLocumsConfirmationSignedSchema = z
	.object({
		Action: action('Non Locums Confirmation Signed'),
		SubmissionNumber: z.number().int(),
		JobNumber: z.number().int(),
		CandidateNumber: z.number().int(),
		SignedBy: z.string().nullable(),
		SignedDateUtc: timestamp,
		Timestamp: timestamp,
	})
	.passthrough();

export type NamedIdentifier = z.infer<typeof namedIdentifierSchema>;

// ---------------------------------------------------------------- the events

export interface TrioEventDefinition {
	name: string;
	/** One line: when the service fires it. */
	description: string;
	payload: AnyZodObject;
	/** Payloads that carry several shifts in `Items` (the trigger can split them). */
	batched: boolean;
	/**
	 * Whether the spec shows the payload. One it does not show has a decided schema, which the
	 * sandbox sends; a real delivery is never flagged for differing from a guess.
	 */
	payloadShown: boolean;
}

/** The events in the spec's order; each name is written here once. */
const DEFINITIONS = [
	{
		name: 'Job Update',
		description:
			'Fires on every change to a job: when it opens, on each update while open, and when it closes (open-position count changes do not fire it). For new jobs only, use the Trio VMS Sync Trigger with Changes set to Opened.',
		payload: jobSchema,
		payloadShown: true,
		batched: false,
	},
	{
		name: 'Submission Update',
		description:
			'The status of one of your submissions changes, including changes made by the facility',
		payload: submissionSchema,
		payloadShown: true,
		batched: false,
	},
	{
		name: 'Non Locums Confirmation Signed',
		description: 'The confirmation of a non-locums placement is signed',
		payload: nonLocumsConfirmationSignedSchema,
		payloadShown: false,
		batched: false,
	},
	{
		name: 'Per Diem Shift Opened',
		description: 'One or more per diem shifts are opened for qualified clinicians to claim',
		payload: perDiemShiftOpenedSchema,
		payloadShown: true,
		batched: true,
	},
	{
		name: 'Per Diem Shift Assigned',
		description: 'A per diem shift is assigned to one of your clinicians',
		payload: perDiemShiftAssignedSchema,
		payloadShown: true,
		batched: false,
	},
	{
		name: 'Per Diem Shift Confirmed',
		description: 'An assigned per diem shift is confirmed',
		payload: perDiemShiftConfirmedSchema,
		payloadShown: true,
		batched: false,
	},
	{
		name: 'Per Diem Shift Cancelled',
		description: 'One or more assigned per diem shifts are cancelled',
		payload: perDiemShiftCancelledSchema,
		payloadShown: true,
		batched: true,
	},
	{
		name: 'Per Diem Shift Removed',
		description: 'A per diem shift is no longer available for your clinicians to claim',
		payload: perDiemShiftRemovedSchema,
		payloadShown: true,
		batched: false,
	},
	{
		name: 'Per Diem Shift Released',
		description: 'A clinician releases a per diem shift they held',
		payload: perDiemShiftReleasedSchema,
		payloadShown: true,
		batched: false,
	},
	{
		name: 'Per Diem Shift Declined',
		description: 'A clinician declines a per diem shift assigned to them',
		payload: perDiemShiftDeclinedSchema,
		payloadShown: true,
		batched: false,
	},
	{
		name: 'Per Diem Shift Staffing Pool Changed',
		description: 'The staffing pool of a per diem shift changes',
		payload: perDiemShiftStaffingPoolChangedSchema,
		payloadShown: true,
		batched: false,
	},
	{
		name: 'Per Diem Shift Location Changed',
		description: 'The facility or unit of a per diem shift changes',
		payload: perDiemShiftLocationChangedSchema,
		payloadShown: true,
		batched: false,
	},
	{
		name: 'Per Diem Shift Time Changed',
		description:
			'The start or end of a per diem shift changes (times are local to the staffing pool)',
		payload: perDiemShiftTimeChangedSchema,
		payloadShown: true,
		batched: false,
	},
	{
		name: 'Per Diem Shift Rate Changed',
		description: 'The rate type of a per diem shift changes',
		payload: perDiemShiftRateChangedSchema,
		payloadShown: true,
		batched: false,
	},
	{
		name: 'Per Diem Shift Note Changed',
		description: 'The note of a per diem shift changes',
		payload: perDiemShiftNoteChangedSchema,
		payloadShown: true,
		batched: false,
	},
] as const satisfies readonly TrioEventDefinition[];

export type TrioEventName = (typeof DEFINITIONS)[number]['name'];

export const TRIO_EVENT_NAMES: readonly TrioEventName[] = DEFINITIONS.map((event) => event.name);

const byName: Record<string, TrioEventDefinition> = Object.fromEntries(
	DEFINITIONS.map((event) => [event.name, event]),
);
export const TRIO_EVENTS = byName as Readonly<Record<TrioEventName, TrioEventDefinition>>;

export function isTrioEventName(value: unknown): value is TrioEventName {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(TRIO_EVENTS, value);
}
