/**
 * Pure checks for what a user typed or mapped from a spreadsheet. Each one returns the value the
 * service wants or throws a ParameterError naming the field the way the user sees it; the router turns
 * a ParameterError into a NodeOperationError for the item, before anything is sent.
 */
import type { ZodError } from 'zod/v3';

import { isValidEmail } from '../../shared/schemas';
import { isUsStateAbbreviation, US_STATES } from '../../shared/serviceFacts';

export class ParameterError extends Error {
	constructor(
		/** The parameter's label as shown in the node, e.g. "Candidate Number". */
		readonly label: string,
		/** What is wrong, phrased to follow the label: 'must be ...'. */
		readonly problem: string,
		/** Optional extra advice for the error's description. */
		readonly hint?: string,
	) {
		// A problem that goes on listing ('"a", "b" and "c" match ...') follows the name without a space.
		super(`"${label}"${problem.startsWith(',') ? '' : ' '}${problem}`);
		this.name = 'ParameterError';
	}
}

/**
 * The first problem zod found, as the ParameterError of the field the user sees: `labels` maps the
 * request's keys to field names; a nested path is added in brackets ("State Licenses (0.state)").
 */
export function parameterErrorFromZod(
	error: ZodError,
	labels: Record<string, string>,
): ParameterError {
	const [issue] = error.issues;
	const [key, ...rest] = issue.path.map(String);
	const known = key === undefined ? undefined : labels[key];
	const label = known
		? `${known}${rest.length ? ` (${rest.join('.')})` : ''}`
		: issue.path.join('.') || 'body';
	return new ParameterError(label, issue.message);
}

/** Shows a received value in a message: short, quoted, never "[object Object]". */
export function shown(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (typeof value === 'string') {
		// Cut between characters, never inside one (an emoji is two UTF-16 units).
		const characters = [...value.slice(0, 400)];
		return characters.length > 80 ? `"${characters.slice(0, 77).join('')}..."` : `"${value}"`;
	}
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	try {
		const text = JSON.stringify(value);
		return text.length > 80 ? `${text.slice(0, 77)}...` : text;
	} catch {
		return typeof value;
	}
}

