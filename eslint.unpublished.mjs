/**
 * The lint configuration of the code that is not published (test/, harness/, sandbox/, bench/,
 * scripts/): n8n's own configuration, as the package sources have it, with only n8n's rules
 * about what installed code may do switched off, because this code runs in Node, not inside
 * n8n. Each of those folders has an eslint.config.mjs that re-exports this one; ESLint finds it
 * for their files because `npm run lint` looks configurations up from each file
 * (ESLINT_FLAGS=unstable_config_lookup_from_file). The root eslint.config.mjs stays n8n's
 * default, unchanged, for the package sources (nodes/, credentials/).
 */
import { config } from '@n8n/node-cli/eslint';

/**
 * n8n's blocks for `./nodes/**` and `./credentials/**` are left out: their paths are relative to
 * the configuration's folder, so here they would take test/nodes/ for the package's nodes/.
 */
const forPackageFolders = (block) =>
	(block.files ?? []).some((pattern) => /^\.\/(nodes|credentials)\//.test(String(pattern)));

export default [
	...config.filter((block) => !forPackageFolders(block)),
	{
		files: ['**/*.ts'],
		rules: {
			'no-console': 'off',
			'@n8n/community-nodes/no-restricted-globals': 'off',
			'@n8n/community-nodes/no-restricted-imports': 'off',
			'@n8n/community-nodes/no-dangerous-functions': 'off',
			'@n8n/community-nodes/no-hardcoded-secrets': 'off',
			'@n8n/community-nodes/require-node-api-error': 'off',
			'@n8n/community-nodes/icon-validation': 'off',
			'@n8n/community-nodes/node-usable-as-tool': 'off',
			'@n8n/community-nodes/require-node-description-fields': 'off',
			'@n8n/community-nodes/node-connection-type-literal': 'off',
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
			],
		},
	},
];
