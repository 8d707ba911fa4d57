// Refuses a release that npm or n8n would reject, before any test time is spent on it:
//   node scripts/release-check.mjs <tag>     (the release workflow passes $GITHUB_REF_NAME)
// - the tag is v<version> of package.json;
// - repository.url is the GitHub repository the workflow runs in ($GITHUB_REPOSITORY): npm's
//   provenance check and n8n's reviewers both compare the two, and the placeholder address the
//   repository ships with (README, "Releasing") fails here until a maintainer sets it;
// - the author's e-mail is not the placeholder one.
// Plain Node, no dependencies: it runs before `npm ci`.
import { readFileSync } from 'node:fs';

const tag = process.argv[2] ?? '';
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const problems = [];

if (tag !== `v${manifest.version}`) {
	problems.push(`the tag "${tag}" is not v${manifest.version}, the version in package.json`);
}

const repositoryUrl =
	typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
const match = /github\.com[/:]([^/]+\/[^/]+?)(?:\.git)?$/i.exec(repositoryUrl ?? '');
const running = process.env.GITHUB_REPOSITORY ?? '';
if (!match) {
	problems.push(`repository.url "${repositoryUrl}" is not a GitHub repository`);
} else if (match[1].toLowerCase() !== running.toLowerCase()) {
	problems.push(
		`repository.url names ${match[1]}, but this runs in ${running || '(no GITHUB_REPOSITORY)'}; set the address with \`npm run identity -- --repository https://github.com/${running || '<owner>/<name>'}\``,
	);
}

const email = typeof manifest.author === 'string' ? manifest.author : manifest.author?.email;
if (!email || /\.invalid>?$/i.test(email)) {
	problems.push(
		`the author's e-mail "${email}" is the placeholder; set the maintainer in package.json`,
	);
}

if (problems.length > 0) {
	console.error(`Not releasing ${manifest.name}:\n- ${problems.join('\n- ')}`);
	process.exit(1);
}
console.log(`Releasing ${manifest.name} ${manifest.version} from ${running}`);
