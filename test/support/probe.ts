/**
 * Sends requests through the transport inside the real engine, via the test.transportProbe
 * node (see harness/engine/transport-probe.node.ts), one request per item.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { TrioClientOptions } from '../../nodes/shared/transport';
import { runNode, trioCredentials, type ProbeRequest } from '../../harness/engine/engine';

export const API_KEY = 'tv_live_Zq9s8X2kP4mN7rT1';

/** Small delays so that retry tests stay fast. */
export const FAST_RETRY: TrioClientOptions['retry'] = { baseDelayMs: 20, maxDelayMs: 100 };

export interface ProbeOptions {
	clientOptions?: TrioClientOptions;
	baseUrl: string;
	apiKey?: string;
	continueOnFail?: boolean;
	inputBinary?: Parameters<typeof runNode>[0]['inputBinary'];
}

/** One request per entry; each item carries its request, so the same client serves them all. */
export async function probe(requests: ProbeRequest | ProbeRequest[], options: ProbeOptions) {
	const list = Array.isArray(requests) ? requests : [requests];
	const result = await runNode({
		nodeType: 'test.transportProbe',
		input: list.map((request) => ({ request }) as unknown as IDataObject),
		inputBinary: options.inputBinary,
		parameters: {
			request: '={{ $json.request }}',
			clientOptions: (options.clientOptions ?? { retry: FAST_RETRY }) as unknown as INodeParameters,
		},
		credentials: trioCredentials(options.baseUrl, options.apiKey ?? API_KEY),
		continueOnFail: options.continueOnFail,
	});
	return { ...result, bodies: result.output.map((item) => item.json.body) };
}
