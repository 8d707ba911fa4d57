/**
 * The sandbox as the real-n8n suites use it: started on a free port of 127.0.0.1 without console
 * lines, and called over HTTP with JSON in and out.
 */
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox';

/** Starts a sandbox on a free port, quiet; stop it with `stop()`. */
export function startTestSandbox(
	options: Omit<SandboxOptions, 'port' | 'quiet'> = {},
): Promise<RunningSandbox> {
	return startSandbox({ ...options, port: 0, quiet: true });
}

/**
 * Calls the sandbox (the API with a key, the scenario API without) and returns the JSON answer;
 * an answer other than 2xx throws an error naming the call, its status and its body.
 */
export async function callSandbox<T>(
	sandbox: { url: string },
	method: string,
	urlPath: string,
	body?: unknown,
	key?: string,
): Promise<T> {
	const response = await fetch(`${sandbox.url}${urlPath}`, {
		method,
		headers: { 'content-type': 'application/json', ...(key ? { 'X-API-KEY': key } : {}) },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal: AbortSignal.timeout(30_000),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} ${urlPath} -> ${response.status}: ${text}`);
	return (text ? JSON.parse(text) : undefined) as T;
}

/** The jobs as Trio's GET /api/v3/Job lists them to the plain key. */
export function listJobs(sandbox: {
	url: string;
	key: string;
}): Promise<Array<{ Number: number; JobStatus: string }>> {
	return callSandbox(sandbox, 'GET', '/api/v3/Job', undefined, sandbox.key);
}
