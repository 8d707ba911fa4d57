/**
 * Every link a user can follow, from the README and the docs to the Docs links n8n's editor
 * shows, leads somewhere real:
 * - a relative link resolves to a file or folder the repository publishes (tracked, not
 *   ignored), and its anchor to a heading of that file by GitHub's rules;
 * - a link to the repository is built from package.json's `repository` and names a file,
 *   folder or heading that exists, so `npm run identity` moves every one of them at once;
 * - what n8n shows (codex files, the credential's documentationUrl, the node panels) links only
 *   to the repository's address, never to a path, since the npm package holds only dist/.
 * Sticky notes in the example workflows are read as the Markdown n8n renders.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { TrioVmsApi } from '../../credentials/TrioVmsApi.credentials';
import { TrioVms } from '../../nodes/TrioVms/TrioVms.node';
import { TrioVmsSyncTrigger } from '../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node';
import { TrioVmsTrigger } from '../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';
import { derivedFiles, readManifest, repositoryOf } from '../../scripts/identity';
import { REPO_ROOT } from '../../harness/pack';
import { filesUnder, markdownAnchors, markdownLinks, readRepoFile, type Link } from './markdown';

const repository = repositoryOf(readManifest());
/** The branch GitHub shows by default: the one `blob/` and `tree/` links name. */
const BRANCH = 'main';

/** What `git push` would publish: tracked files plus new ones that are not ignored. */
const published = new Set(
	execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
	})
		.split('\n')
		.filter(Boolean),
);

function isPublishedFile(file: string): boolean {
	return published.has(file) && fs.existsSync(path.join(REPO_ROOT, file));
}

function isPublishedFolder(folder: string): boolean {
	const prefix = folder.replace(/\/?$/, '/');
	return [...published].some((file) => file.startsWith(prefix));
}

const MARKDOWN_FILES = [
	'README.md',
	'CHANGELOG.md',
	...filesUnder('docs', '.md'),
	...filesUnder('examples', '.md'),
];
const EXAMPLE_WORKFLOWS = filesUnder('examples', '.json').filter((file) =>
	/^examples\/\d\d-[^/]+\.json$/.test(file),
);
const CODEX_FILES = filesUnder('nodes', '.node.json');

interface StickyNote {
	type: string;
	name: string;
	parameters: { content?: string };
}

/** Every string inside a value (node descriptions nest them in arrays and objects). */
function strings(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(strings);
	if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
	return [];
}

/** URLs inside a text that is not Markdown (HTML attributes and bare addresses). */
function urlsIn(text: string): string[] {
	const hrefs = [...text.matchAll(/\bhref="([^"]+)"/g)].map((match) => match[1]);
	const bare = [...text.replace(/\bhref="[^"]+"/g, '').matchAll(/https?:\/\/[^\s"'<>)]+/g)].map(
		(match) => match[0],
	);
	return [...hrefs, ...bare];
}

// ------------------------------------------------------------------ collecting the links

/** Links in documents read on GitHub (or npm, which points relative links at GitHub). */
const documentLinks: Link[] = MARKDOWN_FILES.flatMap((file) =>
	markdownLinks(readRepoFile(file)).map((target) => ({ from: file, target })),
);

/** Links n8n shows: sticky notes, codex files, the credential, the node panels. */
const editorLinks: Link[] = [
	...EXAMPLE_WORKFLOWS.flatMap((file) =>
		(JSON.parse(readRepoFile(file)) as { nodes: StickyNote[] }).nodes
			.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
			.flatMap((node) =>
				markdownLinks(node.parameters.content ?? '').map((target) => ({
					from: `${file} (sticky note "${node.name}")`,
					target,
				})),
			),
	),
	...CODEX_FILES.flatMap((file) =>
		strings((JSON.parse(readRepoFile(file)) as { resources: unknown }).resources)
			.filter((value) => /^https?:/.test(value))
			.map((target) => ({ from: file, target })),
	),
	{
		from: 'credentials/TrioVmsApi.credentials.ts (documentationUrl)',
		target: new TrioVmsApi().documentationUrl,
	},
	...[new TrioVms(), new TrioVmsSyncTrigger(), new TrioVmsTrigger()].flatMap((node) =>
		strings(node.description).flatMap((text) =>
			urlsIn(text).map((target) => ({ from: `${node.description.name} description`, target })),
		),
	),
];

// ------------------------------------------------------------------ checking one link

const anchorsOf = new Map<string, Set<string>>();
function anchorsIn(file: string): Set<string> {
	if (!anchorsOf.has(file)) anchorsOf.set(file, markdownAnchors(readRepoFile(file)));
	return anchorsOf.get(file)!;
}

let anchorsChecked = 0;

/** Why a link to `file#anchor` (repository-relative) is dead, or undefined when it is not. */
function deadTarget(
	file: string,
	anchor: string | undefined,
	kind: 'file' | 'any',
): string | undefined {
	const normalised = path.posix.normalize(file).replace(/\/$/, '');
	if (normalised.startsWith('..')) return 'leaves the repository';
	if (!isPublishedFile(normalised)) {
		if (kind === 'any' && isPublishedFolder(normalised)) {
			return anchor ? 'has an anchor on a folder' : undefined;
		}
		return `${normalised} is not a published file of the repository`;
	}
	if (anchor === undefined) return undefined;
	if (!normalised.endsWith('.md')) return `has an anchor on ${normalised}, which is not Markdown`;
	anchorsChecked++;
	return anchorsIn(normalised).has(decodeURIComponent(anchor))
		? undefined
		: `${normalised} has no heading "#${anchor}"`;
}

