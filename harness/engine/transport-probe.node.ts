/**
 * A test node that sends one request per input item through the package's transport
 * (nodes/shared/transport/), so transport tests exercise it inside the real engine: n8n-core's
 * httpRequestWithAuthentication, the real credential class adding X-API-KEY, real sockets.
 *
 * Parameters (both JSON, expressions resolved per item):
 * - `request`: a TrioRequest, except that multipart parts carry their bytes as `base64`, or name
 *   a `binaryProperty` of the input item to read from n8n's binary data service.
 * - `clientOptions`: TrioClientOptions; one client serves all items, as in a real node.
 *
 * Output per item: `{ body, stats }` with the parsed response body and the client's counters.
 * With "continue on fail" an error becomes `{ error, httpCode, description }` instead.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeListSearchResult,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes } from 'n8n-workflow';

import type { MultipartPart } from '../../nodes/shared/transport/multipart';
import { TrioClient, type TrioClientOptions, type TrioRequest } from '../../nodes/shared/transport';
import { readJsonParameter } from './test-nodes';

type ProbePart =
	| { name: string; value: string }
	| { name: string; fileName: string; contentType: string; base64: string }
	| { name: string; binaryProperty: string };

export type ProbeRequest = Omit<TrioRequest, 'multipart'> & { multipart?: ProbePart[] };

async function toMultipart(
	context: IExecuteFunctions,
	parts: ProbePart[],
	itemIndex: number,
): Promise<MultipartPart[]> {
	const result: MultipartPart[] = [];
	for (const part of parts) {
		if ('value' in part) {
			result.push({ name: part.name, value: part.value });
		} else if ('base64' in part) {
			result.push({
				name: part.name,
				fileName: part.fileName,
				contentType: part.contentType,
				data: Buffer.from(part.base64, 'base64'),
			});
		} else {
			const meta = context.helpers.assertBinaryData(itemIndex, part.binaryProperty);
			const data = await context.helpers.getBinaryDataBuffer(itemIndex, part.binaryProperty);
			result.push({
				name: part.name,
				fileName: meta.fileName ?? 'file',
				contentType: meta.mimeType,
				data,
			});
		}
	}
	return result;
}

export class TestTransportProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Transport Probe',
		name: 'test.transportProbe',
		group: ['transform'],
		version: 1,
		description: 'Test node: sends requests through the Trio VMS transport',
		defaults: { name: 'Transport Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'trioVmsApi', required: true }],
		properties: [
			{
				displayName: 'Request',
				name: 'request',
				type: 'json',
				default: '{"method":"GET","path":"/"}',
			},
			{ displayName: 'Client Options', name: 'clientOptions', type: 'json', default: '{}' },
			// Only for the load-options and list-search helpers' own tests.
			{
				displayName: 'Choice',
				name: 'choice',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'probeOptions' },
				default: '',
			},
		],
	};

	methods = {
		loadOptions: {
			/** GETs `optionsPath` (a current parameter, default /Webhooks/Events) and lists the strings. */
			async probeOptions(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const path =
					(this.getCurrentNodeParameter('optionsPath') as string | undefined) ?? '/Webhooks/Events';
				const client = new TrioClient(this);
				const list = await client.request<unknown[]>({
					method: 'GET',
					path,
					context: { webhookManagement: true },
				});
				return (list ?? []).map((entry) => ({ name: String(entry), value: String(entry) }));
			},
		},
		listSearch: {
			/** GETs /candidates?email=<filter>&page=<token> and pages on `next`. */
			async probeSearch(
				this: ILoadOptionsFunctions,
				filter?: string,
				paginationToken?: string,
			): Promise<INodeListSearchResult> {
				const client = new TrioClient(this);
				const page = await client.request<{
					items: Array<{ id: number; name: string }>;
					next?: string;
				}>({
					method: 'GET',
					path: '/candidates',
					query: { email: filter, page: paginationToken },
				});
				return {
					results: page.items.map((item) => ({ name: item.name, value: item.id })),
					paginationToken: page.next,
				};
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const client = new TrioClient(
			this,
			readJsonParameter<TrioClientOptions>(this, 'clientOptions', 0, {}),
		);
		const output: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const { multipart, ...request } = readJsonParameter<ProbeRequest>(
					this,
					'request',
					itemIndex,
					{ method: 'GET', path: '/' },
				);
				const body = await client.request({
					itemIndex,
					...request,
					multipart: multipart ? await toMultipart(this, multipart, itemIndex) : undefined,
				});
				output.push({
					json: {
						body: (body ?? null) as IDataObject,
						stats: { ...client.stats },
						pacing: { ...client.pacing },
					},
					pairedItem: { item: itemIndex },
				});
			} catch (error) {
				if (!this.continueOnFail()) throw error;
				const failure = error as Error & { description?: string; httpCode?: string | null };
				output.push({
					json: {
						error: failure.message,
						description: failure.description ?? null,
						httpCode: failure instanceof NodeApiError ? failure.httpCode : null,
						stats: { ...client.stats } as unknown as JsonObject,
					},
					pairedItem: { item: itemIndex },
				});
			}
		}
		return [output];
	}
}
