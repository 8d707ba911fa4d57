/**
 * Shared set-up of the action node's engine tests: one sandbox per test file, credentials for
 * its two keys, and small readers for the sandbox's request log.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeParameterResourceLocator,
	INodeParameters,
} from 'n8n-workflow';

import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { SecurityConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import { startSandbox, type RequestRecord, type RunningSandbox } from '../../sandbox';
import { runNode, trioCredentials, type RunNodeOptions } from '../../harness/engine/engine';
import { forgetUncertainCreates } from '../../nodes/TrioVms/helpers/createMemory';

export const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n%%EOF\n');
/** The parts a Word document's ZIP names, as local file headers (names stored uncompressed). */
export function wordZip(partNames = ['[Content_Types].xml', 'word/document.xml']): Buffer {
	return Buffer.concat(
		partNames.flatMap((name) => [
			Buffer.from([0x50, 0x4b, 0x03, 0x04]),
			Buffer.alloc(22),
			// The name's length, then no extra field: the DOCX check reads entry names exactly.
			Buffer.from([name.length & 0xff, name.length >> 8, 0, 0]),
			Buffer.from(name, 'latin1'),
			Buffer.alloc(40, 7),
		]),
	);
}
export const DOCX = wordZip();

export interface Harness {
	sandbox: RunningSandbox;
	/** Credential with the agency administrator key. */
	admin: ICredentialDataDecryptedObject;
	/** Credential with the plain agency key (no webhook management). */
	agency: ICredentialDataDecryptedObject;
	/** Credential with a key the service does not know. */
	wrongKey: ICredentialDataDecryptedObject;
	/** Runs Source -> Trio VMS with the admin key unless told otherwise. */
	run(parameters: INodeParameters, options?: Partial<RunNodeOptions>): ReturnType<typeof runNode>;
	/** Requests that reached /api/v3 since the last clear. */
	apiRequests(): RequestRecord[];
	clearRequests(): void;
	/** GET on the scenario API. */
	scenario<T = IDataObject>(method: string, path: string, body?: unknown): Promise<T>;
}

/** Starts a sandbox before the file's tests and stops it after them. */
export function useSandbox(options: { jobs?: number; seed?: number } = {}): Harness {
	const harness = {} as Harness;
	beforeAll(async () => {
		const sandbox = await startSandbox({
			port: 0,
			quiet: true,
			jobs: options.jobs ?? 40,
			seed: options.seed ?? 7,
		});
		Object.assign(harness, {
			sandbox,
			admin: trioCredentials(sandbox.url, sandbox.adminKey),
			agency: trioCredentials(sandbox.url, sandbox.key),
			wrongKey: trioCredentials(sandbox.url, 'not-a-real-key'),
			run: (parameters: INodeParameters, runOptions: Partial<RunNodeOptions> = {}) =>
				runNode({ credentials: harness.admin, ...runOptions, parameters }),
			apiRequests: () => sandbox.requests().filter((request) => request.path.startsWith('/api/v3')),
			clearRequests: () => sandbox.clearRequests(),
			scenario: async (method: string, path: string, body?: unknown) => {
				const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
					method,
					headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
					body: body === undefined ? undefined : JSON.stringify(body),
				});
				const text = await response.text();
				if (!response.ok)
					throw new Error(`${method} /_sandbox${path} answered ${response.status}: ${text}`);
				return text ? JSON.parse(text) : undefined;
			},
		});
	});
	afterAll(async () => {
		await harness.sandbox?.stop();
	});
	beforeEach(() => {
		// A test's gateway errors must not hold back the next test's creates of the same pair.
		forgetUncertainCreates();
		harness.sandbox.clearFaults();
		harness.sandbox.clearRequests();
	});
	return harness;
}

/** The least a Candidate: Create takes; a test about something else in a create spreads it. */
export const SMALLEST_CANDIDATE_CREATE: INodeParameters = {
	resource: 'candidate',
	operation: 'create',
	firstName: 'A',
	lastName: 'B',
	email: 'ab@agency.example',
};

/** The profile file the submission tests attach to every row. */
export const PDF_FILE = { fileName: 'Jane_Doe_RN.pdf', mimeType: 'application/pdf', data: PDF };

/** Submission Create reading the job and candidate numbers from each input row. */
export const SUBMIT_PAIRS: INodeParameters = {
	resource: 'submission',
	operation: 'create',
	job: byNumber('={{ $json.job }}'),
	candidateNumber: '={{ $json.candidate }}',
};

/** Runs Submission Create over one row per pair, each with PDF_FILE attached. */
export function submitPairs(
	harness: Harness,
	pairs: Array<{ job: number; candidate: number }>,
	options: Partial<RunNodeOptions> = {},
) {
	return harness.run(SUBMIT_PAIRS, {
		input: pairs,
		inputBinary: pairs.map(() => PDF_FILE),
		...options,
	});
}

