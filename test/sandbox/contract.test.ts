/**
 * The contract between the nodes and the sandbox. The sandbox reads the wire from the spec on
 * its own (sandbox/wire.ts, literal paths in sandbox/api.ts), so these tests send it what the
 * nodes send, built with the nodes' own constants, encoder and operations, and read what it
 * answers with the nodes' own schemas. The last block alters one node-side value in a copy and
 * shows the sandbox refuses it: a real drift of the nodes away from the spec fails here.
 */
import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import { z, type ZodTypeAny } from 'zod/v3';

import { TRIO_EVENT_NAMES } from '../../nodes/shared/events';
import { encodeMultipart, type MultipartPart } from '../../nodes/shared/transport/multipart';
import { jobSchema, submissionSchema, webhookRegistrationSchema } from '../../nodes/shared/schemas';
import {
	API_PREFIX,
	PATHS,
	PROFILE_FILE_CONTENT_TYPES,
	PROFILE_FILE_EXTENSIONS,
	PROFILE_FILE_MAX_BYTES,
} from '../../nodes/shared/serviceFacts';
import { fillPath } from '../../nodes/shared/transport/request';
import type { RunningSandbox } from '../../sandbox';
import { runNode, trioCredentials } from '../../harness/engine/engine';
import { PDF_FILE, SUBMIT_PAIRS } from '../support/sandbox-harness';
import { candidateSchema } from '../support/service-shapes';
import { api, start } from './helpers';
import type { Json } from './helpers';

type PathKey = keyof typeof PATHS;
type Paths = Readonly<Record<PathKey, string>>;

/** The seed's first four submissions are Offered; JOB is its first Open job. */
const OFFERED_SUBMISSION = 90_001;
let JOB: number;

/** Every path the nodes know, with the method they use it with and how they read the answer. */
const NODE_ROUTES: Array<{ method: 'GET' | 'POST'; key: PathKey; answer?: ZodTypeAny }> = [
	{ method: 'GET', key: 'jobs', answer: z.array(jobSchema) },
	{ method: 'GET', key: 'job', answer: jobSchema },
	{ method: 'GET', key: 'candidates', answer: z.array(candidateSchema) },
	{ method: 'POST', key: 'candidates' },
	{ method: 'GET', key: 'submissions', answer: z.array(submissionSchema) },
	{ method: 'POST', key: 'submissions' },
	{ method: 'GET', key: 'submission', answer: submissionSchema },
	{ method: 'POST', key: 'submissionAccept' },
	{ method: 'POST', key: 'submissionDecline' },
	{ method: 'POST', key: 'submissionWithdraw' },
	{ method: 'GET', key: 'withdrawReasons', answer: z.array(z.string()) },
	{ method: 'GET', key: 'webhooks', answer: z.array(webhookRegistrationSchema) },
	{ method: 'POST', key: 'webhooks' },
	{ method: 'GET', key: 'webhookEvents', answer: z.array(z.string()) },
];

/**
 * Sends one request the way the nodes address it (their prefix, their path, fillPath) and
 * returns the sandbox's route template for it (null when the sandbox knows no such route) and
 * its answer. Bodies are left out: only the route is asked about here.
 */
async function routeOf(
	sandbox: RunningSandbox,
	method: string,
	prefix: string,
	path: string,
): Promise<{ route: string | null; status: number; body: Json }> {
	sandbox.clearRequests();
	const filled = fillPath(path, {
		number: path.startsWith('/Submission') ? OFFERED_SUBMISSION : JOB,
	});
	const query = path === '/candidates' && method === 'GET' ? '?email=nobody@example.com' : '';
	const response = await fetch(`${sandbox.url}${prefix}${filled}${query}`, {
		method,
		headers: { 'X-API-KEY': sandbox.adminKey },
	});
	const text = await response.text();
	const [logged] = sandbox.requests();
	return { route: logged.route, status: response.status, body: text ? JSON.parse(text) : null };
}

/** The nodes' routes the sandbox does not serve, as "METHOD path -> status". */
async function unservedRoutes(sandbox: RunningSandbox, prefix: string, paths: Paths) {
	const misses: string[] = [];
	for (const { method, key } of NODE_ROUTES) {
		const { route, status } = await routeOf(sandbox, method, prefix, paths[key]);
		if (route !== `${method} ${prefix}${paths[key]}`)
			misses.push(`${method} ${prefix}${paths[key]} -> ${status}`);
	}
	return misses;
}

