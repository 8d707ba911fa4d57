import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/** Phases one after the other, each of lanes side by side, each of npm scripts in order. */
export type TestPlan = string[][][];

/**
 * What `npm test` (whole) or `npm run test:quick` (quick) runs, as scripts/run-tests.mjs itself
 * prints it.
 */
export function testPlan(name: 'whole' | 'quick'): TestPlan {
	const printed = execFileSync(process.execPath, ['scripts/run-tests.mjs', name, '--plan'], {
		cwd: path.join(__dirname, '..', '..'),
		encoding: 'utf8',
	});
	return JSON.parse(printed) as TestPlan;
}
