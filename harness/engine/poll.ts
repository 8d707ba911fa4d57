/**
 * A poll trigger as n8n runs it, in-process: the node's `poll()` inside n8n-core's real
 * PollContext, started by n8n-core's real PollTriggerExecutor (the one n8n's poll scheduler
 * calls), on a real `Workflow` built from the saved static data. Requests go through n8n's HTTP
 * client and our credential over real sockets.
 *
 * What n8n does with the static data is modelled as n8n 2.x does it: an active workflow's poll
 * ('trigger') saves the static data when it emits (the emit saves it before the execution
 * starts) and when it returns nothing (the poll cursor is committed); a poll that throws saves
 * nothing. The poll run on publishing ('activation') saves only when it emits. "Fetch Test Event" in the editor ('manual', the executor's testing mode) saves nothing
 * and its error reaches the caller. n8n 1.x differs in one way: a poll that returns nothing keeps
 * its static data in memory until the next emit (see README, Sync Trigger).
 *
 * ```ts
 * const poller = pollTrigger({ nodeType: 'trioVmsSyncTrigger', parameters, credentials });
 * const first = await poller.poll();             // { items, error, saved }
 * poller.staticData();                           // the node's static data as saved
 * const sample = await poller.poll({ mode: 'manual' });
 * ```
 */
import { randomUUID } from 'node:crypto';

import { Container } from '@n8n/di';
import { PollContext, PollTriggerExecutor } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
} from 'n8n-workflow';
import { UnexpectedError, Workflow } from 'n8n-workflow';

import { TRIO_CREDENTIAL_TYPE } from '../../nodes/shared/credentials';
import { ensureEngineContainer } from './container';
import { buildAdditionalData, completeNode, credentialsHelperFor, engineNodeTypes } from './engine';

/**
 * 'trigger': a scheduled poll of an active workflow. 'activation': the poll n8n runs when the
 * workflow is published, as a check (the executor's testing mode: its result is emitted, but
 * nothing is saved when it returns nothing). 'manual': Fetch Test Event in the editor.
 */
type PollMode = 'trigger' | 'activation' | 'manual';

export interface PollTriggerOptions {
	/** Default 'trioVmsSyncTrigger'. */
	nodeType?: string;
	nodeName?: string;
	/** The node's parameters as saved; n8n adds the defaults. */
	parameters: INodeParameters;
	credentials: ICredentialDataDecryptedObject;
	/** The saved node's version; default the node's defaultVersion, as for a new workflow. */
	typeVersion?: number;
	/** The workflow's saved static data to start from (whole workflow, `node:<name>` keys); default none. */
	staticData?: IDataObject;
	/**
	 * What the PollContext's `getPollBudgetMs()` answers for active polls, as n8n's durable
	 * scheduler hands it (its timeout less a margin); default n8n-core's own (5 minutes). null: a
	 * PollContext without the method, as before n8n 2.38.
	 */
	pollBudgetMs?: number | null;
}

export interface PollResult {
	/** The JSON of every emitted item; [] when the poll returned nothing or failed. */
	items: IDataObject[];
	/** What poll() returned. */
	response: INodeExecutionData[][] | null;
	/** The error the poll failed with: reported through n8n's __emitError, or thrown in manual mode. */
	error?: Error;
	/** Whether n8n would have saved the static data after this poll. */
	saved: boolean;
}

export interface PollTrigger {
	readonly node: INode;
	/** `pollBudgetMs` overrides the trigger's for this poll. */
	poll(options?: { mode?: PollMode; pollBudgetMs?: number | null }): Promise<PollResult>;
	/** The node's static data as saved (a copy). */
	staticData(): IDataObject;
	/** The whole workflow's static data as saved (a copy). */
	workflowStaticData(): IDataObject;
	/** The user edits the node and saves the workflow. */
	edit(parameters: INodeParameters): void;
}

function stored(data: IDataObject | undefined): IDataObject {
	return JSON.parse(JSON.stringify(data ?? {})) as IDataObject;
}

