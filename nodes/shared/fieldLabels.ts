/**
 * The service's field names as the node's labels, so Trio's field errors name what the user
 * sees ("Email", not `email1`). ONE map for every operation: when a label is renamed in the
 * node, it is renamed here. Keys are the service's names in lower case (Trio's problem details
 * write them in either case); an operation may pass its own labels on top (FailureContext).
 */
const FIELD_LABELS: Readonly<Record<string, string>> = {
	// Candidates (spec 2.1)
	email1: 'Email',
	email: 'Email',
	firstname: 'First Name',
	lastname: 'Last Name',
	phone1: 'Phone',
	phone: 'Phone',
	statelicenses: 'State Licenses',
	isnicotinefree: 'Nicotine Free',
	isalcoholfree: 'Alcohol Free',
	// Submissions (spec 2.2)
	jobnumber: 'Job',
	candidatenumber: 'Candidate',
	candidateprofilefile: 'Resume',
	startdate: 'Start Date',
	billrateamount: 'Bill Rate',
	billrate: 'Bill Rate',
	availabilitydescription: 'Availability',
	bestcontactdescription: 'Best Contact',
	daysoffdescription: 'Days Off',
	experiencedescription: 'Experience',
	modifynote: 'Modify Note',
	agencycontacts: 'Agency Contacts',
	// Accept, Decline, Withdraw (spec 2.3)
	submissionnumber: 'Submission',
	reason: 'Reason',
};

/**
 * The label of a field named in a service error: `email1`, `$.email1`, `request.Email1`,
 * `stateLicenses[0].state` ("State Licenses (0.state)"). Undefined when the name is unknown.
 */
export function labelOfField(
	name: string,
	extra: Readonly<Record<string, string>> = {},
): string | undefined {
	const segments = name
		.replace(/^\$\.?/, '')
		.split(/[.[\]]+/)
		.filter(Boolean);
	const lookup = (segment: string): string | undefined => {
		const lower = segment.toLowerCase();
		const own = Object.keys(extra).find((key) => key.toLowerCase() === lower);
		return own === undefined ? FIELD_LABELS[lower] : extra[own];
	};
	// A wrapper such as "request." or "dto." comes first: the first segment with a label names the field.
	const at = segments.findIndex((segment) => lookup(segment) !== undefined);
	if (at === -1) return undefined;
	const label = lookup(segments[at]) as string;
	const rest = segments.slice(at + 1);
	return rest.length ? `${label} (${rest.join('.')})` : label;
}
