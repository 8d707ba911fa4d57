/**
 * docs/real-n8n.md's suite table is the one home of each real-n8n suite's time: the e2e
 * sequencer orders the suites from it when a run starts, so the table must list every suite,
 * and nothing else, with a time.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

// The sequencer is plain CommonJS (jest loads it by path).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sequencer = require('../support/e2e-sequencer.js') as {
	SECONDS: Record<string, number>;
	suiteSeconds: (markdown: string) => Record<string, number>;
};

const suites = readdirSync(join(__dirname, '..', 'e2e')).filter((name) =>
	name.endsWith('.e2e.test.ts'),
);

describe("the real-n8n suites' times", () => {
	it('are read from docs/real-n8n.md for every suite there is, and for no other', () => {
		expect(Object.keys(sequencer.SECONDS).sort()).toEqual([...suites].sort());
		for (const seconds of Object.values(sequencer.SECONDS)) expect(seconds).toBeGreaterThan(0);
	});

	it('are read from the table rows as the docs write them', () => {
		const table = [
			'| `a.e2e` | 2.x | proves a | 1,253 s | 9 |',
			'| `b.e2e` | none | proves b | 7 s | 2 |',
			'| not a suite | | | 5 s | 1 |',
		].join('\n');
		expect(sequencer.suiteSeconds(table)).toEqual({ 'a.e2e.test.ts': 1253, 'b.e2e.test.ts': 7 });
	});
});
