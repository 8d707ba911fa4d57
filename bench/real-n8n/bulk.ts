/**
 * Bulk submissions in real n8n: the README's quick start 2 flow over a sheet of N rows, against
 * the sandbox's rate limit (share of the limit, 429s, requests per row, lost, doubled, bad rows)
 * and without it at growing sizes (time and memory per row against n8n's own cost of the same
 * rows), with what the create memory wrote to n8n's database.
 */
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { basename, dirname, join } from 'node:path';

import type { N8nInstance } from '../../harness/n8n';
import { callJson, type SandboxProcess } from '../support';
import { alternate, drained, type Log } from './measures';
import { percentile, sampleMax, spread, type Spread } from './stats';
import {
	SHEET,
	bulkWorkflow,
	httpBulkWorkflow,
	rowsOnlyWorkflow,
	type Created,
	type CredentialRef,
} from './workflows';

/** The sandbox's rate limit on every API call during a bulk run. */
export const BULK_LIMIT = { limit: 20, windowMs: 1000 };

/**
 * The most calls the sandbox's sliding window lets through in a span: `limit` at once, and
 * `limit` more each time a window has passed. Dividing by the span alone would overstate short
 * runs (a 4 s run can take 100 calls at 20 per s: 125%).
 */
const capacity = (spanMs: number) =>
	BULK_LIMIT.limit * (Math.floor(spanMs / BULK_LIMIT.windowMs) + 1);

interface BulkRun {
	rows: number;
	/** Answered by the workflow's webhook (when its last node finished), ms. */
	wallMs: number;
	/** The workflow's answer: 200 when every node went through. */
	status: number;
	/** API calls the sandbox answered other than 429, and 429s. */
	accepted: number;
	rateLimited: number;
	/** Other answers of 400 or more (or dropped). */
	otherErrors: number;
	/** First API call's start to last API call's end at the sandbox, ms. */
	spanMs: number;
	/** Accepted calls as a share of what the limit lets through in that span (see capacity). */
	share: number;
	lost: number;
	duplicated: number;
	/** Candidates created beyond one per row. */
	extraCandidates: number;
	/** API calls (429s included) per row sent. */
	requestsPerRow: number;
	/** Bad rows (a bad e-mail) in the sheet; of them, answered 'not submitted', and sent anyway. */
	badRows: number;
	badReported: number;
	badSent: number;
	/** Good rows the workflow answered other than 'submitted' (the Trio side answers each row). */
	goodNotSubmitted: number;
	/** The start of the workflow's answer when it was not 200. */
	error?: string;
	/** Answers per route and status, e.g. "POST /api/v3/Candidate 429": 15. */
	answers: Record<string, number>;
	/** Median ms from arrival to answer at the sandbox, per route and status. */
	exchangeMs: Record<string, number>;
	/** Peak RSS of n8n and its task runner during the run, and that peak above the RSS before it, bytes. */
	peakRss: number;
	rssGrowth: number;
	/** What n8n's duplicate store (the create memory's) holds for the workflow after the run. */
	store: StoreRows;
	/** Whether the run wrote to that store at all (a row added, or one's last write moved). */
	storeWritten: boolean;
}

export interface BulkSide {
	share: Spread;
	/** Rows submitted (exactly once or more) per second of the workflow's wall time. */
	rowsPerSecond: Spread;
	acceptedPerSecond: Spread;
	wallMs: Spread;
	rateLimited: Spread;
	otherErrors: number;
	lost: number;
	duplicated: number;
	extraCandidates: number;
	requestsPerRow: Spread;
	badRows: number;
	badReported: number;
	badSent: number;
	goodNotSubmitted: number;
	failedRuns: number;
	peakRss: Spread;
	rssGrowth: Spread;
	/** Runs that wrote to n8n's duplicate store (the create memory) at all. */
	storeWrites: number;
}

export interface BulkResult {
	runs: number;
	rows: number;
	limit: typeof BULK_LIMIT;
	pdfBytes: number;
	trio: BulkSide;
	httpRequest: BulkSide;
	/**
	 * The Trio side without the limit: the flow's own pace on this machine, which bounds what
	 * any pace can reach under the limit.
	 */
	trioUnlimited: BulkSide;
}

/** The rows of n8n's `processed_data` table for a workflow: the create memory's writes. */
export interface StoreRows {
	rows: number;
	/** Characters of the rows' stored values together. */
	valueChars: number;
	/** The newest of the rows' `updatedAt`, or null without rows. */
	lastWrite: string | null;
}

