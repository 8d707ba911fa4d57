import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import type { RegistrationRequest } from '../../../shared/webhookRegistrations';
import { FieldError, optionalBoolean, requiredText } from '../../helpers/validation';
import { optionsCollection, webhookLocator } from '../common.descriptions';
import { ADMIN_NOTICE, eventsField, readEvents } from './webhookFields';
import { deliverableUrl, updateRegistration } from './webhookRequests';

const properties: INodeProperties[] = [
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
			eventsField,
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
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['update'] } },
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
	const changes = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const update: Partial<RegistrationRequest> = {};
	if ('name' in changes) update.Name = requiredText(changes.name, 'Name');
	if ('url' in changes) update.Url = await deliverableUrl(this, changes.url, itemIndex);
	if ('events' in changes) update.Events = readEvents(changes.events, 'Event Names or IDs');
	if ('isActive' in changes) update.IsActive = optionalBoolean(changes.isActive, 'Active') ?? true;
	if (!Object.keys(update).length) {
		throw new FieldError(
			'Update Fields',
			'is empty: add at least one field to change (Name, URL, Event Names or IDs, or Active)',
		);
	}
	return await updateRegistration(client, id, update, itemIndex);
}
