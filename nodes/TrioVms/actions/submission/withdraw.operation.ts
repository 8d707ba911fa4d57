import { updateDisplayOptions, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import { reasonedProperties, sendReasoned } from './reasoned';

export const description = updateDisplayOptions(
	{ show: { resource: ['submission'], operation: ['withdraw'] } },
	reasonedProperties('withdraw'),
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject> {
	return await sendReasoned.call(this, itemIndex, client, 'withdraw');
}
