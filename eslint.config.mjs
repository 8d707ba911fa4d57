// ESLint 9 flat config. n8n's two rule sets run side by side: eslint-plugin-n8n-nodes-base
// (the rules n8n's own nodes follow, for nodes, credentials and package.json) and
// @n8n/eslint-plugin-community-nodes (what n8n checks before verifying a community package).
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import communityNodes from '@n8n/eslint-plugin-community-nodes';
import * as jsoncParser from 'jsonc-eslint-parser';
import tseslint from 'typescript-eslint';

const tsFiles = ['**/*.ts'];

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
	...tseslint.configs.recommended.map((config) => ({ ...config, files: tsFiles })),
	{
		files: tsFiles,
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
		rules: {
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
		},
	},
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.community.rules,
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// The rule itself says it applies only to n8n's main repository, where documentationUrl is a
			// docs.n8n.io slug; a community credential links to its own README with a full URL.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: n8nNodesBase.configs.nodes.rules,
	},
	{
		...communityNodes.configs.recommended,
		files: ['package.json', 'credentials/**/*.ts', 'nodes/**/*.ts'],
		languageOptions: { parser: tsParser },
	},
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
	},
];
