/**
 * Where the docs tell a user to pick "Trio VMS → Resource → Operation", those are the words the
 * node shows: a renamed resource or operation makes this fail until the docs follow. The same for
 * the field labels the nodes renamed, the labels with a unit the docs and sticky notes name, and
 * the simplified job's field list.
 */

import ts from 'typescript';
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { TrioVmsApi } from '../../credentials/TrioVmsApi.credentials';
import { SIMPLIFIED_JOB_FIELDS } from '../../nodes/shared/jobOutput';
import { TrioVms } from '../../nodes/TrioVms/TrioVms.node';
import { TrioVmsSyncTrigger } from '../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node';
import { TrioVmsTrigger } from '../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';
import { filesUnder, readRepoFile } from './markdown';

const description = new TrioVms().description;
const FILES = ['README.md', ...filesUnder('docs', '.md'), 'examples/README.md'];

function optionsOf(name: string, resource?: string): INodePropertyOptions[] {
	return description.properties
		.filter(
			(property) =>
				property.name === name &&
				(resource === undefined ||
					(property.displayOptions?.show?.resource as string[] | undefined)?.includes(resource)),
		)
		.flatMap((property) => (property.options ?? []) as INodePropertyOptions[]);
}

describe('"Trio VMS → Resource → Operation" in the docs', () => {
	const paths = FILES.flatMap((file) =>
		[
			...readRepoFile(file).matchAll(
				/Trio VMS(?:\*\*)?(?: →|:) ([A-Z][a-z]+) → ([A-Z][A-Za-z ]*[a-z])/g,
			),
		].map((match) => ({ file, resource: match[1], operation: match[2] })),
	);

	it('finds them', () => {
		expect(paths.length).toBeGreaterThanOrEqual(5);
	});

	it.each(paths)(
		'$file: Trio VMS → $resource → $operation is what the node shows',
		({ resource, operation }) => {
			const resourceOption = optionsOf('resource').find((option) => option.name === resource);
			expect(resourceOption).toBeDefined();
			const operations = optionsOf('operation', String(resourceOption!.value)).map(
				(option) => option.name,
			);
			expect(operations).toContain(operation);
		},
	);
});

// ------------------------------------------------------------------ labels

/** Every label and option name a user can see in the three nodes (any version) and the credential. */
function labelsOf(properties: Array<INodeProperties | INodePropertyCollection>): string[] {
	return properties.flatMap((property) => {
		const own = 'displayName' in property ? [property.displayName] : [];
		if ('values' in property) return [...own, ...labelsOf(property.values)];
		const options = ('options' in property ? (property.options ?? []) : []) as Array<
			INodeProperties | INodePropertyOptions | INodePropertyCollection
		>;
		return [
			...own,
			...options.flatMap((option) =>
				'displayName' in option || 'values' in option
					? labelsOf([option as INodeProperties | INodePropertyCollection])
					: [option.name],
			),
		];
	});
}

const LABELS = new Set(
	[
		description,
		new TrioVmsTrigger().description,
		new TrioVmsSyncTrigger().description,
		{ properties: new TrioVmsApi().properties },
	].flatMap(({ properties }) => labelsOf(properties)),
);

/**
 * Labels renamed before the first release: the docs name only the new one. The old words are matched as the docs shortened them ("Pause Between Calls").
 */
const RENAMED = [
	{ old: 'Input Binary Field', now: 'Input Field With the Resume' },
	{ old: 'Resume File Field', now: 'Input Field With the Resume' },
	{ old: "A Folder on N8n's Disk", now: 'A Folder on Disk' },
	{ old: 'Bill Rate Amount', now: 'Bill Rate' },
	{ old: 'Pause Between Calls', now: 'Pause Between Requests' },
	{ old: 'Pause Between Requests (Milliseconds)', now: 'Pause Between Requests' },
	{ old: 'Reason Name or ID', now: 'Reason' },
	{ old: 'Emit Existing', now: 'Output Current Jobs on First Check' },
	{ old: 'Full List Every', now: 'Whole List Every (Checks)' },
];

interface Workflow {
	nodes: Array<{ type: string; name: string; parameters: { content?: string } }>;
}

/** The sticky notes of the example workflows, which users read on the canvas. */
const STICKY_NOTES = filesUnder('examples', '.json')
	.filter((file) => /^examples\/\d\d-[^/]+\.json$/.test(file))
	.flatMap((file) =>
		(JSON.parse(readRepoFile(file)) as Workflow).nodes
			.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
			.map((node) => ({ file: `${file} (${node.name})`, text: node.parameters.content ?? '' })),
	);

/**
 * What users read: the docs (docs/production.md and docs/real-n8n.md are kept by the production
 * and real-n8n work, outside this check) and the sticky notes.
 */
