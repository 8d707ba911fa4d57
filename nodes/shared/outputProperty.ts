/**
 * The Output parameter of all three nodes, worded alike: Simplified or Raw, and what the node
 * adds (the action node's Selected Fields). Where it applies to jobs, submissions or shifts,
 * the records themselves are shaped by jobOutput.ts, submissionOutput.ts and shiftOutput.ts.
 */
import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * The one output control of all three nodes, worded alike: Output, Simplified or Raw (the action
 * node adds Selected Fields). n8n's own nodes that offer more than a switch (Gmail, Microsoft
 * Outlook) name it so.
 */
export function outputProperty(options: {
	simplified: string;
	extra?: INodePropertyOptions[];
	displayOptions?: IDisplayOptions;
}): INodeProperties {
	return {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		// Always holds a choice; marked so for n8n's lint, which asks optional fields into Options.
		required: true,
		default: 'simple',
		description: 'How much of each record to output',
		...(options.displayOptions ? { displayOptions: options.displayOptions } : {}),
		options: [
			{ name: 'Simplified', value: 'simple', description: options.simplified },
			{ name: 'Raw', value: 'raw', description: 'Every detail Trio sends' },
			...(options.extra ?? []),
		],
	};
}
