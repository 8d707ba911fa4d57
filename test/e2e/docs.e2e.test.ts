/**
 * The README's quick starts, executed as written, in a real n8n 2.x with the packed package
 * installed as users install it, against the local Trio sandbox.
 *
 * Everything a user is told to pick or type is read from README.md itself: the field names
 * (checked against the nodes' own labels, so the words on the page are the words in the editor),
 * the node names the text asks for, and every expression. The nodes are the ones the text names,
 * at the version n8n's editor adds today (read from the running n8n's node catalogue). The
 * statements the text makes are asserted. When the text changes, this test reads the new text.
 *
 * Substituted, because a test cannot do otherwise, and nothing else:
 * - the Slack node posts to a local receiver instead (an HTTP Request with the text's message);
 * - the runs start from a Webhook trigger (the quick start's "Run it" is a click in the editor);
 * - quick start 1 polls every minute instead of every 5 (n8n's shortest poll);
 * - quick start 2's rows come from a CSV and an XLSX file, read as the text says for a file
 *   (Google Sheets and Excel 365 cannot be reached from here); each runs once with the nodes named
 *   as n8n names them and once with every node renamed;
 * - the text's ~/.n8n-files/... is under the test's HOME, which is n8n's HOME (~ as the text says).
 *
 * Run `npm run build` first.
 */
import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

import { cronNodeOptions, type INodeProperties, type INodeTypeDescription } from 'n8n-workflow';

import { TrioVms } from '../../nodes/TrioVms/TrioVms.node';
import { TrioVmsSyncTrigger } from '../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node';
import type { RunningSandbox } from '../../sandbox';
import { codeSpans, fieldValue, readRepoFile, section, step } from '../docs/markdown';
import { describeWithN8n } from '../../harness/availability';
import {
	nodeItems,
	type ExecutionRecord,
	type N8nInstance,
	type WorkflowRecord,
} from '../../harness/n8n';
import { ensureN8n } from '../../harness/install';
import { REPO_ROOT } from '../../harness/pack';
import { postToWebhook } from '../../harness/run-workflow';
import type { CredentialRef } from '../../harness/trio';
import { expectSuccess } from './fixtures/expect-success';
import { startReadmeN8n, type ReadmeN8n } from './fixtures/readme-n8n';
import { parseCsv, toCsv } from '../support/csv';
import type { HttpReceiver } from './fixtures/receivers';

const PACKAGE = 'n8n-nodes-trio-vms';
const SAMPLE_DATA_DIR = path.join(REPO_ROOT, 'examples', 'sample-data');
const RUN_TIMEOUT_MS = 90_000;
/** A poll trigger runs once a minute at the most: a wait for the next poll may take that long. */
const POLL_WAIT_MS = 150_000;

type Json = Record<string, unknown>;

interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Json;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	onError?: string;
}

/** What the tests executed, for the report: statements asserted and expressions run. */
const executed = { statements: [] as string[], expressions: [] as string[] };

// ------------------------------------------------------------------ reading the text

const README = readRepoFile('README.md');

/** The choice the text makes for a field: "**Field** = **Choice**". */
function choiceIn(text: string, field: string): string {
	const match = new RegExp(`\\*\\*${field}\\*\\* = \\*\\*([^*]+)\\*\\*`).exec(
		text.replace(/\s*\n\s*/g, ' '),
	);
	if (!match) throw new Error(`The text picks nothing for "${field}"`);
	return match[1];
}

/** The sentence of `text` that contains `words`, as the statement a test asserts. */
function statement(text: string, words: string): string {
	const flat = text.replace(/\s*\n\s*/g, ' ');
	if (!flat.includes(words)) throw new Error(`The text no longer says "${words}"`);
	executed.statements.push(words);
	return words;
}

function expression(value: string): string {
	if (!/^\{\{.*\}\}$/.test(value.trim()) && !value.includes('{{'))
		throw new Error(`"${value}" is not an n8n expression`);
	executed.expressions.push(value);
	return `=${value}`;
}

// ------------------------------------------------------------------ the nodes' own labels

interface Where {
	resource?: string;
	operation?: string;
	watch?: string;
	valuesFrom?: string;
}

function shownFor(property: INodeProperties, where: Where): boolean {
	const show = property.displayOptions?.show ?? {};
	return (Object.keys(where) as Array<keyof Where>).every((key) => {
		const allowed = show[key] as unknown[] | undefined;
		return allowed === undefined || allowed.includes(where[key]);
	});
}

/**
 * The parameter path of the field the text calls `label` (top level, or inside a collection),
 * for the resource and operation shown; throws when the node has no such label.
 */
function parameterPath(description: INodeTypeDescription, label: string, where: Where): string[] {
	for (const property of description.properties.filter((each) => shownFor(each, where))) {
		if (property.displayName === label) return [property.name];
		if (property.type === 'collection') {
			const inner = (property.options as INodeProperties[] | undefined)?.find(
				(option) => option.displayName === label,
			);
			if (inner) return [property.name, inner.name];
		}
	}
	throw new Error(
		`${description.displayName} has no field "${label}" for ${JSON.stringify(where)}`,
	);
}