/** Empty strings, null and undefined mean "not given" for optional fields. */
export function isBlank(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** Text for an optional field: numbers become text, blanks become undefined. */
export function optionalText(value: unknown, label: string): string | undefined {
	if (isBlank(value)) return undefined;
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	throw new ParameterError(label, `must be text, got ${shown(value)}`);
}

export function requiredText(value: unknown, label: string): string {
	const text = optionalText(value, label);
	if (text === undefined) throw new ParameterError(label, 'is required but empty');
	return text;
}

/**
 * Zero-width and other invisible characters that ride along when addresses are copied from the
 * web or a sheet, the bidi controls phones add around copied contacts (U+061C, U+200E/200F,
 * U+202A-202E, U+2066-2069), and the tag characters (U+E0000-E007F) that can hide text in a name.
 */
const INVISIBLE =
	/[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF\u{E0000}-\u{E007F}]/gu;

/**
 * An e-mail address as a person means it: invisible characters, a `mailto:` prefix and angle
 * brackets removed, so that a lookup finds the candidate instead of creating a second one.
 */
export function requiredEmail(value: unknown, label: string): string {
	const text = requiredText(
		typeof value === 'string'
			? value
					.replace(INVISIBLE, '')
					.replace(/\u00A0/g, ' ')
					.trim()
					.replace(/^mailto:/i, '')
					.replace(/^<(.*)>$/, '$1')
			: value,
		label,
	);
	if (!isValidEmail(text)) {
		throw new ParameterError(
			label,
			`must be a valid email address such as name@agency.com, got ${shown(text)}`,
		);
	}
	return text;
}

/** Control characters (NUL, escape, the C1 range): no name contains them. */
function withoutControls(text: string): string {
	let kept = '';
	for (const character of text) {
		const code = character.codePointAt(0) ?? 0;
		if (code >= 0x20 && (code < 0x7f || code > 0x9f)) kept += character;
	}
	return kept;
}

/** The longest name taken: longer is a wrong column or a pasted paragraph, not a person's name. */
const NAME_MAX_LENGTH = 100;

/**
 * A person's name as it should reach Trio: control characters (NUL, line breaks) and the
 * invisible and bidi characters a copy from a web page or a phone brings removed, runs of spaces
 * made one, and no longer than NAME_MAX_LENGTH.
 */
export function personName(value: unknown, label: string): string {
	const text = requiredText(
		typeof value === 'string'
			? withoutControls(value.replace(/[\t\n\r\u00A0]/g, ' ').replace(INVISIBLE, '')).replace(
					/ {2,}/g,
					' ',
				)
			: value,
		label,
	);
	// Characters as people count them (code points): an emoji is one, not two UTF-16 units.
	const length = [...text].length;
	if (length > NAME_MAX_LENGTH) {
		throw new ParameterError(
			label,
			`is ${length} characters long; a name has at most ${NAME_MAX_LENGTH}, got ${shown(text)}`,
		);
	}
	return text;
}

/**
 * A positive whole number, given as a number or as text from a spreadsheet ("1042", " 1042 ",
 * "1042.0"). Anything else is refused rather than guessed.
 */
export function positiveInteger(value: unknown, label: string): number {
	if (isBlank(value)) throw new ParameterError(label, 'is required but empty');
	let number: number | undefined;
	if (typeof value === 'number') number = value;
	else if (typeof value === 'string' && /^\s*\+?\d+(\.0+)?\s*$/.test(value))
		number = Number(value.trim());
	if (number === undefined || !Number.isFinite(number)) {
		throw new ParameterError(
			label,
			`must be a positive whole number such as 1042, got ${shown(value)}`,
		);
	}
	if (!Number.isInteger(number) || number <= 0 || number > Number.MAX_SAFE_INTEGER) {
		throw new ParameterError(
			label,
			`must be a positive whole number such as 1042, got ${shown(value)}`,
		);
	}
	return number;
}

/** A money amount: a number, or text such as "65.50", "$1,250.00". Undefined when blank. */
export function optionalAmount(value: unknown, label: string): number | undefined {
	if (isBlank(value)) return undefined;
	let number: number | undefined;
	if (typeof value === 'number') number = value;
	else if (typeof value === 'string') {
		const cleaned = value
			.trim()
			.replace(/^\$\s*/, '')
			.replace(/,(?=\d{3}(\D|$))/g, '');
		if (/^\d+(\.\d+)?$/.test(cleaned) || /^\.\d+$/.test(cleaned)) number = Number(cleaned);
	}
	if (number === undefined || !Number.isFinite(number)) {
		throw new ParameterError(label, `must be an amount such as 65.50, got ${shown(value)}`);
	}
	if (number < 0) throw new ParameterError(label, `must not be negative, got ${shown(value)}`);
	return number;
}

const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'on']);
const FALSE_WORDS = new Set(['false', 'no', 'n', '0', 'off']);

/** true/false, also "Yes"/"No", "TRUE"/"FALSE", 1/0 as spreadsheets write them. */
export function optionalBoolean(value: unknown, label: string): boolean | undefined {
	if (isBlank(value)) return undefined;
	if (typeof value === 'boolean') return value;
	if (typeof value === 'number' && (value === 0 || value === 1)) return value === 1;
	if (typeof value === 'string') {
		const word = value.trim().toLowerCase();
		if (TRUE_WORDS.has(word)) return true;
		if (FALSE_WORDS.has(word)) return false;
	}
	throw new ParameterError(label, `must be true or false (Yes/No also works), got ${shown(value)}`);
}

const STATE_BY_NAME = new Map(
	US_STATES.map((state) => [state.name.toLowerCase(), state.abbreviation]),
);

/** A US state, DC or territory: "TX", "tx" or "Texas" all give "TX". */
export function stateAbbreviation(value: unknown, label: string): string {
	const text = requiredText(value, label);
	const upper = text.toUpperCase();
	if (isUsStateAbbreviation(upper)) return upper;
	const byName = STATE_BY_NAME.get(text.toLowerCase().replace(/\s+/g, ' '));
	if (byName) return byName;
	throw new ParameterError(
		label,
		`must be a two-letter US state, DC or territory abbreviation such as TX, got ${shown(value)}`,
	);
}

function parseUrl(text: string): URL | undefined {
	try {
		return new URL(text);
	} catch {
		return undefined;
	}
}

/** An absolute https:// address (http:// only for this machine, for local testing). */
export function webhookUrl(value: unknown, label: string): string {
	const text = requiredText(value, label);
	const url = parseUrl(text);
	if (!url)
		throw new ParameterError(
			label,
			`must be an absolute address such as https://example.com/hook, got ${shown(text)}`,
		);
	const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
		throw new ParameterError(
			label,
			`must start with https:// (the service only delivers to HTTPS receivers), got ${shown(text)}`,
		);
	}
	return text;
}
