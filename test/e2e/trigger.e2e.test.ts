/**
 * The Trio VMS Trigger inside a real n8n (the packed package installed as users install it),
 * registering at the local sandbox over HTTP and receiving the sandbox's deliveries.
 *
 * One n8n per line for the whole file (n8n is heavy on 2 cores). The address-change test
 * restarts that n8n on the same user folder: the new process listens on another port, which is
 * exactly "n8n's webhook address changed".
 *
 * Run `npm run build` first.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { TRIO_EVENT_NAMES, TRIO_EVENTS, type TrioEventName } from '../../nodes/shared/events';
import { simplifierFor } from '../../nodes/TrioVmsTrigger/judge';
import { stableStringify } from '../../nodes/TrioVmsTrigger/dedup';
import type { DeliveryRecord as Delivery, RunningSandbox as Sandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import type { N8nLine } from '../../harness/install';
import type { ExecutionRecord, N8nInstance } from '../../harness/n8n';
import {
	createTrioCredential,
	startN8nWithTrio,
	type CredentialRef,
	type Registration,
	type TrioN8n,
} from '../../harness/trio';
import { pollUntil } from '../../harness/wait';
import { callSandbox, startTestSandbox } from '../support/sandbox-client';

const NODE_TYPE = 'n8n-nodes-trio-vms.trioVmsTrigger';
const NODE_NAME = 'Trio VMS Trigger';
// 2.x by default; n8n 1.x gets the smoke (smoke.e2e.test.ts). TRIO_TRIGGER_E2E_LINES=2.x,1.x runs
// this whole suite on 1.x as well (its restart and "Listen for test event" paths differ).
const LINES: N8nLine[] = (process.env.TRIO_TRIGGER_E2E_LINES?.split(',') as
	N8nLine[] | undefined) ?? ['2.x'];
const EXECUTION_TIMEOUT_MS = 60_000;

// ------------------------------------------------------------------ the sandbox

const scenario = <T = unknown>(
	sandbox: Sandbox,
	method: string,
	urlPath: string,
	body: unknown = {},
) => callSandbox<T>(sandbox, method, `/_sandbox${urlPath}`, body);

const registrations = (sandbox: Sandbox) =>
	callSandbox<Registration[]>(sandbox, 'GET', '/api/v3/Webhooks', undefined, sandbox.adminKey);

// ------------------------------------------------------------------ workflows

interface TriggerWorkflow {
	id: string;
	webhookId: string;
	name: string;
	/** n8n's production URL of the trigger (registrations point here, plus query). */
	url: string;
}

/** The trigger's one version. */
const CURRENT_TRIGGER_VERSION = 1;

function itemsOf(execution: ExecutionRecord): Array<Record<string, unknown>> {
	const runs = execution.data?.resultData.runData[NODE_NAME] ?? [];
	return runs.flatMap((run) => (run.data?.main[0] ?? []).map((item) => item.json));
}

/** The payload part of an item: without the fields the trigger adds (checked on their own). */
function withoutAddedFields(item: Record<string, unknown>): Record<string, unknown> {
	const { receivedAt: _receivedAt, deliveryKey: _deliveryKey, ...rest } = item;
	return rest;
}

/** 16 hex characters, with `:index` when one delivery became several items. */
const DELIVERY_KEY = /^[0-9a-f]{16}(:\d+)?$/;

/** Order-insensitive comparison of item lists (object keys sorted too). */
const sortByJson = (list: unknown[]) => list.map((entry) => stableStringify(entry)).sort();

/**
 * What the trigger outputs for one delivery at its defaults (Output Simplified: judge.ts
 * simplifierFor), without the added receivedAt and deliveryKey.
 */
