/**
 * Command-line flags of the scripts (demo, identity) and the benchmarks, read by Node's own
 * `util.parseArgs`: `--flag value` or `--flag=value`, `--help` or `-h`. A table of flags says what
 * each takes, how its value is read and its usage line, so a flag is described once: `parseFlags`
 * reads the arguments against it and `usage` prints it; `commandFlags` does both for a command.
 */
import { parseArgs } from 'node:util';

/** One flag of a table; its key in the table is the flag's name without `--`. */
export interface FlagSpec<T = unknown> {
	/** What the usage shows after the flag, e.g. `N`; a flag without it is a switch. */
	value?: string;
	/** The usage text; a line break continues it under the first line. */
	help: string;
	/** Reads the given text into the option's value (default: the text as it is). */
	read?: (text: string, flag: string) => T;
	/** May be given more than once; the values are collected in order. */
	repeatable?: boolean;
}

type ValueOf<S> = S extends { read: (text: string, flag: string) => infer T }
	? S extends { repeatable: true }
		? T[]
		: T
	: S extends { value: string }
		? S extends { repeatable: true }
			? string[]
			: string
		: boolean;

/** What was given, by flag name; a flag not given is absent. */
type FlagValues<F> = { -readonly [K in keyof F]?: ValueOf<F[K]> };

/** A reader for a whole number within the bounds; a refusal names the flag, the bounds and the text. */
export function whole(min?: number, max?: number): (text: string, flag: string) => number {
	return (text, flag) => {
		const parsed = Number(text);
		const inRange = (min === undefined || parsed >= min) && (max === undefined || parsed <= max);
		if (text.trim() === '' || !Number.isInteger(parsed) || !inRange) {
			const bounds = min !== undefined && max !== undefined ? ` from ${min} to ${max}` : '';
			throw new Error(`${flag} needs a whole number${bounds}, got ${JSON.stringify(text)}`);
		}
		return parsed;
	};
}

/** A reader for one of a few words. */
export function oneOf<const W extends string>(...words: W[]): (text: string, flag: string) => W {
	return (text, flag) => {
		if (!(words as string[]).includes(text))
			throw new Error(`${flag} is ${words.join(', ')}; got ${JSON.stringify(text)}`);
		return text as W;
	};
}

/**
 * Reads `argv` against the table. `help` is true when `--help` or `-h` was given; an unknown
 * flag, a missing value, an argument that is no flag or a value its reader refuses throws an
 * error that names it.
 */
export function parseFlags<F extends Record<string, FlagSpec>>(
	argv: string[],
	flags: F,
): { help: boolean; values: FlagValues<F> } {
	const options = Object.fromEntries(
		Object.entries(flags).map(([name, spec]) => [
			name,
			{ type: spec.value === undefined ? 'boolean' : 'string', multiple: spec.repeatable === true },
		]),
	) as Record<string, { type: 'boolean' | 'string'; multiple?: boolean }>;
	const { values } = parseArgs({
		args: argv,
		options: { ...options, help: { type: 'boolean', short: 'h' } },
		strict: true,
	});
	const read: Record<string, unknown> = {};
	for (const [name, given] of Object.entries(values)) {
		if (name === 'help') continue;
		const one = (text: string | boolean) => {
			if (text === '') throw new Error(`--${name} needs a value`);
			const reader = flags[name].read;
			return reader && typeof text === 'string' ? reader(text, `--${name}`) : text;
		};
		read[name] = Array.isArray(given) ? given.map(one) : one(given as string | boolean);
	}
	return { help: values.help === true, values: read as FlagValues<F> };
}

/**
 * A command's flags: `--help` prints `usageText` and exits 0; an argument that `refuse` or the
 * table refuses prints the error and `usageText` and exits 2.
 */
export function commandFlags<F extends Record<string, FlagSpec>>(
	argv: string[],
	flags: F,
	usageText: string,
	refuse?: (argv: string[]) => void,
): FlagValues<F> {
	let parsed: ReturnType<typeof parseFlags<F>>;
	try {
		refuse?.(argv);
		parsed = parseFlags(argv, flags);
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n\n${usageText}\n`);
		process.exit(2);
	}
	if (parsed.help) {
		process.stdout.write(`${usageText}\n`);
		process.exit(0);
	}
	return parsed.values;
}

/** The usage text: `head`, then one entry per flag in the table's order, then `--help`. */
export function usage(head: string, flags: Record<string, FlagSpec>): string {
	const entries: Array<[string, string]> = Object.entries(flags).map(([name, spec]) => [
		`--${name}${spec.value ? ` ${spec.value}` : ''}`,
		spec.help,
	]);
	entries.push(['--help', 'this text']);
	const width = Math.max(...entries.map(([left]) => left.length)) + 2;
	const lines = entries.flatMap(([left, text]) =>
		text.split('\n').map((line, index) => `  ${(index === 0 ? left : '').padEnd(width)}${line}`),
	);
	return `${head}\n\n${lines.join('\n')}`;
}
