import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import type { TrioClient } from '../../../shared/transport';
import { listRegistrations, withoutSecrets } from '../../../shared/webhookRegistrations';
import { applyReturnAllOrLimit } from '../../helpers/outputChoices';
import { optionsCollection, returnAllAndLimit } from '../common.descriptions';
import { ADMIN_NOTICE } from './webhookFields';

const properties: INodeProperties[] = [
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
];

export const description = updateDisplayOptions(
	{ show: { resource: ['webhook'], operation: ['getAll'] } },
	properties,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject[]> {
	const activeOnly = this.getNodeParameter('activeOnly', itemIndex, false) as boolean;
	let registrations = (await listRegistrations(client, { itemIndex })) as IDataObject[];
	if (activeOnly)
		registrations = registrations.filter((registration) => registration.IsActive !== false);
	return applyReturnAllOrLimit(this, itemIndex, registrations).map(withoutSecrets);
}
