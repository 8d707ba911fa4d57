/**
 * Fields and checks shared by the webhook operations, and the read-merge-save that Update and
 * Deactivate share. The requests themselves live in nodes/shared/webhookRegistrations.ts.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { TRIO_CREDENTIAL_TYPE, type TrioCredentialData } from '../../../shared/credentials';
import { unreachableAddressReason } from '../../../shared/publicAddress';
import type { TrioClient } from '../../../shared/transport';
import {
	asRequest,
	listRegistrations,
	saveRegistration,
	withoutSecrets,
	type RegistrationRequest,
	type WebhookRegistration,
} from '../../../shared/webhookRegistrations';
import { FieldError, isBlank, shown, webhookUrl } from '../../helpers/validation';

export const eventsField: INodeProperties = {
	displayName: 'Event Names or IDs',
	name: 'events',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getWebhookEvents' },
	default: [],
	description:
		'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	hint: 'The events Trio sends to the address. With an expression, give a list of event names such as ["Submission Update"].',
};

export const ADMIN_NOTICE: INodeProperties = {
	displayName:
		'Managing webhooks needs an API key of a user with the agency administrator permission',
	name: 'adminNotice',
	type: 'notice',
	default: '',
};

/** Event names from a multi-select, or from an expression giving an array or "A, B" text. */
export function readEvents(value: unknown, field: string): string[] {
	let list: unknown[];
	if (Array.isArray(value)) list = value;
	else if (typeof value === 'string') list = value.split(',');
	else if (isBlank(value)) list = [];
	else throw new FieldError(field, `must be a list of event names, got ${shown(value)}`);
	const names: string[] = [];
	for (const entry of list) {
		if (typeof entry !== 'string')
			throw new FieldError(field, `must hold event names (text), got ${shown(entry)}`);
		const name = entry.trim();
		if (name && !names.includes(name)) names.push(name);
	}
	if (!names.length)
		throw new FieldError(field, 'must name at least one event, e.g. Submission Update');
	return names;
}

/** The registration with this Id, read from the service's list (there is no read-one endpoint). */
async function findRegistration(
	client: TrioClient,
	id: string,
	itemIndex: number,
): Promise<WebhookRegistration> {
	const registrations = await listRegistrations(client, { itemIndex });
	const found = registrations.find((registration) => registration.Id === id);
	if (!found) {
		throw new FieldError(
			'Webhook Registration',
			`is "${id}", but your agency has no webhook registration with that ID (${registrations.length} registration${registrations.length === 1 ? '' : 's'} found)`,
			'Pick the registration from the list, or use "Get Many" on webhooks to see the IDs.',
		);
	}
	return found;
}

/**
 * Changes an existing registration. Trio replaces the whole registration on update, so the
 * fields not being changed are copied from its current state.
 */
export async function updateRegistration(
	client: TrioClient,
	id: string,
	changes: Partial<RegistrationRequest>,
	itemIndex: number,
): Promise<IDataObject> {
	const current = await findRegistration(client, id, itemIndex);
	const saved = await saveRegistration(client, asRequest(current, { ...changes, Id: id }), {
		itemIndex,
	});
	return withoutSecrets(saved.answer);
}

/**
 * The URL, refused when the real service (Production or UAT) could never deliver to it: it
 * would be registered and stay silent. The trigger applies the same rule at activation; a
 * Custom URL (a test copy of Trio on this computer) may deliver anywhere.
 */
export async function deliverableUrl(
	context: IExecuteFunctions,
	value: unknown,
	itemIndex: number,
): Promise<string> {
	const url = webhookUrl(value, 'URL');
	const credentials = await context.getCredentials<TrioCredentialData>(
		TRIO_CREDENTIAL_TYPE,
		itemIndex,
	);
	if ((credentials.environment ?? 'production') === 'custom') return url;
	const reason = unreachableAddressReason(url);
	if (!reason) return url;
	throw new FieldError(
		'URL',
		`is an address Trio VMS cannot send events to: ${reason}`,
		'Give a public https:// address. To start n8n workflows from Trio events, use the Trio VMS Trigger, or the Trio VMS Sync Trigger when n8n has no public address.',
	);
}
