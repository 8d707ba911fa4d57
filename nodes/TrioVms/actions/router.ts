/**
 * The one item loop of the node. It creates the execution's single Trio client (so pacing spans
 * every item), runs the chosen operation for each input item, pairs every output item with its
 * input item, and turns failures into per-item errors: an error item under "Continue On Fail",
 * otherwise a NodeOperationError/NodeApiError that names the item.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isRunLevelFailure } from '../../shared/failureMarks';
import { TrioClient } from '../../shared/transport';
import { ParameterError } from '../helpers/validation';
import * as candidate from './candidate';
import * as job from './job';
import type { TrioOperation, TrioResource } from './node.type';
import * as submission from './submission';
import * as webhook from './webhook';

export const OPERATIONS: Record<TrioResource, Record<string, TrioOperation>> = {
	job: job.operations,
	candidate: candidate.operations,
	submission: submission.operations,
	webhook: webhook.operations,
};

/** Operations that read a whole list: run once per input item, each reads the same list again. */
const LIST_OPERATIONS = new Set([
	'job.getAll',
	'submission.getAll',
	'submission.getWithdrawReasons',
	'webhook.getAll',
	'webhook.getEvents',
]);

/**
 * An AI agent must not register webhooks: a prompt injection could point one at an outside
 * address and receive candidates' personal data. n8n names a node used as a tool "<type>Tool".
 */
function refusesForAgents(context: IExecuteFunctions, resource: TrioResource): boolean {
	return resource === 'webhook' && context.getNode().type.endsWith('Tool');
}

function pauseFrom(options: IDataObject): number {
	const pause = Number(options.pauseBetweenCallsMs ?? 0);
	return Number.isFinite(pause) && pause > 0 ? Math.min(pause, 600_000) : 0;
}

/** The error to throw for an item: always a node error that knows its item. */
function itemError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeOperationError | NodeApiError {
	if (error instanceof ParameterError) {
		return new NodeOperationError(context.getNode(), error.message, {
			itemIndex,
			description: `${error.hint ? `${error.hint} ` : ''}Nothing was sent to Trio VMS for this item.`,
		});
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		// A failure of the run (the node's setting) is about no item, whichever item met it.
		if (error.context.itemIndex === undefined && !isRunLevelFailure(error))
			error.context.itemIndex = itemIndex;
		return error;
	}
	return new NodeOperationError(context.getNode(), error as Error, { itemIndex });
}

/**
 * The operation the node's Resource and Operation name, refused when it does not exist or an AI
 * agent may not run it; a hint when a list is read once per input item.
 */
function chosenOperation(context: IExecuteFunctions, itemCount: number): TrioOperation {
	const resource = context.getNodeParameter('resource', 0) as TrioResource;
	const operation = context.getNodeParameter('operation', 0) as string;
	const run = OPERATIONS[resource]?.[operation];
	if (!run) {
		throw new NodeOperationError(
			context.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}

	if (refusesForAgents(context, resource)) {
		throw new NodeOperationError(
			context.getNode(),
			'Webhook registrations cannot be managed by an AI agent',
			{
				description:
					'Use the Trio VMS node (not as a tool) or the Trio VMS Trigger to manage webhook registrations. Agents can read jobs, find and create candidates, and work with submissions.',
			},
		);
	}
	if (itemCount > 1 && LIST_OPERATIONS.has(`${resource}.${operation}`)) {
		context.addExecutionHints({
			message: `This node ran ${itemCount} times, once for each input item, and read the same list each time. To read it once, turn on Execute Once in the node's settings.`,
			location: 'outputPane',
		});
	}
	return run;
}

/**
 * `continueOnFail` is the node's "On Error" setting, read by the node's execute(): n8n's
 * community-node lint asks execute() itself to read it, and it is one value for every item.
 */
export async function router(
	this: IExecuteFunctions,
	continueOnFail: boolean,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const run = chosenOperation(this, items.length);

	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const client = new TrioClient(this, { pauseBetweenCallsMs: pauseFrom(options) });

	const returnData: INodeExecutionData[] = [];
	let rowsFailed = 0;
	const toErrorOutput = this.getNode().onError === 'continueErrorOutput';
	const rowsOfASheet =
		run.rowFailure !== undefined && this.getNodeParameter('valuesFrom', 0, 'fields') === 'columns';
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const data = await run.execute.call(this, itemIndex, client);
			// One pass, one object per output item: returnJsonArray and then
			// constructExecutionMetaData would build and copy a whole job list twice, and spreading
			// it into push() has a ceiling on the number of arguments.
			for (const json of Array.isArray(data) ? data : [data])
				returnData.push({ json, pairedItem: { item: itemIndex } });
		} catch (caught) {
			const error = itemError(this, caught, itemIndex);
			// The row's outcome, and the next rows still go. Under Continue (using error output) the
			// failure goes to the error output instead, where n8n puts it beside the row's columns.
			const row = toErrorOutput ? undefined : run.rowFailure?.call(this, itemIndex, caught, error);
			if (row) {
				rowsFailed++;
				returnData.push({ json: row, pairedItem: { item: itemIndex } });
				continue;
			}
			if (continueOnFail) {
				// Only `error`, `message` and `details`: n8n routes items shaped so to the error output
				// under "Continue (using error output)", merged with the input item's fields.
				const json: IDataObject = { error: error.message };
				if (error.description) json.details = error.description;
				returnData.push({ json, pairedItem: { item: itemIndex } });
				continue;
			}
			if (rowsOfASheet && itemIndex > 0) error.description = withRowsBefore(error, itemIndex);
			throw error;
		}
	}
	if (rowsFailed > 0) {
		this.addExecutionHints({
			message: `${rowsFailed} of ${items.length} rows ${rowsFailed === 1 ? 'was' : 'were'} not submitted: "Trio Result" says "not submitted" and "Trio Problem" says why.${rowsFailed < items.length ? ' The other rows went on.' : ''}`,
			location: 'outputPane',
		});
	}
	return [returnData];
}

/**
 * A failure that stops rows part way (the key refused, Trio down) says that the rows before it
 * were done and that running again is safe, since nothing is lost from what went before.
 */
function withRowsBefore(error: NodeApiError | NodeOperationError, itemIndex: number): string {
	const before =
		itemIndex === 1 ? 'The row before this one was' : `The ${itemIndex} rows before this one were`;
	const said = `${before} handled, but a node that stops shows no output; this row and those after it were not tried. Run the workflow again once this is fixed: with Skip If Already Submitted on, rows already submitted come out as already submitted and nobody is submitted twice.`;
	return error.description ? `${error.description}\n\n${said}` : said;
}
