/**
 * HTTP plumbing shared by the API and the scenario API: problem-details errors (decided error
 * body, ASP.NET style), JSON bodies, and a small case-sensitive router.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ZodError, ZodIssue } from 'zod/v3';

export interface ProblemBody {
	type: string;
	title: string;
	status: number;
	detail?: string;
	errors?: Record<string, string[]>;
	traceId?: string;
}

const PROBLEM_TYPES: Record<number, string> = {
	400: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
	403: 'https://tools.ietf.org/html/rfc9110#section-15.5.4',
	404: 'https://tools.ietf.org/html/rfc9110#section-15.5.5',
	405: 'https://tools.ietf.org/html/rfc9110#section-15.5.6',
	413: 'https://tools.ietf.org/html/rfc9110#section-15.5.14',
	415: 'https://tools.ietf.org/html/rfc9110#section-15.5.16',
	429: 'https://tools.ietf.org/html/rfc6585#section-4',
	500: 'https://tools.ietf.org/html/rfc9110#section-15.6.1',
	502: 'https://tools.ietf.org/html/rfc9110#section-15.6.3',
	503: 'https://tools.ietf.org/html/rfc9110#section-15.6.4',
};

const TITLES: Record<number, string> = {
	400: 'One or more validation errors occurred.',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	413: 'Payload Too Large',
	415: 'Unsupported Media Type',
	429: 'Too Many Requests',
	500: 'An error occurred while processing your request.',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
};

export function statusTitle(status: number): string {
	return TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Error');
}

export class HttpError extends Error {
	constructor(
		readonly status: number,
		detail?: string,
		readonly errors?: Record<string, string[]>,
		readonly headers: Record<string, string> = {},
	) {
		super(detail ?? statusTitle(status));
	}

	toProblem(): ProblemBody {
		const problem: ProblemBody = {
			type: PROBLEM_TYPES[this.status] ?? 'about:blank',
			title: statusTitle(this.status),
			status: this.status,
			detail: this.message,
		};
		if (this.errors) problem.errors = this.errors;
		return problem;
	}
}

/**
 * Messages read well on their own: the field's name leads, as in "email1 must be a valid e-mail
 * address", so a node that prints only the messages still names the field.
 */
export function fieldMessage(field: string, message: string): string {
	return /^[a-z]/.test(message) ? `${field} ${message}` : `${field}: ${message}`;
}

/** 400 with `errors` keyed by field; `detail` repeats the messages for clients that read only it. */
export function validationError(errors: Record<string, string[]>): HttpError {
	return new HttpError(400, Object.values(errors).flat().join(' '), errors);
}

export function fieldError(field: string, message: string): HttpError {
	return validationError({ [field]: [fieldMessage(field, message)] });
}

export function notFound(detail: string, field?: string): HttpError {
	return new HttpError(404, detail, field ? { [field]: [detail] } : undefined);
}

/** `stateLicenses[0].state`, the way ASP.NET names a nested field. */
function fieldPath(path: ReadonlyArray<string | number>, prefix = ''): string {
	let result = prefix;
	for (const part of path) {
		result += typeof part === 'number' ? `[${part}]` : result ? `.${part}` : part;
	}
	return result || '$';
}

function issueMessage(issue: ZodIssue): string {
	if (issue.code === 'invalid_type' && issue.received === 'undefined') return 'is required';
	if (issue.code === 'invalid_type' && issue.received === 'null') return 'must not be null';
	if (issue.code === 'invalid_type')
		return `must be of type ${issue.expected}, not ${issue.received}`;
	if (issue.code === 'unrecognized_keys') return `has unknown field(s) ${issue.keys.join(', ')}`;
	return issue.message;
}

export function zodErrors(error: ZodError, prefix = ''): Record<string, string[]> {
	const errors: Record<string, string[]> = {};
	for (const issue of error.issues) {
		const field = fieldPath(issue.path, prefix);
		(errors[field] ??= []).push(fieldMessage(field, issueMessage(issue)));
	}
	return errors;
}

export function throwIfInvalid<T>(
	result: { success: true; data: T } | { success: false; error: ZodError },
	prefix = '',
): T {
	if (!result.success) throw validationError(zodErrors(result.error, prefix));
	return result.data;
}

// ---------------------------------------------------------------- responses

export interface Result {
	status: number;
	body?: unknown;
	/** Plain-text body instead of JSON (fault answers imitating a proxy). */
	text?: string;
	headers?: Record<string, string>;
}

export function ok(body: unknown): Result {
	return { status: 200, body };
}

export function problemResult(error: HttpError): Result {
	return {
		status: error.status,
		body: error.toProblem(),
		headers: { ...error.headers, 'Content-Type': 'application/problem+json; charset=utf-8' },
	};
}

