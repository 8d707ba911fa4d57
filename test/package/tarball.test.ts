/**
 * The tarball holds what users need and nothing else: the compiled nodes and credential, their
 * icons and codex files, the trigger's sample payloads, package.json, README, LICENSE and CHANGELOG (what changed between
 * versions, for whoever upgrades). No tests, sandbox, scripts, benchmarks, examples, TypeScript
 * sources, declarations or source maps: n8n loads the .js files and nothing imports this package's
 * types, and a map would point at sources the tarball does not carry. Needs `npm run build` first,
 * as `npm test` does. Prints the file count and size.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { runOrThrow } from '../../harness/exec';
import { npmEnv } from '../../harness/install';
import { REPO_ROOT } from '../../harness/pack';

// Longer than the children's own bounds, so jest never walks away from a child that is still
// running (its worker would then fail to exit).
jest.setTimeout(180000);

interface PackReport {
	size: number;
	unpackedSize: number;
	entryCount: number;
	files: Array<{ path: string; size: number }>;
}
interface Manifest {
	n8n: { nodes: string[]; credentials: string[] };
}

const TOP_LEVEL = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];
const WANTED = [
	/^dist\/(nodes|credentials)\/.+\.js$/,
	/^dist\/(nodes|credentials)\/.+\.(svg|png)$/,
	/^dist\/nodes\/[^/]+\/[^/]+\.node\.json$/,
	/^dist\/sample-payloads\/[a-z-]+\.json$/,
];

/** The package's TypeScript sources under a folder, tests aside, relative to the repository. */
function sources(folder: string): string[] {
	return fs
		.readdirSync(path.join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
		.map((file) => path.posix.join(folder, file.split(path.sep).join('/')));
}

let report: PackReport;
let files: string[];

beforeAll(async () => {
	const manifest = JSON.parse(
		fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'),
	) as Manifest;
	const missing = [...manifest.n8n.nodes, ...manifest.n8n.credentials].filter(
		(file) => !fs.existsSync(path.join(REPO_ROOT, file)),
	);
	if (missing.length > 0) {
		throw new Error(`${missing.join(', ')} missing: run \`npm run build\` first.`);
	}
	const { stdout } = await runOrThrow('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: REPO_ROOT,
		env: npmEnv(),
		timeoutMs: 120_000,
	});
	[report] = JSON.parse(stdout) as PackReport[];
	files = report.files.map((file) => file.path).sort();
	console.log(
		`npm pack: ${report.entryCount} files, ${(report.size / 1024).toFixed(1)} KiB packed, ` +
			`${(report.unpackedSize / 1024).toFixed(1)} KiB unpacked`,
	);
});

describe('the tarball npm pack produces', () => {
	it('holds only the compiled package, its assets and the four top-level documents', () => {
		const unwanted = files.filter(
			(file) => !TOP_LEVEL.includes(file) && !WANTED.some((pattern) => pattern.test(file)),
		);
		expect(unwanted).toEqual([]);
		expect(files).toEqual(expect.arrayContaining(TOP_LEVEL));
	});

	it('holds a .js for every source file of the nodes and the credential, and no other', () => {
		const expected = [...sources('nodes'), ...sources('credentials')]
			.map((file) => `dist/${file.replace(/\.ts$/, '.js')}`)
			.sort();
		expect(files.filter((file) => file.endsWith('.js'))).toEqual(expected);
	});

	it("holds every node's codex file and every icon a description names", () => {
		const manifest = JSON.parse(
			fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'),
		) as Manifest;
		for (const node of manifest.n8n.nodes) {
			expect(files).toContain(node);
			expect(files).toContain(node.replace(/\.js$/, '.json'));
		}
		for (const credential of manifest.n8n.credentials) expect(files).toContain(credential);

		const icons = files
			.filter((file) => file.endsWith('.js'))
			.flatMap((file) => {
				const code = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
				return [...code.matchAll(/['"]file:([^'"]+)['"]/g)].map((match) =>
					path.posix.join(path.posix.dirname(file), match[1]),
				);
			});
		expect(icons.length).toBeGreaterThan(0);
		expect(icons.filter((icon) => !files.includes(icon))).toEqual([]);
	});

	it('holds every sample payload the trigger panel tells users to pin', () => {
		const samples = fs
			.readdirSync(path.join(REPO_ROOT, 'examples/sample-payloads'))
			.filter((file) => file.endsWith('.json'));
		expect(samples.length).toBe(15);
		for (const sample of samples) expect(files).toContain(`dist/sample-payloads/${sample}`);
	});

	it('has no source maps, declarations or TypeScript sources', () => {
		expect(files.filter((file) => /\.(map|d\.ts|ts)$/.test(file))).toEqual([]);
	});
});
