// Runs n8n's community-package scanner (@n8n/scan-community-package) over a folder the way n8n's
// reviewers run it, and prints the result as JSON. A separate process because the scanner is
// an ES module that jest's CommonJS runtime cannot load.
//
//   node test/package/n8n-scan.mjs source  <repository root>   package.json, nodes/, credentials/
//   node test/package/n8n-scan.mjs tarball <unpacked tarball>  compiled .js and package.json
//
// The file patterns are the ones analyzePackageByName passes for the two legs. Besides n8n's
// verdict (analyzePackage, which fails on errors only), every message from the same ESLint run
// (same config, inline directives ignored) is listed, so warnings count as findings too.
import { createRequire } from 'node:module';

import {
	analyzePackage,
	buildScanConfig,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

// ESLint, the glob library and tmp exactly as the scanner resolves them.
const scannerRequire = createRequire(
	import.meta.resolve('@n8n/scan-community-package/scanner/scanner.mjs'),
);
const { ESLint } = scannerRequire('eslint');
const glob = scannerRequire('fast-glob');
// The scanner makes a temp folder when loaded (for downloads this run never makes): remove it on exit.
scannerRequire('tmp').setGracefulCleanup();

const [leg, dir] = process.argv.slice(2);
const patterns = { source: SOURCE_FILE_PATTERNS, tarball: ['**/*.js', 'package.json'] }[leg];
if (!patterns || !dir) {
	console.error('usage: n8n-scan.mjs source|tarball <folder>');
	process.exit(2);
}

const verdict = await analyzePackage(dir, patterns);

const eslint = new ESLint({
	cwd: dir,
	allowInlineConfig: false,
	overrideConfigFile: true,
	overrideConfig: await buildScanConfig(),
});
const files = glob.sync(patterns, {
	cwd: dir,
	absolute: true,
	ignore: ['node_modules/**', '**/package-lock.json'],
});
const results = files.length > 0 ? await eslint.lintFiles(files) : [];
const findings = results.flatMap((result) =>
	result.messages.map((message) => ({
		file: result.filePath.slice(dir.length + 1),
		line: message.line,
		rule: message.ruleId,
		severity: message.severity === 2 ? 'error' : 'warning',
		message: message.message,
	})),
);

process.stdout.write(
	JSON.stringify({
		passed: verdict.passed,
		message: verdict.message ?? null,
		files: files.map((file) => file.slice(dir.length + 1)).sort(),
		findings,
	}),
);