function property(description: INodeTypeDescription, pathParts: string[], where: Where) {
	let list = description.properties.filter((each) => shownFor(each, where));
	let found: INodeProperties | undefined;
	for (const part of pathParts) {
		found = list.find((each) => each.name === part);
		list = (found?.options as INodeProperties[] | undefined) ?? [];
	}
	if (!found) throw new Error(`No parameter ${pathParts.join('.')}`);
	return found;
}

/** The value of the option the text calls `label` (e.g. "Jobs" -> "jobs"). */
function optionValue(
	description: INodeTypeDescription,
	pathParts: string[],
	label: string,
	where: Where,
): string {
	const options = (property(description, pathParts, where).options ?? []) as Array<{
		name: string;
		value: string;
	}>;
	const option = options.find((each) => each.name === label);
	if (!option) throw new Error(`"${pathParts.join('.')}" offers no "${label}"`);
	return option.value;
}

function setPath(target: Json, pathParts: string[], value: unknown): void {
	let cursor = target;
	for (const part of pathParts.slice(0, -1)) {
		cursor[part] = (cursor[part] as Json | undefined) ?? {};
		cursor = cursor[part] as Json;
	}
	cursor[pathParts[pathParts.length - 1]] = value;
}

// ------------------------------------------------------------------ the suite