const READ = [
	...FILES.filter((file) => !['docs/production.md', 'docs/real-n8n.md'].includes(file)).map(
		(file) => ({ file, text: readRepoFile(file) }),
	),
	...STICKY_NOTES,
];

describe('renamed labels in the docs and sticky notes', () => {
	it('reads the docs and every sticky note', () => {
		expect(READ.length).toBeGreaterThan(10);
		expect(STICKY_NOTES.length).toBeGreaterThanOrEqual(20);
	});

	it.each(RENAMED)('"$now" is what the nodes show', ({ now }) => {
		expect(LABELS).toContain(now);
	});

	it.each(RENAMED)('"$old" is named nowhere, "$now" somewhere', ({ old, now }) => {
		expect(READ.filter(({ text }) => text.includes(old)).map(({ file }) => file)).toEqual([]);
		expect(READ.some(({ text }) => text.includes(now))).toBe(true);
	});

	it('every emphasised label with one word or % in brackets (a unit) is one the nodes or the credential show', () => {
		const named = READ.flatMap(({ file, text }) =>
			[...text.matchAll(/(\*{1,2})([A-Z][A-Za-z ]*? \((?:[A-Z][a-z]+|%)\))\1/g)].map((match) => ({
				file,
				label: match[2],
			})),
		);
		expect(named.length).toBeGreaterThanOrEqual(5);
		expect(named.filter(({ label }) => !LABELS.has(label))).toEqual([]);
	});
});

describe('the simplified job as the docs list it', () => {
	/**
	 * Each list that starts Number, Title, JobStatus: its field names, up to RateDescription. A
	 * list with JobStatusReason is the whole job as Trio sends it (the Job Update payload), not the
	 * simplified one.
	 */
	const lists = READ.flatMap(({ file, text }) =>
		[...text.matchAll(/\bNumber\b[`, ]+Title\b[`, ]+JobStatus\b[^\n]*(?:\n[^\n]+)*/g)].map(
			(match) => {
				// Words in brackets explain a field ("ShiftDescription (from Shift)"): not fields.
				const names = [...match[0].replace(/\([^)]*\)/g, '').matchAll(/\b[A-Z][A-Za-z]+\b/g)].map(
					(name) => name[0],
				);
				return { file, fields: names.slice(0, names.indexOf('RateDescription') + 1) };
			},
		),
	);

	const simplified = lists.filter(({ fields }) => !fields.includes('JobStatusReason'));

	it('finds the lists in the operations and trigger docs', () => {
		expect(simplified.map(({ file }) => file)).toEqual(
			expect.arrayContaining(['docs/operations.md', 'docs/trigger.md']),
		);
	});

	it.each(simplified)('$file lists the ten fields the nodes output, in order', ({ fields }) => {
		expect(fields).toEqual(
			SIMPLIFIED_JOB_FIELDS.slice(0, SIMPLIFIED_JOB_FIELDS.indexOf('RateDescription') + 1),
		);
	});
});

// ------------------------------------------------------------------ one word per thing

/** What a user reads in a node: labels, descriptions, hints, placeholders, choices and actions. */
function textsOf(value: unknown, texts: string[] = []): string[] {
	if (Array.isArray(value)) for (const each of value) textsOf(each, texts);
	else if (value && typeof value === 'object') {
		const record = value as Record<string, unknown>;
		// A property's `name` is its key in the saved workflow; an option's `name` is what users see.
		const shown = 'displayName' in record ? [] : ['name'];
		for (const [key, each] of Object.entries(record)) {
			if (typeof each === 'string') {
				if ([...shown, 'displayName', 'description', 'hint', 'placeholder', 'action'].includes(key))
					texts.push(each);
			} else textsOf(each, texts);
		}
	}
	return texts;
}

/**
 * One word for one thing (issue 34): the resume (Trio's "candidate profile document" stays in
 * the docs that map fields to the API), a check (not a poll), and no developer words in what a
 * recruiter reads in the nodes.
 */
const WORDS = [
	{ not: /profile document|\bprofile\b(?! page)/i, say: 'resume' },
	{ not: /\bpoll(s|ed|ing)?\b/i, say: 'check' },
	{ not: /\bemit(s|ted|ting)?\b/i, say: 'output' },
	{ not: /\bbinary (data|fields?)\b/i, say: 'file, file field' },
	{ not: /this n8n process|queue mode/i, say: "the recruiter's words" },
	{ not: /\bisCompact\b|\bexpirationDate\b/, say: 'Compact License, Expiration Date' },
	// Trio's reasons are texts: nothing offers "Name or ID" for them.
	{ not: /Reason Name or ID/, say: 'Reason' },
	{ not: /Milliseconds/i, say: 'thousandths of a second' },
	{ not: /JSON array|\b5xx\b/i, say: 'a list, an error answer' },
	{ not: /\bOnHold\b|\bon[- ]hold\b/, say: 'On Hold' },
	// A workflow is published (n8n 2.x); a webhook registration is still deactivated, as Trio says.
	{
		not: /\b(de)?activat\w*\s+(the|this|your)\s+workflow|\bactivation\b/i,
		say: 'publish, unpublish',
	},
	// The field named so that Remove Duplicates can compare it: shown only with what it is for.
	{ not: /^(?![\s\S]*Remove Duplicates)[\s\S]*deliveryKey/, say: 'deliveryKey explained' },
];