/**
 * Reads n8n's SQLite database (read-only, beside the running n8n) with the Node that runs n8n:
 * Node 24 has `node:sqlite`, so the bench needs no database package of its own. Every write of
 * n8n's duplicate store leaves its row there (a removal empties the value, never the row), so no
 * row after a run means no write during it.
 */
export function storeRowsReader(n8n: N8nInstance, nodeBinary: string) {
	const database = join(n8n.userFolder, '.n8n', 'database.sqlite');
	const script = `const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1], { readOnly: true });
const row = db.prepare('SELECT count(*) AS rows, coalesce(sum(length(value)), 0) AS chars, max(updatedAt) AS lastWrite FROM processed_data WHERE workflowId = ?').get(process.argv[2]);
process.stdout.write(JSON.stringify(row));`;
	return (workflowId: string): StoreRows => {
		const run = spawnSync(nodeBinary, ['--no-warnings', '-e', script, database, workflowId], {
			encoding: 'utf8',
			timeout: 30_000,
		});
		if (run.status !== 0) throw new Error(`reading n8n's database: ${run.stderr || run.error}`);
		const row = JSON.parse(run.stdout) as { rows: number; chars: number; lastWrite: string | null };
		return { rows: row.rows, valueChars: row.chars, lastWrite: row.lastWrite };
	};
}

/**
 * POSTs the sheet to the workflow's webhook and waits for its answer (the webhook answers when
 * the last node finished). Not fetch: its client gives up after 300 s without answer headers,
 * shorter than a 10,000-row run.
 */
