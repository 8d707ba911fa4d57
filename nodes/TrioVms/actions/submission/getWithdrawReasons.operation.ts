import type { IDataObject } from 'n8n-workflow';

import { nameOfListItem } from '../../../shared/schemas';
import { PATHS } from '../../../shared/serviceFacts';
import { isRecord } from '../../../shared/listAnswer';
import { listOrEmpty } from '../../helpers/output';
import { optionsCollection, shownUnder } from '../common.descriptions';
import type { OperationExecute } from '../node.type';

export const description = shownUnder('submission', 'getWithdrawReasons', [optionsCollection()]);

/** One item per reason, as { reason }, keeping any other fields the service sends with it. */
export const execute: OperationExecute = async function (itemIndex, client) {
	const response = await client.request({ method: 'GET', path: PATHS.withdrawReasons, itemIndex });
	const reasons: IDataObject[] = [];
	for (const entry of listOrEmpty(response)) {
		const reason = nameOfListItem(entry);
		if (reason !== undefined) reasons.push(isRecord(entry) ? { reason, ...entry } : { reason });
	}
	return reasons;
};
