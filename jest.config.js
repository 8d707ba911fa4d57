/**
 * Fast suites: pure helpers, the sandbox over HTTP and the nodes inside n8n's execution engine
 * (in-process). The real-n8n suites live in jest.e2e.config.js because they start n8n itself.
 */
/** @type {import('jest').Config} */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '\\.e2e\\.test\\.ts$'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
	},
	// A bound for a hung test, not a speed target: CI shares 2 cores with n8n installs and builds.
	testTimeout: 120_000,
	// Six suites at once on 2 cores: many engine suites wait on Trio's Retry-After seconds and on
	// their own sandboxes more than they compute (2026-11-29, quiet machine: 144 s with 2 workers,
	// 95 s with 4, 68 s with 6, for about 130 s of CPU; --maxWorkers on the command line overrides
	// it).
	maxWorkers: 6,
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
