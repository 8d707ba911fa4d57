import { optionalBoolean, requiredText } from '../../helpers/validation';
import { optionsCollection, shownUnder } from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import { saveRegistration, withoutSecrets } from '../../../shared/webhookRegistrations';
import { ADMIN_NOTICE, eventsParameter, readEvents } from './webhookParameters';
import { deliverableUrl } from './webhookRequests';

export const description = shownUnder('webhook', 'create', [
	ADMIN_NOTICE,
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. n8n submissions',
		description: 'A name to recognise the registration by in Trio',
	},
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://n8n.your-agency.com/webhook/trio',
		description:
			'The HTTPS address Trio sends the events to. To start workflows from Trio events, the Trio VMS Trigger node registers itself instead.',
	},
	{ ...eventsParameter, required: true },
	{
		displayName: 'Active',
		name: 'isActive',
		type: 'boolean',
		default: true,
		description: 'Whether Trio sends events to the address right away',
	},
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const request = {
		Name: requiredText(this.getNodeParameter('name', itemIndex, ''), 'Name'),
		Url: await deliverableUrl(this, this.getNodeParameter('url', itemIndex, ''), itemIndex),
		Events: readEvents(this.getNodeParameter('events', itemIndex, []), 'Event Names or IDs'),
		IsActive: optionalBoolean(this.getNodeParameter('isActive', itemIndex, true), 'Active') ?? true,
	};
	const saved = await saveRegistration(client, request, { itemIndex });
	const registration = withoutSecrets(saved.answer);
	if (!saved.foundAfter429) return registration;
	return { ...registration, _trio: { action: 'created despite an error', error: FOUND_AFTER_429 } };
};

const FOUND_AFTER_429 =
	'Trio VMS answered 429 (Too Many Requests) after storing it: the node found a registration with this name, URL and events in Trio before sending it again, so it was not registered twice';