function postSheet(
	url: string,
	body: string,
	timeoutMs: number,
): Promise<{ status: number; body: string } | undefined> {
	return new Promise((resolve) => {
		const request = httpRequest(
			url,
			{ method: 'POST', headers: { 'Content-Type': 'application/json' }, timeout: timeoutMs },
			(answer) => {
				const chunks: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => chunks.push(chunk));
				answer.on('end', () =>
					resolve({ status: answer.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
				);
				answer.on('error', () => resolve(undefined));
			},
		);
		request.on('timeout', () => request.destroy());
		request.on('error', () => resolve(undefined));
		request.end(body);
	});
}

interface LoggedRequest {
	time: string;
	path: string;
	route: string | null;
	status: number | null;
	durationMs: number;
}

interface Row {
	email: string;
	firstName: string;
	lastName: string;
	jobNumber: number;
	/** Its e-mail is no e-mail address: the row must come back 'not submitted', nothing sent. */
	bad: boolean;
}

/** A row as the sheet of quick start 2 has it, by its column names. */
const sheetRow = (row: Row, resumeFile: string) => ({
	[SHEET.firstName]: row.firstName,
	[SHEET.lastName]: row.lastName,
	[SHEET.email]: row.email,
	[SHEET.jobNumber]: row.jobNumber,
	[SHEET.resumeFile]: resumeFile,
});

/** Every 20th row has a bad e-mail: 5% of the sheet. */
const BAD_ROW_EVERY = 20;

/** Open jobs of the sandbox for the rows, found before any fault is set. */
async function openJobs(sandbox: SandboxProcess, count: number): Promise<number[]> {
	const list = await callJson<Array<{ Number: number; JobStatus?: string }>>(
		`${sandbox.apiUrl}/Job`,
		{ key: sandbox.key },
	);
	const open = list.filter((job) => job.JobStatus === 'Open').map((job) => job.Number);
	if (open.length < count) throw new Error(`the sandbox has only ${open.length} open jobs`);
	return open.slice(0, count);
}

const storeAfter = (before: StoreRows, after: StoreRows) => ({
	store: after,
	storeWritten: after.rows !== before.rows || after.lastWrite !== before.lastWrite,
});

export interface BulkContext {
	n8n: N8nInstance;
	sandbox: SandboxProcess;
	storeRows: (workflowId: string) => StoreRows;
}

async function bulkOnce(
	{ n8n, sandbox, storeRows }: BulkContext,
	target: Created,
	rows: Row[],
	resumeFile: string,
	limited = true,
): Promise<BulkRun> {
	await callJson(`${sandbox.url}/_sandbox/faults`, {
		method: 'PUT',
		body: { endpoints: limited ? { '*': { rateLimit: BULK_LIMIT } } : {} },
	});
	await callJson(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' });
	const storeBefore = storeRows(target.id);
	const before = n8n.rssBytes();
	const sampler = sampleMax(() => n8n.rssBytes(), 50);
	const started = performance.now();
	const response = await postSheet(
		target.url,
		JSON.stringify({ rows: rows.map((row) => sheetRow(row, resumeFile)) }),
		// Bounded: the limit allows the run in rows * 4 calls / 20 per s; plenty more on top.
		120_000 + rows.length * 2_000,
	);
	const answer = response?.body ?? 'no answer';
	const wallMs = performance.now() - started;
	const peakRss = sampler.stop();
	await drained(n8n, target.id, 120_000 + rows.length * 100);
	await callJson(`${sandbox.url}/_sandbox/faults`, { method: 'DELETE' });

	const log = (await callJson<LoggedRequest[]>(`${sandbox.url}/_sandbox/requests`)).filter(
		(entry) => entry.path.startsWith('/api/'),
	);
	const rateLimited = log.filter((entry) => entry.status === 429).length;
	const accepted = log.filter((entry) => entry.status !== null && entry.status !== 429);
	const otherErrors = log.filter(
		(entry) => entry.status === null || (entry.status >= 400 && entry.status !== 429),
	).length;
	const answers: Record<string, number> = {};
	const durations: Record<string, number[]> = {};
	for (const entry of log) {
		const key = `${entry.route ?? entry.path} ${entry.status ?? 'dropped'}`;
		answers[key] = (answers[key] ?? 0) + 1;
		(durations[key] ??= []).push(entry.durationMs);
	}
	// The sandbox's time from a call's arrival to its answer, per route and status: what counting
	// a call from its answer (nodes/shared/transport/pacing.ts) gives up per window.
	const exchangeMs = Object.fromEntries(
		Object.entries(durations).map(([key, values]) => [key, percentile(values, 0.5)]),
	);
	const starts = log.map((entry) => Date.parse(entry.time));
	const ends = log.map((entry) => Date.parse(entry.time) + entry.durationMs);
	const spanMs = log.length ? Math.max(...ends) - Math.min(...starts) : NaN;

	// What reached the service: the rows' candidates (by e-mail) and their submissions.
	const candidates = await callJson<Array<{ number: number; email1: string }>>(
		`${sandbox.url}/_sandbox/candidates`,
	);
	const submissions = await callJson<Array<{ JobNumber: number; CandidateNumber: number }>>(
		`${sandbox.apiUrl}/Submission`,
		{ key: sandbox.key },
	);
	let lost = 0;
	let duplicated = 0;
	let extraCandidates = 0;
	let badSent = 0;
	// Indexed, so that a sheet of 10,000 rows is not compared with every record of the service.
	const byEmail = new Map<string, number[]>();
	for (const each of candidates)
		byEmail.set(each.email1, [...(byEmail.get(each.email1) ?? []), each.number]);
	const pairCount = new Map<string, number>();
	for (const each of submissions) {
		const key = `${each.CandidateNumber}/${each.JobNumber}`;
		pairCount.set(key, (pairCount.get(key) ?? 0) + 1);
	}
	for (const row of rows) {
		const numbers = new Set(byEmail.get(row.email) ?? []);
		extraCandidates += Math.max(0, numbers.size - 1);
		let count = 0;
		for (const number of numbers) count += pairCount.get(`${number}/${row.jobNumber}`) ?? 0;
		if (row.bad) {
			if (count > 0 || numbers.size > 0) badSent++;
			continue;
		}
		if (count === 0) lost++;
		duplicated += Math.max(0, count - 1);
	}
	// Each row's result, when the workflow answers its rows (the Trio side: Row With Result).
	const results = new Map<string, unknown>();
	try {
		const answered = JSON.parse(answer) as unknown;
		if (Array.isArray(answered))
			for (const each of answered as Array<Record<string, unknown>>)
				results.set(String(each[SHEET.email]), each['Trio Result']);
	} catch {
		// Not JSON: no results to read.
	}
	const badRows = rows.filter((row) => row.bad);
	const badReported = badRows.filter((row) => results.get(row.email) === 'not submitted').length;
	const goodNotSubmitted = results.size
		? rows.filter((row) => !row.bad && results.get(row.email) !== 'submitted').length
		: 0;
	return {
		rows: rows.length,
		wallMs,
		status: response?.status ?? 0,
		accepted: accepted.length,
		rateLimited,
		otherErrors,
		spanMs,
		share: accepted.length / capacity(spanMs),
		lost,
		duplicated,
		extraCandidates,
		requestsPerRow: log.length / rows.length,
		badRows: badRows.length,
		badReported,
		badSent,
		goodNotSubmitted,
		...(response?.status === 200 ? {} : { error: answer.slice(0, 300) }),
		answers,
		exchangeMs,
		peakRss,
		rssGrowth: Math.max(0, peakRss - before),
		...storeAfter(storeBefore, storeRows(target.id)),
	};
}

const summariseBulk = (runs: BulkRun[]): BulkSide => {
	const sum = (pick: (run: BulkRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
	return {
		share: spread(runs.map((run) => run.share)),
		rowsPerSecond: spread(runs.map((run) => ((run.rows - run.lost) * 1000) / run.wallMs)),
		acceptedPerSecond: spread(runs.map((run) => (run.accepted * 1000) / run.spanMs)),
		wallMs: spread(runs.map((run) => run.wallMs)),
		rateLimited: spread(runs.map((run) => run.rateLimited)),
		otherErrors: sum((run) => run.otherErrors),
		lost: sum((run) => run.lost),
		duplicated: sum((run) => run.duplicated),
		extraCandidates: sum((run) => run.extraCandidates),
		requestsPerRow: spread(runs.map((run) => run.requestsPerRow)),
		badRows: sum((run) => run.badRows),
		badReported: sum((run) => run.badReported),
		badSent: sum((run) => run.badSent),
		goodNotSubmitted: sum((run) => run.goodNotSubmitted),
		failedRuns: runs.filter((run) => run.status !== 200).length,
		peakRss: spread(runs.map((run) => run.peakRss)),
		rssGrowth: spread(runs.map((run) => run.rssGrowth)),
		storeWrites: runs.filter((run) => run.storeWritten).length,
	};
};

/** A sheet of fresh rows (e-mails from `prefix`), a bad e-mail every 20th row, over `jobs`. */
function sheetOf(prefix: string, size: number, jobs: number[], batch: number): Row[] {
	return Array.from({ length: size }, (_, index) => {
		const bad = (index + 1) % BAD_ROW_EVERY === 0;
		return {
			email: bad
				? `${prefix}-${index + 1} at bench.example`
				: `${prefix}-${index + 1}@bench.example`,
			firstName: `Row${index + 1}`,
			lastName: `Bulk${batch}`,
			jobNumber: jobs[index % jobs.length],
			bad,
		};
	});
}

const mib = (bytes: number) => (bytes / 1_048_576).toFixed(0);

const memoryWords = (run: BulkRun) =>
	`peak RSS ${mib(run.peakRss)} MiB (+${mib(run.rssGrowth)}); n8n's duplicate store ${run.storeWritten ? `written (${run.store.rows} rows, ${run.store.valueChars} chars)` : 'not written'}`;

export async function measureBulk(
	context: BulkContext,
	credential: CredentialRef,
	options: { rows: number; runs: number; pdfPath: string; pdfBytes: number },
	log: Log,
): Promise<BulkResult> {
	const { n8n, sandbox } = context;
	const trio = await bulkWorkflow(n8n, credential, dirname(options.pdfPath));
	const http = await httpBulkWorkflow(n8n, sandbox.apiUrl, sandbox.key, options.pdfPath);
	const jobs = await openJobs(sandbox, 5);
	let runNumber = 0;
	// Fresh e-mails every run, so each run's rows are told apart from every other run's. The HTTP
	// Request flow is sent the good rows only: it cannot tell a bad row but by sending it, and
	// n8n's Retry On Fail would then retry Trio's 400 five times a node, which measures that
	// setting rather than the pace.
	const rowsFor = (side: 'trio' | 'http' | 'free'): Row[] => {
		const sheet = sheetOf(`bulk-${++runNumber}-${side}`, options.rows, jobs, runNumber);
		return side === 'http' ? sheet.filter((row) => !row.bad) : sheet;
	};
	const resumeFile = basename(options.pdfPath);
	const runs = await alternate(
		options.runs,
		{
			trio: () => bulkOnce(context, trio, rowsFor('trio'), resumeFile),
			httpRequest: () => bulkOnce(context, http, rowsFor('http'), resumeFile),
			trioUnlimited: () => bulkOnce(context, trio, rowsFor('free'), resumeFile, false),
		},
		log,
		(run) =>
			`${(run.share * 100).toFixed(0)}% of the limit (${((run.accepted * 1000) / run.spanMs).toFixed(1)} accepted calls/s over ${(run.spanMs / 1000).toFixed(1)} s), ${run.accepted} accepted, ${run.rateLimited} x 429${run.otherErrors ? `, ${run.otherErrors} other errors` : ''}; ${run.requestsPerRow.toFixed(2)} requests per row; lost ${run.lost}, duplicated ${run.duplicated}${run.badRows ? `, bad rows ${run.badRows}: ${run.badReported} answered 'not submitted', ${run.badSent} sent` : ''}${run.goodNotSubmitted ? `, ${run.goodNotSubmitted} good rows not answered 'submitted'` : ''}${run.extraCandidates ? `, ${run.extraCandidates} extra candidates` : ''}; wall ${(run.wallMs / 1000).toFixed(1)} s; ${memoryWords(run)}${run.status !== 200 ? `, workflow answered ${run.status}: ${run.error ?? ''}` : ''}\n      answers: ${Object.entries(
				run.answers,
			)
				.map(([key, count]) => `${key} x ${count} (median ${run.exchangeMs[key]?.toFixed(0)} ms)`)
				.join(', ')}`,
	);
	return {
		runs: options.runs,
		rows: options.rows,
		limit: BULK_LIMIT,
		pdfBytes: options.pdfBytes,
		trio: summariseBulk(runs.trio),
		httpRequest: summariseBulk(runs.httpRequest),
		trioUnlimited: summariseBulk(runs.trioUnlimited),
	};
}

/** One size of the scale measure: the Trio VMS flow and n8n's own flow over the same rows. */
export interface ScaleStep {
	rows: number;
	trio: {
		wallMs: number;
		msPerRow: number;
		peakRss: number;
		rssGrowth: number;
		lost: number;
		duplicated: number;
		badReported: number;
		goodNotSubmitted: number;
		storeWritten: boolean;
	};
	rowsOnly: { wallMs: number; peakRss: number; rssGrowth: number };
}

/**
 * The bulk flow without the limit at growing sizes, each beside n8n's own cost of the same rows
 * (Webhook -> Split Out -> No Operation): the time per row, which stays level when the time is
 * linear, and the RSS growth beyond n8n's own, which stays level when the node's memory is flat.
 */
export async function measureBulkScale(
	context: BulkContext,
	credential: CredentialRef,
	options: { sizes: number[]; pdfPath: string },
	log: Log,
): Promise<ScaleStep[]> {
	const { n8n, sandbox } = context;
	const trio = await bulkWorkflow(n8n, credential, dirname(options.pdfPath));
	const rowsOnly = await rowsOnlyWorkflow(n8n);
	const jobs = await openJobs(sandbox, 5);
	const resumeFile = basename(options.pdfPath);
	const steps: ScaleStep[] = [];
	for (const [batch, size] of options.sizes.entries()) {
		const sheet = (side: string) => sheetOf(`scale-${batch}-${side}`, size, jobs, batch);
		const base = await bulkOnce(context, rowsOnly, sheet('rows'), resumeFile, false);
		const run = await bulkOnce(context, trio, sheet('trio'), resumeFile, false);
		const step: ScaleStep = {
			rows: size,
			trio: {
				wallMs: run.wallMs,
				msPerRow: run.wallMs / size,
				peakRss: run.peakRss,
				rssGrowth: run.rssGrowth,
				lost: run.lost,
				duplicated: run.duplicated,
				badReported: run.badReported,
				goodNotSubmitted: run.goodNotSubmitted,
				storeWritten: run.storeWritten,
			},
			rowsOnly: { wallMs: base.wallMs, peakRss: base.peakRss, rssGrowth: base.rssGrowth },
		};
		steps.push(step);
		log(
			`${size} rows: Trio VMS ${(run.wallMs / 1000).toFixed(1)} s (${step.trio.msPerRow.toFixed(1)} ms per row), ${memoryWords(run)}; lost ${run.lost}, duplicated ${run.duplicated}, bad rows answered 'not submitted' ${run.badReported} of ${run.badRows}${run.goodNotSubmitted ? `, ${run.goodNotSubmitted} good rows not answered 'submitted'` : ''} | rows alone ${(base.wallMs / 1000).toFixed(1)} s, peak RSS ${mib(base.peakRss)} MiB (+${mib(base.rssGrowth)})`,
		);
	}
	return steps;
}
