import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import { requiredText } from '../../helpers/validation';
import { optionsCollection, webhookLocator } from '../common.descriptions';
import { ADMIN_NOTICE } from './webhookFields';
import { updateRegistration } from './webhookRequests';

const properties: INodeProperties[] = [
	ADMIN_NOTICE,
	webhookLocator(
		'The registration to switch off. Trio has no delete: a deactivated registration stays listed but receives nothing.',
	),
	optionsCollection(),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['deactivate'] } },
	properties,
);

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
