/**
 * The order of the real-n8n suites, which run two at a time (jest.e2e.config.js): the longest
 * first, so that the last suite to start is a short one and neither worker idles at the end
 * while the other finishes a long one. Jest's own order needs timings of an earlier run on the
 * same machine and path, which a fresh clone does not have; these are the seconds of
 * docs/real-n8n.md's suite table (a whole run, two at a time), and only their
 * order matters. A suite not listed goes first, so a new, unmeasured one never lands at the end.
 */
const Sequencer = require('@jest/test-sequencer').default;
const { basename } = require('node:path');

const SECONDS = {
	'sync-trigger.e2e.test.ts': 253,
	'update.e2e.test.ts': 193,
	'queue-mode.e2e.test.ts': 188,
	'queue-sync.e2e.test.ts': 184,
	'sync-held-poll.e2e.test.ts': 145,
	'env-install.e2e.test.ts': 128,
	'staging-copy.e2e.test.ts': 119,
	'never-twice-burst.e2e.test.ts': 105,
	'never-twice.e2e.test.ts': 93,
	'examples.e2e.test.ts': 73,
	'trigger.e2e.test.ts': 58,
	'docs.e2e.test.ts': 52,
	'editor.e2e.test.ts': 51,
	'demo.e2e.test.ts': 49,
	'ssrf.e2e.test.ts': 31,
	'secrets.e2e.test.ts': 30,
	'node.e2e.test.ts': 18,
	'smoke.e2e.test.ts': 15,
	'services.e2e.test.ts': 7,
};

class LongestFirst extends Sequencer {
	sort(tests) {
		const seconds = (test) => SECONDS[basename(test.path)] ?? Number.POSITIVE_INFINITY;
		return [...tests].sort(
			(a, b) => seconds(b) - seconds(a) || basename(a.path).localeCompare(basename(b.path)),
		);
	}
}

module.exports = LongestFirst;
