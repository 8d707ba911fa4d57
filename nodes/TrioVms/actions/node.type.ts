import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';

import type { TrioClient } from '../../shared/transport';

/**
 * What an operation does for one input item. It returns the JSON of the output items for that
 * input item; the router adds pairedItem and handles failures. Operation files declare their
 * `execute` with this type, so the router's contract is written once.
 */
export type OperationExecute = (
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
) => Promise<IDataObject | IDataObject[]>;

/**
 * For an operation whose items are spreadsheet rows: the output item that reports `caught` as the
 * row's outcome, or undefined when it is not the row's alone (the router then handles it as any
 * failure). `error` is the node error the router made of it, for its words.
 */
export type RowFailure = (
	this: IExecuteFunctions,
	itemIndex: number,
	caught: unknown,
	error: NodeApiError | NodeOperationError,
) => IDataObject | undefined;

/** One operation: its fields and what it does for one input item. */
export interface TrioOperation {
	description: INodeProperties[];
	execute: OperationExecute;
	rowFailure?: RowFailure;
}

export type TrioResource = 'job' | 'candidate' | 'submission' | 'webhook';
