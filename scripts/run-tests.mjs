// The two doors to the tests, `npm test` (whole) and `npm run test:quick` (quick):
//   node scripts/run-tests.mjs whole|quick          runs the plan
//   node scripts/run-tests.mjs whole|quick --plan   prints the plan as JSON and runs nothing
// A plan is phases one after the other; a phase is lanes side by side; a lane is npm scripts of
// package.json one after the other. A failed step ends its lane, and no later phase starts.
// Why lanes: the build, the type check and lint each keep one core busy, so one after the other
// they left the second core idle for most of a minute. The build comes first, alone in its lane,
// because the fast tier's package tests and every real-n8n suite read dist/. The real-n8n tier
// keeps both cores busy for its whole run (measured 2026-11-29: with the fast tier beside it,
// even at nice 19, its suites took up to 1.7 times as long), so in the whole run it starts once
// everything else has passed; the quick loop's one smoke suite fits beside the fast tier.
// The first lane of a phase prints as it goes; the others' output is held and printed whole
// when each of their steps ends, so no two steps' lines interleave. A summary ends the run, with
// the last lines of any held step that failed, for a CI log that keeps only its tail.
import { spawn } from 'node:child_process';

const PLANS = {
	whole: [[['build'], ['typecheck']], [['test:unit'], ['lint']], [['test:e2e']]],
	quick: [
		[['build'], ['typecheck']],
		[['test:unit'], ['lint', 'test:smoke']],
	],
};
const COMMANDS = { whole: 'npm test', quick: 'npm run test:quick' };
const TAIL_LINES = 40;

const [name, flag] = process.argv.slice(2);
const plan = PLANS[name];
if (!plan || (flag !== undefined && flag !== '--plan')) {
	process.stderr.write(
		`usage: node scripts/run-tests.mjs ${Object.keys(PLANS).join('|')} [--plan]\n`,
	);
	process.exit(2);
}
if (flag === '--plan') {
	process.stdout.write(`${JSON.stringify(plan)}\n`);
	process.exit(0);
}

// The npm that started this run (`npm test` sets npm_execpath), run by this Node: no PATH lookup,
// and no .cmd wrapper on Windows. Started by hand, the npm on PATH.
const npm = process.env.npm_execpath
	? { command: process.execPath, args: [process.env.npm_execpath], shell: false }
	: { command: 'npm', args: [], shell: process.platform === 'win32' };

const results = new Map();
const children = new Set();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		interrupted = true;
		for (const child of children) child.kill(signal);
	});
}

function runStep(script, live) {
	const started = Date.now();
	return new Promise((resolve) => {
		const child = spawn(npm.command, [...npm.args, 'run', script], {
			stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
			shell: npm.shell,
		});
		children.add(child);
		const held = [];
		child.stdout?.on('data', (chunk) => held.push(chunk));
		child.stderr?.on('data', (chunk) => held.push(chunk));
		let finished = false;
		const finish = (code, error) => {
			if (finished) return;
			finished = true;
			children.delete(child);
			const seconds = Math.round((Date.now() - started) / 1000);
			const passed = code === 0;
			const output = `${Buffer.concat(held).toString()}${error ? `${error.message}\n` : ''}`;
			if (!live) {
				process.stdout.write(
					`\n──── npm run ${script} (beside the steps above): ${passed ? 'passed' : 'FAILED'} in ${seconds} s ────\n${output}──── end of npm run ${script} ────\n\n`,
				);
			}
			const tail = live ? '' : output.trimEnd().split('\n').slice(-TAIL_LINES).join('\n');
			results.set(script, { passed, seconds, tail });
			resolve(passed);
		};
		child.on('error', (error) => finish(1, error));
		child.on('close', (code) => finish(code));
	});
}

async function runLane(steps, index) {
	for (const script of steps) {
		if (!(await runStep(script, index === 0))) return false;
	}
	return true;
}

const started = Date.now();
for (const phase of plan) {
	const lanes = await Promise.all(phase.map(runLane));
	if (!lanes.every(Boolean) || interrupted) break;
}

const planned = plan.flat(2);
const allPassed = !interrupted && planned.every((script) => results.get(script)?.passed);
const failedHeld = planned.filter(
	(script) => results.get(script)?.tail && !results.get(script).passed,
);
process.stdout.write(
	[
		'',
		...failedHeld.map(
			(script) => `──── last lines of npm run ${script} ────\n${results.get(script).tail}\n`,
		),
		`${COMMANDS[name]}: ${allPassed ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s`,
		...planned.map((script) => {
			const result = results.get(script);
			const state = !result ? 'not run' : result.passed ? 'passed' : 'FAILED';
			return `  ${script.padEnd(10)} ${state.padEnd(8)}${result ? ` ${result.seconds} s` : ''}`;
		}),
		'',
	].join('\n'),
);
process.exitCode = allPassed ? 0 : 1;
