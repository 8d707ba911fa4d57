/**
 * Command-line flags as the sandbox CLI and the scripts (demo, screenshots) take them:
 * `--flag value` or `--flag=value`. Kept beside the sandbox CLI, the lowest layer the scripts
 * already build on.
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
