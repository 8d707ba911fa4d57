// ESLint 9 flat config.
//
// The package (package.json, nodes/, credentials/) is judged by n8n's own configuration, the one
// `n8n-node lint` applies (@n8n/node-cli/eslint), with every rule and option as n8n sets them. n8n
// writes that configuration for a repository holding nothing but the package, so its TypeScript
// blocks match every `**/*.ts`; here they are narrowed to the package's sources, the files n8n's
// scanner lints too. The rest of the repository (tests, sandbox, scripts, benchmarks) is not
// published and gets the project's own rules below. test/package/eslint-config.test.ts checks
// that every package file gets all of n8n's rules, unchanged.
//
// Project rules for the package go in a block after n8n's, adding rules, never turning n8n's off.
import { config as n8nConfig } from '@n8n/node-cli/eslint';
import tseslint from 'typescript-eslint';

const packageTypeScript = ['nodes/**/*.ts', 'credentials/**/*.ts'];

const n8nForThePackage = n8nConfig.map((block) =>
	block.files?.includes('**/*.ts') ? { ...block, files: packageTypeScript } : block,
);

export default [
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'coverage/**',
			'**/*.js',
			'**/*.mjs',
			'.cache/**',
			'.tmp/**',
			'.demo/**',
		],
	},
	...n8nForThePackage,
	// Everything else: not published, so n8n's package rules do not apply.
	...tseslint.config({
		files: ['**/*.ts'],
		ignores: packageTypeScript,
		extends: [tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
		},
	}),
];
