/**
 * Get and Get Many of jobs and of submissions, which Trio answers alike. Trio filters both lists
 * by modification date only, so each is read whole with that one filter and narrowed here by the
 * item's other filters, then cut to Return All / Limit.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { TrioClient } from '../../shared/transport';
import { toModifiedDateQuery } from '../helpers/dates';
import { objectOf, objectsOf } from '../helpers/output';
import { applyReturnAllOrLimit } from '../helpers/outputChoices';
import { returnAllAndLimit } from './common.descriptions';

/** One job or submission by its number; an empty answer stands as just that number. */
export async function getByNumber(
	client: TrioClient,
	itemIndex: number,
	what: 'job' | 'submission',
	path: string,
	number: number,
): Promise<IDataObject> {
	const record = await client.request({
		method: 'GET',
		path,
		pathParams: { number },
		itemIndex,
		context: { subject: `${what} ${number}` },
	});
	return objectOf(record, { Number: number });
}

/** Return All, Limit and the Filters collection, whose options keep the order given. */
export function getManyProperties(what: string, filters: INodeProperties[]): INodeProperties[] {
	return [
		...returnAllAndLimit(what),
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: filters,
		},
	];
}

/**
 * The records of `path` the item's Filters and Return All / Limit ask for. `narrow` checks the
 * filters other than Modified After and says which records to keep; it runs before the request,
 * so that a bad filter fails the item with nothing sent.
 */
export async function getMany(
	context: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
	path: string,
	narrow: (filters: IDataObject) => (record: IDataObject) => boolean,
): Promise<IDataObject[]> {
	const filters = context.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const modifiedDate = toModifiedDateQuery(
		filters.modifiedAfter,
		'Modified After',
		context.getTimezone(),
	);
	const keep = narrow(filters);
	const response = await client.request({
		method: 'GET',
		path,
		query: { modifiedDate },
		itemIndex,
	});
	return applyReturnAllOrLimit(context, itemIndex, objectsOf(response).filter(keep));
}