function expectedItems(delivery: Delivery, split: boolean): Array<Record<string, unknown>> {
	const { event, body } = delivery;
	const simplify = simplifierFor(event) ?? ((record: IDataObject) => record);
	if (TRIO_EVENTS[event].batched) {
		const { Items, ...rest } = body as { Items: IDataObject[] };
		if (split) return Items.map((element) => ({ event, ...simplify({ ...rest, ...element }) }));
		return [{ event, Items: Items.map((element) => simplify(element)) }];
	}
	return [{ event, ...simplify(body as IDataObject) }];
}

for (const line of LINES) {
	describeWithN8n(line, `Trio VMS Trigger in real n8n ${line}`, () => {
		let sandbox: Sandbox;
		let n8n: N8nInstance;
		let setup: TrioN8n | undefined;
		let adminCredential: CredentialRef;
		let plainCredential: CredentialRef;
		const workflows: TriggerWorkflow[] = [];
		/** n8n's address before the restart in the address-change test, where nothing answers after it. */
		let goneOrigin: string | undefined;

		beforeAll(async () => {
			sandbox = await startTestSandbox();
			setup = await startN8nWithTrio({
				line,
				account: sandbox,
				credentialName: 'Trio sandbox (admin)',
				userFolderPrefix: `trio-trigger-e2e-${line}-`,
			});
			({ n8n, credential: adminCredential } = setup);
			plainCredential = await createTrioCredential(n8n, 'Trio sandbox (plain)', sandbox, 'plain');
		});

		afterAll(() => setup?.stop());

		afterEach(async () => {
			sandbox.clearFaults();
			await sandbox.idle();
		});

		async function createTrigger(
			name: string,
			parameters: Record<string, unknown>,
			credential = adminCredential,
			typeVersion = CURRENT_TRIGGER_VERSION,
		): Promise<TriggerWorkflow> {
			const webhookId = randomUUID();
			const record = await n8n.createWorkflow({
				name,
				nodes: [
					{
						id: randomUUID(),
						name: NODE_NAME,
						type: NODE_TYPE,
						typeVersion,
						position: [0, 0],
						webhookId,
						parameters,
						credentials: { trioVmsApi: credential },
					},
				],
				connections: {},
				settings: { executionOrder: 'v1' },
			});
			const workflow = {
				id: record.id,
				webhookId,
				name,
				url: n8n.productionWebhookUrl(webhookId, 'webhook'),
			};
			workflows.push(workflow);
			return workflow;
		}

		const settle = (workflowId: string) => n8n.settlePublication(workflowId);

		/** Activates and waits until the trigger is registered; throws with n8n's activation error. */
		async function activate(workflowId: string): Promise<void> {
			await n8n.activate(workflowId);
			const status = await settle(workflowId);
			if (status && status.status !== 'published') {
				throw new Error(
					`activation ${status.status}: ${status.triggers.map((trigger) => trigger.errorMessage).join('; ')}`,
				);
			}
		}

		async function deactivate(workflowId: string): Promise<void> {
			await n8n.deactivate(workflowId);
			await settle(workflowId);
		}

		/**
		 * What the editor's "Listen for test event" sends. 2.x reads the workflow from the database;
		 * 1.x takes it in the body, here with the production static data in it (the worst case: the
		 * test registration must still not touch the production ones).
		 */
		async function listenForTestEvent(workflowId: string): Promise<void> {
			const triggerToStartFrom = { name: NODE_NAME };
			if (line === '2.x') {
				await n8n.rest('POST', `/workflows/${workflowId}/run`, { triggerToStartFrom });
				return;
			}
			const workflowData = await n8n.rest<Record<string, unknown>>(
				'GET',
				`/workflows/${workflowId}`,
			);
			expect(JSON.stringify(workflowData.staticData ?? {})).toContain('"production"');
			await n8n.rest('POST', `/workflows/${workflowId}/run`, { workflowData, triggerToStartFrom });
		}

		const ofWorkflow = (list: Registration[], workflow: TriggerWorkflow) =>
			list.filter((registration) => registration.Url.startsWith(`${workflow.url}?`));

		async function activeOf(workflow: TriggerWorkflow): Promise<Registration[]> {
			return ofWorkflow(await registrations(sandbox), workflow).filter(
				(registration) => registration.IsActive,
			);
		}

		/** Waits until the sandbox has delivered everything and n8n has finished `count` executions. */
		async function executionsOf(
			workflow: TriggerWorkflow,
			count: number,
		): Promise<ExecutionRecord[]> {
			await sandbox.idle();
			const finished = await n8n.waitForExecutions(workflow.id, count, EXECUTION_TIMEOUT_MS);
			return Promise.all(finished.map((execution) => n8n.getExecution(execution.id)));
		}

		function expectOnePerEvent(
			active: Registration[],
			workflow: TriggerWorkflow,
			events: readonly string[],
		): string {
			expect(active.map((registration) => registration.Events).sort()).toEqual(
				events.map((event) => [event]).sort(),
			);
			const tokens = new Set<string>();
			for (const registration of active) {
				const url = new URL(registration.Url);
				expect(`${url.origin}${url.pathname}`).toBe(workflow.url);
				expect(url.searchParams.get('event')).toBe(registration.Events[0]);
				const token = url.searchParams.get('token') ?? '';
				expect(token).toMatch(/^[0-9a-f]{64}$/);
				tokens.add(token);
				expect(registration.Name).toBe(`n8n: ${workflow.name} (${registration.Events[0]})`);
			}
			expect(tokens.size).toBe(1);
			return [...tokens][0];
		}

		let everything: TriggerWorkflow;

		test('activation creates exactly one active registration per selected event, with the event and a token in its URL', async () => {
			everything = await createTrigger('All Trio events', { events: [...TRIO_EVENT_NAMES] });
			await activate(everything.id);
			expectOnePerEvent(await activeOf(everything), everything, TRIO_EVENT_NAMES);
		});

		test('every one of the 15 events fired through the sandbox arrives as its typed item(s)', async () => {
			sandbox.clearDeliveries();
			// Jobs: opened, then closed.
			const job = await scenario<{ Number: number }>(sandbox, 'POST', '/jobs', {});
			await scenario(sandbox, 'POST', `/jobs/${job.Number}/close`, {});

			// A submission on a non-locums job: offered by the facility, accepted by the agency, confirmation signed.
			const submissions = await callSandbox<
				Array<{ Number: number; Status: string; JobNumber: number }>
			>(sandbox, 'GET', '/api/v3/Submission', undefined, sandbox.adminKey);
			let submissionNumber: number | undefined;
			for (const submission of submissions.filter(
				(s) => s.Status === 'Submitted' || s.Status === 'Under Review',
			)) {
				const its = await callSandbox<{ IsLocums: boolean }>(
					sandbox,
					'GET',
					`/api/v3/Job/${submission.JobNumber}`,
					undefined,
					sandbox.adminKey,
				).catch(() => undefined);
				if (its && !its.IsLocums) {
					submissionNumber = submission.Number;
					break;
				}
			}
			if (submissionNumber === undefined)
				throw new Error('the sandbox has no submitted submission on a non-locums job');
			await scenario(sandbox, 'POST', `/submissions/${submissionNumber}/status`, {
				status: 'Offered',
			});
			await callSandbox(
				sandbox,
				'POST',
				'/api/v3/Submission/Accept',
				{ submissionNumber },
				sandbox.adminKey,
			);
			await scenario(sandbox, 'POST', `/submissions/${submissionNumber}/confirmation-signed`, {});

			// Per diem: three shifts opened at once, then every lifecycle event.
			const opened = await scenario<Array<{ Id: string }>>(sandbox, 'POST', '/per-diem/shifts', {
				count: 3,
			});
			const [a, b, c] = opened.map((shift) => shift.Id);
			await scenario(sandbox, 'POST', `/per-diem/shifts/${a}/assign`);
			await scenario(sandbox, 'POST', `/per-diem/shifts/${a}/confirm`);
			await scenario(sandbox, 'POST', `/per-diem/shifts/${a}/staffing-pool`);
			await scenario(sandbox, 'POST', `/per-diem/shifts/${a}/location`);
			await scenario(sandbox, 'POST', `/per-diem/shifts/${a}/time`, {
				start: '2027-01-05T07:00:00',
				end: '2027-01-05T19:30:00',
			});
			await scenario(sandbox, 'POST', `/per-diem/shifts/${a}/rate`, { rateType: 'Premium' });
			await scenario(sandbox, 'POST', `/per-diem/shifts/${a}/note`, { notes: 'Bring your badge' });
			await scenario(sandbox, 'POST', `/per-diem/shifts/${a}/release`);
			await scenario(sandbox, 'POST', `/per-diem/shifts/${b}/assign`);
			await scenario(sandbox, 'POST', `/per-diem/shifts/${b}/decline`);
			await scenario(sandbox, 'POST', `/per-diem/shifts/${c}/remove`);
			await scenario(sandbox, 'POST', `/per-diem/shifts/${a}/assign`);
			await scenario(sandbox, 'POST', `/per-diem/shifts/${b}/assign`);
			await scenario(sandbox, 'POST', '/per-diem/shifts/cancel', { ids: [a, b] });

			await sandbox.idle();
			const deliveries = sandbox
				.deliveries()
				.filter((delivery) => delivery.url.startsWith(`${everything.url}?`));
			expect(new Set(deliveries.map((delivery) => delivery.event))).toEqual(
				new Set(TRIO_EVENT_NAMES),
			);
			expect(deliveries.every((delivery) => delivery.status === 200)).toBe(true);

			const executions = await executionsOf(everything, deliveries.length);
			expect(executions).toHaveLength(deliveries.length);
			expect(executions.every((execution) => execution.status === 'success')).toBe(true);
			const items = executions.flatMap(itemsOf);
			for (const item of items) {
				expect(typeof item.receivedAt).toBe('string');
				expect(new Date(String(item.receivedAt)).toISOString()).toBe(item.receivedAt);
				expect(item).not.toHaveProperty('_validation');
				expect(item.deliveryKey).toMatch(DELIVERY_KEY);
			}
			expect(new Set(items.map((item) => item.deliveryKey)).size).toBe(items.length);
			// Split Shifts Into Items is on by default: one item per opened or cancelled shift.
			expect(sortByJson(items.map(withoutAddedFields))).toEqual(
				sortByJson(deliveries.flatMap((delivery) => expectedItems(delivery, true))),
			);
			const byEvent = (event: TrioEventName) => items.filter((item) => item.event === event);
			expect(byEvent('Per Diem Shift Opened')).toHaveLength(3);
			expect(byEvent('Per Diem Shift Cancelled')).toHaveLength(2);
			// Pool-local times arrive exactly as sent.
			expect(byEvent('Per Diem Shift Time Changed')[0]).toMatchObject({
				Start: '2027-01-05T07:00:00',
				End: '2027-01-05T19:30:00',
			});
			expect(
				byEvent('Job Update')
					.map((item) => item.JobStatus)
					.sort(),
			).toEqual(['Closed', 'Open']);
		});

		test('with Split Shifts Into Items off, several opened shifts arrive as one item with Items', async () => {
			const whole = await createTrigger('Opened shifts, whole', {
				events: ['Per Diem Shift Opened'],
				options: { splitShifts: false },
			});
			await activate(whole.id);
			sandbox.clearDeliveries();
			await scenario(sandbox, 'POST', '/per-diem/shifts', { count: 4 });
			const [execution] = await executionsOf(whole, 1);
			const items = itemsOf(execution);
			expect(items).toHaveLength(1);
			const delivery = sandbox.deliveries().find((entry) => entry.url.startsWith(`${whole.url}?`));
			expect(delivery).toBeDefined();
			expect(withoutAddedFields(items[0])).toEqual(expectedItems(delivery!, false)[0]);
			expect(items[0].Items).toHaveLength(4);
			expect(items[0].deliveryKey).toMatch(/^[0-9a-f]{16}$/);
			await deactivate(whole.id);
		});

		test('a wrong token is refused with 403, an unknown event or a non-JSON body with 400, and n8n itself refuses malformed JSON, starting nothing', async () => {
			const guarded = await createTrigger('Guarded', { events: ['Job Update'] });
			await activate(guarded.id);
			const [registration] = await activeOf(guarded);
			const token = new URL(registration.Url).searchParams.get('token') ?? '';
			const post = async (query: string, body: string, contentType = 'application/json') => {
				const response = await fetch(`${guarded.url}${query}`, {
					method: 'POST',
					headers: { 'content-type': contentType },
					body,
					signal: AbortSignal.timeout(30_000),
				});
				await response.text();
				return response.status;
			};
			const job = JSON.stringify({ Number: 1 });
			// n8n's webhook server answers with the trigger's verdict and starts nothing. Every way a
			// token, an event or a body can be wrong is judged in test/nodes/TrioVmsTrigger/judge.test.ts
			// and, through n8n-core's webhook context, in lifecycle.test.ts; one of each here.
			expect(await post(`?event=Job%20Update&token=${'0'.repeat(64)}`, job)).toBe(403);
			expect(await post(`?event=Job%20Deleted&token=${token}`, job)).toBe(400);
			expect(
				await post(`?event=Job%20Update&token=${token}`, 'this is not json', 'text/plain'),
			).toBe(400);
			// Malformed JSON declared as JSON: n8n itself refuses it (4xx) before the node runs.
			const malformed = await post(
				`?event=Job%20Update&token=${token}`,
				'{"Number": ',
				'application/json',
			);
			expect(malformed).toBeGreaterThanOrEqual(400);
			expect(malformed).toBeLessThan(500);

			// A payload that does not match the event's schema still starts the workflow, with a note.
			expect(await post(`?event=Job%20Update&token=${token}`, job)).toBe(200);
			const [execution] = await executionsOf(guarded, 1);
			expect(await n8n.listExecutions(guarded.id)).toHaveLength(1);
			const [item] = itemsOf(execution);
			expect(item).toMatchObject({ event: 'Job Update', Number: 1, _validation: { valid: false } });
			expect(
				(item._validation as { issues: string[] }).issues.some((issue) =>
					issue.startsWith('Title: '),
				),
			).toBe(true);
			await deactivate(guarded.id);
		});

		test.each([CURRENT_TRIGGER_VERSION])(
			'at type version %s, a JSON delivery is read whatever its content type',
			async (typeVersion) => {
				const reader = await createTrigger(
					`Reader ${typeVersion}`,
					{ events: ['Job Update'] },
					adminCredential,
					typeVersion,
				);
				await activate(reader.id);
				const [registration] = await activeOf(reader);
				const token = new URL(registration.Url).searchParams.get('token') ?? '';
				const sent: string[] = [];
				for (const contentType of ['application/json', 'application/octet-stream', undefined]) {
					const number = 900 + sent.length;
					const response = await fetch(`${reader.url}?event=Job%20Update&token=${token}`, {
						method: 'POST',
						headers: contentType ? { 'content-type': contentType } : {},
						body: new TextEncoder().encode(JSON.stringify({ Number: number })),
						signal: AbortSignal.timeout(30_000),
					});
					await response.text();
					expect({ contentType, status: response.status }).toEqual({ contentType, status: 200 });
					sent.push(String(number));
				}
				const executions = await executionsOf(reader, sent.length);
				expect(
					executions
						.flatMap(itemsOf)
						.map((item) => String(item.Number))
						.sort(),
				).toEqual(sent);
				await deactivate(reader.id);
			},
		);

		test('duplicate deliveries start one execution and are all answered 200', async () => {
			const once = await createTrigger('Once per delivery', {
				events: ['Per Diem Shift Removed', 'Per Diem Shift Note Changed'],
			});
			await activate(once.id);
			sandbox.clearDeliveries();
			sandbox.setFaults({ duplicates: 2 });
			const [shift] = await scenario<Array<{ Id: string }>>(sandbox, 'POST', '/per-diem/shifts', {
				count: 1,
			});
			await scenario(sandbox, 'POST', `/per-diem/shifts/${shift.Id}/note`, { notes: 'first' });
			await scenario(sandbox, 'POST', `/per-diem/shifts/${shift.Id}/note`, { notes: 'second' });
			await scenario(sandbox, 'POST', `/per-diem/shifts/${shift.Id}/remove`);
			await sandbox.idle();
			const deliveries = sandbox
				.deliveries()
				.filter((delivery) => delivery.url.startsWith(`${once.url}?`));
			expect(deliveries).toHaveLength(9);
			expect(deliveries.every((delivery) => delivery.status === 200)).toBe(true);
			await executionsOf(once, 3);
			// A late execution of a copy would come before the execution of one more delivery, sent
			// once after them all: when that one is there, there are exactly four.
			sandbox.clearFaults();
			const [marker] = await scenario<Array<{ Id: string }>>(sandbox, 'POST', '/per-diem/shifts', {
				count: 1,
			});
			await scenario(sandbox, 'POST', `/per-diem/shifts/${marker.Id}/note`, { notes: 'marker' });
			const executions = await executionsOf(once, 4);
			expect(await n8n.listExecutions(once.id)).toHaveLength(4);
			expect(
				executions
					.map((execution) => itemsOf(execution)[0].Notes ?? itemsOf(execution)[0].event)
					.sort(),
			).toEqual(['Per Diem Shift Removed', 'first', 'marker', 'second']);
			await deactivate(once.id);
		});

		test('activate/deactivate cycles reuse the registrations and leave none active', async () => {
			const cycling = await createTrigger('Cycling', {
				events: ['Job Update', 'Submission Update', 'Per Diem Shift Assigned'],
			});
			const tokens: string[] = [];
			for (let cycle = 0; cycle < 3; cycle++) {
				await activate(cycling.id);
				tokens.push(
					expectOnePerEvent(await activeOf(cycling), cycling, [
						'Job Update',
						'Submission Update',
						'Per Diem Shift Assigned',
					]),
				);
				await deactivate(cycling.id);
				expect(await activeOf(cycling)).toEqual([]);
			}
			// Re-activated, not piled up: still three registrations in all.
			expect(ofWorkflow(await registrations(sandbox), cycling)).toHaveLength(3);
			// Each activation gets a fresh secret.
			expect(new Set(tokens).size).toBe(3);
		});

		test('removing an event from an active trigger switches its registration off', async () => {
			const narrowing = await createTrigger('Narrowing', {
				events: ['Job Update', 'Per Diem Shift Declined'],
			});
			await activate(narrowing.id);
			const before = await activeOf(narrowing);
			expect(before).toHaveLength(2);
			const declined = before.find(
				(registration) => registration.Events[0] === 'Per Diem Shift Declined',
			);

			const current = await n8n.api<{
				name: string;
				nodes: Array<{ parameters: Record<string, unknown> }>;
				connections: object;
				settings: object;
			}>('GET', `/workflows/${narrowing.id}`);
			const nodes = current.nodes.map((node) => ({
				...node,
				parameters: { ...node.parameters, events: ['Job Update'] },
			}));
			await n8n.api('PUT', `/workflows/${narrowing.id}`, {
				name: current.name,
				nodes,
				connections: current.connections,
				settings: { executionOrder: 'v1' },
			});
			// 2.x publishes the edited version on activation; 1.x re-activates on save (activating again is harmless).
			await activate(narrowing.id);

			expectOnePerEvent(await activeOf(narrowing), narrowing, ['Job Update']);
			expect(
				(await registrations(sandbox)).find((registration) => registration.Id === declined?.Id)
					?.IsActive,
			).toBe(false);
			// Nothing piled up: the Job Update registration was reused.
			expect(ofWorkflow(await registrations(sandbox), narrowing)).toHaveLength(2);
			await deactivate(narrowing.id);
		});

		test('a registration changed at the service is left alone, and the next activation registers its own', async () => {
			const repaired = await createTrigger('Repaired', {
				events: ['Job Update', 'Per Diem Shift Confirmed'],
			});
			await activate(repaired.id);
			const [victim] = await activeOf(repaired);
			// Someone points the registration elsewhere in Trio.
			await callSandbox(
				sandbox,
				'POST',
				'/api/v3/Webhooks',
				{ ...victim, Url: 'https://elsewhere.example.com/hook' },
				sandbox.adminKey,
			);
			expect(await activeOf(repaired)).toHaveLength(1);
			await deactivate(repaired.id);
			const moved = (await registrations(sandbox)).find(
				(registration) => registration.Id === victim.Id,
			);
			// Its address is no longer this n8n's: whoever repointed it owns it now (it may be
			// production, repointed by nobody but its own n8n), so the stored id alone touches nothing.
			expect(moved).toMatchObject({ Url: 'https://elsewhere.example.com/hook', IsActive: true });
			await activate(repaired.id);
			expectOnePerEvent(await activeOf(repaired), repaired, [
				'Job Update',
				'Per Diem Shift Confirmed',
			]);
			expect(
				(await registrations(sandbox)).find((registration) => registration.Id === victim.Id),
			).toMatchObject({ Url: 'https://elsewhere.example.com/hook', IsActive: true });
			sandbox.clearDeliveries();
			await scenario(sandbox, 'POST', '/jobs', {});
			const [execution] = await executionsOf(repaired, 1);
			expect(itemsOf(execution)[0].event).toBe('Job Update');
			await deactivate(repaired.id);
			// Left for whoever owns it now; switched off here so later tests count only their own.
			await callSandbox(
				sandbox,
				'POST',
				'/api/v3/Webhooks',
				{ ...moved, IsActive: false },
				sandbox.adminKey,
			);
		});

		test('a key without agency admin permission fails activation with the agency-admin message', async () => {
			const plain = await createTrigger('Plain key', { events: ['Job Update'] }, plainCredential);
			const before = (await registrations(sandbox)).length;
			await expect(activate(plain.id)).rejects.toThrow(/agency administrator permission/);
			expect((await registrations(sandbox)).length).toBe(before);
		});

		test('"Listen for test event" uses its own registrations and never touches the production ones', async () => {
			const tested = await createTrigger('Tested', { events: ['Per Diem Shift Rate Changed'] });
			await activate(tested.id);
			const [production] = await activeOf(tested);
			await listenForTestEvent(tested.id);
			const testBase = tested.url.replace('/webhook/', '/webhook-test/');
			const testRegistrations = (await registrations(sandbox)).filter((registration) =>
				registration.Url.startsWith(`${testBase}?`),
			);
			expect(testRegistrations).toHaveLength(1);
			expect(testRegistrations[0]).toMatchObject({
				IsActive: true,
				Name: `n8n test: ${tested.name} (Per Diem Shift Rate Changed)`,
			});
			expect(new URL(testRegistrations[0].Url).searchParams.get('token')).not.toBe(
				new URL(production.Url).searchParams.get('token'),
			);

			sandbox.clearDeliveries();
			const [shift] = await scenario<Array<{ Id: string }>>(sandbox, 'POST', '/per-diem/shifts', {
				count: 1,
			});
			await scenario(sandbox, 'POST', `/per-diem/shifts/${shift.Id}/rate`, { rateType: 'Holiday' });
			await sandbox.idle();
			const statuses = sandbox
				.deliveries()
				.filter(
					(delivery) =>
						delivery.event === 'Per Diem Shift Rate Changed' &&
						(delivery.url.startsWith(testBase) || delivery.url.startsWith(tested.url)),
				);
			expect(statuses.map((delivery) => delivery.status)).toEqual([200, 200]);
			// The test run and the production run.
			const executions = await executionsOf(tested, 2);
			expect(executions.map((execution) => execution.mode).sort()).toEqual(['manual', 'webhook']);

			// After the test event n8n removes the test webhook: only the test registration goes.
			const after = await pollUntil(
				() => registrations(sandbox),
				(list) =>
					!list.find((registration) => registration.Id === testRegistrations[0].Id)?.IsActive,
				15_000,
			);
			expect(
				after.find((registration) => registration.Id === testRegistrations[0].Id)?.IsActive,
			).toBe(false);
			expect(after.find((registration) => registration.Id === production.Id)).toEqual(production);
			await deactivate(tested.id);
		});
		test("after n8n's address changes and nothing answers at the old one, the old registrations are left alone and new ones receive", async () => {
			const moving = await createTrigger('Moving', {
				events: ['Job Update', 'Per Diem Shift Opened'],
			});
			await activate(moving.id);
			const before = await activeOf(moving);
			expect(before).toHaveLength(2);
			const ids = before.map((registration) => registration.Id).sort();
			const oldUrl = moving.url;

			// The same n8n (same database) comes back on another port: its webhook address changed,
			// and nothing listens at the old one any more. That cannot be told from a staging copy
			// whose production is restarting, so the trigger acts as a copy: it never switches off
			// or repoints the old registrations (issue 22, point 3; the engine tests cover the
			// cases where the old address proves them its own).
			n8n = await (setup as TrioN8n).restart();
			goneOrigin = new URL(oldUrl).origin;
			const newUrl = n8n.productionWebhookUrl(moving.webhookId, 'webhook');
			expect(newUrl).not.toBe(oldUrl);
			moving.url = newUrl;
			const mine = async () =>
				(await registrations(sandbox)).filter((registration) => ids.includes(registration.Id));

			if (line === '1.x') {
				// n8n 1.x re-activates every active workflow on start-up (checkExists -> false -> create).
				await pollUntil(
					() => activeOf(moving),
					(active) => active.length >= 2,
					30_000,
				);
			} else {
				// n8n 2.x (publication service) does not call webhook triggers on start-up.
				expect(
					(await mine()).every((registration) => registration.Url.startsWith(`${oldUrl}?`)),
				).toBe(true);
				await deactivate(moving.id);
				expect((await mine()).map((registration) => registration.IsActive)).toEqual([true, true]);
				await activate(moving.id);
			}
			expectOnePerEvent(await activeOf(moving), moving, ['Job Update', 'Per Diem Shift Opened']);
			// The old registrations are exactly as they were: active, at the old address.
			expect(
				(await mine()).map((registration) => [
					registration.IsActive,
					registration.Url.startsWith(`${oldUrl}?`),
				]),
			).toEqual([
				[true, true],
				[true, true],
			]);

			sandbox.clearDeliveries();
			await scenario(sandbox, 'POST', '/jobs', {});
			const [execution] = await executionsOf(moving, 1);
			expect(itemsOf(execution)[0].event).toBe('Job Update');

			// As the log advises, the user switches the old ones off in Trio.
			for (const registration of await mine()) {
				await callSandbox(
					sandbox,
					'POST',
					'/api/v3/Webhooks',
					{ ...registration, IsActive: false },
					sandbox.adminKey,
				);
			}
		});

		test('deactivating every workflow leaves no active registration behind, except at the address nothing answers any more', async () => {
			for (const workflow of workflows) {
				await deactivate(workflow.id).catch(() => undefined);
			}
			const active = (await registrations(sandbox)).filter((registration) => registration.IsActive);
			// Workflows active before the restart registered at the old address; with nothing there
			// to prove them this n8n's, the trigger acts as a copy and leaves them for the user.
			expect(
				active.filter(
					(registration) =>
						goneOrigin === undefined || !registration.Url.startsWith(`${goneOrigin}/`),
				),
			).toEqual([]);
		});
	});
}
