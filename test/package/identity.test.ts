/**
 * The package's public identity lives in package.json (repository.url, author); every other
 * link to the repository is derived from it and must agree. Until a maintainer sets them, the
 * placeholders are named as such in the README.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	derivedFiles,
	PLACEHOLDER,
	readManifest,
	repositoryOf,
	setIdentity,
	webAddress,
} from '../../scripts/identity';
import { REPO_ROOT } from '../../harness/pack';

const read = (file: string, root = REPO_ROOT): string =>
	fs.readFileSync(path.join(root, file), 'utf8');

/** Every github.com/<owner>/<name> address in a text, without anchors or deeper paths. */
function repositoryAddresses(text: string): string[] {
	return [...text.matchAll(/https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)/g)].map(
		(match) => `https://github.com/${match[1]}/${match[2].replace(/\.git$/, '')}`,
	);
}

/** The links that are meant to be ours: to a repository named like this package. */
const ours = (address: string): boolean => /\/n8n-nodes-trio-vms$/.test(address);

describe('public identity', () => {
	const manifest = readManifest();
	const repository = repositoryOf(manifest);

	it('derives homepage and bugs from repository.url', () => {
		expect(manifest.homepage).toBe(`${repository}#readme`);
		expect(manifest.bugs).toEqual({ url: `${repository}/issues` });
	});

	it("points the credential's documentation and the codex files at that repository", () => {
		const credential = read('credentials/TrioVmsApi.credentials.ts');
		const documentationUrl = /documentationUrl\s*=\s*'([^']+)'/.exec(credential)?.[1];
		expect(documentationUrl?.startsWith(`${repository}#`)).toBe(true);

		const codexFiles = derivedFiles().filter((file) => file.endsWith('.node.json'));
		// One codex file per node the package declares.
		const declared = (JSON.parse(read('package.json')) as { n8n: { nodes: string[] } }).n8n.nodes;
		expect(codexFiles.length).toBe(declared.length);
		for (const file of codexFiles) {
			const codex = JSON.parse(read(file)) as {
				resources: Record<string, Array<{ url: string }>>;
			};
			const { primaryDocumentation = [], credentialDocumentation = [] } = codex.resources;
			const urls = [...primaryDocumentation, ...credentialDocumentation].map((link) => link.url);
			expect(urls.length).toBeGreaterThan(0);
			for (const url of urls) expect(url.startsWith(repository)).toBe(true);
		}
	});

	it('names no other address for this repository in any derived file', () => {
		const strays = derivedFiles().flatMap((file) =>
			repositoryAddresses(read(file))
				.filter((address) => ours(address) && address !== repository)
				.map((address) => `${file}: ${address}`),
		);
		expect(strays).toEqual([]);
	});

	it('names the placeholders plainly in the README while they are in force', () => {
		const readme = read('README.md');
		const author = manifest.author as { email?: string };
		if (repository === PLACEHOLDER.repository) {
			expect(readme).toContain(`\`${PLACEHOLDER.repository}\``);
		}
		if (author.email === PLACEHOLDER.authorEmail) {
			expect(readme).toContain(`\`${PLACEHOLDER.authorEmail}\``);
		}
		expect(readme).toMatch(/placeholder/i);
		expect(readme).toContain('npm run identity -- --repository');
	});
});

describe('npm run identity', () => {
	let root: string;

	beforeEach(() => {
		root = fs.mkdtempSync(path.join(os.tmpdir(), 'trio-identity-'));
		for (const file of ['package.json', ...derivedFiles()]) {
			fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
			fs.copyFileSync(path.join(REPO_ROOT, file), path.join(root, file));
		}
	});
	afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

	it('moves every link to the new repository and sets the author', () => {
		const before = repositoryOf(readManifest(root));
		const result = setIdentity(
			{
				repository: 'git@github.com:acme-staffing/n8n-nodes-trio-vms.git',
				author: 'Jane Doe <jane@acme-staffing.example>',
			},
			root,
		);

		const target = 'https://github.com/acme-staffing/n8n-nodes-trio-vms';
		expect(result).toEqual({ from: before, to: target });
		const manifest = readManifest(root);
		expect(manifest.repository).toEqual({ type: 'git', url: `git+${target}.git` });
		expect(manifest.homepage).toBe(`${target}#readme`);
		expect(manifest.bugs).toEqual({ url: `${target}/issues` });
		expect(manifest.author).toEqual({ name: 'Jane Doe', email: 'jane@acme-staffing.example' });
		for (const file of derivedFiles(root)) {
			const addresses = repositoryAddresses(read(file, root)).filter(ours);
			expect(addresses.every((address) => address === target)).toBe(true);
			expect(read(file, root)).not.toContain(before);
		}
		// The rest of package.json is untouched.
		const original = readManifest();
		expect({ ...manifest, repository: 0, homepage: 0, bugs: 0, author: 0 }).toEqual({
			...original,
			repository: 0,
			homepage: 0,
			bugs: 0,
			author: 0,
		});
	});

	it('accepts only GitHub addresses and "Name <e-mail>" authors', () => {
		expect(() => webAddress('https://gitlab.com/acme/n8n-nodes-trio-vms')).toThrow(/GitHub/);
		expect(() => setIdentity({ author: 'Jane Doe' }, root)).toThrow(/Name <e-mail>/);
	});
});
