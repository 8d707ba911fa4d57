import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import { requiredText } from '../../helpers/validation';
import { optionsCollection, showOnlyFor, webhookLocator } from '../common.descriptions';
import { ADMIN_NOTICE, updateRegistration } from './webhookFields';

const properties: INodeProperties[] = [
	ADMIN_NOTICE,
	webhookLocator(
		'The registration to switch off. Trio has no delete: a deactivated registration stays listed but receives nothing.',
	),
	optionsCollection(),
];

export const description = showOnlyFor('webhook', ['deactivate'], properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject> {
	const id = requiredText(
		this.getNodeParameter('webhook', itemIndex, '', { extractValue: true }),
		'Webhook Registration',
	);
	return await updateRegistration(client, id, { IsActive: false }, itemIndex);
}
