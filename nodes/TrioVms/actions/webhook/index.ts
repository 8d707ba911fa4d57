import { resourceProperties } from '../common.descriptions';
import * as create from './create.operation';
import * as deactivate from './deactivate.operation';
import * as getEvents from './getEvents.operation';
import * as getAll from './getAll.operation';
import * as update from './update.operation';

export const operations = { create, deactivate, getAll, getEvents, update };

export const description = resourceProperties('webhook', operations, {
	options: [
		{
			name: 'Create',
			value: 'create',
			description:
				'Register an HTTPS address to receive Trio events (needs agency administrator permission)',
			action: 'Register webhook address for events',
		},
		{
			name: 'Deactivate',
			value: 'deactivate',
			description:
				'Switch a webhook registration off so Trio stops sending to it (Trio has no delete)',
			action: 'Switch off webhook registration',
		},
		{
			name: 'Get Available Events',
			value: 'getEvents',
			description:
				'Get the event names that can be registered, such as Job Update and Submission Update',
			action: 'Get events available for webhooks',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description: "Get many of your agency's webhook registrations",
			action: 'Get many webhook registrations',
		},
		{
			name: 'Update',
			value: 'update',
			description: 'Change the name, address, events or active state of a webhook registration',
			action: 'Update webhook address or events',
		},
	],
	default: 'getAll',
});
