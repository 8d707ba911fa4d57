import type { IDataObject } from 'n8n-workflow';

import { listRegistrations, withoutSecrets } from '../../../shared/webhookRegistrations';
import { applyReturnAllOrLimit } from '../../helpers/outputChoices';
import { optionsCollection, returnAllAndLimit, shownUnder } from '../common.descriptions';
import type { OperationExecute } from '../node.type';
import { ADMIN_NOTICE } from './webhookParameters';

export const description = shownUnder('webhook', 'getAll', [
	ADMIN_NOTICE,
	...returnAllAndLimit('registration'),
	{
		displayName: 'Active Only',
		name: 'activeOnly',
		type: 'boolean',
		default: false,
		description: 'Whether to leave out deactivated registrations',
	},
	optionsCollection(),
]);

export const execute: OperationExecute = async function (itemIndex, client) {
	const activeOnly = this.getNodeParameter('activeOnly', itemIndex, false) as boolean;
	let registrations = (await listRegistrations(client, { itemIndex })) as IDataObject[];
	if (activeOnly)
		registrations = registrations.filter((registration) => registration.IsActive !== false);
	return applyReturnAllOrLimit(this, itemIndex, registrations).map(withoutSecrets);
};
