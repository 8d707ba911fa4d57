import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrioClient } from '../../shared/transport';

/**
 * One operation: its fields and what it does for one input item. It returns the JSON of the
 * output items for that input item; the router adds pairedItem and handles failures.
 */
export interface TrioOperation {
	description: INodeProperties[];
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		client: TrioClient,
	): Promise<IDataObject | IDataObject[]>;
}

export type TrioResource = 'job' | 'candidate' | 'submission' | 'webhook';
