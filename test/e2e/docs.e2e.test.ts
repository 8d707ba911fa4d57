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
 * - the runs start from a Webhook trigger (the quick start's "Run it" is a click in the editor);
 * - quick start 2's rows come from a CSV and an XLSX file, read as the text says for a file
 *   (Google Sheets and Excel 365 cannot be reached from here); each runs once with the nodes named
 *   as n8n names them and once with every node renamed;
 * - the text's ~/.n8n-files/... is under the test's HOME, which is n8n's HOME (~ as the text says).
 *
 * Quick start 1 is proven in `examples.e2e.test.ts`, on the same minute tick as example 01, which
 * makes the same claim (one n8n waiting for one tick, not two): its workflow, statements and
 * checks are in fixtures/quick-start-1.ts, the reading of the text shared with this file in
 * fixtures/readme-text.ts.
 *
 * Run `npm run build` first.
 */
import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

import { TrioVms } from '../../nodes/TrioVms/TrioVms.node';
import type { RunningSandbox } from '../../sandbox';
import { codeSpans, fieldValue, section, step } from '../docs/markdown';
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
import {
	chained,
	choiceIn,
	editorNodes,
	executed,
	optionValue,
	PACKAGE,
	parameterPath,
	property,
	README,
	setPath,
	statement,
	type EditorNodes,
	type NodeCatalogue,
	type WorkflowNode,
} from './fixtures/readme-text';
import { parseCsv, toCsv } from '../support/csv';

const SAMPLE_DATA_DIR = path.join(REPO_ROOT, 'examples', 'sample-data');
const RUN_TIMEOUT_MS = 90_000;

type Json = Record<string, unknown>;

// ------------------------------------------------------------------ the suite

describeWithN8n('2.x', "README's quick starts, executed as written in real n8n 2.x", () => {
	let setup: ReadmeN8n | undefined;
	let sandbox: RunningSandbox;
	let n8n: N8nInstance;
	let home: string;
	let filesFolder: string;
	let credential: CredentialRef;
	let created: WorkflowRecord[];
	let scenario: ReadmeN8n['scenario'];
	let trio: ReadmeN8n['trio'];

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
		({ sandbox, n8n, home, filesFolder, credential, created, scenario, trio } = setup);
		// The node catalogue the editor loads, as the logged-in owner (`rest` prefixes /rest; the URL
		// parser folds the `..` back to /types/nodes.json).
		const catalogue = await n8n.rest<NodeCatalogue>('GET', '/../types/nodes.json');
		({ node, trioCredential } = editorNodes(catalogue, credential));
	});

	afterAll(async () => {
		await setup?.stop();
		process.stdout.write(
			`\nDocs test: ${executed.statements.length} statements asserted, ${executed.expressions.length} expressions executed\n`,
		);
	});

	let node: EditorNodes['node'];
	let trioCredential: EditorNodes['trioCredential'];

	async function createWorkflow(name: string, nodes: WorkflowNode[]): Promise<WorkflowRecord> {
		const record = await n8n.createWorkflow(chained(name, nodes));
		created.push(record);
		return record;
	}

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
