/**
 * What examples/README.md says about the workflow files is what the files hold: the node
 * versions table lists exactly the node types and versions each example uses, and every node the
 * text names in italics for an example is a node of that example (or a field the text explains).
 */
import { filesUnder, readRepoFile, section } from './markdown';

interface Workflow {
	nodes: Array<{ name: string; type: string; typeVersion: number }>;
}

const EXAMPLES = filesUnder('examples', '.json').filter((file) =>
	/^examples\/\d\d-[^/]+\.json$/.test(file),
);
const workflowOf = (number: number): Workflow =>
	JSON.parse(
		readRepoFile(EXAMPLES.find((file) => file.startsWith(`examples/0${number}-`))!),
	) as Workflow;

describe('examples/README.md against the example files', () => {
	const readme = readRepoFile('examples/README.md');

	it("the versions table lists each example's node types and versions, and nothing else", () => {
		const table = section(readme, 'Which n8n versions');
		const listed = new Map<string, string>();
		for (const row of table
			.split('\n')
			.filter((line) => line.startsWith('| ') && line.includes('`'))) {
			const match = /`([\w.-]+)`\s+\**([\d.]+)\**[^|]*\|\s*([^|]+?)\s*\|/.exec(row);
			if (!match) throw new Error(`Unreadable row: ${row}`);
			const examples =
				match[3] === 'all' ? EXAMPLES.map((_, index) => index + 1).join(', ') : match[3];
			listed.set(`${match[1]} ${Number(match[2])}`, examples);
		}
		const used = new Map<string, number[]>();
		EXAMPLES.forEach((_, index) => {
			for (const node of workflowOf(index + 1).nodes) {
				const key = `${node.type} ${node.typeVersion}`;
				const list = used.get(key) ?? [];
				if (!list.includes(index + 1)) list.push(index + 1);
				used.set(key, list);
			}
		});
		expect(Object.fromEntries(listed)).toEqual(
			Object.fromEntries([...used].map(([key, examples]) => [key, examples.join(', ')])),
		);
	});

	it('"When something goes wrong" names only nodes the example has', () => {
		const table = section(readme, 'When something goes wrong');
		const named = [...table.matchAll(/Example (\d)[^|]*?\bat \*([^*]+)\*/g)].map((match) => ({
			example: Number(match[1]),
			node: match[2],
		}));
		expect(named.length).toBeGreaterThan(0);
		for (const { example, node } of named)
			expect(workflowOf(example).nodes.map((candidate) => candidate.name)).toContain(node);
	});
});
