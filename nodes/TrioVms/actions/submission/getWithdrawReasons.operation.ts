import {
	updateDisplayOptions,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { nameOfListItem } from '../../../shared/schemas';
import { PATHS } from '../../../shared/service';
import type { TrioClient } from '../../../shared/transport';
import { isRecord, listOf } from '../../helpers/output';
import { optionsCollection } from '../common.descriptions';

const properties: INodeProperties[] = [optionsCollection()];

export const description = updateDisplayOptions(
	{ show: { resource: ['submission'], operation: ['getWithdrawReasons'] } },
	properties,
);

/** One item per reason, as { reason }, keeping any other fields the service sends with it. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
): Promise<IDataObject[]> {
	const response = await client.request({ method: 'GET', path: PATHS.withdrawReasons, itemIndex });
	const reasons: IDataObject[] = [];
	for (const entry of listOf(response)) {
		const reason = nameOfListItem(entry);
		if (reason !== undefined) reasons.push(isRecord(entry) ? { reason, ...entry } : { reason });
	}
	return reasons;
}