describe('one word per thing in the nodes', () => {
	const texts = [
		description,
		new TrioVmsTrigger().description,
		new TrioVmsSyncTrigger().description,
		{ properties: new TrioVmsApi().properties },
	].flatMap((each) => textsOf(each));

	it('reads every label, description, hint and action', () => {
		expect(texts.length).toBeGreaterThan(200);
		expect(texts).toContain('Spreadsheet Columns');
	});

	it.each(WORDS)('says "$say", never $not', ({ not }) => {
		expect(texts.filter((text) => not.test(text))).toEqual([]);
	});
});

// ------------------------------------------------------------------ messages

/**
 * What the nodes say when something goes wrong (errors, their descriptions, log warnings): every
 * string written in the nodes' source, imports and type names aside. A file may keep a word
 * listed here only with a reason; none does today.
 */
const FROZEN: Record<string, RegExp[]> = {};

function sourceStrings(file: string): string[] {
	const source = ts.createSourceFile(file, readRepoFile(file), ts.ScriptTarget.Latest);
	const found: string[] = [];
	const visit = (node: ts.Node): void => {
		if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node)) return;
		if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
		else if (ts.isTemplateExpression(node))
			found.push(
				[node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('…'),
			);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

describe('one word per thing in what the nodes say', () => {
	const files = ['nodes', 'credentials'].flatMap((folder) => filesUnder(folder, '.ts'));
	// Words a recruiter reads in sentences; single words are keys, names and values.
	const said = files.flatMap((file) =>
		sourceStrings(file)
			.filter((text) => /\s\S+\s/.test(text))
			.map((text) => ({ file, text })),
	);

	it('reads the messages of all three nodes', () => {
		expect(said.length).toBeGreaterThan(300);
		expect(said.map(({ text }) => text)).toContain(
			'Nothing was output and the trigger still remembers what it had seen, so its next check tries again.',
		);
	});

	it.each(WORDS)('says "$say", never $not', ({ not }) => {
		expect(
			said
				.filter(
					({ file, text }) => not.test(text) && !FROZEN[file]?.some((word) => word.test(text)),
				)
				.map(({ file, text }) => `${file}: ${text}`),
		).toEqual([]);
	});
});

describe('one word per thing in the sticky notes', () => {
	// *Poll Times* is n8n's label for the field a note tells users to set, as in the pages below.
	it.each(WORDS)('says "$say", never $not', ({ not }) => {
		expect(
			STICKY_NOTES.filter(({ text }) => not.test(text.replace(/Poll Times/g, ''))).map(
				({ file }) => file,
			),
		).toEqual([]);
	});
});

describe('one word per thing in the pages a recruiter reads', () => {
	/** The pages the README and the nodes' Docs links open; the developer pages keep their words. */
	const PAGES = [
		'README.md',
		'examples/README.md',
		'docs/trigger.md',
		'docs/sync-trigger.md',
		'docs/operations.md',
	];
	// Code shows what Trio and n8n write (`OnHold`), quotes are n8n's own words, *Poll Times* its label.
	const prose = (text: string) =>
		text
			.replace(/```[\s\S]*?```/g, '')
			.replace(/`[^`]*`/g, '')
			.replace(/"[^"\n]*(\n[^"\n]*)?"/g, '')
			.replace(/Poll Times/g, '')
			.replace(/n8n's pollers|durable pollers|previous poller/g, '');
	const SAID = [
		{ not: /\bpoll(s|ed|ing)?\b/i, say: 'check' },
		{ not: /\bemit(s|ted|ting)?\b/i, say: 'output' },
		{ not: /\bon[- ]hold\b/, say: 'On Hold' },
		{ not: /profile document/i, say: 'resume' },
		{ not: /\bbinary (data|fields?)\b/i, say: 'file, file field' },
	];

	it.each(SAID)('says "$say", never $not', ({ not }) => {
		const found = PAGES.flatMap((file) =>
			prose(readRepoFile(file))
				.split('\n')
				.filter((line) => not.test(line))
				.map((line) => `${file}: ${line.trim().slice(0, 120)}`),
		);
		expect(found).toEqual([]);
	});
});
