// Copies what tsc does not: node and credential icons, and the codex (.json) files that
// n8n reads beside each node. Paths keep their folders so dist/ mirrors the sources.
const { src, dest, task } = require('gulp');

function copyAssets() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

task('build:assets', copyAssets);
