/**
 * Small node types that exist only in tests, to feed the package's nodes and to observe what
 * they produce. They run inside the real engine like any other node, so what they emit has
 * gone through n8n's parameter and expression handling and its binary data service.
 */
import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

/** A `json` parameter arrives as text when typed in the UI and as data when set in code. */
export function readJsonParameter<T>(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: T,
): T {
	const value = context.getNodeParameter(name, itemIndex, fallback as unknown as object) as unknown;
	if (value === undefined || value === null || value === '') return fallback;
	if (typeof value !== 'string') return value as T;
	try {
		return JSON.parse(value) as T;
	} catch (error) {
		throw new NodeOperationError(
			context.getNode(),
			`Parameter "${name}" is not valid JSON: ${(error as Error).message}`,
			{ itemIndex },
		);
	}
}

function testNodeDescription(
	name: string,
	displayName: string,
	properties: INodeTypeDescription['properties'],
	inputs: boolean,
): INodeTypeDescription {
	return {
		displayName,
		name,
		group: [inputs ? 'transform' : 'input'],
		version: 1,
		description: `Test node: ${displayName}`,
		defaults: { name: displayName },
		inputs: inputs ? [NodeConnectionTypes.Main] : [],
		outputs: [NodeConnectionTypes.Main],
		properties,
	};
}

/**
 * Where a test workflow starts, like a Manual Trigger: emits the items of its `items` parameter
 * (a JSON array of objects; expressions inside are resolved), by default one empty item.
 */
export class TestStart implements INodeType {
	description = testNodeDescription(
		'test.start',
		'Start',
		[{ displayName: 'Items', name: 'items', type: 'json', default: '[{}]' }],
		false,
	);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = readJsonParameter<IDataObject | IDataObject[]>(this, 'items', 0, [{}]);
		const list = Array.isArray(items) ? items : [items];
		return [list.map((json, index) => ({ json, pairedItem: { item: index } }))];
	}
}

export interface BinarySourceFile {
	/** The item's JSON. */
	json?: IDataObject;
	/** Binary property name, default "data". */
	property?: string;
	fileName?: string;
	mimeType?: string;
	/** The file's bytes; without it the item has no binary data. */
	base64?: string;
}

/**
 * Emits one item per entry of `files`, its file stored through `helpers.prepareBinaryData`, so
 * it lives in n8n's binary data service exactly as a file read by a real node would.
 */
export class TestBinarySource implements INodeType {
	description = testNodeDescription(
		'test.binarySource',
		'Binary Source',
		[{ displayName: 'Files', name: 'files', type: 'json', default: '[]' }],
		false,
	);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const files = readJsonParameter<BinarySourceFile[]>(this, 'files', 0, []);
		if (files.length === 0) return [[{ json: {} }]];
		const items: INodeExecutionData[] = [];
		for (const [index, file] of files.entries()) {
			const item: INodeExecutionData = { json: file.json ?? {}, pairedItem: { item: index } };
			if (file.base64 !== undefined) {
				const binary: IBinaryData = await this.helpers.prepareBinaryData(
					Buffer.from(file.base64, 'base64'),
					file.fileName,
					file.mimeType,
				);
				item.binary = { [file.property ?? 'data']: binary };
			}
			items.push(item);
		}
		return [items];
	}
}

/** Passes its input through unchanged: a named place to read what reached the end of a chain. */
export class TestCollect implements INodeType {
	description = testNodeDescription('test.collect', 'Collect', [], true);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}
