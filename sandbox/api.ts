/**
 * The agency API (spec section 4 plus the decided list/read/reasons/webhook routes of the
 * service notes): the route table, written as literal paths in the spec's letter case.
 * Handlers parse and validate with the sandbox's own shapes (wire.ts); the Store applies the
 * rules.
 */
import { fieldError, ok, pathNumber, readJsonBody, Router, throwIfInvalid } from './http';
import type { Handler } from './http';
import { parseSubmissionForm } from './multipart';
import { SANDBOX_WITHDRAW_REASONS } from './store';
import type { Store } from './store';
import {
	acceptRequest,
	API_PREFIX,
	candidateCreateRequest,
	EVENT_NAMES,
	isDate,
	isDateTime,
	reasonedRequest,
	webhookRegistrationRequest,
} from './wire';

export interface ApiRoute {
	handle: Handler;
	/** Webhook management needs the agency administrator permission (spec 5.3). */
	admin: boolean;
}

/**
 * `modifiedDate`: an ISO 8601 date-time, or a plain date meaning midnight UTC. A date-time
 * without offset is read as UTC too, never as the sandbox machine's local time. An empty value
 * binds to "not given", as ASP.NET binds an empty query value of a nullable date.
 */
function parseModifiedDate(query: URLSearchParams): Date | undefined {
	const raw = query.get('modifiedDate')?.trim();
	if (!raw) return undefined;
	if (isDate(raw)) return new Date(`${raw}T00:00:00Z`);
	if (isDateTime(raw)) {
		const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/.test(raw);
		const date = new Date(hasOffset ? raw : `${raw}Z`);
		if (!Number.isNaN(date.getTime())) return date;
	}
	throw fieldError(
		'modifiedDate',
		`must be an ISO 8601 date-time (2026-03-01T07:00:00Z) or a date (2026-03-01); the value '${raw}' is not valid`,
	);
}

export function createApiRouter(store: Store): Router<ApiRoute> {
	const router = new Router<ApiRoute>();
	const add = (
		method: string,
		path: `${typeof API_PREFIX}/${string}`,
		handle: Handler,
		admin = false,
	) => router.add(method, path, { handle, admin });

	add('GET', '/api/v3/Job', (ctx) => ok(store.listJobs(parseModifiedDate(ctx.query))));
	add('GET', '/api/v3/Job/{number}', (ctx) => ok(store.job(pathNumber(ctx)).job));

	add('GET', '/api/v3/candidates', (ctx) => {
		const email = ctx.query.get('email');
		if (email === null || email.trim() === '')
			throw fieldError('email', 'is required: the e-mail address to look up');
		return ok(store.findCandidates(email));
	});
	add('POST', '/api/v3/candidates', async (ctx) => {
		const input = throwIfInvalid(candidateCreateRequest.safeParse(await readJsonBody(ctx.req)));
		return ok(store.createCandidate(input));
	});

	add('GET', '/api/v3/Submission', (ctx) =>
		ok(store.listSubmissions(parseModifiedDate(ctx.query))),
	);
	add('POST', '/api/v3/Submission', async (ctx) => {
		const form = await parseSubmissionForm(ctx.req);
		return ok(store.createSubmission(form.fields, form.file).submission);
	});
	add('GET', '/api/v3/Submission/{number}', (ctx) =>
		ok(store.submission(pathNumber(ctx), 'number').submission),
	);
	add('GET', '/api/v3/Submission/WithdrawReasons', () => ok(SANDBOX_WITHDRAW_REASONS));
	add('POST', '/api/v3/Submission/Accept', async (ctx) => {
		const input = throwIfInvalid(acceptRequest.safeParse(await readJsonBody(ctx.req)));
		return ok(store.accept(input.submissionNumber, input.reason).submission);
	});
	add('POST', '/api/v3/Submission/Decline', async (ctx) => {
		const input = throwIfInvalid(reasonedRequest.safeParse(await readJsonBody(ctx.req)));
		return ok(store.decline(input.submissionNumber, input.reason, input.description).submission);
	});
	add('POST', '/api/v3/Submission/Withdraw', async (ctx) => {
		const input = throwIfInvalid(reasonedRequest.safeParse(await readJsonBody(ctx.req)));
		return ok(store.withdraw(input.submissionNumber, input.reason, input.description).submission);
	});

	add('GET', '/api/v3/Webhooks', () => ok(store.listRegistrations()), true);
	add(
		'POST',
		'/api/v3/Webhooks',
		async (ctx) => {
			const input = throwIfInvalid(
				webhookRegistrationRequest.safeParse(await readJsonBody(ctx.req)),
			);
			return ok(store.saveRegistration(input));
		},
		true,
	);
	add('GET', '/api/v3/Webhooks/Events', () => ok([...EVENT_NAMES]), true);

	return router;
}
