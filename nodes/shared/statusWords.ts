/**
 * What an error answer says, in the recruiter's words: the words per status (its text, what to do
 * about it, the headline), Trio's field errors named by the node's labels, and its reason once.
 * Pure: errors.ts builds the NodeApiError from these words.
 */
import { labelOfField } from './fieldLabels';
import { escapeRegExp, redact } from './secrets';
import { bounded, readServiceMessage } from './serviceMessage';
import { JOB_STATUS_WORDS } from './serviceFacts';

const STATUS_TEXT: Record<number, string> = {
	301: 'Moved Permanently',
	302: 'Found',
	303: 'See Other',
	307: 'Temporary Redirect',
	308: 'Permanent Redirect',
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	409: 'Conflict',
	413: 'Payload Too Large',
	415: 'Unsupported Media Type',
	422: 'Unprocessable Entity',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

export function statusText(status: number): string {
	return STATUS_TEXT[status] ?? 'Error';
}

export interface FailureContext {
	/** What the request was about, for 404s: "job 123", "submission 9". */
	subject?: string;
	/** The request touched webhook registrations (403 then means agency admin permission). */
	webhookManagement?: boolean;
	/** The request may have created something (its outcome matters on 5xx). */
	creates?: boolean;
	/** The operation's own service field name -> label, on top of the shared FIELD_LABELS. */
	fieldLabels?: Record<string, string>;
}

/** A wait in words: "120 s", "300 s (5 min)". */
function secondsInWords(ms: number): string {
	const seconds = Math.ceil(ms / 1000);
	return seconds >= 120 ? `${seconds} s (${Math.round(seconds / 60)} min)` : `${seconds} s`;
}

/**
 * What to do about an answer with this status, in the user's terms. `retryAfterMs` is the wait a
 * 429's Retry-After asked for: when Trio said how long, waiting that long is the advice, since
 * a longer pause between requests cannot shorten it.
 */
export function hintForStatus(
	status: number,
	context: FailureContext = {},
	retryAfterMs?: number,
): string {
	if (status === 400 || status === 422)
		return 'Check the values in the node, and in the input data mapped into it, then run the node again.';
	if (status === 401 || status === 403) {
		return context.webhookManagement
			? 'Managing webhooks needs an API key of a user with the agency administrator permission. Ask your agency admin or MSP contact for such a key.'
			: 'The API key is wrong, expired or lacks permission for this operation. Create a new key on your Trio User Profile page, or ask your MSP contact.';
	}
	if (status === 404) {
		return context.subject
			? `No ${context.subject} was found. Check the number (it may belong to another agency, be closed or never have existed).`
			: "Check the number, and the credential's environment and base URL.";
	}
	if (status >= 300 && status < 400) {
		return "The address answered with a redirect, which the node does not follow: the API key would go wherever it points. Check the credential's environment and base URL (use the address the redirect names, if it is Trio's).";
	}
	if (status === 429) {
		return retryAfterMs !== undefined && retryAfterMs > 0
			? `Trio VMS asked to wait ${secondsInWords(retryAfterMs)} before the next request: run again after that.`
			: 'Trio VMS is limiting how fast the node calls it, without saying for how long. Raise "Pause Between Requests" under the node\'s Options, or run the workflow less often.';
	}
	if (status >= 500) {
		return context.creates
			? 'Trio VMS may or may not have created it: check in Trio (for example with Get Many) before running this item again.'
			: 'Trio VMS failed or is unavailable. Try again later; if it keeps failing, ask your MSP contact.';
	}
	if (status === 409) return 'Check in Trio what it already has, then run the node again.';
	if (status === 413) return 'Send less: a smaller file, or fewer or shorter values.';
	return 'Check the node and its input data; if it keeps failing, ask your MSP contact.';
}

/** Titles that only say field errors follow, at the start of what the service said: never a reason. */
const GENERIC_VALIDATION_LEAD =
	/^(one or more validation errors occurred|one or more fields are invalid)\.?(:\s*|$)/i;

/** What the service says when it says nothing beyond its status: never a reason in a headline. */
const SAYS_NOTHING = new Set([
	'the service gave no details',
	'an error occurred while processing your request.',
	'one or more validation errors occurred.',
	'one or more fields are invalid',
]);

/**
 * Trio's enum values written as one word, in the words the node shows for them ("OnHold" is
 * "On Hold"). Only values known to be Trio's are changed (its job statuses): anything else keeps
 * Trio's spelling.
 */
const ENUM_WORDS: Readonly<Record<string, string>> = Object.fromEntries(
	Object.entries(JOB_STATUS_WORDS).filter(([value, words]) => value !== words),
);
const ENUM_WORD = new RegExp(`(?<![\\w.$])(${Object.keys(ENUM_WORDS).join('|')})(?![\\w])`, 'g');

/**
 * Trio's words made readable: its enum values in words, and a word said twice in a row once
 * ("Job job 100002", where the field's name was put back as its label), keeping the later one.
 */
function inWords(text: string): string {
	return text
		.replace(ENUM_WORD, (word: string) => ENUM_WORDS[word])
		.replace(/\b([A-Za-z]+)\s+(\1)\b/gi, '$2');
}

/** A service field name in words, for a field no label is known for: "NumberOfOpenPositions" -> "Number of open positions". */
function wordsOfField(field: string): string {
	const words = field
		.replace(/^\$\.?/, '')
		.replace(/([a-z\d])([A-Z])/g, '$1 $2')
		.replace(/[.[\]_]+/g, ' ')
		.trim()
		.toLowerCase();
	return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Whether the text starts by naming the field ("The Email field...", "'Candidate' must...", "Job 12 is..."). */
function namesField(text: string, names: string[]): boolean {
	const start = text.replace(/^(the\s+)?['"`]?/i, '').toLowerCase();
	return names.some((name) => {
		const lower = name.toLowerCase();
		return lower !== '' && start.startsWith(lower) && !/^\w/.test(start.slice(lower.length));
	});
}

interface FieldError {
	/** The service's own name for the field (`JobNumber`). */
	field: string;
	/** Its label in the node, or its name in words. */
	label: string;
	/** Whether the label is one of the node's (the user can correct that field). */
	known: boolean;
	/** What the service said about it, in the user's words. */
	text: string;
	/** Whether the text names the field already, so no label goes before it. */
	named: boolean;
}

/** The field error as a line of its own: "Email: Taken.", or the text alone when it names the field. */
function fieldLine(error: FieldError): string {
	return error.named ? error.text : `${error.label}: ${error.text}`;
}

/**
 * Field errors in the user's words: each named by its label (or its name in words), and the
 * service's name for it inside the message ("The email1 field is required.") replaced by it too.
 */
function fieldErrorsInWords(
	fieldErrors: Record<string, string[]>,
	extraLabels: Record<string, string> = {},
): FieldError[] {
	return Object.entries(fieldErrors).map(([field, messages]) => {
		const known = labelOfField(field, extraLabels);
		const label = known ?? wordsOfField(field);
		const bare = field.replace(/^\$\.?/, '');
		let text = messages.join(' ');
		// Only a name no one would write in prose (email1, CandidateNumber) is replaced inside the
		// message: "reason" or "Email" may be the service's own words.
		if (/\d|[a-z][A-Z]|[.[]/.test(bare)) {
			const named = new RegExp(`(^|[^\\w.$])(\\$\\.)?${escapeRegExp(bare)}(?![\\w])`, 'gi');
			text = text.replace(named, `$1${label}`);
		}
		text = inWords(text);
		const named = namesField(text, [label, wordsOfField(field)]);
		return { field, label, known: known !== undefined, text, named };
	});
}

/** A job that is not open takes no submissions: the one refusal whose fix is not in the node. */
const JOB_NOT_OPEN = /\b(on hold|closed|not open)\b/i;

/** What to do about a field Trio refused. */
function fieldHint(first: FieldError): string {
	if (first.label === 'Job' && JOB_NOT_OPEN.test(first.text))
		return 'The job must take submissions again (be open in Trio) before anything can be submitted to it: run the node again then, or choose another job.';
	// A field the node has no label for is not one the user sets: what Trio has decides.
	return first.known
		? `Correct "${first.label}" in the node, or in the input data mapped into it, then run the node again.`
		: 'Check the node and its input data against what Trio VMS has now, then run the node again.';
}

/**
 * The reason the service gave, fit for a headline: without the status it repeats ("404 Not
 * Found", "Forbidden: ..."), and undefined when it says nothing beyond the status.
 */
function reasonOf(said: string, status: number, body: unknown): string | undefined {
	const label = statusText(status);
	const spelled = new RegExp(`\\b${status}\\s+${escapeRegExp(label)}\\b`, 'gi');
	let reason = said.replace(spelled, ' ').replace(/\s+/g, ' ').trim();
	const lead = new RegExp(`^${escapeRegExp(label)}\\b[:.]?\\s*`, 'i');
	reason = reason.replace(lead, '').replace(GENERIC_VALIDATION_LEAD, '').trim();
	if (!/\w/.test(reason) || SAYS_NOTHING.has(reason.toLowerCase())) return undefined;
	// What is left of a gateway's HTML page after its status is its server's name: not a reason.
	if (typeof body === 'string' && /^\s*</.test(body) && !/\s/.test(reason)) return undefined;
	return inWords(reason);
}

/** Words that say what a refusal without a reason was about. */
const REFUSED_AS: Readonly<Record<number, string>> = {
	409: 'it conflicts with what Trio VMS already has',
	413: 'it is too large',
	415: 'it is not in a form Trio VMS accepts',
};

/**
 * The headline: what Trio did, in the recruiter's words, with its reason once. No status code,
 * method, path or service field name: those are in the description.
 */
function headlineOf(
	status: number,
	reason: string | undefined,
	first: FieldError | undefined,
	context: FailureContext,
): string {
	const because = (text: string | undefined) => (text ? `: ${text}` : '');
	if (first) {
		return first.named
			? `Trio VMS refused it: ${first.text}`
			: `Trio VMS refused "${first.label}": ${first.text}`;
	}
	if (status >= 300 && status < 400)
		return 'The Trio VMS address sent the request elsewhere, which the node does not follow';
	if (status === 401 || status === 403) return `Trio VMS refused the API key${because(reason)}`;
	if (status === 404) {
		const what = context.subject ?? 'this address or item';
		// "Job 999 was not found." says no more than "does not know job 999".
		const says =
			reason && context.subject && reason.toLowerCase().includes(context.subject.toLowerCase())
				? undefined
				: reason;
		return `Trio VMS does not know ${what}${because(says)}`;
	}
	if (status === 405) return `Trio VMS does not offer this request${because(reason)}`;
	if (status === 429) return `Trio VMS asked the node to slow down${because(reason)}`;
	if (status >= 500) return `Trio VMS failed (its error, not yours)${because(reason)}`;
	return `Trio VMS refused it${because(reason ?? REFUSED_AS[status])}`;
}

/** What an error answer says, ready for a NodeApiError's message and description. */
export interface ErrorAnswerInWords {
	/** The headline, the key taken out. */
	headline: string;
	/** The field errors the headline does not carry, a line each. */
	otherLines: string[];
	/** What the service said, when neither the headline nor those lines say it. */
	saidElsewhere: string | undefined;
	/** What to do about it. */
	hint: string;
	/** The service's own names of the fields it refused, bounded. */
	fieldNames: string | undefined;
}

/** The most of the service's field names the description lists. */
const MAX_FIELD_NAMES_CHARS = 500;

/**
 * Reads an error answer's body (the key already taken out of it) into words: its first field
 * error or its reason as the headline, the other field errors, and what to do.
 */
export function errorAnswerInWords(answer: {
	status: number;
	body: unknown;
	context: FailureContext;
	retryAfterMs?: number;
	secret?: string;
}): ErrorAnswerInWords {
	const { status, body, context, secret } = answer;
	const { message, fieldErrors } = readServiceMessage(body);
	const fields = fieldErrorsInWords(fieldErrors, context.fieldLabels);
	// Problem details often carry the status text as their title: "Forbidden: Forbidden: ..." says nothing twice.
	const label = statusText(status);
	const said = message.toLowerCase().startsWith(`${label.toLowerCase()}: `)
		? message.slice(label.length + 2)
		: message;
	// The first field error is the headline of a refused request (400, 422), and the reason of any
	// other answer that says nothing more; "One or more validation errors occurred." never hides it.
	const fieldFirst = fields.length > 0 && (status === 400 || status === 422);
	const first = fieldFirst ? fields[0] : undefined;
	const others = fieldFirst ? fields.slice(1) : [...fields];
	let reason = reasonOf(said, status, body);
	if (!first && !reason && others.length) reason = fieldLine(others.shift() as FieldError);
	const headline = redact(headlineOf(status, reason, first, context), secret);
	// A field error the headline says already (a 404's "Job 42 was not found.") is not said twice.
	const otherLines = others
		.filter((field) => first || field.text.toLowerCase() !== reason?.toLowerCase())
		.map(fieldLine);
	// What the service said, when the headline does not say it (a 404's "Job 999 was not found."
	// beside "does not know job 999"), unless it only repeats the field errors of the headline (as
	// ASP.NET's detail often does) or the lines below it.
	const repeatsFields =
		first !== undefined &&
		inWords(Object.values(fieldErrors).flat().join(' ')).includes(reason ?? '');
	const saidElsewhere =
		reason &&
		!repeatsFields &&
		!headline.includes(reason) &&
		!otherLines.some((line) => line.includes(reason))
			? `Trio VMS said: ${reason}`
			: undefined;
	const fieldNames = fields.map(({ field }) => field).join(', ');
	return {
		headline,
		otherLines,
		saidElsewhere,
		hint: first ? fieldHint(first) : hintForStatus(status, context, answer.retryAfterMs),
		fieldNames: fieldNames ? bounded(fieldNames, MAX_FIELD_NAMES_CHARS) : undefined,
	};
}
