/**
 * The facts about the Trio VMS service the package knows or has decided, in one place: its
 * addresses and paths, job statuses, resume file limits and the US states a license may name.
 * Items the specification marks "not shown" are decisions (see docs/service-decisions.md);
 * if the real service differs, change them here and nowhere else.
 */

export const API_PREFIX = '/api/v3';

export const ENVIRONMENT_HOSTS = {
	production: 'https://api.triovms.com',
	uat: 'https://api-uat.triovms.com',
} as const;

export const DEFAULT_TENANT = 'ahsa';

export const PATHS = {
	jobs: '/Job',
	job: '/Job/{number}',
	candidates: '/candidates',
	submissions: '/Submission',
	submission: '/Submission/{number}',
	submissionAccept: '/Submission/Accept',
	submissionDecline: '/Submission/Decline',
	submissionWithdraw: '/Submission/Withdraw',
	withdrawReasons: '/Submission/WithdrawReasons',
	webhooks: '/Webhooks',
	webhookEvents: '/Webhooks/Events',
} as const;

/** The job states of spec 3.1; the list endpoint returns only the first two. */
const JOB_STATUSES = ['Open', 'OnHold', 'Closed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_STATUS_WORDS: Readonly<Record<JobStatus, string>> = {
	Open: 'Open',
	OnHold: 'On Hold',
	Closed: 'Closed',
};

/** The one job status dropdown of every node: the words shown, Trio's value sent. */
export const JOB_STATUS_OPTIONS: ReadonlyArray<{ name: string; value: JobStatus }> =
	JOB_STATUSES.map((status) => ({ name: JOB_STATUS_WORDS[status], value: status }));

/** "Under 2.5 MB" read conservatively: 2,500,000 bytes or more is refused. */
export const PROFILE_FILE_MAX_BYTES = 2_500_000;

export const PROFILE_FILE_EXTENSIONS = ['pdf', 'doc', 'docx', 'rtf', 'txt'] as const;
export type ProfileFileExtension = (typeof PROFILE_FILE_EXTENSIONS)[number];

export const PROFILE_FILE_CONTENT_TYPES: Record<ProfileFileExtension, string> = {
	pdf: 'application/pdf',
	doc: 'application/msword',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	rtf: 'application/rtf',
	txt: 'text/plain',
};

/** Two-letter US state, DC and territory abbreviations accepted for licenses. */
export const US_STATES: ReadonlyArray<{ abbreviation: string; name: string }> = [
	{ abbreviation: 'AL', name: 'Alabama' },
	{ abbreviation: 'AK', name: 'Alaska' },
	{ abbreviation: 'AS', name: 'American Samoa' },
	{ abbreviation: 'AZ', name: 'Arizona' },
	{ abbreviation: 'AR', name: 'Arkansas' },
	{ abbreviation: 'CA', name: 'California' },
	{ abbreviation: 'CO', name: 'Colorado' },
	{ abbreviation: 'CT', name: 'Connecticut' },
	{ abbreviation: 'DE', name: 'Delaware' },
	{ abbreviation: 'DC', name: 'District of Columbia' },
	{ abbreviation: 'FL', name: 'Florida' },
	{ abbreviation: 'GA', name: 'Georgia' },
	{ abbreviation: 'GU', name: 'Guam' },
	{ abbreviation: 'HI', name: 'Hawaii' },
	{ abbreviation: 'ID', name: 'Idaho' },
	{ abbreviation: 'IL', name: 'Illinois' },
	{ abbreviation: 'IN', name: 'Indiana' },
	{ abbreviation: 'IA', name: 'Iowa' },
	{ abbreviation: 'KS', name: 'Kansas' },
	{ abbreviation: 'KY', name: 'Kentucky' },
	{ abbreviation: 'LA', name: 'Louisiana' },
	{ abbreviation: 'ME', name: 'Maine' },
	{ abbreviation: 'MD', name: 'Maryland' },
	{ abbreviation: 'MA', name: 'Massachusetts' },
	{ abbreviation: 'MI', name: 'Michigan' },
	{ abbreviation: 'MN', name: 'Minnesota' },
	{ abbreviation: 'MS', name: 'Mississippi' },
	{ abbreviation: 'MO', name: 'Missouri' },
	{ abbreviation: 'MT', name: 'Montana' },
	{ abbreviation: 'NE', name: 'Nebraska' },
	{ abbreviation: 'NV', name: 'Nevada' },
	{ abbreviation: 'NH', name: 'New Hampshire' },
	{ abbreviation: 'NJ', name: 'New Jersey' },
	{ abbreviation: 'NM', name: 'New Mexico' },
	{ abbreviation: 'NY', name: 'New York' },
	{ abbreviation: 'NC', name: 'North Carolina' },
	{ abbreviation: 'ND', name: 'North Dakota' },
	{ abbreviation: 'MP', name: 'Northern Mariana Islands' },
	{ abbreviation: 'OH', name: 'Ohio' },
	{ abbreviation: 'OK', name: 'Oklahoma' },
	{ abbreviation: 'OR', name: 'Oregon' },
	{ abbreviation: 'PA', name: 'Pennsylvania' },
	{ abbreviation: 'PR', name: 'Puerto Rico' },
	{ abbreviation: 'RI', name: 'Rhode Island' },
	{ abbreviation: 'SC', name: 'South Carolina' },
	{ abbreviation: 'SD', name: 'South Dakota' },
	{ abbreviation: 'TN', name: 'Tennessee' },
	{ abbreviation: 'TX', name: 'Texas' },
	{ abbreviation: 'VI', name: 'U.S. Virgin Islands' },
	{ abbreviation: 'UT', name: 'Utah' },
	{ abbreviation: 'VT', name: 'Vermont' },
	{ abbreviation: 'VA', name: 'Virginia' },
	{ abbreviation: 'WA', name: 'Washington' },
	{ abbreviation: 'WV', name: 'West Virginia' },
	{ abbreviation: 'WI', name: 'Wisconsin' },
	{ abbreviation: 'WY', name: 'Wyoming' },
];

const STATE_ABBREVIATIONS = new Set(US_STATES.map((state) => state.abbreviation));

export function isUsStateAbbreviation(value: string): boolean {
	return STATE_ABBREVIATIONS.has(value);
}

/** The one state dropdown of every node: the name shown, the abbreviation sent. */
export const US_STATE_OPTIONS: ReadonlyArray<{ name: string; value: string }> = [...US_STATES]
	.sort((a, b) => a.name.localeCompare(b.name))
	.map((state) => ({ name: state.name, value: state.abbreviation }));
