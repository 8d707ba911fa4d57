/**
 * The one flag table of the scripts and the benchmarks, read by Node's util.parseArgs and printed
 * as usage from the same entries.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { oneOf, parseFlags, usage, whole, type FlagSpec } from '../../harness/flags';

const FLAGS = {
	port: { value: 'N', help: 'port to listen on', read: whole(0, 65_535) },
	host: { value: 'HOST', help: 'interface to bind' },
	part: { value: 'P', help: 'which part', read: oneOf('in-process', 'all') },
	env: {
		value: 'K=V',
		help: 'an extra variable\nrepeatable',
		repeatable: true,
		read: (text: string): [string, string] => [text.split('=')[0], text.split('=')[1]],
	},
	quiet: { help: 'no lines' },
} satisfies Record<string, FlagSpec>;

describe('parseFlags', () => {
	test('reads values, switches and repeated flags, in both spellings', () => {
		const { help, values } = parseFlags(
			['--port', '4010', '--host=0.0.0.0', '--env', 'A=1', '--env=B=2', '--quiet', '--part=all'],
			FLAGS,
		);
		expect(help).toBe(false);
		expect(values).toEqual({
			port: 4010,
			host: '0.0.0.0',
			env: [
				['A', '1'],
				['B', '2'],
			],
			quiet: true,
			part: 'all',
		});
	});

	test('leaves out what was not given, and says when help was asked for', () => {
		expect(parseFlags([], FLAGS)).toEqual({ help: false, values: {} });
		expect(parseFlags(['-h'], FLAGS).help).toBe(true);
		expect(parseFlags(['--quiet', '--help'], FLAGS)).toEqual({
			help: true,
			values: { quiet: true },
		});
	});

	test.each([
		[['--nope'], /Unknown option '--nope'/],
		[['-x'], /Unknown option '-x'/],
		[['port'], /Unexpected argument 'port'/],
		[['--port'], /Option '--port <value>' argument missing/],
		[['--port', '--quiet'], /Option '--port' argument is ambiguous/],
		[['--host='], /^--host needs a value$/],
		[['--port', '70000'], /^--port needs a whole number from 0 to 65535, got "70000"$/],
		[['--port=4.5'], /^--port needs a whole number from 0 to 65535, got "4.5"$/],
		[['--env=A=1', '--env='], /^--env needs a value$/],
		[['--part', 'some'], /^--part is in-process, all; got "some"$/],
		[['--quiet=yes'], /Option '--quiet' does not take an argument/],
	])('%j is refused: %s', (argv, message) => {
		expect(() => parseFlags(argv, FLAGS)).toThrow(message);
	});
});

test('usage lists every flag of the table in its order, two spaces after the longest, continuation lines aligned', () => {
	expect(usage('Usage: tool [options]', FLAGS)).toBe(
		[
			'Usage: tool [options]',
			'',
			'  --port N     port to listen on',
			'  --host HOST  interface to bind',
			'  --part P     which part',
			'  --env K=V    an extra variable',
			'               repeatable',
			'  --quiet      no lines',
			'  --help       this text',
		].join('\n'),
	);
});

describe('every command reads its flags this way', () => {
	const ROOT = join(__dirname, '..', '..');
	const run = (script: string, ...args: string[]) =>
		spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [script, ...args], {
			cwd: ROOT,
			encoding: 'utf8',
			timeout: 60_000,
		});

	it.each([
		['sandbox/cli.ts', 'Usage: tsx sandbox/cli.ts [options]'],
		['bench/run.ts', 'Usage: tsx bench/run.ts [options]'],
		['scripts/demo.ts', 'Usage: npm run demo -- [options]'],
		['scripts/identity.ts', 'Usage: npm run identity -- --repository URL'],
	])(
		'%s: --help prints the usage; an unknown flag is named, with the usage, and exits 2',
		(script, head) => {
			const help = run(script, '--help');
			expect({ status: help.status, head: help.stdout.split('\n')[0] }).toEqual({
				status: 0,
				head: expect.stringContaining(head),
			});
			expect(help.stdout).toContain('  --help');

			const refused = run(script, '--nope');
			expect(refused.status).toBe(2);
			expect(refused.stderr).toMatch(/^Unknown option '--nope'\n\nUsage: /);
		},
	);

	it.each([
		[
			'sandbox/cli.ts',
			['--port', '70000'],
			'--port needs a whole number from 0 to 65535, got "70000"',
		],
		['bench/run.ts', ['--part', 'some'], '--part is in-process, real-n8n, all; got "some"'],
		['scripts/demo.ts', ['--n8n-port', '5678'], '--n8n-port is not supported'],
		['scripts/identity.ts', ['--author', 'Jane'], '--author needs "Name <e-mail>", got "Jane"'],
	])('%s %j is refused with exit code 2: %s', (script, args, message) => {
		const refused = run(script, ...args);
		expect({ status: refused.status, error: refused.stderr.split('\n')[0] }).toEqual({
			status: 2,
			error: expect.stringContaining(message),
		});
	});
});
