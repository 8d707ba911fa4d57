import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

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

/** One operation: its fields and what it does for one input item. */
export interface TrioOperation {
	description: INodeProperties[];
	execute: OperationExecute;
}

export type TrioResource = 'job' | 'candidate' | 'submission' | 'webhook';
