/**
 * Prints each suite's duration, slowest first, then one plain closing line, "jest: N passed,
 * N failed, N skipped", as the very last line of the run (jest's own summary comes after every
 * reporter's onRunComplete), so that a CI reading the end of the log can count the tests and
 * anyone choosing what to speed up reads the numbers instead of guessing (docs/real-n8n.md keeps
 * the real-n8n tier's table).
 */
const { relative } = require('node:path');
const { writeSync } = require('node:fs');

class SummaryReporter {
	constructor(globalConfig) {
		this.rootDir = globalConfig.rootDir;
		this.suites = [];
		this.failures = [];
	}

	onTestResult(_test, result) {
		const { start, end } = result.perfStats;
		const tests = result.numPassingTests + result.numFailingTests + result.numPendingTests;
		this.suites.push({
			file: relative(this.rootDir, result.testFilePath),
			seconds: start && end ? (end - start) / 1000 : 0,
			tests,
		});
		for (const test of result.testResults) {
			if (test.status !== 'failed') continue;
			this.failures.push(
				`${test.fullName}\n${stripAnsi(test.failureMessages.join('\n')).slice(0, 1500)}`,
			);
		}
		if (result.testExecError) {
			this.failures.push(
				`${this.suites.at(-1).file}\n${stripAnsi(String(result.testExecError.message)).slice(0, 1500)}`,
			);
		}
	}

	onRunComplete(_contexts, results) {
		const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
		const bySlowest = [...this.suites].sort((a, b) => b.seconds - a.seconds);
		const total = this.suites.reduce((sum, suite) => sum + suite.seconds, 0);
		const wall = results.startTime ? (Date.now() - results.startTime) / 1000 : total;
		const table = [
			`suite times (${this.suites.length} suites, ${total.toFixed(0)} s summed, ${wall.toFixed(0)} s from first to last):`,
			...bySlowest.map(
				(suite) =>
					`  ${suite.seconds.toFixed(1).padStart(7)} s  ${String(suite.tests).padStart(3)} test${suite.tests === 1 ? ' ' : 's'}  ${suite.file}`,
			),
		].join('\n');
		// A CI log may keep only its head and tail: what failed is repeated here, at the end.
		const failed = this.failures.length
			? `what failed (${this.failures.length}), first lines of each:\n${this.failures.map((each) => `  ✕ ${each.replace(/\n/g, '\n    ')}`).join('\n')}\n`
			: '';
		const line = `jest: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped\n`;
		process.once('exit', () => writeSync(2, `${failed}${table}\n${line}`));
	}
}

/** Jest's messages carry terminal colours; a log file wants plain text. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
function stripAnsi(text) {
	return text.replace(COLOUR, '');
}

module.exports = SummaryReporter;