export function send(res: ServerResponse, result: Result): void {
	if (res.headersSent || res.destroyed) return;
	const headers: Record<string, string> = { ...result.headers };
	let payload = '';
	if (result.text !== undefined) {
		payload = result.text;
		headers['Content-Type'] ??= 'text/plain; charset=utf-8';
	} else if (result.body !== undefined) {
		payload = JSON.stringify(result.body);
		headers['Content-Type'] ??= 'application/json; charset=utf-8';
	}
	headers['Content-Length'] = String(Buffer.byteLength(payload));
	res.writeHead(result.status, headers);
	res.end(payload);
}

// ---------------------------------------------------------------- request bodies

const JSON_BODY_LIMIT = 1_048_576;

function readBody(req: IncomingMessage, limit = JSON_BODY_LIMIT): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				reject(new HttpError(413, `The request body is larger than ${limit} bytes.`));
				req.resume();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

export function mediaType(req: IncomingMessage): string {
	return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

function isJsonMediaType(type: string): boolean {
	return (
		type === 'application/json' ||
		type === 'text/json' ||
		/^application\/[\w.+-]+\+json$/.test(type)
	);
}

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch (error) {
		// ASP.NET reports body syntax errors under "$", the JSON path of the whole body.
		throw validationError({
			$: [`The request body is not valid JSON: ${(error as Error).message}`],
		});
	}
}

/** The API's JSON bodies: JSON media type required (415), non-empty, parseable. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
	const type = mediaType(req);
	if (!isJsonMediaType(type)) {
		req.resume();
		throw new HttpError(
			415,
			`Expected a JSON body (Content-Type: application/json), got ${type ? `'${type}'` : 'no Content-Type'}.`,
		);
	}
	const text = (await readBody(req)).toString('utf8');
	if (text.trim() === '') throw validationError({ $: ['A non-empty request body is required.'] });
	return parseJson(text);
}

/** The scenario API is a test tool: any content type, an empty body means `{}`. */
export async function readLenientJson(req: IncomingMessage): Promise<Record<string, unknown>> {
	const text = (await readBody(req)).toString('utf8');
	if (text.trim() === '') return {};
	const value = parseJson(text);
	if (!value || typeof value !== 'object' || Array.isArray(value))
		throw validationError({ $: ['The request body must be a JSON object.'] });
	return value as Record<string, unknown>;
}

// ---------------------------------------------------------------- routing

export interface Route<H> {
	method: string;
	path: string;
	handler: H;
}

interface CompiledRoute<H> {
	route: Route<H>;
	segments: string[];
	literals: number;
}

export type RouteMatch<H> =
	| { kind: 'found'; route: Route<H>; params: Record<string, string> }
	| { kind: 'method'; allowed: string[] }
	| { kind: 'none' };

/** Letter case is significant, as the spec writes paths "letter case included". */
export class Router<H> {
	private readonly routes: Array<CompiledRoute<H>> = [];

	add(method: string, path: string, handler: H): this {
		const segments = path.split('/').slice(1);
		this.routes.push({
			route: { method, path, handler },
			segments,
			literals: segments.filter((s) => !s.startsWith('{')).length,
		});
		return this;
	}

	list(): Array<Route<H>> {
		return this.routes.map((compiled) => compiled.route);
	}

	/** `path` starts with '/'; empty segments count, so '//api/v3/Job' matches nothing. */
	match(method: string, path: string): RouteMatch<H> {
		const parts = path.split('/').slice(1);
		let best: { compiled: CompiledRoute<H>; params: Record<string, string> } | undefined;
		const allowed = new Set<string>();
		for (const compiled of this.routes) {
			if (compiled.segments.length !== parts.length) continue;
			const params: Record<string, string> = {};
			const matches = compiled.segments.every((segment, index) => {
				if (segment.startsWith('{')) {
					params[segment.slice(1, -1)] = safeDecode(parts[index]);
					return true;
				}
				return segment === parts[index];
			});
			if (!matches) continue;
			allowed.add(compiled.route.method);
			// A literal segment beats a parameter: /Submission/WithdrawReasons is not submission "WithdrawReasons".
			if (compiled.route.method === method && (!best || compiled.literals > best.compiled.literals))
				best = { compiled, params };
		}
		if (best) return { kind: 'found', route: best.compiled.route, params: best.params };
		if (allowed.size > 0) return { kind: 'method', allowed: [...allowed] };
		return { kind: 'none' };
	}
}

function safeDecode(value: string): string {
	try {
		return decodeURIComponent(value);
	} catch {
		return value;
	}
}

// ---------------------------------------------------------------- handlers

export interface RequestContext {
	req: IncomingMessage;
	params: Record<string, string>;
	query: URLSearchParams;
}

export type Handler = (ctx: RequestContext) => Promise<Result> | Result;

const INT32_MAX = 2_147_483_647;

/** Path numbers bind like ASP.NET's int: digits only, within 32 bits. */
export function pathNumber(ctx: RequestContext, name = 'number'): number {
	const raw = ctx.params[name];
	if (!/^\d+$/.test(raw) || Number(raw) > INT32_MAX)
		throw fieldError(name, `must be a whole number; the value '${raw}' is not valid`);
	return Number(raw);
}
