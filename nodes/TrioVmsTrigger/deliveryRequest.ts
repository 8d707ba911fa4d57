/**
 * What a delivery's request carries, read within the trigger's limits: a query parameter as one
 * string, the body as JSON (from the raw bytes when n8n kept them), the largest body and the
 * deepest nesting accepted, how long a body may take, and the words for a body refused. Pure;
 * judge.ts decides on what these read.
 */
/** A query parameter as one string: repeated parameters (arrays) or nested objects do not count. */
export function singleQueryValue(query: unknown, name: string): string | undefined {
	if (!query || typeof query !== 'object') return undefined;
	const value = (query as Record<string, unknown>)[name];
	return typeof value === 'string' ? value : undefined;
}

export type BodyReading = { ok: true; value: unknown } | { ok: false; reason: string };

function isJsonContentType(contentType: string | undefined): boolean {
	if (!contentType) return false;
	const type = contentType.split(';')[0].trim().toLowerCase();
	return type === 'application/json' || type.endsWith('+json');
}

function parseJsonText(text: string): BodyReading {
	if (text.trim() === '')
		return { ok: false, reason: 'The body is empty; a JSON body is expected' };
	try {
		return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, '')) as unknown };
	} catch {
		return { ok: false, reason: 'The body is not JSON' };
	}
}

/**
 * The delivery's JSON, read from the raw bytes when n8n kept them (so the content type does
 * not matter: JSON sent as text/plain is accepted, a form post or plain text is not), else
 * from what n8n parsed for an application/json request.
 */
export function readJsonBody(input: {
	contentType?: string;
	parsedBody: unknown;
	rawBody?: Buffer | string;
}): BodyReading {
	const { contentType, parsedBody, rawBody } = input;
	if (rawBody !== undefined && rawBody !== null) {
		return parseJsonText(Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : String(rawBody));
	}
	if (typeof parsedBody === 'string') return parseJsonText(parsedBody);
	if (isJsonContentType(contentType) && parsedBody !== undefined)
		return { ok: true, value: parsedBody };
	return { ok: false, reason: 'The body is empty or not JSON' };
}

/** Deeper than any payload of the spec (three levels) by far; deeper ones are refused. */
export const MAX_PAYLOAD_DEPTH = 64;

/** Whether a value nests objects or lists deeper than `max`, found without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
	const stack: Array<[unknown, number]> = [[value, 0]];
	while (stack.length) {
		const [current, depth] = stack.pop() as [unknown, number];
		if (current === null || typeof current !== 'object') continue;
		if (depth >= max) return true;
		for (const child of Object.values(current as Record<string, unknown>)) {
			if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
		}
	}
	return false;
}

/**
 * The largest body a delivery may have: 2 MiB. A job with a long description is a few
 * kilobytes and a Per Diem Shift Opened batch about 600 bytes a shift, so this holds thousands
 * of shifts; a bigger body is refused (413) before it is parsed, not handed to the workflow.
 * n8n itself reads up to N8N_PAYLOAD_SIZE_MAX (16 MiB by default) for the content types it parses.
 */
export const MAX_DELIVERY_BYTES = 2 * 1024 * 1024;

/**
 * How long the trigger waits for a body n8n did not read (another content type, or none):
 * the service expects an answer within 10 seconds, so a body still arriving after 30 is not
 * a delivery in progress. Tests shorten it; nothing else changes it.
 */
export const BODY_WAIT = { ms: 30_000 };

function megabytes(bytes: number): string {
	return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

export function bodyTooLarge(bytes: number | undefined): string {
	return `The body is ${bytes === undefined ? 'larger than' : `${megabytes(bytes)}, more than`} ${megabytes(MAX_DELIVERY_BYTES)}, the most a Trio VMS delivery may have; it was not read`;
}

export function bodyStalled(): string {
	return `The body did not arrive within ${Math.round(BODY_WAIT.ms / 1000)} s; the delivery was not read`;
}

/** The size a request says it has (Content-Length), when it says one. */
export function declaredLength(header: unknown): number | undefined {
	const text = Array.isArray(header) ? header[0] : header;
	if (typeof text !== 'string' || !/^\d+$/.test(text.trim())) return undefined;
	return Number(text.trim());
}
