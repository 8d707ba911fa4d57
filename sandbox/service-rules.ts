/**
 * The sandbox's own decisions about the service: rules the nodes must not depend on (the full
 * list of submission statuses, which statuses may be withdrawn, how long a receiver may take).
 * Only `Offered` = 3 is documented; docs/service-decisions.md lists the rest.
 */

/** The service waits this long for a webhook receiver's answer. */
export const WEBHOOK_RESPONSE_LIMIT_MS = 10_000;

export const SUBMISSION_STATUSES = {
	Submitted: 1,
	'Under Review': 2,
	Offered: 3,
	Accepted: 4,
	Declined: 5,
	Withdrawn: 6,
	Rejected: 7,
} as const;
export type SubmissionStatus = keyof typeof SUBMISSION_STATUSES;
export const OFFERED_STATUS: SubmissionStatus = 'Offered';
export const WITHDRAWABLE_STATUSES: readonly SubmissionStatus[] = [
	'Submitted',
	'Under Review',
	'Offered',
];

/** The sandbox's decided withdraw reasons (the service's list is not shown in the spec). */
export const STANDARD_WITHDRAW_REASONS = [
	'Candidate accepted another position',
	'Candidate no longer available',
	'Candidate not interested',
	'Compensation not acceptable',
	'Location not acceptable',
	'Schedule not acceptable',
	'Credentialing incomplete',
	'Other',
] as const;
