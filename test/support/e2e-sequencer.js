/**
 * The order of the real-n8n suites, which run three at a time (jest.e2e.config.js): the longest
 * first, so that the last suite to start is a short one and no worker idles at the end while
 * another finishes a long one. Jest's own order needs timings of an earlier run on the
 * same machine and path, which a fresh clone does not have. The times come from the one place
 * they are kept, the suite table of docs/real-n8n.md (a whole run, three at a time), read here
 * when the run starts; only their order matters. A suite not in the table goes first, so a new,
 * unmeasured one never lands at the end.
 */
const Sequencer = require('@jest/test-sequencer').default;
const { readFileSync } = require('node:fs');
const { basename, join } = require('node:path');

const TABLE = join(__dirname, '..', '..', 'docs', 'real-n8n.md');

/** `| \`sync-trigger.e2e\` | … | 253 s | 9 |` -> { 'sync-trigger.e2e.test.ts': 253 } */
function suiteSeconds(markdown) {
	const seconds = {};
	for (const line of markdown.split('\n')) {
		const match = /^\| `([\w-]+\.e2e)` \|.*\| ([\d,]+) s \| \d+ \|$/.exec(line);
		if (match) seconds[`${match[1]}.test.ts`] = Number(match[2].replace(/,/g, ''));
	}
	return seconds;
}

const SECONDS = suiteSeconds(readFileSync(TABLE, 'utf8'));

class LongestFirst extends Sequencer {
	sort(tests) {
		const seconds = (test) => SECONDS[basename(test.path)] ?? Number.POSITIVE_INFINITY;
		return [...tests].sort(
			(a, b) => seconds(b) - seconds(a) || basename(a.path).localeCompare(basename(b.path)),
		);
	}
}

module.exports = LongestFirst;
module.exports.suiteSeconds = suiteSeconds;
module.exports.SECONDS = SECONDS;
