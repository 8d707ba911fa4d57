/**
 * The 15 webhook events of spec section 6: the registration string (decided: equal to the event
 * name where the spec does not give one), when the service fires it, and its payload schema.
 */
import type { ZodTypeAny } from 'zod';

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

export const TRIO_EVENT_NAMES = [
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

export type TrioEventName = (typeof TRIO_EVENT_NAMES)[number];

export interface TrioEventDefinition {
	name: TrioEventName;
	/** One line: when the service fires it. */
	description: string;
	payload: ZodTypeAny;
	/** Payloads that carry several shifts in `Items` (the trigger can split them). */
	batched: boolean;
	/** Job and submission payloads carry no `Action`; the per diem ones carry the event name. */
	carriesAction: boolean;
}

export const TRIO_EVENTS: Readonly<Record<TrioEventName, TrioEventDefinition>> = {
	'Job Update': {
		name: 'Job Update',
		description:
			'A job is opened, updated while open, or closed (open-position count changes do not fire it)',
		payload: jobSchema,
		batched: false,
		carriesAction: false,
	},
	'Submission Update': {
		name: 'Submission Update',
		description:
			'The status of one of your submissions changes, including changes made by the facility',
		payload: submissionSchema,
		batched: false,
		carriesAction: false,
	},
	'Non Locums Confirmation Signed': {
		name: 'Non Locums Confirmation Signed',
		description: 'The confirmation of a non-locums placement is signed',
		payload: nonLocumsConfirmationSignedSchema,
		batched: false,
		carriesAction: true,
	},
	'Per Diem Shift Opened': {
		name: 'Per Diem Shift Opened',
		description: 'One or more per diem shifts are opened for qualified clinicians to claim',
		payload: perDiemShiftOpenedSchema,
		batched: true,
		carriesAction: true,
	},
	'Per Diem Shift Assigned': {
		name: 'Per Diem Shift Assigned',
		description: 'A per diem shift is assigned to one of your clinicians',
		payload: perDiemShiftAssignedSchema,
		batched: false,
		carriesAction: true,
	},
	'Per Diem Shift Confirmed': {
		name: 'Per Diem Shift Confirmed',
		description: 'An assigned per diem shift is confirmed',
		payload: perDiemShiftConfirmedSchema,
		batched: false,
		carriesAction: true,
	},
	'Per Diem Shift Cancelled': {
		name: 'Per Diem Shift Cancelled',
		description: 'One or more assigned per diem shifts are cancelled',
		payload: perDiemShiftCancelledSchema,
		batched: true,
		carriesAction: true,
	},
	'Per Diem Shift Removed': {
		name: 'Per Diem Shift Removed',
		description: 'A per diem shift is no longer available for your clinicians to claim',
		payload: perDiemShiftRemovedSchema,
		batched: false,
		carriesAction: true,
	},
	'Per Diem Shift Released': {
		name: 'Per Diem Shift Released',
		description: 'A clinician releases a per diem shift they held',
		payload: perDiemShiftReleasedSchema,
		batched: false,
		carriesAction: true,
	},
	'Per Diem Shift Declined': {
		name: 'Per Diem Shift Declined',
		description: 'A clinician declines a per diem shift assigned to them',
		payload: perDiemShiftDeclinedSchema,
		batched: false,
		carriesAction: true,
	},
	'Per Diem Shift Staffing Pool Changed': {
		name: 'Per Diem Shift Staffing Pool Changed',
		description: 'The staffing pool of a per diem shift changes',
		payload: perDiemShiftStaffingPoolChangedSchema,
		batched: false,
		carriesAction: true,
	},
	'Per Diem Shift Location Changed': {
		name: 'Per Diem Shift Location Changed',
		description: 'The facility or unit of a per diem shift changes',
		payload: perDiemShiftLocationChangedSchema,
		batched: false,
		carriesAction: true,
	},
	'Per Diem Shift Time Changed': {
		name: 'Per Diem Shift Time Changed',
		description:
			'The start or end of a per diem shift changes (times are local to the staffing pool)',
		payload: perDiemShiftTimeChangedSchema,
		batched: false,
		carriesAction: true,
	},
	'Per Diem Shift Rate Changed': {
		name: 'Per Diem Shift Rate Changed',
		description: 'The rate type of a per diem shift changes',
		payload: perDiemShiftRateChangedSchema,
		batched: false,
		carriesAction: true,
	},
	'Per Diem Shift Note Changed': {
		name: 'Per Diem Shift Note Changed',
		description: 'The note of a per diem shift changes',
		payload: perDiemShiftNoteChangedSchema,
		batched: false,
		carriesAction: true,
	},
};

export function isTrioEventName(value: unknown): value is TrioEventName {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(TRIO_EVENTS, value);
}
