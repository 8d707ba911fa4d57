/**
 * docs/development.md's "Adding an event" names the step that writes the new event's sample
 * payload, with the command the sample test itself reads, so the recipe cannot lose it again.
 */
import { codeSpans, readRepoFile, section } from './markdown';

const SAMPLE_TEST = 'test/nodes/TrioVmsTrigger/sample-payloads.test.ts';

describe('"Adding an event" in docs/development.md', () => {
	const recipe = section(readRepoFile('docs/development.md'), 'Adding an event');
	const command = codeSpans(recipe).find((span) => span.includes(SAMPLE_TEST));

	it('regenerates examples/sample-payloads/ with the sample test', () => {
		expect(recipe).toContain('examples/sample-payloads/');
		expect(command).toBe(`UPDATE_SAMPLES=1 npx jest ${SAMPLE_TEST}`);
	});

	it('names the switch the sample test reads, and the command its header gives', () => {
		const test = readRepoFile(SAMPLE_TEST);
		expect(test).toContain('process.env.UPDATE_SAMPLES');
		expect(test).toContain(command);
	});
});
