/**
 * npm run identity -- --repository https://github.com/<owner>/<name> [--author "Name <e-mail>"]
 *
 * The package's public identity has one home: package.json's `repository.url` (and `author`),
 * where npm's provenance check and n8n's reviewers read it. Everything else that names the
 * repository is derived from it: `homepage`, `bugs.url`, the credential's documentationUrl, the
 * trigger panel's link to the sample payloads and the codex files' documentation links (n8n
 * reads those as literal strings, so they cannot import it). This command sets the address and rewrites every derived copy;
 * test/package/identity.test.ts fails if any of them disagrees with package.json.
 * Without flags it prints the identity in force.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { commandFlags, usage, type FlagSpec } from '../harness/flags';

export const REPO_ROOT = path.resolve(__dirname, '..');

/** What the repository ships with until a maintainer runs this command (README, "Releasing"). */
export const PLACEHOLDER = {
	repository: 'https://github.com/n8n-nodes-trio-vms/n8n-nodes-trio-vms',
	authorEmail: 'maintainer@example.invalid',
};

/** Files whose links to the repository derive from package.json's repository.url. */
export function derivedFiles(root = REPO_ROOT): string[] {
	const codex: string[] = [];
	const walk = (dir: string): void => {
		for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
			const relative = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(relative);
			else if (entry.name.endsWith('.node.json')) codex.push(relative);
		}
	};
	walk('nodes');
	// The trigger panel links the trigger's docs, where the sample payloads are.
	return [
		'credentials/TrioVmsApi.credentials.ts',
		...codex.sort(),
		'nodes/TrioVmsTrigger/TrioVmsTrigger.node.ts',
		'CHANGELOG.md',
	];
}

interface Manifest {
	repository?: string | { type?: string; url?: string };
	homepage?: string;
	bugs?: { url?: string };
	author?: string | { name?: string; email?: string };
	[key: string]: unknown;
}

/** `git+https://github.com/o/n.git` (or `https://github.com/o/n`) -> `https://github.com/o/n` */
export function webAddress(repositoryUrl: string): string {
	const match = /github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/i.exec(repositoryUrl);
	if (!match) throw new Error(`"${repositoryUrl}" is not a GitHub repository address`);
	return `https://github.com/${match[1]}/${match[2]}`;
}

export function readManifest(root = REPO_ROOT): Manifest {
	return JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
}

export function repositoryOf(manifest: Manifest): string {
	const url =
		typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
	return webAddress(url ?? '');
}

function parseAuthor(value: string): { name: string; email: string } {
	const match = /^([^<]+?)\s*<([^>]+@[^>]+)>$/.exec(value.trim());
	if (!match) throw new Error(`--author needs "Name <e-mail>", got ${JSON.stringify(value)}`);
	return { name: match[1], email: match[2] };
}

export function setIdentity(
	options: { repository?: string; author?: string },
	root = REPO_ROOT,
): { from: string; to: string } {
	const manifest = readManifest(root);
	const from = repositoryOf(manifest);
	const to = options.repository ? webAddress(options.repository) : from;

	manifest.repository = { type: 'git', url: `git+${to}.git` };
	manifest.homepage = `${to}#readme`;
	manifest.bugs = { url: `${to}/issues` };
	if (options.author) manifest.author = parseAuthor(options.author);
	fs.writeFileSync(path.join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

	for (const file of derivedFiles(root)) {
		const full = path.join(root, file);
		const text = fs.readFileSync(full, 'utf8');
		const updated = text.split(from).join(to);
		if (updated !== text) fs.writeFileSync(full, updated);
	}
	return { from, to };
}

const FLAGS = {
	repository: {
		value: 'URL',
		help: 'https://github.com/<owner>/<name>, or its git address',
		read: (text: string, flag: string) => {
			try {
				return webAddress(text);
			} catch (error) {
				throw new Error(`${flag}: ${(error as Error).message}`);
			}
		},
	},
	author: {
		value: '"Name <e-mail>"',
		help: "package.json's author",
		read: (text: string) => {
			parseAuthor(text);
			return text;
		},
	},
} satisfies Record<string, FlagSpec>;

const USAGE = usage(
	'Usage: npm run identity -- --repository URL [--author "Name <e-mail>"]\n\nWithout flags it prints the identity in force.',
	FLAGS,
);

function main(options: { repository?: string; author?: string }): void {
	if (options.repository || options.author) {
		const { from, to } = setIdentity(options);
		console.log(from === to ? `Repository stays ${to}` : `Repository: ${from} -> ${to}`);
	}
	const manifest = readManifest();
	const repository = repositoryOf(manifest);
	const author = manifest.author;
	const email = typeof author === 'string' ? author : author?.email;
	console.log(
		`Repository: ${repository}${repository === PLACEHOLDER.repository ? ' (placeholder)' : ''}`,
	);
	console.log(
		`Author: ${typeof author === 'string' ? author : `${author?.name} <${email}>`}${email === PLACEHOLDER.authorEmail ? ' (placeholder)' : ''}`,
	);
}

if (require.main === module) {
	const options = commandFlags(process.argv.slice(2), FLAGS, USAGE);
	try {
		main(options);
	} catch (error) {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	}
}
