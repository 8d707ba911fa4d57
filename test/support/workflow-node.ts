import type { INode } from 'n8n-workflow';

/** A node as a saved workflow holds it, for the functions that take one without running it. */
export function workflowNode(name: string, type: string): INode {
	return { id: '1', name, type, typeVersion: 1, position: [0, 0], parameters: {} };
}