/** Why a link to the repository's GitHub address is dead, or undefined. */
function deadRepositoryLink(url: string): string | undefined {
	const rest = url.slice(repository.length);
	const [pathPart, anchor] = rest.split('#') as [string, string | undefined];
	if (pathPart === '' || pathPart === '/') return deadTarget('README.md', anchor, 'file');
	const blob = new RegExp(`^/(blob|tree)/${BRANCH}/(.+)$`).exec(pathPart);
	if (blob) {
		if (blob[1] === 'tree' && !isPublishedFolder(blob[2]))
			return `${blob[2]} is not a published folder`;
		return blob[1] === 'tree' ? undefined : deadTarget(blob[2], anchor, 'file');
	}
	if (/^\/(issues|releases|compare\/|releases\/tag\/v[\w.-]+)/.test(pathPart)) return undefined;
	return `${pathPart} is not a file, folder or page of the repository`;
}

/** Why `link` is dead, or undefined; `relativeAllowed` is false where n8n shows the link. */
function deadLink(link: Link, relativeAllowed: boolean): string | undefined {
	const { target } = link;
	if (/^mailto:/.test(target)) return undefined;
	if (/^https?:\/\//.test(target)) {
		if (
			target === repository ||
			target.startsWith(`${repository}/`) ||
			target.startsWith(`${repository}#`)
		)
			return deadRepositoryLink(target);
		if (/github\.com\/[\w.-]+\/n8n-nodes-trio-vms\b/.test(target))
			return `names the repository as something other than package.json's ${repository}`;
		return undefined; // another site: not reachable from a test without a network
	}
	if (!relativeAllowed)
		return 'is relative, but n8n shows it outside the repository: use the repository address';
	const sourceFile = link.from.replace(/ \(.*$/, '');
	const [pathPart, anchor] = target.split('#') as [string, string | undefined];
	const file =
		pathPart === '' ? sourceFile : path.posix.join(path.posix.dirname(sourceFile), pathPart);
	return deadTarget(decodeURIComponent(file), anchor, 'any');
}

// ------------------------------------------------------------------ the suite

describe('links in the docs, the examples and the editor', () => {
	it('finds links where users read them', () => {
		expect(MARKDOWN_FILES).toEqual(expect.arrayContaining(['README.md', 'examples/README.md']));
		expect(EXAMPLE_WORKFLOWS.length).toBeGreaterThanOrEqual(5);
		expect(CODEX_FILES.length).toBe(3);
		expect(documentLinks.length).toBeGreaterThan(50);
		expect(editorLinks.length).toBeGreaterThan(5);
	});

	// The docs may link relatively; what n8n shows must be the repository's address.
	it.each([
		[
			'in README, CHANGELOG, docs/ and examples/*.md leads to a file and heading that exist',
			documentLinks,
			true,
		],
		[
			"n8n shows (sticky notes, codex, credential, node panels) is the repository's address and exists",
			editorLinks,
			false,
		],
	] as const)('every link %s', (_where, links, relativeAllowed) => {
		const dead = links
			.map((link) => ({ link, why: deadLink(link, relativeAllowed) }))
			.filter(({ why }) => why !== undefined)
			.map(({ link, why }) => `${link.from}: ${link.target} ${why}`);
		expect(dead).toEqual([]);
	});

	it('the sample payloads the README tells users to paste are in the folder it links', () => {
		const readme = readRepoFile('README.md');
		const testing = readme.slice(readme.indexOf('### Testing the Trio VMS Trigger'));
		const named = [
			...testing.slice(0, testing.indexOf('\n### ', 5)).matchAll(/`([\w-]+\.json)`/g),
		].map((match) => `examples/sample-payloads/${match[1]}`);
		expect(named.length).toBeGreaterThan(0);
		for (const file of named) expect(isPublishedFile(file)).toBe(true);
	});

	it('every file holding a repository link is one `npm run identity` rewrites, or links relatively', () => {
		const derived = new Set(derivedFiles());
		const sources = [
			'credentials/TrioVmsApi.credentials.ts',
			...CODEX_FILES,
			...filesUnder('nodes', '.ts'),
			...MARKDOWN_FILES,
			...EXAMPLE_WORKFLOWS,
		];
		const stray = sources.filter((file) => {
			const text = readRepoFile(file);
			// The README names the placeholder in code, as a value, not as a link.
			const links = file.endsWith('.md') ? markdownLinks(text).join('\n') : text;
			return links.includes(repository) && !derived.has(file);
		});
		expect(stray).toEqual([]);
	});

	it('checks anchors too, and reports how many links and anchors it checked', () => {
		anchorsChecked = 0;
		for (const link of documentLinks) deadLink(link, true);
		for (const link of editorLinks) deadLink(link, false);
		const total = documentLinks.length + editorLinks.length;
		console.log(
			`Link test: ${total} links (${documentLinks.length} in documents, ${editorLinks.length} in the editor), ${anchorsChecked} anchors`,
		);
		expect(anchorsChecked).toBeGreaterThan(10);
	});
});
