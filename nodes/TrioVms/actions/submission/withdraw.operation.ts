import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import { showOnlyFor } from '../common.descriptions';
import { reasonedProperties, sendReasoned } from './reasoned';

export const description = showOnlyFor('submission', ['withdraw'], reasonedProperties('withdraw'));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject> {
	return await sendReasoned.call(this, itemIndex, client, 'withdraw');
}
