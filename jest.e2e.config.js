/**
 * Real-n8n end-to-end suites: each file starts actual n8n processes (2.x on Node 24,
 * 1.x on the system Node) with the packed package installed as users install it.
 * Run `npm run build` first; the suites pack dist/ as it is.
 */
/** @type {import('jest').Config} */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	// ts-jest takes isolatedModules from tsconfig.json and so only transpiles; `npm run
	// typecheck` checks the types of test/ and harness/ before this tier starts.
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
	},
	// Three suites at once: most of the tier's time is spent waiting for n8n's minute ticks (the
	// Sync Trigger's polls), for restarts and for deliveries, not computing, and each suite
	// starts its own n8n, sandbox and databases on free ports of 127.0.0.1. Measured on 2 cores
	// (2026-11-29): 876 s with two, 717 s with three, and four overloaded them (the queue stacks
	// took twice as long and a suite failed). Longest first (e2e-sequencer.js).
	// TRIO_E2E_WORKERS=1 runs them one by one.
	maxWorkers: Number(process.env.TRIO_E2E_WORKERS || 3),
	testSequencer: '<rootDir>/test/support/e2e-sequencer.js',
	// Starting n8n, creating its owner and running a workflow takes 10-20 s, more
	// when the machine is busy; installs are done in globalSetup, not here.
	testTimeout: 180_000,
	globalSetup: '<rootDir>/test/support/real-n8n-setup.ts',
	verbose: true,
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
