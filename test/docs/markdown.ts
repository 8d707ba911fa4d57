/**
 * Just enough Markdown reading for the docs tests: the links a reader can click, the anchors
 * GitHub gives headings, and the sections and code spans a quick start is written in. Code
 * blocks and code spans are never read as links (a `[x](y)` inside them is text).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { REPO_ROOT } from '../../harness/pack';

export interface Link {
	/** Repository-relative file the link is written in (plus a locator inside it). */
	from: string;
	target: string;
}

/** Each line of a Markdown text and what it is: a fence of a code block, a line inside one, or prose. */
function kindsOfLines(markdown: string): Array<{ line: string; kind: 'fence' | 'code' | 'prose' }> {
	const lines: Array<{ line: string; kind: 'fence' | 'code' | 'prose' }> = [];
	let fence: string | undefined;
	for (const line of markdown.split(/\r?\n/)) {
		const opening = /^\s*(`{3,}|~{3,})/.exec(line);
		if (fence) {
			const closing =
				opening !== null && opening[1][0] === fence[0] && opening[1].length >= fence.length;
			if (closing) fence = undefined;
			lines.push({ line, kind: closing ? 'fence' : 'code' });
		} else if (opening) {
			fence = opening[1];
			lines.push({ line, kind: 'fence' });
		} else lines.push({ line, kind: 'prose' });
	}
	return lines;
}

/** Lines outside fenced code blocks, with their code spans blanked out. */
function proseLines(markdown: string): string[] {
	return kindsOfLines(markdown).map(({ line, kind }) =>
		kind === 'prose' ? line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length)) : '',
	);
}

/**
 * The code a Markdown text holds, whitespace runs made one space: each line of its code blocks,
 * then its code spans (a span broken over two lines is one).
 */
export function codeOf(markdown: string): string[] {
	const lines = kindsOfLines(markdown);
	const prose = lines.filter(({ kind }) => kind === 'prose').map(({ line }) => line);
	return [
		...lines.filter(({ kind }) => kind === 'code').map(({ line }) => line),
		...codeSpans(prose.join('\n')),
	].map((code) => code.replace(/\s+/g, ' '));
}

/** Every link target in a Markdown text: inline links and images, autolinks, references, HTML. */
export function markdownLinks(markdown: string): string[] {
	const targets: string[] = [];
	for (const line of proseLines(markdown)) {
		for (const match of line.matchAll(
			/!?\[(?:[^\]]|\\\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
		))
			targets.push(match[1]);
		for (const match of line.matchAll(/<(https?:\/\/[^>\s]+)>/g)) targets.push(match[1]);
		for (const match of line.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g))
			targets.push(match[1]);
		for (const match of line.matchAll(/\b(?:href|src)="([^"]+)"/g)) targets.push(match[1]);
	}
	return targets;
}

/** The text GitHub shows for a heading: emphasis, code and link markup removed. */
function headingText(raw: string): string {
	return raw
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.replace(/[*_]{1,3}([^*_]+)[*_]{1,3}/g, '$1')
		.replace(/`([^`]*)`/g, '$1')
		.replace(/\s+#+\s*$/, '')
		.trim();
}

/** GitHub's heading anchor: lower case, punctuation and symbols dropped, each space a hyphen. */
function githubSlug(text: string): string {
	return text
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: its headings (duplicates numbered as GitHub does), HTML ids. */
export function markdownAnchors(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let fence: string | undefined;
	for (const line of markdown.split(/\r?\n/)) {
		const opening = /^\s*(`{3,}|~{3,})/.exec(line);
		if (opening) {
			if (!fence) fence = opening[1];
			else if (opening[1][0] === fence[0]) fence = undefined;
			continue;
		}
		if (fence) continue;
		const heading = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line);
		if (heading) {
			const slug = githubSlug(headingText(heading[1]));
			const count = seen.get(slug) ?? 0;
			seen.set(slug, count + 1);
			anchors.add(count === 0 ? slug : `${slug}-${count}`);
		}
		for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
	}
	return anchors;
}

export function readRepoFile(file: string): string {
	return fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
}

/** Repository-relative paths of the files under `dir` whose names end with `suffix`. */
export function filesUnder(dir: string, suffix: string): string[] {
	const found: string[] = [];
	const walk = (relative: string): void => {
		for (const entry of fs.readdirSync(path.join(REPO_ROOT, relative), { withFileTypes: true })) {
			const child = path.posix.join(relative, entry.name);
			if (entry.isDirectory()) walk(child);
			else if (entry.name.endsWith(suffix)) found.push(child);
		}
	};
	walk(dir);
	return found.sort();
}

/**
 * The body of the section under the heading whose text starts with `title` (up to the next
 * heading of the same or a higher level).
 */
export function section(markdown: string, title: string): string {
	const lines = markdown.split(/\r?\n/);
	// A `#` line inside a code block (a shell comment) is no heading.
	let fence = false;
	const inCode = lines.map((line) => {
		if (/^\s*(`{3,}|~{3,})/.test(line)) {
			fence = !fence;
			return true;
		}
		return fence;
	});
	const start = lines.findIndex((line, index) => {
		const heading = /^(#{1,6})\s+(.*)$/.exec(line);
		return !inCode[index] && heading !== null && headingText(heading[2]).startsWith(title);
	});
	if (start < 0) throw new Error(`No heading starting with "${title}"`);
	const level = /^(#+)/.exec(lines[start])![1].length;
	const end = lines.findIndex(
		(line, index) =>
			index > start &&
			!inCode[index] &&
			/^(#+)\s/.test(line) &&
			/^(#+)/.exec(line)![1].length <= level,
	);
	return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The rows of the first table in a Markdown text, each a list of its cells, header and rule left out. */
export function tableRows(markdown: string): string[][] {
	const lines = markdown.split(/\r?\n/);
	const start = lines.findIndex((line) => line.trimStart().startsWith('|'));
	if (start < 0) throw new Error('No table');
	const end = lines.findIndex((line, index) => index > start && !line.trimStart().startsWith('|'));
	return lines.slice(start + 2, end < 0 ? undefined : end).map((line) =>
		line
			.trim()
			.replace(/^\||\|$/g, '')
			.split('|')
			.map((cell) => cell.trim()),
	);
}

/** The numbered step starting with `number.` in a section, continuation lines included. */
export function step(markdown: string, number: number): string {
	const lines = markdown.split(/\r?\n/);
	const start = lines.findIndex((line) => new RegExp(`^${number}\\.\\s`).test(line));
	if (start < 0) throw new Error(`No step ${number}.`);
	const end = lines.findIndex((line, index) => index > start && /^(\d+\.\s|\S)/.test(line));
	return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/** The code spans of a text, in order. */
export function codeSpans(markdown: string): string[] {
	return [...markdown.matchAll(/(`+)([^`]+?)\1/g)].map((match) => match[2].trim());
}

/**
 * The value the text gives a field: "**Field** = `value`" or "Field: `value`". Throws when the
 * text gives none, so a quick start that stops naming a value fails its test.
 */
export function fieldValue(markdown: string, field: string): string {
	const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const match = new RegExp(`(?:\\*\\*)?${escaped}(?:\\*\\*)?\\s*(?:=|:)\\s*\`([^\`]+)\``).exec(
		markdown.replace(/\s*\n\s*/g, ' '),
	);
	if (!match) throw new Error(`The text gives no value for "${field}"`);
	return match[1];
}

export interface ShellRequest {
	/** The command as the text gives it, for messages. */
	command: string;
	method: string;
	url: string;
	headers: Record<string, string>;
	body?: string;
}

/** Splits a shell text into commands of words: quotes kept together, `\` newlines joined, comments dropped. */
function shellCommands(text: string): string[][] {
	const commands: string[][] = [];
	let words: string[] = [];
	let word = '';
	let inWord = false;
	let quote: string | undefined;
	const endWord = () => {
		if (inWord) words.push(word);
		word = '';
		inWord = false;
	};
	const endCommand = () => {
		endWord();
		if (words.length) commands.push(words);
		words = [];
	};
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (quote) {
			if (char === quote) quote = undefined;
			else word += char;
		} else if (char === "'" || char === '"') {
			quote = char;
			inWord = true;
		} else if (char === '\\' && text[i + 1] === '\n') {
			i++;
		} else if (char === '#' && !inWord) {
			while (i + 1 < text.length && text[i + 1] !== '\n') i++;
		} else if (char === '\n' || char === ';') {
			endCommand();
		} else if (char === ' ' || char === '\t') {
			endWord();
		} else {
			word += char;
			inWord = true;
		}
	}
	endCommand();
	return commands;
}

/** The `curl` commands in a Markdown text's `sh` blocks, as requests. */
export function curlCommands(markdown: string): ShellRequest[] {
	const blocks = [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].map(
		(match) => match[1],
	);
	return blocks.flatMap((block) =>
		shellCommands(block)
			.filter((words) => words[0] === 'curl')
			.map((words) => {
				const request: ShellRequest = {
					command: words.join(' '),
					method: '',
					url: '',
					headers: {},
				};
				for (let i = 1; i < words.length; i++) {
					const flag = words[i];
					if (flag === '-X') request.method = words[++i];
					else if (flag === '-H') {
						const [name, ...value] = words[++i].split(':');
						request.headers[name.trim().toLowerCase()] = value.join(':').trim();
					} else if (flag === '-d' || flag === '--data') request.body = words[++i];
					else if (/^https?:\/\//.test(flag)) request.url = flag;
					else throw new Error(`curl flag ${flag} is not understood: ${request.command}`);
				}
				request.method ||= request.body === undefined ? 'GET' : 'POST';
				return request;
			}),
	);
}
