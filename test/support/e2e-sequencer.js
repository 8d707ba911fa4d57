/**
 * The order of the real-n8n suites, which run two at a time (jest.e2e.config.js): the longest
 * first, so that the last suite to start is a short one and neither worker idles at the end
 * while the other finishes a long one. Jest's own order needs timings of an earlier run on the
 * same machine and path, which a fresh clone does not have; these are whole-run figures from
 * docs/real-n8n.md, in seconds, and only their order matters. A suite not listed goes first,
 * so a new, unmeasured one never lands at the end.
 */
const Sequencer = require('@jest/test-sequencer').default;
const { basename } = require('node:path');

const SECONDS = {
	'queue-mode.e2e.test.ts': 200,
	'sync-trigger.e2e.test.ts': 210,
	'sync-held-poll.e2e.test.ts': 185,
	'queue-sync.e2e.test.ts': 180,
	'update.e2e.test.ts': 155,
	'env-install.e2e.test.ts': 115,
	'staging-copy.e2e.test.ts': 105,
	'examples.e2e.test.ts': 100,
	'never-twice-burst.e2e.test.ts': 80,
	'never-twice.e2e.test.ts': 65,
	'docs.e2e.test.ts': 60,
	'trigger.e2e.test.ts': 50,
	'editor.e2e.test.ts': 42,
	'demo.e2e.test.ts': 32,
	'ssrf.e2e.test.ts': 25,
	'secrets.e2e.test.ts': 25,
	'node.e2e.test.ts': 15,
	'smoke.e2e.test.ts': 12,
	'services.e2e.test.ts': 6,
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
