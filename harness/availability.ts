import type { N8nLine } from './install';

/** Set by the e2e globalSetup for the test files: line -> why it does not run. */
export const UNAVAILABLE_ENV = 'TRIO_N8N_UNAVAILABLE';

/** Asks to skip the real-n8n tests: "1" or "all", or lines such as "1.x". Nothing else skips them. */
export const SKIP_ENV = 'TRIO_SKIP_REAL_N8N';

function wrap(text: string, width: number): string[] {
	const out: string[] = [];
	let current = '';
	for (const word of text.split(' ')) {
		if (current && current.length + word.length + 1 > width) {
			out.push(current);
			current = word;
		} else {
			current = current ? `${current} ${word}` : word;
		}
	}
	if (current) out.push(current);
	return out;
}

export function banner(text: string[]): string {
	const lines = text.flatMap((each) => wrap(each, 96));
	const width = Math.max(...lines.map((each) => each.length)) + 4;
	const bar = '!'.repeat(width);
	return ['', bar, ...lines.map((each) => `! ${each.padEnd(width - 4)} !`), bar, ''].join('\n');
}

/** Reads what globalSetup decided; an unset variable means everything may run. */
function unavailableReason(line: N8nLine): string | undefined {
	const raw = process.env[UNAVAILABLE_ENV];
	if (!raw) return undefined;
	return (JSON.parse(raw) as Partial<Record<N8nLine, string>>)[line];
}

/** `describe` for a block that needs a real n8n of `line`: skipped, loudly, only when asked. */
export function describeWithN8n(line: N8nLine, name: string, fn: () => void): void {
	const reason = unavailableReason(line);
	if (reason) {
		process.stderr.write(banner([`SKIPPING real-n8n tests for n8n ${line}: ${name}`, reason]));
		describe.skip(name, fn);
		return;
	}
	describe(name, fn);
}