/** The submission form as the nodes encode it: their encoder, a profile file of `size` bytes. */
function submissionForm(options: { size?: number; extension?: string; fileField?: string } = {}) {
	const extension = options.extension ?? 'pdf';
	const parts: MultipartPart[] = [
		{ name: 'JobNumber', value: String(JOB) },
		{ name: 'CandidateNumber', value: '5001' },
		{
			name: options.fileField ?? 'CandidateProfileFile',
			fileName: `Jane_Doe_RN.${extension}`,
			contentType:
				PROFILE_FILE_CONTENT_TYPES[extension as keyof typeof PROFILE_FILE_CONTENT_TYPES] ??
				'application/octet-stream',
			data: Buffer.alloc(options.size ?? 1024, 0x41),
		},
	];
	const { body, contentType } = encodeMultipart(parts);
	return { body, headers: { 'Content-Type': contentType } };
}

interface Recorded {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
	body: Buffer;
}

/** Stands between the nodes and the sandbox and keeps a copy of every request it passes on. */
async function startRelay(target: RunningSandbox) {
	const recorded: Recorded[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			recorded.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
			const forward = http.request(
				`${target.url}${req.url ?? ''}`,
				{ method: req.method, headers: req.headers, agent: false },
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			forward.on('error', () => res.destroy());
			forward.end(body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		recorded,
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** Sends a recorded request again, straight to the sandbox, with its path and body as given. */
async function replay(
	sandbox: RunningSandbox,
	request: Recorded,
	url = request.url,
	body = request.body,
) {
	const headers: Record<string, string> = {};
	for (const name of ['content-type', 'x-api-key']) {
		const value = request.headers[name];
		if (typeof value === 'string') headers[name] = value;
	}
	const response = await fetch(`${sandbox.url}${url}`, { method: request.method, headers, body });
	const text = await response.text();
	return { status: response.status, body: text ? (JSON.parse(text) as Json) : null };
}

let sandbox: RunningSandbox;
let relay: Awaited<ReturnType<typeof startRelay>>;

beforeAll(async () => {
	sandbox = await start({ seed: 7, jobs: 40 });
	JOB = sandbox.store.listJobs().find((job) => job.JobStatus === 'Open')!.Number;
	relay = await startRelay(sandbox);
});

afterAll(async () => {
	await relay.stop();
	await sandbox.stop();
});

describe('the sandbox serves every path the nodes use', () => {
	test('the table below names every path the nodes know', () => {
		expect(new Set(NODE_ROUTES.map((route) => route.key))).toEqual(new Set(Object.keys(PATHS)));
	});

	test('each is a route of the sandbox under the nodes’ prefix, with the nodes’ method', async () => {
		expect(await unservedRoutes(sandbox, API_PREFIX, PATHS)).toEqual([]);
	});

	test.each(NODE_ROUTES.filter((route) => route.answer))(
		'$method $key answers what the nodes’ schema reads',
		async ({ method, key, answer }) => {
			const result = await routeOf(sandbox, method, API_PREFIX, PATHS[key]);
			expect(result.status).toBe(200);
			const parsed = answer!.safeParse(result.body);
			expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
		},
	);

	test('the event list is the nodes’ event names, and each can be registered', async () => {
		const events = await api(sandbox, PATHS.webhookEvents);
		expect(new Set(events.body)).toEqual(new Set(TRIO_EVENT_NAMES));
		const registered = await api(sandbox, PATHS.webhooks, {
			json: {
				Name: 'all',
				Url: 'https://example.com/h',
				Events: TRIO_EVENT_NAMES,
				IsActive: false,
			},
		});
		expect(registered.status).toBe(200);
		expect(webhookRegistrationSchema.safeParse(registered.body).success).toBe(true);
	});
});

describe('the sandbox takes the profile files the nodes send, and refuses the ones they refuse', () => {
	test.each([...PROFILE_FILE_EXTENSIONS])('a .%s file', async (extension) => {
		const result = await api(sandbox, PATHS.submissions, submissionForm({ extension }));
		expect(result.status).toBe(200);
		expect(submissionSchema.safeParse(result.body).success).toBe(true);
	});

	test('the largest file the nodes send is accepted; one byte more is refused', async () => {
		const largest = await api(
			sandbox,
			PATHS.submissions,
			submissionForm({ size: PROFILE_FILE_MAX_BYTES - 1 }),
		);
		expect(largest.status).toBe(200);
		const over = await api(
			sandbox,
			PATHS.submissions,
			submissionForm({ size: PROFILE_FILE_MAX_BYTES }),
		);
		expect(over.status).toBe(400);
		expect(Object.keys(over.body.errors)).toEqual(['CandidateProfileFile']);
	});
});

describe('the nodes’ own operations, sent through a relay to the sandbox', () => {
	const admin = () => trioCredentials(relay.url, sandbox.adminKey);
	const run = (parameters: Parameters<typeof runNode>[0]['parameters'], extra = {}) =>
		runNode({ credentials: admin(), parameters, ...extra });

	beforeEach(() => {
		relay.recorded.length = 0;
		sandbox.clearRequests();
	});

	/** Every request the relay passed on reached a route of the sandbox and was answered 200. */
	function expectAllServed(): void {
		expect(relay.recorded.length).toBeGreaterThan(0);
		expect(sandbox.requests().map((request) => [request.route !== null, request.status])).toEqual(
			relay.recorded.map(() => [true, 200]),
		);
	}

	test('Candidate: Create sends a body the sandbox takes, and reads its answer', async () => {
		const { output, error } = await run({
			resource: 'candidate',
			operation: 'create',
			firstName: 'Jane',
			lastName: 'Contract',
			email: 'jane.contract@agency.example',
			additionalFields: { phone: '(512) 555-0142', isNicotineFree: true },
			stateLicenses: { license: [{ state: 'TX', isCompact: true, expirationDate: '2027-05-31' }] },
		});
		expect(error).toBeUndefined();
		expectAllServed();
		expect(candidateSchema.safeParse(output[0].json).success).toBe(true);
	});

	test('Submission: Create sends a form the sandbox takes, and reads its answer', async () => {
		const { output, error } = await run(
			// Raw: Trio's whole answer, which must be the spec's submission (Simplified keeps eight fields).
			{ ...SUBMIT_PAIRS, output: 'raw', options: { skipIfAlreadySubmitted: false } },
			{ input: [{ job: JOB, candidate: 5002 }], inputBinary: [PDF_FILE] },
		);
		expect(error).toBeUndefined();
		expectAllServed();
		expect(submissionSchema.safeParse(output[0].json).success).toBe(true);
	});

	test('Submission: Accept and Job: Get Many reach their routes', async () => {
		const accepted = await run({
			resource: 'submission',
			operation: 'accept',
			submissionNumber: String(OFFERED_SUBMISSION + 1),
		});
		expect(accepted.error).toBeUndefined();
		const jobs = await run({ resource: 'job', operation: 'getAll', limit: 3, output: 'raw' });
		expect(jobs.error).toBeUndefined();
		expectAllServed();
		for (const item of jobs.output) expect(jobSchema.safeParse(item.json).success).toBe(true);
	});
});

describe('a node-side value altered in a copy is refused, so a drift would fail a test', () => {
	test('a path in another letter case is not a route', async () => {
		const drifted: Paths = { ...PATHS, jobs: PATHS.jobs.toLowerCase() };
		expect(await unservedRoutes(sandbox, API_PREFIX, drifted)).toEqual([
			`GET ${API_PREFIX}/job -> 404`,
		]);
	});

	test('another version prefix is not served at all', async () => {
		const misses = await unservedRoutes(sandbox, '/api/v2', PATHS);
		expect(misses).toHaveLength(NODE_ROUTES.length);
	});

	test('the form Submission: Create sent, replayed with the file part renamed, is refused', async () => {
		relay.recorded.length = 0;
		const { error } = await runNode({
			credentials: trioCredentials(relay.url, sandbox.adminKey),
			parameters: { ...SUBMIT_PAIRS, options: { skipIfAlreadySubmitted: false } },
			input: [{ job: JOB, candidate: 5003 }],
			inputBinary: [PDF_FILE],
		});
		expect(error).toBeUndefined();
		const sent = relay.recorded.find((request) => request.method === 'POST');
		expect(sent).toBeDefined();
		// The control: sent again as it was, the form is taken again.
		expect((await replay(sandbox, sent!)).status).toBe(200);

		const renamed = Buffer.from(
			sent!.body
				.toString('latin1')
				.replace('name="CandidateProfileFile"', 'name="candidateProfileFile"'),
			'latin1',
		);
		expect(renamed.equals(sent!.body)).toBe(false);
		const refused = await replay(sandbox, sent!, sent!.url, renamed);
		expect(refused.status).toBe(400);
		expect(refused.body.errors).toHaveProperty('CandidateProfileFile');

		const lowerPath = await replay(sandbox, sent!, sent!.url.replace('/Submission', '/submission'));
		expect(lowerPath.status).toBe(404);
	});

	test('an event name in another letter case cannot be registered', async () => {
		const drifted = TRIO_EVENT_NAMES.map((name, index) =>
			index === 0 ? name.toLowerCase() : name,
		);
		const result = await api(sandbox, PATHS.webhooks, {
			json: { Name: 'drift', Url: 'https://example.com/h', Events: drifted, IsActive: true },
		});
		expect(result.status).toBe(400);
		expect(Object.keys(result.body.errors)).toEqual(['Events[0]']);
	});

	test('an extension the nodes do not send is refused', async () => {
		const drifted = [...PROFILE_FILE_EXTENSIONS, 'odt'];
		const result = await api(
			sandbox,
			PATHS.submissions,
			submissionForm({ extension: drifted.at(-1) }),
		);
		expect(result.status).toBe(400);
		expect(Object.keys(result.body.errors)).toEqual(['CandidateProfileFile']);
	});
});