/** Retry On Fail as the editor saves it: three tries, 1 ms apart (n8n reads 0 ms as 1 s). */
export const RETRY_ON_FAIL: RunNodeOptions['settings'] = {
	retryOnFail: true,
	maxTries: 3,
	waitBetweenTries: 1,
};

type Pair = { job: number; candidate: number };

/** Submissions of the candidate to the job that the sandbox has stored. */
export function storedSubmissions(harness: Harness, job: number, candidate: number): number {
	return [...harness.sandbox.store.submissions.values()].filter(
		(record) =>
			record.submission.JobNumber === job && record.submission.CandidateNumber === candidate,
	).length;
}

/** POST /api/v3/Submission requests since the last clear. */
export function submissionPosts(harness: Harness): number {
	return harness
		.apiRequests()
		.filter((request) => request.method === 'POST' && request.path === '/api/v3/Submission').length;
}

/**
 * A source of pairs of an open job and a candidate never submitted to it, none twice, different
 * on every call. The n-th pair tried is the open job at `job(n)` and the candidate at
 * `candidate(n)` (indexes wrap), so each file walks the sandbox in its own order.
 */
export function pairSource(
	harness: Harness,
	job: (turn: number) => number,
	candidate: (turn: number) => number,
): (count: number) => Pair[] {
	let turn = 0;
	return (count) => {
		const jobs = harness.sandbox.store.listJobs().filter((each) => each.JobStatus === 'Open');
		const candidates = [...harness.sandbox.store.candidates.keys()];
		const pairs: Pair[] = [];
		while (pairs.length < count) {
			const pair = {
				job: jobs[job(turn) % jobs.length].Number,
				candidate: candidates[candidate(turn) % candidates.length],
			};
			turn++;
			if (
				storedSubmissions(harness, pair.job, pair.candidate) === 0 &&
				!pairs.some((each) => each.job === pair.job && each.candidate === pair.candidate)
			)
				pairs.push(pair);
		}
		return pairs;
	};
}

/** A resource locator value as the editor saves it. */
export function byNumber(value: string | number): INodeParameterResourceLocator {
	return { __rl: true, mode: 'number', value: String(value) };
}

export function fromList(value: string | number): INodeParameterResourceLocator {
	return { __rl: true, mode: 'list', value: String(value) };
}

/** The message and description of a run's error (the thrown NodeApiError/NodeOperationError). */
export function errorText(error: unknown): {
	message: string;
	description: string;
	itemIndex: unknown;
	httpCode: unknown;
} {
	const record = (error ?? {}) as {
		message?: string;
		description?: string;
		context?: IDataObject;
		httpCode?: unknown;
	};
	return {
		message: record.message ?? '',
		description: record.description ?? '',
		itemIndex: record.context?.itemIndex,
		httpCode: record.httpCode,
	};
}

/**
 * Lets n8n's file helpers read only below `folder` for the test file (n8n's own
 * N8N_RESTRICT_FILE_ACCESS_TO, set on its SecurityConfig), and puts the setting back afterwards.
 */
export function restrictFileAccessTo(folder: string): void {
	let before: string;
	beforeAll(() => {
		const security = Container.get(SecurityConfig);
		before = security.restrictFileAccessTo;
		security.restrictFileAccessTo = folder;
	});
	afterAll(() => {
		Container.get(SecurityConfig).restrictFileAccessTo = before;
	});
}

/**
 * A folder n8n may read for the test file (restrictFileAccessTo) holding a Resume Folder,
 * `resumes`, and beside it `other`, whose files n8n may read but no resume cell may reach.
 */
export function readableResumeFolders(prefix: string) {
	const readable = mkdtempSync(join(tmpdir(), prefix));
	const folder = join(readable, 'resumes');
	const otherFolder = join(readable, 'other');
	mkdirSync(folder);
	mkdirSync(otherFolder);
	restrictFileAccessTo(readable);
	return { readable, folder, otherFolder };
}

/**
 * Submission Create from spreadsheet columns mapped automatically, resumes from `folder`. Output
 * Simplified: a bad row stops the node, so each check's message is the node's error (with the
 * default, Row With Result, it is the row's Trio Problem: sheet-rows.test.ts).
 */
export function submitRowsFrom(folder: string): INodeParameters {
	return {
		resource: 'submission',
		operation: 'create',
		output: 'simple',
		valuesFrom: 'columns',
		columns: { mappingMode: 'autoMapInputData', value: null },
		resumeFrom: 'folder',
		resumeFolder: folder,
	};
}
