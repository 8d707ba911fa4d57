/**
 * The agency API (spec section 4 plus the decided list/read/reasons/webhook routes), under
 * /api/v3 with the spec's letter case. Handlers parse and validate; the Store applies the rules.
 */
import { TRIO_EVENT_NAMES } from '../nodes/shared/events';
import {
	acceptRequestSchema,
	candidateCreateSchema,
	isIsoDate,
	isIsoDateTime,
	reasonedRequestSchema,
	webhookRegistrationRequestSchema,
} from '../nodes/shared/schemas';
import { API_PREFIX, PATHS } from '../nodes/shared/service';
import { fieldError, ok, pathNumber, readJsonBody, Router, throwIfInvalid } from './http';
import type { Handler } from './http';
import { parseSubmissionForm } from './multipart';
import { SANDBOX_WITHDRAW_REASONS } from './store';
import type { Store } from './store';

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
	if (isIsoDate(raw)) return new Date(`${raw}T00:00:00Z`);
	if (isIsoDateTime(raw)) {
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
	const add = (method: string, path: string, handle: Handler, admin = false) =>
		router.add(method, `${API_PREFIX}${path}`, { handle, admin });

	add('GET', PATHS.jobs, (ctx) => ok(store.listJobs(parseModifiedDate(ctx.query))));
	add('GET', PATHS.job, (ctx) => ok(store.job(pathNumber(ctx)).job));

	add('GET', PATHS.candidates, (ctx) => {
		const email = ctx.query.get('email');
		if (email === null || email.trim() === '')
			throw fieldError('email', 'is required: the e-mail address to look up');
		return ok(store.findCandidates(email));
	});
	add('POST', PATHS.candidates, async (ctx) => {
		const input = throwIfInvalid(candidateCreateSchema.safeParse(await readJsonBody(ctx.req)));
		return ok(store.createCandidate(input));
	});

	add('GET', PATHS.submissions, (ctx) => ok(store.listSubmissions(parseModifiedDate(ctx.query))));
	add('POST', PATHS.submissions, async (ctx) => {
		const form = await parseSubmissionForm(ctx.req);
		return ok(store.createSubmission(form.fields, form.file).submission);
	});
	add('GET', PATHS.submission, (ctx) => ok(store.submission(pathNumber(ctx), 'number').submission));
	add('GET', PATHS.withdrawReasons, () => ok(SANDBOX_WITHDRAW_REASONS));
	add('POST', PATHS.submissionAccept, async (ctx) => {
		const input = throwIfInvalid(acceptRequestSchema.safeParse(await readJsonBody(ctx.req)));
		return ok(store.accept(input.submissionNumber, input.reason).submission);
	});
	add('POST', PATHS.submissionDecline, async (ctx) => {
		const input = throwIfInvalid(reasonedRequestSchema.safeParse(await readJsonBody(ctx.req)));
		return ok(store.decline(input.submissionNumber, input.reason, input.description).submission);
	});
	add('POST', PATHS.submissionWithdraw, async (ctx) => {
		const input = throwIfInvalid(reasonedRequestSchema.safeParse(await readJsonBody(ctx.req)));
		return ok(store.withdraw(input.submissionNumber, input.reason, input.description).submission);
	});

	add('GET', PATHS.webhooks, () => ok(store.listRegistrations()), true);
	add(
		'POST',
		PATHS.webhooks,
		async (ctx) => {
			const input = throwIfInvalid(
				webhookRegistrationRequestSchema.safeParse(await readJsonBody(ctx.req)),
			);
			return ok(store.saveRegistration(input));
		},
		true,
	);
	add('GET', PATHS.webhookEvents, () => ok([...TRIO_EVENT_NAMES]), true);

	return router;
}
