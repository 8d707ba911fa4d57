/**
 * The node's parameters as one poll reads them: checked before any request, each bad value
 * refused with the option's name and what it must be.
 */
import {
	NodeOperationError,
	type IDataObject,
	type INode,
	type IPollFunctions,
} from 'n8n-workflow';

import { DEFAULT_MAX_DROP_PERCENT } from './shortList';
import { declared } from './failure';
import type { WatchKind } from './state';
import { DEFAULT_FULL_LIST_EVERY, DEFAULT_OVERLAP_SECONDS } from './watermark';

export interface PollSettings {
	watch: WatchKind;
	emitExisting: boolean;
	changes: string[];
	simplify: boolean;
	fullListEvery: number;
	overlapSeconds: number;
	maxDropShare: number;
}

/** Output: Simplified (the ten job fields) or Raw. */
function simplifyOf(context: IPollFunctions): boolean {
	return context.getNodeParameter('output', 'simple') === 'simple';
}

/** A setting the user must change: n8n need not try again before they do. */
function badSetting(node: INode, message: string): Error {
	return declared(new NodeOperationError(node, message), { cause: 'configuration-invalid' });
}

export function settings(context: IPollFunctions): PollSettings {
	const watch = context.getNodeParameter('watch', 'jobs') as WatchKind;
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const fullListEvery = Number(options.fullListEvery ?? DEFAULT_FULL_LIST_EVERY);
	const overlapSeconds = Number(options.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS);
	const maxDropPercent = Number(options.maxDropPercent ?? DEFAULT_MAX_DROP_PERCENT);
	const node = context.getNode();
	if (!Number.isInteger(fullListEvery) || fullListEvery < 1)
		throw badSetting(
			node,
			'"Whole List Every (Checks)" must be a whole number, 1 or more: set it under Options',
		);
	if (!Number.isFinite(overlapSeconds) || overlapSeconds < 0)
		throw badSetting(node, '"Overlap (Seconds)" must be 0 or more: set it under Options');
	if (!Number.isFinite(maxDropPercent) || maxDropPercent < 0 || maxDropPercent > 100)
		throw badSetting(
			node,
			'"Most Jobs Closing at Once (%)" must be from 0 to 100: set it under Options',
		);
	const changes = context.getNodeParameter(
		watch === 'jobs' ? 'jobChanges' : 'submissionChanges',
		[],
	) as string[];
	if (!Array.isArray(changes) || changes.length === 0)
		throw new NodeOperationError(node, '"Changes" must name at least one change to output');
	return {
		watch,
		emitExisting: options.emitExisting === true,
		changes,
		simplify: simplifyOf(context),
		fullListEvery,
		overlapSeconds,
		maxDropShare: maxDropPercent / 100,
	};
}
