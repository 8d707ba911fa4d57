/**
 * The 15 webhook events of spec section 6: the registration string (decided: equal to the event
 * name where the spec does not give one), when the service fires it, and its payload schema.
 */
import type { AnyZodObject } from 'zod';

import {
	jobSchema,
	nonLocumsConfirmationSignedSchema,
	perDiemShiftAssignedSchema,
	perDiemShiftCancelledSchema,
	perDiemShiftConfirmedSchema,
	perDiemShiftDeclinedSchema,
	perDiemShiftLocationChangedSchema,
	perDiemShiftNoteChangedSchema,
	perDiemShiftOpenedSchema,
	perDiemShiftRateChangedSchema,
	perDiemShiftReleasedSchema,
	perDiemShiftRemovedSchema,
	perDiemShiftStaffingPoolChangedSchema,
	perDiemShiftTimeChangedSchema,
	submissionSchema,
} from './schemas';

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
