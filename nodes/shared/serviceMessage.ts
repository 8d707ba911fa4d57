/**
 * What the service said when it failed, read from its error body (pure; the fuzz target of
 * test/nodes/shared/fuzz.test.ts). The decided error shape is problem details (docs: service
 * notes), read through its schema; after it the notes require { message }, { Message },
 * { error }, a plain-text body and an empty one to be read too. errors.ts turns what is read
 * here into NodeApiErrors with advice.
 */
import { jsonParse, type IDataObject } from 'n8n-workflow';
import { z } from 'zod/v3';

import { fieldOf } from './recordFields';
import { isRecord } from './listAnswer';

export interface ServiceMessage {
	/** One line: what the service said, or a stand-in when it said nothing. */
	message: string;
	/** Field name -> what was wrong with it, from problem details `errors`. */
	fieldErrors: Record<string, string[]>;
}

function asText(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim()) return value.trim();
	return undefined;
}

function isText(part: string | undefined): part is string {
	return part !== undefined;
}

/**
 * The decided error shape: ASP.NET Core problem details (RFC 9457), whose members ASP.NET always
 * writes in lower case.
 */
export const problemDetailsSchema = z
	.object({
		type: z.string().optional(),
		title: z.string().optional(),
		status: z.number().optional(),
		detail: z.string().optional(),
		errors: z.record(z.array(z.string())).optional(),
	})
	.passthrough();

/** Problem details as the nodes read them: a field whose messages are not a list of strings is still shown. */
const readableProblemDetails = problemDetailsSchema.extend({
	errors: z.record(z.unknown()).optional(),
});

/**
 * The other shapes the notes require: { message } or { Message }, else { error } as text or as an
 * object with a message. Each keeps the one companion its convention gives it: ASP.NET Web API's
 * ExceptionMessage beside Message, and OAuth's error_description beside error (a gateway's refusal).
 */
function otherShapeParts(record: Record<string, unknown>): Array<string | undefined> {
	const message = asText(fieldOf(record as IDataObject, 'message'));
	if (message) return [message, asText(record.ExceptionMessage)];
	const { error } = record;
	if (isRecord(error)) return [asText(fieldOf(error, 'message'))];
	return [asText(error), asText(record.error_description)];
}

/** A body that looks like JSON, parsed; anything else (or JSON that does not parse) as it came. */
export function parseIfJson(body: unknown): unknown {
	if (typeof body !== 'string') return body;
	const trimmed = body.trim();
	if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return body;
	return jsonParse<unknown>(trimmed, { fallbackValue: body });
}

function readFieldErrors(errors: unknown): Record<string, string[]> {
	const result: Record<string, string[]> = {};
	if (!errors || typeof errors !== 'object') return result;
	for (const [field, messages] of Object.entries(errors as Record<string, unknown>).slice(
		0,
		MAX_FIELD_ERRORS,
	)) {
		const list = (Array.isArray(messages) ? messages : [messages])
			.slice(0, 5)
			.map((m) => bounded(typeof m === 'string' ? m : (JSON.stringify(m) ?? String(m)), 300));
		if (list.length) result[bounded(field, 200)] = list;
	}
	return result;
}

const HTML_TAG = /<[^>]+>/g;
/** Style sheets, scripts and comments of an error page are not words anyone should read. */
const HTML_NON_TEXT = /<(style|script)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const HTML_ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: ' ',
	'#39': "'",
};

/**
 * The most of a text body the clean-up reads. The tag patterns take time growing with the square
 * of what they read (a body of unclosed "<" makes each one scan to the end): 40 KB took 0.7 s and
 * 1 MB would hold n8n for minutes. The message keeps 300 characters, and a gateway's page says
 * its words well within the first few kilobytes.
 */
export const MAX_CLEANED_CHARS = 8_000;

/** The most of what the service said that an error keeps: its message, and each field's words. */
const MAX_MESSAGE_CHARS = 500;
const MAX_FIELD_ERRORS = 30;
const MAX_LIST_ENTRIES = 20;

/** The text cut to `max` characters, saying so. */
export function bounded(text: string, max = MAX_MESSAGE_CHARS): string {
	return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

export function htmlToText(html: string): string {
	return html
		.replace(HTML_NON_TEXT, ' ')
		.replace(HTML_TAG, ' ')
		.replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => HTML_ENTITIES[name])
		.replace(/\s+/g, ' ')
		.trim();
}

/**
 * `clean` is the HTML clean-up; tests pass a spy to see that it is only ever handed a bounded
 * text (MAX_CLEANED_CHARS), whatever the body's size.
 */
export function readServiceMessage(
	rawBody: unknown,
	clean: (text: string) => string = htmlToText,
): ServiceMessage {
	const body = parseIfJson(rawBody);
	if (body === undefined || body === null || (typeof body === 'string' && !body.trim())) {
		return { message: 'The service gave no details', fieldErrors: {} };
	}
	if (typeof body === 'string') {
		// A gateway's HTML error page is noise; keep its words, cut to one readable line.
		const text = clean(body.slice(0, MAX_CLEANED_CHARS));
		return {
			message:
				text.length > 300 ? `${text.slice(0, 297)}...` : text || 'The service gave no details',
			fieldErrors: {},
		};
	}
	if (Array.isArray(body)) {
		const texts = body
			.slice(0, MAX_LIST_ENTRIES)
			.map((entry) => bounded(asText(entry) ?? readServiceMessage(entry, clean).message));
		return { message: bounded(texts.join('; ')) || 'The service gave no details', fieldErrors: {} };
	}
	if (typeof body !== 'object') return { message: bounded(String(body)), fieldErrors: {} };

	const record = body as Record<string, unknown>;
	const problem = readableProblemDetails.safeParse(record);
	const fieldErrors = problem.success ? readFieldErrors(problem.data.errors) : {};
	const problemParts = problem.success
		? [asText(problem.data.title), asText(problem.data.detail)].filter(isText)
		: [];
	const parts = problemParts.length ? problemParts : otherShapeParts(record).filter(isText);
	const unique = [...new Set(parts)];
	// A JSON body is as unbounded as a text one: a 5 MB "detail" must not become the message.
	let message = bounded(unique.join(': '));
	if (!message && Object.keys(fieldErrors).length) message = 'One or more fields are invalid';
	// An empty object says as little as an empty body; "{}" in a message would only puzzle.
	if (!message)
		message = Object.keys(record).length
			? JSON.stringify(body).slice(0, 300)
			: 'The service gave no details';
	return { message, fieldErrors };
}