describeWithN8n('2.x', "README's quick starts, executed as written in real n8n 2.x", () => {
	let setup: ReadmeN8n | undefined;
	let sandbox: RunningSandbox;
	let n8n: N8nInstance;
	let receiver: HttpReceiver;
	let home: string;
	let filesFolder: string;
	let credential: CredentialRef;
	let created: WorkflowRecord[];
	let scenario: ReadmeN8n['scenario'];
	let trio: ReadmeN8n['trio'];
	let waitFor: ReadmeN8n['waitFor'];
	let catalogue: Array<{ name: string; version: number | number[]; defaultVersion?: number }>;

	beforeAll(async () => {
		setup = await startReadmeN8n({
			name: 'docs',
			credentialName: 'Trio VMS account',
			filesFolder: 'quick-start',
			fill: (folder) =>
				fs.cpSync(path.join(SAMPLE_DATA_DIR, 'resumes'), path.join(folder, 'resumes'), {
					recursive: true,
				}),
		});
		({ sandbox, n8n, receiver, home, filesFolder, credential, created, scenario, trio, waitFor } =
			setup);
		// The node catalogue the editor loads, as the logged-in owner (`rest` prefixes /rest; the URL
		// parser folds the `..` back to /types/nodes.json).
		catalogue = await n8n.rest<typeof catalogue>('GET', '/../types/nodes.json');
	});

	afterAll(async () => {
		await setup?.stop();
		process.stdout.write(
			`\nDocs test: ${executed.statements.length} statements asserted, ${executed.expressions.length} expressions executed\n`,
		);
	});

	/** The version n8n's editor gives a node of this type dragged onto the canvas today. */
	function editorVersion(type: string): number {
		const own = [new TrioVms().description, new TrioVmsSyncTrigger().description].find(
			(description) => `${PACKAGE}.${description.name}` === type,
		);
		if (own) {
			const versions = Array.isArray(own.version) ? own.version : [own.version];
			return own.defaultVersion ?? Math.max(...versions);
		}
		const entries = catalogue.filter((entry) => entry.name === type);
		if (!entries.length) throw new Error(`n8n has no node ${type}`);
		const versions = entries.flatMap((entry) =>
			entry.defaultVersion !== undefined
				? [entry.defaultVersion]
				: Array.isArray(entry.version)
					? entry.version
					: [entry.version],
		);
		return Math.max(...versions);
	}

	let position = 0;
	function node(name: string, type: string, parameters: Json, extra: Partial<WorkflowNode> = {}) {
		position += 220;
		return {
			id: randomUUID(),
			name,
			type,
			typeVersion: editorVersion(type),
			position: [position, 0] as [number, number],
			parameters,
			...extra,
		} satisfies WorkflowNode;
	}
	const trioCredential = () => ({ trioVmsApi: { ...credential } });

	function chain(nodes: WorkflowNode[]): Record<string, unknown> {
		return Object.fromEntries(
			nodes
				.slice(0, -1)
				.map((each, index) => [
					each.name,
					{ main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] },
				]),
		);
	}

	async function createWorkflow(name: string, nodes: WorkflowNode[]): Promise<WorkflowRecord> {
		const record = await n8n.createWorkflow({
			name,
			nodes,
			connections: chain(nodes),
			settings: { executionOrder: 'v1' },
		});
		created.push(record);
		return record;
	}

	// -------------------------------------------------------------- quick start 1

	test('Quick start 1: one message per new job, nothing for what was open before, updates or closures', async () => {
		const text = section(README, 'Quick start 1');
		const description = new TrioVmsSyncTrigger().description;

		// Step 1: the trigger, with the text's field words mapped through the node's own labels.
		const step1 = step(text, 1);
		expect(step1).toContain(`**${description.displayName}**`);
		const watchText = /\*\*Watch\*\*:\s*(\w+)/.exec(step1)![1];
		const watchPath = parameterPath(description, 'Watch', {});
		const watch = optionValue(description, watchPath, watchText, {});
		const changesLabels = [
			.../\*\*Changes\*\*:\s*only\s+\*\*([^*]+)\*\*/
				.exec(step1.replace(/\s*\n\s*/g, ' '))!
				.slice(1),
		];
		const changesPath = parameterPath(description, 'Changes', { watch });
		const changes = changesLabels.map((label) =>
			optionValue(description, changesPath, label, { watch }),
		);
		// Poll Times in n8n's own words for it (n8n-workflow's cronNodeOptions): Every X, 5, Minutes.
		const poll =
			/\*\*Poll Times\*\*:\s+\*\*(Mode)\*\*\s+\*([^*]+)\*,\s+\*\*(Value)\*\*\s+`(\d+)`,\s+\*\*(Unit)\*\*\s+\*([^*]+)\*/.exec(
				step1,
			);
		expect(poll).not.toBeNull();
		const [, modeLabel, modeName, valueLabel, value, unitLabel, unitName] = poll!;
		const pollFields = cronNodeOptions[0].values;
		const labelled = (label: string) => pollFields.find((field) => field.displayName === label)!;
		expect(labelled(modeLabel).options?.find((option) => option.name === modeName)).toMatchObject({
			value: 'everyX',
		});
		expect(labelled(valueLabel).name).toBe('value');
		expect(value).toBe('5');
		expect(labelled(unitLabel).options?.find((option) => option.name === unitName)).toMatchObject({
			value: 'minutes',
		});
		const trigger = node(
			'Trio VMS Sync Trigger',
			`${PACKAGE}.trioVmsSyncTrigger`,
			{
				[watchPath[0]]: watch,
				[changesPath[0]]: changes,
				// Substituted: every minute instead of every 5, the shortest poll n8n allows.
				pollTimes: { item: [{ mode: 'everyMinute' }] },
			},
			{ credentials: trioCredential() },
		);

		// Step 3: the message, exactly as the text gives it (Slack replaced by a local receiver).
		const step3 = step(text, 3);
		const message = codeSpans(step3).find((span) => span.includes('{{'));
		expect(message).toBeDefined();
		const slack = node('Send Message', 'n8n-nodes-base.httpRequest', {
			method: 'POST',
			url: `${receiver.url}/quick-start-1`,
			sendBody: true,
			bodyParameters: { parameters: [{ name: 'text', value: expression(message!) }] },
			options: {},
		});

		const jobLists = () =>
			sandbox.requests().filter((request) => request.route === 'GET /api/v3/Job').length;
		sandbox.clearRequests();
		// Two jobs of this test's own, open before Publish (the other tests' jobs stay as they are).
		const openBefore = await Promise.all(
			['Before Publish RN - Med-Surg', 'Before Publish RN - PACU'].map((Title) =>
				scenario<{ Number: number }>('POST', '/jobs', { Title }),
			),
		);
		const workflow = await createWorkflow('Quick start 1', [trigger, slack]);
		await n8n.activate(workflow.id);

		// Step 4, all of it proven by the first check after Publish: before it, a job opens, and
		// an open job is edited and another closed, all three jobs open before Publish.
		statement(text, 'The first check only notes the jobs already open');
		statement(text, 'each job that opens is posted by the next check');
		statement(text, 'Updates and closures post nothing.');
		await waitFor(
			'the check at Publish',
			async () => (jobLists() >= 1 ? true : undefined),
			POLL_WAIT_MS,
		);
		await scenario('PATCH', `/jobs/${openBefore[0].Number}`, { Title: 'Travel RN - ICU (Days)' });
		await scenario('POST', `/jobs/${openBefore[1].Number}/close`, {
			reason: 'Filled by another agency',
		});
		const job = await scenario<{ Number: number }>('POST', '/jobs', {
			Title: 'Travel RN - ICU (Nights)',
			FacilityName: 'Saint Alphonsus Medical Center',
			City: 'Boise',
			State: 'Idaho',
			StateAbbreviation: 'ID',
			StartDate: '2027-02-15T00:00:00Z',
			RateDescription: '$2,850/wk',
		});
		const [first] = await receiver.waitFor('/quick-start-1', 1, POLL_WAIT_MS);
		// The message leaves before n8n has saved the execution that sent it: wait for that.
		const executions = await n8n.waitForExecutions(workflow.id, 1, POLL_WAIT_MS);
		await n8n.deactivate(workflow.id);
		const posted = await n8n.getExecution(executions[0].id);
		expectSuccess(posted);
		// That check output the new job alone: not the jobs open before, not the edit or the closure.
		const items = nodeItems(posted, 'Trio VMS Sync Trigger');
		expect(items.map((each) => each.Number)).toEqual([job.Number]);
		const [item] = items;

		// Step 2: the fields the text says a job has are the trigger's output fields.
		const fields = codeSpans(step(text, 2));
		expect(fields.length).toBeGreaterThanOrEqual(5);
		for (const field of fields) expect(Object.keys(item)).toContain(field);
		// The message is the one the text shows for this job, its date as people read it.
		const shown = codeSpans(step3).find(
			(span) => span.startsWith('New job:') && !span.includes('{{'),
		);
		expect(shown).toBe(
			'New job: Travel RN - ICU (Nights) at Saint Alphonsus Medical Center, Boise, ID, starts 15 Feb 2027',
		);
		expect((first.body as { text: string }).text).toBe(shown);
		// One message in all: every execution the workflow ran is counted in (a check that finds
		// nothing to output starts none).
		const outputs = await Promise.all(
			(await n8n.listExecutions(workflow.id)).map(
				async (each) => nodeItems(await n8n.getExecution(each.id), 'Trio VMS Sync Trigger').length,
			),
		);
		await sandbox.idle();
		expect(outputs).toEqual([1]);
		expect(receiver.received.filter((request) => request.path === '/quick-start-1')).toHaveLength(
			1,
		);
	}, 480_000);

	// -------------------------------------------------------------- quick start 2

	/** The sheet of quick start 2 as a file: the columns the text lists, rows whose jobs are open. */
	function quickStart2Rows(text: string): {
		header: string[];
		rows: string[][];
		badRows: string[][];
	} {
		const columns = codeSpans(text.split('\n\n')[0]);
		const sample = fs.readFileSync(path.join(SAMPLE_DATA_DIR, 'candidates.csv'), 'utf8').trim();
		const [header, ...lines] = sample.split('\n');
		expect(header.split(',')).toEqual(columns);
		const good = lines.filter((row) => /,10000[134],/.test(row) && !row.startsWith('Tom'));
		expect(good).toHaveLength(3);
		// Three rows a recruiter gets wrong: a mistyped email, a job on hold, a resume not in the folder.
		const bad = ['Tom', 'Luis', 'Sam'].map((name) =>
			lines.find((row) => row.startsWith(`${name},`))!,
		);
		return {
			header: header.split(','),
			rows: good.map((row) => row.split(',')),
			badRows: bad.map((row) => row.split(',')),
		};
	}

	/**
	 * An XLSX file as Excel saves one, written with the SheetJS copy inside the cached n8n install
	 * (the one Extract from File reads with): job numbers and rates as numbers, start dates as date
	 * cells shown as yyyy-mm-dd.
	 */
	async function writeXlsx(file: string, header: string[], rows: string[][]): Promise<void> {
		const install = await ensureN8n('2.x');
		let dir = path.dirname(install.n8nBin);
		while (!fs.existsSync(path.join(dir, 'node_modules', '@e965', 'xlsx'))) dir = path.dirname(dir);
		const XLSX = createRequire(__filename)(path.join(dir, 'node_modules', '@e965', 'xlsx')) as {
			utils: {
				aoa_to_sheet(rows: unknown[][], options?: Json): Json;
				book_new(): Json;
				book_append_sheet(book: Json, sheet: Json, name: string): void;
			};
			writeFile(book: Json, file: string): void;
		};
		const cells = rows.map((row) =>
			row.map((cell, index) => {
				const column = header[index];
				if (column === 'Job Number') return Number(cell);
				if (column === 'Bill Rate') return Number(cell.replace('$', ''));
				if (column === 'Start Date') return new Date(`${cell}T00:00:00Z`);
				return cell;
			}),
		);
		const sheet = XLSX.utils.aoa_to_sheet([header, ...cells], {
			cellDates: true,
			dateNF: 'yyyy-mm-dd',
		});
		const book = XLSX.utils.book_new();
		XLSX.utils.book_append_sheet(book, sheet, 'Sheet1');
		XLSX.writeFile(book, file);
	}

	const QUICK_START_2_PASSES = [
		{ sheet: 'CSV', names: (name: string) => name },
		{ sheet: 'XLSX', names: (name: string) => name },
		// Every node renamed: nothing in the flow may depend on a node's name.
		{ sheet: 'CSV', names: (name: string) => `Renamed ${name.length} «${name}» step` },
		{ sheet: 'XLSX', names: (name: string) => `${name.split('').reverse().join('')} (mine)` },
	] as const;

	test.each(QUICK_START_2_PASSES.map((pass, index) => ({ ...pass, index })))(
		'Quick start 2 from a $sheet file (pass $index): each row becomes one submission with its resume, a second run creates and submits nobody twice',
		async ({ sheet, names, index }) => {
			const text = section(README, 'Quick start 2');
			const description = new TrioVms().description;
			await scenario('POST', '/reset', {});
			const { header, rows, badRows } = quickStart2Rows(text);

			// Step 1: the resumes inside ~/.n8n-files, at the text's path in n8n's home.
			const step1 = step(text, 1);
			statement(step1, 'n8n 2.x reads files only inside the folder');
			const folderInText = fieldValue(step(text, 3), 'Resume Folder');
			expect(codeSpans(step1)).toContain(folderInText);
			statement(step(text, 3), '`~` is the home folder of the user n8n runs as');
			expect(folderInText.startsWith('~/.n8n-files/')).toBe(true);
			const resumeFolder = path.join(home, folderInText.slice(2));
			fs.mkdirSync(resumeFolder, { recursive: true });
			fs.cpSync(path.join(SAMPLE_DATA_DIR, 'resumes'), resumeFolder, { recursive: true });

			// Step 2: the file, read by Read/Write Files from Disk, then Extract from File.
			const step2 = step(text, 2);
			expect(step2).toContain('**Read/Write Files from Disk**');
			expect(step2).toContain(`**Extract From ${sheet}**`);
			const sheetFile = path.join(filesFolder, `sheet-${index}.${sheet.toLowerCase()}`);
			// A real sheet has columns of its own: the ones step 3 says are left out.
			const ownColumns = codeSpans(step(text, 3)).filter((span) => /^[A-Z][a-z]+\??$/.test(span));
			expect(ownColumns).toEqual(['Recruiter', 'Notes', 'Submitted?']);
			statement(step(text, 3), 'columns of your own (such as');
			// And columns recruiters add to a field's name, which are theirs too (issue 46).
			const sheetHeader = [...header, ...ownColumns, 'Phone 2', 'Email 2', 'License State'];
			// The bad rows among the good ones, as a real sheet has them: rows 4, 6 and 7.
			const sheetCells = [rows[0], rows[1], badRows[0], rows[2], badRows[1], badRows[2]];
			const goodAt = [0, 1, 3];
			const sheetRows = sheetCells.map((cells) => [
				...cells,
				'Dana',
				'Call after 5 pm',
				'no',
				'(512) 555-0199',
				'other@example.com',
				'TX',
			]);
			if (sheet === 'CSV')
				fs.writeFileSync(
					sheetFile,
					`${[sheetHeader, ...sheetRows].map((row) => row.join(',')).join('\n')}\n`,
				);
			else await writeXlsx(sheetFile, sheetHeader, sheetRows);
			const start = node(
				names('Start'),
				'n8n-nodes-base.webhook',
				{
					httpMethod: 'POST',
					path: `quick-start-2-${randomUUID()}`,
					responseMode: 'onReceived',
					options: {},
				},
				{ webhookId: randomUUID() },
			);
			const readFile = node(names('Read/Write Files from Disk'), 'n8n-nodes-base.readWriteFile', {
				operation: 'read',
				fileSelector: sheetFile,
				options: {},
			});
			const extract = node(names('Extract from File'), 'n8n-nodes-base.extractFromFile', {
				operation: sheet.toLowerCase(),
				options: {},
			});

			// Step 3: Submission Create with Spreadsheet Columns; what "stays" is the node's default.
			const step3 = step(text, 3);
			expect(step3).toContain('**Trio VMS → Submission → Create**');
			const where = { resource: 'submission', operation: 'create' };
			const parameters: Json = { resource: 'submission', operation: 'create' };
			const valuesFrom = parameterPath(description, 'Values From', where);
			setPath(
				parameters,
				valuesFrom,
				optionValue(description, valuesFrom, choiceIn(step3, 'Values From'), where),
			);
			const columns = property(description, parameterPath(description, 'Columns', where), where);
			statement(step3, '**Columns** stays on **Map Automatically**');
			expect(columns.type).toBe('resourceMapper');
			expect((columns.default as Json).mappingMode).toBe('autoMapInputData');
			const resumeFrom = property(
				description,
				parameterPath(description, 'Resume From', where),
				where,
			);
			statement(step3, '**Resume From** stays on **A Folder on Disk**');
			expect(
				(resumeFrom.options as Array<{ name: string; value: string }>).find(
					(option) => option.value === resumeFrom.default,
				)?.name,
			).toBe('A Folder on Disk');
			const columnsWhere = { ...where, valuesFrom: 'columns' };
			const output = property(
				description,
				parameterPath(description, 'Output', columnsWhere),
				columnsWhere,
			);
			statement(step3, '**Output** stays on **Row With Result**');
			expect(
				(output.options as Array<{ name: string; value: string }>).find(
					(option) => option.value === output.default,
				)?.name,
			).toBe('Row With Result');
			// Typed as the text gives it, `~` and all.
			setPath(parameters, parameterPath(description, 'Resume Folder', where), folderInText);
			// "Nothing else to fill in": no expression is typed anywhere in the flow.
			statement(step3, 'Nothing else to fill in.');
			for (const part of [step1, step2, step3]) expect(part).not.toContain('{{');
			const submit = node(names('Trio VMS'), `${PACKAGE}.trioVms`, parameters, {
				credentials: trioCredential(),
			});
			// Step 5: each row's result kept in a CSV file, written where n8n may write.
			const step5 = step(text, 5).replace(/\s*\n\s*/g, ' ');
			expect(step5).toContain('**Convert to File** (**Convert to CSV**)');
			expect(step5).toContain('**Read/Write Files from Disk** (**Write File to Disk**)');
			const resultsFile = path.join(filesFolder, `results-${index}.csv`);
			const keep = [
				node(names('Convert to File'), 'n8n-nodes-base.convertToFile', {
					operation: 'csv',
					options: {},
				}),
				node(names('Write File to Disk'), 'n8n-nodes-base.readWriteFile', {
					operation: 'write',
					fileName: resultsFile,
					options: {},
				}),
			];
			const flow = [start, readFile, extract, submit, ...keep];
			expect(JSON.stringify(flow.map((each) => each.parameters))).not.toMatch(/"=|\{\{/);

			const workflow = await createWorkflow(`Quick start 2, pass ${index}`, flow);
			await n8n.activate(workflow.id);
			const run = async (): Promise<ExecutionRecord> => {
				const before = (await n8n.listExecutions(workflow.id)).length;
				const response = await postToWebhook(
					n8n.productionWebhookUrl('', start.parameters.path as string),
					{},
				);
				expect(response.status).toBe(200);
				await response.arrayBuffer();
				const list = await n8n.waitForExecutions(workflow.id, before + 1, RUN_TIMEOUT_MS);
				const execution = await n8n.getExecution(list[list.length - 1].id);
				expectSuccess(execution);
				return execution;
			};
			const seeded = new Set(
				(await trio<Array<{ Number: number }>>('/Submission')).map((each) => each.Number),
			);
			const newSubmissions = async () =>
				(
					await trio<Array<{ Number: number; JobNumber: number; CandidateNumber: number }>>(
						'/Submission',
					)
				).filter((submission) => !seeded.has(submission.Number));
			const candidatePosts = () =>
				sandbox.requests().filter((request) => request.route === 'POST /api/v3/candidates');
			// Submissions Trio took: a refused one (the job on hold) is not one.
			const submissionsTaken = () =>
				sandbox
					.requests()
					.filter(
						(request) =>
							request.route === 'POST /api/v3/Submission' &&
							request.status !== null &&
							request.status < 300,
					);
			const results = (execution: ExecutionRecord) =>
				nodeItems(execution, submit.name).map((item) => item['Trio Result']);
			const candidateOf = async (email: string) =>
				await trio<Array<{ number: number }>>(`/candidates?email=${encodeURIComponent(email)}`);
			const column = (name: string) => header.indexOf(name);

			// Step 4: "Each row becomes one submission", the candidate found by email or created.
			statement(text, 'Each row becomes one submission');
			statement(text, 'A bad row never stops the others');
			sandbox.clearRequests();
			const first = await run();
			const submitted = await newSubmissions();
			expect(submitted).toHaveLength(rows.length);
			const numbers = await Promise.all(
				rows.map(async (cells) => {
					const found = await candidateOf(cells[column('Email')]);
					expect(found).toHaveLength(1);
					return found[0].number;
				}),
			);
			expect(
				submitted.map(({ JobNumber, CandidateNumber }) => `${JobNumber}/${CandidateNumber}`),
			).toEqual(rows.map((cells, row) => `${cells[column('Job Number')]}/${numbers[row]}`));
			// Every row comes out, in the sheet's order, with its result beside its own columns.
			const firstRows = nodeItems(first, submit.name);
			expect(firstRows).toHaveLength(sheetRows.length);
			expect(results(first)).toEqual(
				sheetRows.map((_, row) => (goodAt.includes(row) ? 'submitted' : 'not submitted')),
			);
			for (const [row, item] of firstRows.entries()) {
				expect(item).toEqual(
					expect.objectContaining({ Recruiter: 'Dana', 'Phone 2': '(512) 555-0199' }),
				);
				expect(item['Trio Problem'] === '').toBe(goodAt.includes(row));
			}
			expect(goodAt.map((row) => firstRows[row]['Submission Number'])).toEqual(
				submitted.map((submission) => submission.Number),
			);
			// The problems in the recruiter's words: the email, the job on hold, the missing resume.
			expect(String(firstRows[2]['Trio Problem'])).toMatch(/"Email"/);
			expect(String(firstRows[4]['Trio Problem'])).toMatch(
				/^Trio VMS refused it: job 100002 is On Hold; only Open jobs accept submissions/,
			);
			expect(String(firstRows[5]['Trio Problem'])).toContain('"sam-lee.docx"');
			// "submitted ... with its bill rate, start date and resume"
			statement(text, 'with its bill rate, start date and resume');
			for (const [row, submission] of submitted.entries()) {
				const cells = rows[row];
				const record = await scenario<Json>('GET', `/submissions/${submission.Number}`);
				const fields = (record.submission ?? record) as Json;
				expect(Number(fields.BillRateAmount)).toBe(
					Number(cells[column('Bill Rate')].replace('$', '')),
				);
				expect(String(fields.StartDate)).toMatch(
					new RegExp(`^${cells[column('Start Date')]}T00:00:00`),
				);
				const file = await scenario<{ sha256: string; filename: string }>(
					'GET',
					`/submissions/${submission.Number}/file`,
				);
				const resume = fs.readFileSync(path.join(resumeFolder, cells[column('Resume File')]));
				expect(file).toMatchObject({
					filename: cells[column('Resume File')],
					sha256: createHash('sha256').update(resume).digest('hex'),
				});
			}
			// Step 5: the file holds every row with its result.
			statement(step5, 'The file holds every row with its result');
			const kept = parseCsv(fs.readFileSync(resultsFile, 'utf8'));
			expect(kept.map((row) => row['Trio Result'])).toEqual(results(first));
			expect(kept.map((row) => row.Email)).toEqual(
				sheetCells.map((cells) => cells[column('Email')]),
			);

			// "a sheet run twice creates nobody twice"; "Running the sheet again submits nobody twice".
			statement(text, 'a sheet run twice creates nobody twice');
			statement(text, 'Running the sheet again submits nobody twice');
			sandbox.clearRequests();
			const second = await run();
			expect(candidatePosts()).toHaveLength(0);
			expect(submissionsTaken()).toHaveLength(0);
			for (const cells of rows) expect(await candidateOf(cells[column('Email')])).toHaveLength(1);
			expect(await newSubmissions()).toEqual(submitted);
			statement(text, 'finds the submission in Trio and outputs it instead');
			statement(text, '`Trio Result` (`submitted`, `already submitted` or `not submitted`)');
			expect(
				nodeItems(second, submit.name).map((item) => ({
					Number: item['Submission Number'],
					result: item['Trio Result'],
				})),
			).toEqual(
				sheetRows.map((_, row) =>
					goodAt.includes(row)
						? { Number: submitted[goodAt.indexOf(row)].Number, result: 'already submitted' }
						: { Number: '', result: 'not submitted' },
				),
			);
			await n8n.deactivate(workflow.id);

			// Step 5: "fix the rows that say `not submitted` and run that file again; only they are sent".
			statement(
				step5,
				'fix the rows that say `not submitted` and run that file again; only they are sent',
			);
			await scenario('POST', '/jobs/100002/reopen', {});
			// Tom's row also names a resume the folder lacks: the recruiter puts it there.
			fs.copyFileSync(
				path.join(resumeFolder, 'jane-doe-rn.pdf'),
				path.join(resumeFolder, 'tom-brown.pdf'),
			);
			fs.writeFileSync(
				path.join(resumeFolder, 'sam-lee.txt'),
				'Sam Lee, RN. Six years in the ICU.\n',
			);
			const fixedRows = parseCsv(fs.readFileSync(resultsFile, 'utf8')).map((row) =>
				row.Email === 'tom.brown@example'
					? { ...row, Email: 'tom.brown@example.com' }
					: row['Resume File'] === 'sam-lee.docx'
						? { ...row, 'Resume File': 'sam-lee.txt' }
						: row,
			);
			const fixedFile = path.join(filesFolder, `fixed-${index}.csv`);
			fs.writeFileSync(fixedFile, toCsv(fixedRows));
			const again = [
				node(
					names('Start again'),
					'n8n-nodes-base.webhook',
					{
						httpMethod: 'POST',
						path: `quick-start-2-again-${randomUUID()}`,
						responseMode: 'onReceived',
						options: {},
					},
					{ webhookId: randomUUID() },
				),
				node(names('Read the fixed file'), 'n8n-nodes-base.readWriteFile', {
					operation: 'read',
					fileSelector: fixedFile,
					options: {},
				}),
				node(names('Extract the fixed rows'), 'n8n-nodes-base.extractFromFile', {
					operation: 'csv',
					options: {},
				}),
				node(names('Trio VMS again'), `${PACKAGE}.trioVms`, parameters, {
					credentials: trioCredential(),
				}),
			];
			const rerun = await createWorkflow(`Quick start 2, fixed rows, pass ${index}`, again);
			await n8n.activate(rerun.id);
			sandbox.clearRequests();
			const response = await postToWebhook(
				n8n.productionWebhookUrl('', again[0].parameters.path as string),
				{},
			);
			expect(response.status).toBe(200);
			await response.arrayBuffer();
			const [fixedRun] = await n8n.waitForExecutions(rerun.id, 1, RUN_TIMEOUT_MS);
			const third = await n8n.getExecution(fixedRun.id);
			expectSuccess(third);
			await n8n.deactivate(rerun.id);
			// Each row's result with its problem, so that a failure says which row and why.
			expect(
				nodeItems(third, again[3].name).map((item) =>
					item['Trio Problem']
						? `${item['Trio Result']}: ${item['Trio Problem']}`
						: item['Trio Result'],
				),
			).toEqual(
				sheetRows.map((_, row) => (goodAt.includes(row) ? 'already submitted' : 'submitted')),
			);
			expect(submissionsTaken()).toHaveLength(badRows.length);
			expect(await newSubmissions()).toHaveLength(rows.length + badRows.length);
		},
		300_000,
	);

	// Issue 39 item 7: a sheet's cell read any file n8n may read and sent it to Trio as the resume.
	test('Quick start 2 reads no Resume File outside the Resume Folder (../, a full path, a link out), whatever n8n may read, with one message', async () => {
		const text = section(README, 'Quick start 2');
		const folderInText = fieldValue(step(text, 3), 'Resume Folder');
		const resumeFolder = path.join(home, folderInText.slice(2));
		fs.mkdirSync(resumeFolder, { recursive: true });
		// Inside ~/.n8n-files, so n8n itself lets nodes read it: only the node's own rule stops it.
		const secret = path.join(home, '.n8n-files', 'not-resumes', 'secret.pdf');
		fs.mkdirSync(path.dirname(secret), { recursive: true });
		fs.copyFileSync(path.join(SAMPLE_DATA_DIR, 'resumes', 'jane-doe-rn.pdf'), secret);
		fs.rmSync(path.join(resumeFolder, 'link-out.pdf'), { force: true });
		fs.symlinkSync(secret, path.join(resumeFolder, 'link-out.pdf'));
		const cells = ['../not-resumes/secret.pdf', secret, 'link-out.pdf', 'nobody-here.pdf'];
		const [job] = (await trio<Array<{ Number: number; JobStatus: string }>>('/Job')).filter(
			(each) => each.JobStatus === 'Open',
		);
		const sheetFile = path.join(filesFolder, 'outside.csv');
		fs.writeFileSync(
			sheetFile,
			[
				'First Name,Last Name,Email,Job Number,Resume File',
				...cells.map((cell, row) => `Out,Side,outside.${row}@example.com,${job.Number},${cell}`),
			].join('\n'),
		);
		const start = node(
			'Start',
			'n8n-nodes-base.webhook',
			{
				httpMethod: 'POST',
				path: `outside-${randomUUID()}`,
				responseMode: 'onReceived',
				options: {},
			},
			{ webhookId: randomUUID() },
		);
		const submit = node(
			'Trio VMS',
			`${PACKAGE}.trioVms`,
			{
				resource: 'submission',
				operation: 'create',
				valuesFrom: 'columns',
				columns: { mappingMode: 'autoMapInputData', value: null },
				resumeFrom: 'folder',
				resumeFolder: folderInText,
				// Each row's error as n8n's Continue (regular output) gives it.
				output: 'simple',
			},
			{ credentials: trioCredential(), onError: 'continueRegularOutput' },
		);
		const workflow = await createWorkflow('Resume files outside the folder', [
			start,
			node('Read', 'n8n-nodes-base.readWriteFile', {
				operation: 'read',
				fileSelector: sheetFile,
				options: {},
			}),
			node('Extract', 'n8n-nodes-base.extractFromFile', { operation: 'csv', options: {} }),
			submit,
		]);
		await n8n.activate(workflow.id);
		sandbox.clearRequests();
		const response = await postToWebhook(
			n8n.productionWebhookUrl('', start.parameters.path as string),
			{},
		);
		expect(response.status).toBe(200);
		await response.arrayBuffer();
		const [done] = await n8n.waitForExecutions(workflow.id, 1, RUN_TIMEOUT_MS);
		const execution = await n8n.getExecution(done.id);
		await n8n.deactivate(workflow.id);
		const errors = nodeItems(execution, submit.name).map((item) => String(item.error));
		expect(errors).toHaveLength(cells.length);
		// One message for a missing file and a refused one: the sheet's editor learns nothing.
		expect(
			new Set(
				errors.map((error, row) =>
					error.replace(`"${cells[row]}"`, '"…"').replace(/ \(sheet row \d+\)$/, ''),
				),
			),
		).toEqual(
			new Set([
				`"Resume File" names "…", which is no file n8n may read in the Resume Folder ${resumeFolder}`,
			]),
		);
		expect(
			sandbox.requests().filter((request) => request.route === 'POST /api/v3/Submission'),
		).toEqual([]);
	}, 180_000);
});
