/**
 * A fact the docs repeat is read from the one place the code keeps it, so changing the code
 * fails this test until every document says the same:
 * - the resume size limit, `PROFILE_FILE_MAX_BYTES` (nodes/shared/serviceFacts.ts): 2,500,000
 *   bytes, which the docs write as "under 2.5 MB", "the 2.5 MB limit", "2,500,000 bytes or more"
 *   (refused) or "under 2,500,000 bytes";
 * - the number of trigger events, the list in nodes/shared/events.ts (15), and of per diem
 *   shift events among them (12);
 * - the number of operations of the Trio VMS node, should a document state it ("N operations").
 *
 * The documents: every Markdown file of the repository, the example workflows' sticky notes and
 * the words the nodes show in n8n's editor. A statement is found by its phrasing, anywhere; a
 * guard lists the documents known to state each fact, so a rewording that slips past the
 * phrasings fails too.
 */
import { execFileSync } from 'node:child_process';

import { TrioVmsApi } from '../../credentials/TrioVmsApi.credentials';
import { TRIO_EVENT_NAMES } from '../../nodes/shared/events';
import { PROFILE_FILE_MAX_BYTES } from '../../nodes/shared/serviceFacts';
import { TrioVms } from '../../nodes/TrioVms/TrioVms.node';
import { TrioVmsSyncTrigger } from '../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node';
import { TrioVmsTrigger } from '../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';
import { REPO_ROOT } from '../../harness/pack';
import { filesUnder, readRepoFile } from './markdown';

/** Every string inside a value (node descriptions nest them in arrays and objects). */
function strings(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(strings);
	if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
	return [];
}

interface StickyNote {
	type: string;
	name: string;
	parameters: { content?: string };
}

/** Each document by name, its text with emphasis markers and line breaks made plain. */
const DOCUMENTS: Array<{ name: string; text: string }> = [
	...execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
	})
		.split('\n')
		.filter(Boolean)
		.map((file) => ({ name: file, text: readRepoFile(file) })),
	...filesUnder('examples', '.json')
		.filter((file) => /^examples\/\d\d-[^/]+\.json$/.test(file))
		.flatMap((file) =>
			(JSON.parse(readRepoFile(file)) as { nodes: StickyNote[] }).nodes
				.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
				.map((node) => ({
					name: `${file} (sticky note "${node.name}")`,
					text: node.parameters.content ?? '',
				})),
		),
	...[
		['the Trio VMS node', new TrioVms().description],
		['the Trio VMS Trigger', new TrioVmsTrigger().description],
		['the Trio VMS Sync Trigger', new TrioVmsSyncTrigger().description],
		['the Trio VMS API credential', new TrioVmsApi()],
	].map(([name, description]) => ({
		name: `${name as string}'s words in the editor`,
		text: strings(description).join('\n'),
	})),
].map(({ name, text }) => ({ name, text: text.replace(/\*\*?|__?/g, '').replace(/\s+/g, ' ') }));

/** A whole number written in figures ("2,500,000", "15") or, from ten to twenty, in words. */
const WORDS = [
	'ten',
	'eleven',
	'twelve',
	'thirteen',
	'fourteen',
	'fifteen',
	'sixteen',
	'seventeen',
	'eighteen',
	'nineteen',
	'twenty',
];
const COUNT = `(\\d[\\d,]*|${WORDS.join('|')})`;
function count(written: string): number {
	const word = WORDS.indexOf(written.toLowerCase());
	return word >= 0 ? word + 10 : Number(written.replace(/,/g, ''));
}

interface Statement {
	document: string;
	phrase: string;
	/** The fact as the phrase gives it, in the code's unit. */
	value: number;
}

/** Every phrase of each document that a pattern matches, with the value its first group gives. */
function statements(patterns: RegExp[], read: (group: string) => number): Statement[] {
	return DOCUMENTS.flatMap(({ name, text }) =>
		patterns.flatMap((pattern) =>
			[...text.matchAll(pattern)].map((match) => ({
				document: name,
				phrase: match[0],
				value: read(match[1]),
			})),
		),
	);
}

/** Statements whose value differs from the code's, as "document: phrase" lines. */
function disagreeing(found: Statement[], truth: number): string[] {
	return found
		.filter(({ value }) => value !== truth)
		.map(({ document, phrase }) => `${document}: "${phrase}"`);
}

const documentsOf = (found: Statement[]) => [...new Set(found.map(({ document }) => document))];

describe('the resume size limit, as the documents state it', () => {
	const found = [
		// "under 2.5 MB" and "the 2.5 MB limit"; "under 1 MB of heap" is an amount, not a limit.
		...statements(
			[/\bunder (?:the )?(\d+(?:\.\d+)?) MB\b(?! of)/gi, /\b(\d+(?:\.\d+)?) MB limit\b/gi],
			(mb) => Math.round(Number(mb) * 1_000_000),
		),
		...statements([/\b(\d[\d,]*) bytes or more\b/gi, /\bunder (\d[\d,]*) bytes\b/gi], count),
	];

	it('is the same, PROFILE_FILE_MAX_BYTES, wherever a document states it', () => {
		expect(disagreeing(found, PROFILE_FILE_MAX_BYTES)).toEqual([]);
	});

	it('is found where the documents state it', () => {
		expect(documentsOf(found)).toEqual(
			expect.arrayContaining([
				'README.md',
				'docs/benchmarks.md',
				'docs/operations.md',
				'docs/production.md',
				'docs/service-decisions.md',
				'examples/README.md',
				'sandbox/README.md',
				'examples/02-spreadsheet-to-submissions.json (sticky note "Note: trio")',
				"the Trio VMS node's words in the editor",
			]),
		);
	});
});

describe('the number of trigger events, as the documents state it', () => {
	const all = statements(
		[
			new RegExp(`\\b${COUNT} (?:webhook )?(?:events|event names)\\b`, 'gi'),
			/\bevent \((\d+) in all\)/gi,
		],
		count,
	);
	const shifts = statements([new RegExp(`\\b${COUNT} (?:per diem )?shift events\\b`, 'gi')], count);

	it('all events: the length of the list in nodes/shared/events.ts', () => {
		expect(disagreeing(all, TRIO_EVENT_NAMES.length)).toEqual([]);
		expect(documentsOf(all)).toEqual(
			expect.arrayContaining([
				'CHANGELOG.md',
				'docs/development.md',
				'docs/operations.md',
				'sandbox/README.md',
			]),
		);
	});

	it('per diem shift events: the events of that list named Per Diem Shift', () => {
		const truth = TRIO_EVENT_NAMES.filter((name) => name.startsWith('Per Diem Shift')).length;
		expect(disagreeing(shifts, truth)).toEqual([]);
		expect(documentsOf(shifts)).toEqual(expect.arrayContaining(['README.md']));
	});
});

describe('the number of the Trio VMS node operations, where a document states it', () => {
	it("is the sum of the node's Operation dropdowns", () => {
		const truth = new TrioVms().description.properties
			.filter((property) => property.name === 'operation')
			.reduce((sum, property) => sum + (property.options ?? []).length, 0);
		expect(truth).toBeGreaterThan(0);
		const found = statements([new RegExp(`\\b${COUNT} operations\\b`, 'gi')], count);
		expect(disagreeing(found, truth)).toEqual([]);
	});
});
