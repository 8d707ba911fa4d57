/**
 * The one flag parser of the sandbox CLI and the benchmarks: a table of flags, read and printed
 * from the same entries.
 */
import { oneOf, parseFlags, usage, whole, type FlagSpec } from '../../sandbox/cli-args';

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
		[['--nope'], 'unknown option --nope'],
		[['port'], 'unknown option port'],
		[['--port'], '--port needs a value'],
		[['--port', '--quiet'], '--port needs a value'],
		[['--port', '70000'], '--port needs a whole number from 0 to 65535, got "70000"'],
		[['--part', 'some'], '--part is in-process, all; got "some"'],
		[['--quiet=yes'], '--quiet takes no value'],
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
