/**
 * The error workflow docs/sync-trigger.md gives to paste ("When checks fail") is a whole
 * workflow: it parses, starts with n8n's Error Trigger, and its step reads the error from either
 * shape n8n hands an error workflow (a failed execution's, or a trigger's). That it runs, and
 * says which check failed and why, is shown in real n8n by test/e2e/sync-trigger.e2e.test.ts.
 */
import { readRepoFile, section } from './markdown';

interface Recipe {
	name: string;
	nodes: Array<{ name: string; type: string; parameters: unknown }>;
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
}

const blocks = [
	...section(readRepoFile('docs/sync-trigger.md'), 'When checks fail').matchAll(
		/```json\n([\s\S]*?)\n```/g,
	),
].map((match) => match[1]);

describe('the error workflow to paste, in docs/sync-trigger.md', () => {
	it('is one JSON workflow, named as the examples are', () => {
		expect(blocks).toHaveLength(1);
		const recipe = JSON.parse(blocks[0]) as Recipe;
		expect(recipe.name).toMatch(/^Trio VMS: /);
	});

	it("starts with n8n's Error Trigger, and every connection joins two of its steps", () => {
		const recipe = JSON.parse(blocks[0]) as Recipe;
		expect(recipe.nodes[0].type).toBe('n8n-nodes-base.errorTrigger');
		const names = new Set(recipe.nodes.map((node) => node.name));
		for (const [from, outputs] of Object.entries(recipe.connections)) {
			expect(names).toContain(from);
			for (const to of outputs.main.flat()) expect(names).toContain(to.node);
		}
		expect(Object.keys(recipe.connections)).toEqual(['Error Trigger']);
	});

	it("says which workflow's check failed and why, from a failed execution's error or a trigger's", () => {
		const text = JSON.stringify(JSON.parse(blocks[0]));
		expect(text).toContain('$json.workflow.name');
		expect(text).toContain('$json.execution.error');
		expect(text).toContain('$json.trigger.error');
		// What to do, too: the error's description (issue 46).
		expect(text).toContain('.description');
	});
});
