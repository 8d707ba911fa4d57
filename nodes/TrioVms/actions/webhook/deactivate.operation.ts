import { locatorText } from '../../helpers/locators';
import { optionsCollection, shownUnder, webhookLocator } from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import { ADMIN_NOTICE } from './webhookParameters';
import { updateRegistration } from './webhookRequests';

export const description = shownUnder('webhook', 'deactivate', [
	ADMIN_NOTICE,
	webhookLocator(
		'The registration to switch off. Trio has no delete: a deactivated registration stays listed but receives nothing.',
	),
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const id = locatorText(this, itemIndex, 'webhook', 'Webhook Registration');
	return await updateRegistration(client, id, { IsActive: false }, itemIndex);
};
