import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { runOrThrow, spawnReaper } from './exec';
import { npmEnv } from './install';

export const REPO_ROOT = path.resolve(__dirname, '..');

let packed: Promise<string> | undefined;

function tempPackDir(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-pack-'));
	// Tarballs must outlive every instance this process starts, so they go when the
	// process does (an exit hook would not fire under jest).
	spawnReaper(process.pid, undefined, [dir]);
	return dir;
}

/**
 * `npm pack`s the repository into a temp folder and returns the tarball path, so the
 * tests load exactly the files a user would get from the registry (the `files` list,
 * the `n8n` manifest), not the working tree. Expects `npm run build` to have run:
 * building here would hide a build that the real release process does not do.
 * Memoised: one pack per process however many instances start.
 */
export function packPackage(): Promise<string> {
	packed ??= doPack(REPO_ROOT).catch((error: unknown) => {
		packed = undefined;
		throw error;
	});
	return packed;
}

/** Packs any package folder; exported so tests can pack generated fixture packages. */
export async function packFolder(folder: string): Promise<string> {
	const destination = tempPackDir();
	// --ignore-scripts: a prepack/prepare script must not rebuild behind the caller's back.
	const { stdout } = await runOrThrow(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', destination],
		{
			cwd: folder,
			env: npmEnv(),
			timeoutMs: 120_000,
		},
	);
	const report = JSON.parse(stdout) as Array<{ filename: string }>;
	const tarball = path.join(destination, report[0].filename);
	if (!fs.existsSync(tarball))
		throw new Error(`npm pack reported ${tarball} but it does not exist`);
	return tarball;
}

async function doPack(root: string): Promise<string> {
	const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
		n8n?: { nodes?: string[]; credentials?: string[] };
	};
	const declared = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];
	const missing = declared.filter((file) => !fs.existsSync(path.join(root, file)));
	if (missing.length > 0) {
		throw new Error(
			`Cannot pack: ${missing.join(', ')} missing. Run \`npm run build\` before the e2e tests.`,
		);
	}
	return packFolder(root);
}

/**
 * The packed package again under another version, as the next release would be published:
 * the same files, package.json's version changed. For update tests, which need two releases
 * of one package in the registry stand-in.
 */
export async function packPackageAs(version: string): Promise<string> {
	const tarball = await packPackage();
	const folder = tempPackDir();
	await runOrThrow('tar', ['-xzf', tarball, '-C', folder], { timeoutMs: 60_000 });
	const root = path.join(folder, 'package');
	const manifestPath = path.join(root, 'package.json');
	const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { version: string };
	manifest.version = version;
	fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
	return packFolder(root);
}
