/**
 * Command-line flags as the sandbox CLI, the benchmarks and the scripts (demo, screenshots) take
 * them: `--flag value` or `--flag=value`. Kept beside the sandbox CLI, the lowest layer the
 * scripts already build on.
 *
 * `parseFlags` reads a table of flags (what each takes, how its value is read, its usage line)
 * and `usage` prints the same table, so a flag is described once. `readFlags` is the loop
 * underneath, for the scripts that still walk the arguments themselves.
 */

/**
 * Calls `handle` once per argument. `value()` takes the flag's value (inline or the next
 * argument) and throws when there is none; flags without a value simply never call it.
 */
export function readFlags(
	argv: string[],
	handle: (flag: string, value: () => string, argument: string) => void,
): void {
	for (let i = 0; i < argv.length; i++) {
		const argument = argv[i];
		const [flag, inline] = argument.split(/=(.*)/s, 2);
		const value = (): string => {
			const next = inline !== undefined ? inline : argv[++i];
			if (!next || next.startsWith('--')) throw new Error(`${flag} needs a value`);
			return next;
		};
		handle(flag, value, argument);
	}
}

/** A whole number within the bounds, or an error naming the flag, the bounds and what was given. */
export function wholeNumber(flag: string, value: string, min?: number, max?: number): number {
	const parsed = Number(value);
	const inRange = (min === undefined || parsed >= min) && (max === undefined || parsed <= max);
	if (value.trim() === '' || !Number.isInteger(parsed) || !inRange) {
		const bounds = min !== undefined && max !== undefined ? ` from ${min} to ${max}` : '';
		throw new Error(`${flag} needs a whole number${bounds}, got ${JSON.stringify(value)}`);
	}
	return parsed;
}

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
export type FlagValues<F> = { -readonly [K in keyof F]?: ValueOf<F[K]> };

/** A reader for a whole number within the bounds. */
export function whole(min?: number, max?: number): (text: string, flag: string) => number {
	return (text, flag) => wholeNumber(flag, text, min, max);
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
 * flag, a missing value or a value its reader refuses throws an error that names the flag.
 */
export function parseFlags<F extends Record<string, FlagSpec>>(
	argv: string[],
	flags: F,
): { help: boolean; values: FlagValues<F> } {
	const values: Record<string, unknown> = {};
	let help = false;
	readFlags(argv, (flag, value, argument) => {
		if (flag === '--help' || flag === '-h') {
			help = true;
			return;
		}
		const name = flag.startsWith('--') ? flag.slice(2) : undefined;
		const spec =
			name !== undefined && Object.prototype.hasOwnProperty.call(flags, name)
				? flags[name]
				: undefined;
		if (name === undefined || !spec) throw new Error(`unknown option ${argument}`);
		let read: unknown = true;
		if (spec.value !== undefined) {
			const text = value();
			read = spec.read ? spec.read(text, flag) : text;
		} else if (argument.includes('=')) {
			throw new Error(`${flag} takes no value`);
		}
		if (spec.repeatable) ((values[name] as unknown[] | undefined) ??= []).push(read);
		else values[name] = read;
	});
	return { help, values: values as FlagValues<F> };
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
