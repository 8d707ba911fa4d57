/**
 * What the webhook operations send beyond one request: the URL, checked against where the
 * credential's service can deliver, and the read-merge-save that Update and Deactivate share.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { TRIO_CREDENTIAL_TYPE, type TrioCredentialData } from '../../../shared/credentials';
import { undeliverableReason } from '../../../shared/publicAddress';
import type { TrioClient } from '../../../shared/transport';
import {
	asRequest,
	listRegistrations,
	saveRegistration,
	withoutSecrets,
	type RegistrationRequest,
	type WebhookRegistration,
} from '../../../shared/webhookRegistrations';
import { ParameterError, webhookUrl } from '../../helpers/validation';

/** The registration with this Id, read from the service's list (there is no read-one endpoint). */
async function findRegistration(
	client: TrioClient,
	id: string,
	itemIndex: number,
): Promise<WebhookRegistration> {
	const registrations = await listRegistrations(client, { itemIndex });
	const found = registrations.find((registration) => registration.Id === id);
	if (!found) {
		throw new ParameterError(
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
	const reason = undeliverableReason(credentials, url);
	if (!reason) return url;
	throw new ParameterError(
		'URL',
		`is an address Trio VMS cannot send events to: ${reason}`,
		'Give a public https:// address. To start n8n workflows from Trio events, use the Trio VMS Trigger, or the Trio VMS Sync Trigger when n8n has no public address.',
	);
}
