/**
 * Dropdown options loaded from Trio. The event names fall back to the spec's own list when
 * Trio's cannot be loaded; the withdraw reasons have no such list and say why they are missing.
 */
import {
	NodeOperationError,
	type ILoadOptionsFunctions,
	type INodePropertyOptions,
} from 'n8n-workflow';

import { isTrioEventName, TRIO_EVENT_NAMES, TRIO_EVENTS } from '../../shared/events';
import { nameOfListItem } from '../../shared/schemas';
import { PATHS } from '../../shared/service';
import { createTrioClient, INTERACTIVE_CLIENT } from '../../shared/transport';
import { listOf } from '../helpers/output';
import { withdrawReasonNames } from '../actions/submission/reasoned';

async function loadNames(
	context: ILoadOptionsFunctions,
	path: string,
	webhookManagement: boolean,
): Promise<string[] | undefined> {
	try {
		const client = createTrioClient(context, INTERACTIVE_CLIENT);
		const response = await client.request({ method: 'GET', path, context: { webhookManagement } });
		const names = listOf(response)
			.map((entry) => nameOfListItem(entry)?.trim())
			.filter((name): name is string => !!name);
		return names.length ? [...new Set(names)] : undefined;
	} catch {
		// The built-in event names are the spec's own: they are the answer then.
		return undefined;
	}
}

/**
 * Trio's own withdraw reasons. There is no list to fall back to: a reason the project made up
 * would be refused at every run. When the list cannot be loaded, n8n shows this error in the
 * dropdown, and the field still takes a reason typed as an expression.
 */
export async function getWithdrawReasons(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const typeIt =
		'Switch the field to Expression and type the reason exactly as Trio lists it, or map it from an earlier node.';
	let names: string[];
	try {
		const client = createTrioClient(this, INTERACTIVE_CLIENT);
		const response = await client.request({ method: 'GET', path: PATHS.withdrawReasons });
		names = withdrawReasonNames(response);
	} catch (error) {
		throw new NodeOperationError(
			this.getNode(),
			`Trio's list of withdraw reasons could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
			{ description: typeIt },
		);
	}
	if (!names.length) {
		throw new NodeOperationError(this.getNode(), 'Trio answered with no withdraw reasons', {
			description: typeIt,
		});
	}
	return names.map((name) => ({ name, value: name }));
}

export async function getWebhookEvents(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const loaded = await loadNames(this, PATHS.webhookEvents, true);
	const names = loaded ?? [...TRIO_EVENT_NAMES];
	return names.map((name) => ({
		name,
		value: name,
		description: isTrioEventName(name) ? TRIO_EVENTS[name].description : undefined,
	}));
}
