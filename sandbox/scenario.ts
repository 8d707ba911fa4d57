/**
 * The scenario API under /_sandbox: no key, acting as the facility and the MSP. Every state
 * change goes through the Store, so it fires the same event the real service would. Also the
 * test controls: delivery and request logs, faults, reset.
 */
import type { Deliveries } from './deliveries';
import { faultConfigSchema } from './faults';
import type { Faults } from './faults';
import {
	fieldError,
	notFound,
	ok,
	pathNumber,
	readLenientJson,
	Router,
	throwIfInvalid,
} from './http';
import type { Handler, RequestContext } from './http';
import type { PerDiem } from './per-diem';
import type { RequestLog } from './request-log';
import type { Store } from './store';

export const SCENARIO_PREFIX = '/_sandbox';

export interface ScenarioDeps {
	store: Store;
	perDiem: PerDiem;
	deliveries: Deliveries;
	faults: Faults;
	requests: RequestLog;
	reset(options: { seed?: number; jobs?: number; keepWebhooks?: boolean }): void;
	summary(): unknown;
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
	const value = body[field];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') throw fieldError(field, 'must be a string');
	return value;
}

export function createScenarioRouter(deps: ScenarioDeps): Router<Handler> {
	const { store, perDiem, deliveries, faults, requests } = deps;
	const router = new Router<Handler>();
	const add = (method: string, path: string, handler: Handler) =>
		router.add(method, `${SCENARIO_PREFIX}${path}`, handler);
	const body = (ctx: RequestContext) => readLenientJson(ctx.req);

	add('GET', '', () => ok(deps.summary()));
	add('POST', '/reset', async (ctx) => {
		const input = await body(ctx);
		const { seed, jobs, keepWebhooks } = input;
		if (seed !== undefined && !Number.isSafeInteger(seed))
			throw fieldError('seed', 'must be a whole number');
		if (jobs !== undefined && (!Number.isSafeInteger(jobs) || (jobs as number) < 0))
			throw fieldError('jobs', 'must be a whole number, 0 or more');
		if (keepWebhooks !== undefined && typeof keepWebhooks !== 'boolean')
			throw fieldError('keepWebhooks', 'must be true or false');
		deps.reset({
			seed: seed as number | undefined,
			jobs: jobs as number | undefined,
			keepWebhooks: keepWebhooks as boolean | undefined,
		});
		return ok(deps.summary());
	});

	add('GET', '/candidates', () => ok([...store.candidates.values()]));

	// -------------------------------------------------------- the service's clock
	add('GET', '/clock', () => ok({ ...store.clock.get(), now: store.clock.now().toISOString() }));
	add('PUT', '/clock', async (ctx) => {
		const input = await body(ctx);
		const { offsetMs, frozenAt } = input;
		if (offsetMs !== undefined && !Number.isSafeInteger(offsetMs))
			throw fieldError('offsetMs', 'must be a whole number of milliseconds');
		if (
			frozenAt !== undefined &&
			frozenAt !== null &&
			(typeof frozenAt !== 'string' || Number.isNaN(Date.parse(frozenAt)))
		)
			throw fieldError('frozenAt', 'must be an ISO 8601 date-time or null');
		return ok(
			store.clock.set({
				...(offsetMs !== undefined ? { offsetMs: offsetMs as number } : {}),
				...(frozenAt !== undefined
					? { frozenAt: frozenAt === null ? null : new Date(frozenAt as string).toISOString() }
					: {}),
			}),
		);
	});

	// -------------------------------------------------------- jobs (the facility)
	add('POST', '/jobs', async (ctx) => ok(store.createJob(await body(ctx))));
	add('GET', '/jobs/{number}', (ctx) => ok(store.jobListItem(pathNumber(ctx))));
	add('PATCH', '/jobs/{number}', async (ctx) =>
		ok(store.updateJob(pathNumber(ctx), await body(ctx))),
	);
	add('POST', '/jobs/{number}/hold', async (ctx) =>
		ok(store.holdJob(pathNumber(ctx), optionalString(await body(ctx), 'reason'))),
	);
	add('POST', '/jobs/{number}/close', async (ctx) =>
		ok(store.closeJob(pathNumber(ctx), optionalString(await body(ctx), 'reason'))),
	);
	add('POST', '/jobs/{number}/reopen', async (ctx) =>
		ok(store.reopenJob(pathNumber(ctx), optionalString(await body(ctx), 'reason'))),
	);
	add('POST', '/jobs/{number}/open-positions', async (ctx) =>
		ok(store.setCurrentOpenPositions(pathNumber(ctx), (await body(ctx)).count)),
	);

	// -------------------------------------------------------- submissions (the facility and the MSP)
	add('GET', '/submissions/{number}', (ctx) => ok(store.submission(pathNumber(ctx), 'number')));
	add('GET', '/submissions/{number}/file', (ctx) => {
		const number = pathNumber(ctx);
		const { file } = store.submission(number, 'number');
		if (!file) throw notFound(`Submission ${number} has no stored profile file.`, 'number');
		return ok(file);
	});
	add('POST', '/submissions/{number}/status', async (ctx) => {
		const input = await body(ctx);
		return ok(store.facilityStatus(pathNumber(ctx), input.status, input.reason).submission);
	});
	add('POST', '/submissions/{number}/confirmation-signed', async (ctx) =>
		ok(store.signConfirmation(pathNumber(ctx), (await body(ctx)).signedBy)),
	);

	// -------------------------------------------------------- per diem shifts
	add('GET', '/per-diem/shifts', () => ok(perDiem.list()));
	add('POST', '/per-diem/shifts', async (ctx) => ok(perDiem.open(await body(ctx))));
	add('POST', '/per-diem/shifts/cancel', async (ctx) => ok(perDiem.cancel(await body(ctx))));
	add('GET', '/per-diem/shifts/{id}', (ctx) => ok(perDiem.shift(ctx.params.id)));
	const shiftAction = (
		action: string,
		run: (id: string, input: Record<string, unknown>) => unknown,
	) =>
		add('POST', `/per-diem/shifts/{id}/${action}`, async (ctx) =>
			ok(run(ctx.params.id, await body(ctx))),
		);
	shiftAction('assign', (id, input) => perDiem.assign(id, input));
	shiftAction('confirm', (id) => perDiem.confirm(id));
	shiftAction('remove', (id) => perDiem.remove(id));
	shiftAction('release', (id) => perDiem.release(id));
	shiftAction('decline', (id) => perDiem.decline(id));
	shiftAction('staffing-pool', (id, input) => perDiem.changeStaffingPool(id, input));
	shiftAction('location', (id, input) => perDiem.changeLocation(id, input));
	shiftAction('time', (id, input) => perDiem.changeTime(id, input));
	shiftAction('rate', (id, input) => perDiem.changeRate(id, input));
	shiftAction('note', (id, input) => perDiem.changeNote(id, input));

	// -------------------------------------------------------- observation and control
	add('GET', '/deliveries', async (ctx) => {
		const wait = ctx.query.get('wait');
		if (wait && wait !== '0' && wait !== 'false') await deliveries.idle();
		const event = ctx.query.get('event');
		const registrationId = ctx.query.get('registrationId');
		return ok(
			deliveries
				.records()
				.filter(
					(d) =>
						(!event || d.event === event) &&
						(!registrationId || d.registrationId === registrationId),
				),
		);
	});
	add('DELETE', '/deliveries', () => {
		deliveries.clear();
		return { status: 204 };
	});
	add('GET', '/requests', (ctx) =>
		ok(
			requests.records({
				method: ctx.query.get('method') ?? undefined,
				path: ctx.query.get('path') ?? undefined,
				route: ctx.query.get('route') ?? undefined,
			}),
		),
	);
	add('DELETE', '/requests', () => {
		requests.clear();
		return { status: 204 };
	});
	add('GET', '/faults', () => ok(faults.get()));
	add('PUT', '/faults', async (ctx) => {
		faults.set(throwIfInvalid(faultConfigSchema.safeParse(await body(ctx))));
		return ok(faults.get());
	});
	add('DELETE', '/faults', () => {
		faults.clear();
		return { status: 204 };
	});

	return router;
}

/** One line per route, for the index page and the CLI. */
export function describeRoutes(routers: Array<Router<unknown>>): string[] {
	return routers.flatMap((router) => router.list().map((route) => `${route.method} ${route.path}`));
}
