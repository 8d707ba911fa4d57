// Copies what tsc does not: node and credential icons, the codex (.json) files that n8n reads
// beside each node, and the trigger's sample payloads (dist/sample-payloads), so that the
// installed package holds what the trigger panel tells users to pin. Paths keep their folders so
// dist/ mirrors the sources.
const { src, dest, task, parallel } = require('gulp');

function copyAssets() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

function copySamplePayloads() {
	return src('examples/sample-payloads/*.json', { base: 'examples' }).pipe(dest('dist'));
}

task('build:assets', parallel(copyAssets, copySamplePayloads));
