/**
 * Prints one plain closing line (on stderr, after jest's summary there) ("jest: N passed, N failed, N skipped") after jest's own
 * summary, so that a CI reading only the last lines of the log can count the tests.
 */
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
		process.stderr.write(`jest: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped\n`);
	}
}

module.exports = SummaryReporter;
