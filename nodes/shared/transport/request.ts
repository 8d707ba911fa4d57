/**
 * What a request is (TrioRequest) and the HTTP options n8n's helper sends for it: the path with
 * its placeholders filled, the query without empty values, and a JSON or multipart body. Pure;
 * client.ts carries the exchange (pacing, deadlines, retries, errors).
 */
import type { IDataObject, IHttpRequestMethods, IHttpRequestOptions } from 'n8n-workflow';

import type { FailureContext } from '../statusWords';
import { encodeMultipart, type MultipartPart } from './multipart';

type QueryValue = string | number | boolean | undefined;

export interface TrioRequest {
	method: 'GET' | 'POST';
	/** Below /api/v3, with `{name}` placeholders filled from pathParams, e.g. '/Job/{number}'. */
	path: string;
	pathParams?: Record<string, string | number>;
	query?: Record<string, QueryValue>;
	/** Sent as JSON. */
	body?: unknown;
	/** Sent as multipart/form-data instead of JSON. */
	multipart?: MultipartPart[];
	/**
	 * Whether sending the request twice has the same effect as sending it once. GETs are;
	 * webhook updates (POST with Id) are; creates and state changes are not, and are never
	 * re-sent once they may have reached the service.
	 */
	idempotent?: boolean;
	/**
	 * For a create: whether Trio stored it anyway, looked at after a 429's wait and before the
	 * create is sent again (retry.ts states the rule). The record found is the request's answer;
	 * undefined sends it again; a failure ends the request unsent, its outcome unknown.
	 */
	lookBeforeResend?: () => Promise<unknown>;
	itemIndex?: number;
	context?: FailureContext;
}

/** The path with its `{name}` placeholders filled, each value URL-encoded. */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
	return path.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = params[name];
		if (value === undefined || value === '')
			throw new Error(`Missing path parameter "${name}" for ${path}`);
		return encodeURIComponent(String(value));
	});
}

/**
 * The options n8n's HTTP helper sends: the answer read here as a stream (bounded in size and
 * time by body.ts), no redirect followed, the query without empty values, a JSON or multipart body.
 */
export function httpOptions(
	request: TrioRequest,
	url: string,
	timeoutMs: number,
): IHttpRequestOptions {
	const headers: IDataObject = { Accept: 'application/json' };
	const options: IHttpRequestOptions = {
		method: request.method as IHttpRequestMethods,
		url,
		headers,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// Read here, bounded in size and time; every error shape, plain text included, then
		// reaches readServiceMessage.
		encoding: 'stream',
		timeout: timeoutMs,
		// A redirect would carry the X-API-KEY header to wherever it points: it is reported instead.
		disableFollowRedirect: true,
	};
	const query = Object.fromEntries(
		Object.entries(request.query ?? {}).filter(([, value]) => value !== undefined && value !== ''),
	);
	if (Object.keys(query).length) options.qs = query as IDataObject;
	if (request.multipart) {
		const encoded = encodeMultipart(request.multipart);
		headers['Content-Type'] = encoded.contentType;
		options.body = encoded.body;
	} else if (request.body !== undefined) {
		headers['Content-Type'] = 'application/json';
		options.body = JSON.stringify(request.body);
	}
	return options;
}
