import type { IDataObject } from 'n8n-workflow';

import type { RegistrationRequest } from '../../../shared/webhookRegistrations';
import { locatorText } from '../../helpers/locators';
import { ParameterError, optionalBoolean, requiredText } from '../../helpers/validation';
import { optionsCollection, shownUnder, webhookLocator } from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import { ADMIN_NOTICE, eventsParameter, readEvents } from './webhookParameters';
import { deliverableUrl, updateRegistration } from './webhookRequests';

export const description = shownUnder('webhook', 'update', [
	ADMIN_NOTICE,
	webhookLocator('The registration to change'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Active',
				name: 'isActive',
				type: 'boolean',
				default: true,
				description: 'Whether Trio sends events to the address',
			},
			eventsParameter,
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'A new name for the registration',
			},
			{
				displayName: 'URL',
				name: 'url',
				type: 'string',
				default: '',
				placeholder: 'e.g. https://n8n.your-agency.com/webhook/trio',
				description: 'A new HTTPS address for the events',
			},
		],
	},
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const id = locatorText(this, itemIndex, 'webhook', 'Webhook Registration');
	const changes = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const update: Partial<RegistrationRequest> = {};
	if ('name' in changes) update.Name = requiredText(changes.name, 'Name');
	if ('url' in changes) update.Url = await deliverableUrl(this, changes.url, itemIndex);
	if ('events' in changes) update.Events = readEvents(changes.events, 'Event Names or IDs');
	if ('isActive' in changes) update.IsActive = optionalBoolean(changes.isActive, 'Active') ?? true;
	if (!Object.keys(update).length) {
		throw new ParameterError(
			'Update Fields',
			'is empty: add at least one field to change (Name, URL, Event Names or IDs, or Active)',
		);
	}
	return await updateRegistration(client, id, update, itemIndex);
};
