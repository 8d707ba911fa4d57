/**
 * Prints one plain closing line, "jest: N passed, N failed, N skipped", as the very last line of
 * the run (jest's own summary comes after every reporter's onRunComplete), so that a CI reading
 * the end of the log can count the tests.
 */
const { writeSync } = require('node:fs');

class SummaryReporter {
	onRunComplete(_contexts, results) {
		const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
		const line = `jest: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped\n`;
		process.once('exit', () => writeSync(2, line));
	}
}

module.exports = SummaryReporter;