function jsonOf(response: INodeExecutionData[][] | null): IDataObject[] {
	return (response?.[0] ?? []).map((item) => item.json);
}

export function pollTrigger(options: PollTriggerOptions): PollTrigger {
	const workflowId = `poll-workflow-${randomUUID()}`;
	const node = completeNode(
		{
			name: options.nodeName ?? 'Trio VMS Sync Trigger',
			type: options.nodeType ?? 'trioVmsSyncTrigger',
			parameters: structuredClone(options.parameters),
			...(options.typeVersion !== undefined ? { typeVersion: options.typeVersion } : {}),
		},
		0,
		[TRIO_CREDENTIAL_TYPE],
	);
	let saved = stored(options.staticData);

	return {
		node,
		async poll({ mode = 'trigger', pollBudgetMs = options.pollBudgetMs } = {}) {
			await ensureEngineContainer();
			const credentialsHelper = await credentialsHelperFor({
				[TRIO_CREDENTIAL_TYPE]: options.credentials,
			});
			const additionalData = buildAdditionalData(credentialsHelper, { workflowId });
			// As n8n builds it for every poll: from the saved workflow and its saved static data.
			const workflow = new Workflow({
				id: workflowId,
				name: 'Sync',
				nodes: [structuredClone(node)],
				connections: {},
				active: mode !== 'manual',
				nodeTypes: engineNodeTypes,
				staticData: stored(saved),
				settings: { executionOrder: 'v1' },
			});
			const workflowNode = workflow.getNode(node.name);
			if (!workflowNode) throw new UnexpectedError(`The workflow has no node "${node.name}"`);
			if (mode === 'manual') {
				// Fetch Test Event: WorkflowExecute.executePollNode runs poll() in a PollContext of
				// mode 'manual' and returns its data; a manual execution saves no static data.
				const context = new PollContext(workflow, workflowNode, additionalData, 'manual', 'manual');
				const nodeType = engineNodeTypes.getByNameAndVersion(node.type, node.typeVersion);
				if (!nodeType.poll) throw new UnexpectedError(`Node type "${node.type}" has no poll()`);
				try {
					const response = await nodeType.poll.call(context);
					return { items: jsonOf(response), response, saved: false };
				} catch (error) {
					return { items: [], response: null, error: error as Error, saved: false };
				}
			}
			// An active workflow's poll: n8n-core's PollTriggerExecutor with the emit, error and
			// cursor-commit functions n8n's TriggerExecutionContextFactory hands the PollContext.
			let emitted: INodeExecutionData[][] | undefined;
			let error: Error | undefined;
			let save = false;
			const context = new PollContext(
				workflow,
				workflowNode,
				additionalData,
				'trigger',
				// n8n passes the mode the workflow was activated with, for every poll of it.
				'activate',
				(data) => {
					emitted = data;
					save = true;
				},
				(reported) => {
					error = reported;
				},
				async () => {
					save = true;
				},
				// n8n-core's defaults for running the poll and reading the static data.
				undefined,
				undefined,
				typeof pollBudgetMs === 'number' ? () => pollBudgetMs : undefined,
			);
			if (pollBudgetMs === null) Reflect.deleteProperty(context, 'getPollBudgetMs');
			const run = Container.get(PollTriggerExecutor).create(
				workflow,
				workflowNode,
				context,
				() => true,
			);
			try {
				// On publishing, n8n runs it in testing mode: a failure is thrown, not reported.
				await run(mode === 'activation');
			} catch (thrown) {
				error = thrown as Error;
			}
			if (save && !error) saved = stored(workflow.staticData);
			const response = emitted ?? null;
			return { items: jsonOf(response), response, error, saved: save && !error };
		},
		staticData() {
			return stored(saved[`node:${node.name}`] as IDataObject | undefined);
		},
		workflowStaticData() {
			return stored(saved);
		},
		edit(parameters) {
			node.parameters = { ...node.parameters, ...structuredClone(parameters) };
		},
	};
}
