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
	maxWorkers: 2,
	reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
