/**
 * Every benchmark command the docs give (`npm run bench -- …`, `npx tsx bench/run.ts …`, in code
 * blocks and code spans, a span broken over two lines included) is one bench/run.ts accepts as
 * written: its flags exist and their values are in range, and each `--only` part names at least
 * one benchmark. Checked through the script itself with `--list`, which reads the flags and
 * runs nothing.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { codeOf, filesUnder, readRepoFile } from './markdown';

const ROOT = join(__dirname, '..', '..');

/** The arguments of each benchmark command in the code, comments dropped: `--only job`. */
function benchArguments(code: string): string | undefined {
	const command =
		/(?:^|\s)(?:npx )?tsx bench\/run\.ts(?=\s|$)(.*)|(?:^|\s)npm run bench(?: -- (.*))?$/.exec(
			code.replace(/\s#.*$/, ''),
		);
	if (!command) return undefined;
	return (command[1] ?? command[2] ?? '').trim();
}

const documents = ['README.md', ...filesUnder('docs', '.md')];
const commands = new Map<string, string>();
for (const file of documents)
	for (const code of codeOf(readRepoFile(file))) {
		const args = benchArguments(code);
		if (args !== undefined && !commands.has(args)) commands.set(args, file);
	}

const listed = (args: string[]) =>
	spawnSync(
		process.execPath,
		['--expose-gc', '--import', 'tsx', 'bench/run.ts', ...args, '--list'],
		{
			cwd: ROOT,
			encoding: 'utf8',
			timeout: 60_000,
		},
	);

describe('the benchmark commands in the docs', () => {
	const ids = listed([])
		.stdout.split('\n')
		.map((line) => line.split(' ')[0])
		.filter(Boolean);

	it('are found, the ones docs/benchmarks.md shows first included', () => {
		expect(ids).toEqual(expect.arrayContaining(['job-get-many-raw', 'get-many', 'ingestion']));
		expect([...commands.keys()]).toEqual(
			expect.arrayContaining(['', '--runs 15', '--list', '--part real-n8n --only bulk']),
		);
	});

	it.each([...commands].filter(([args]) => args !== ''))(
		'`%s` (%s) is accepted as written',
		(args) => {
			const words = args.split(' ').filter((word) => !/^\[.*\]$/.test(word));
			const result = listed(words);
			expect({ status: result.status, error: result.stderr.split('\n')[0] }).toEqual({
				status: 0,
				error: '',
			});
			const only = words[words.indexOf('--only') + 1];
			if (words.includes('--only'))
				for (const part of only.split(','))
					expect(ids.filter((id) => id.includes(part))).not.toEqual([]);
		},
	);
});
