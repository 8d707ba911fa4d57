/**
 * n8n 3.0 drops the in-memory binary data mode: files between nodes live on disk
 * (N8N_DEFAULT_BINARY_DATA_MODE=filesystem, in n8n's storage folder) unless S3 or the database is
 * configured. Submission Create reads the resume through n8n's binary helpers, so it must work
 * with a file n8n wrote to disk: here a resume made by n8n's Convert to File node goes to Trio
 * from n8n 2.41.1 set to `filesystem` explicitly, and the test checks n8n passed it through its
 * filesystem store and Trio received exactly its bytes, once.
 *
 * Run `npm run build` first.
 */
import { createHash, randomUUID } from 'node:crypto';

import type { RunningSandbox as Sandbox } from '../../sandbox';
import { describeWithN8n } from '../../harness/availability';
import type { N8nInstance } from '../../harness/n8n';
import { runWebhookWorkflow, textFileNodes, type WorkflowNode } from '../../harness/run-workflow';
import type { CredentialRef } from '../../harness/trio';
import { callSandbox, listJobs } from '../support/sandbox-client';
import { useRealN8n } from '../support/use-real-n8n';

const NODE_TYPE = 'n8n-nodes-trio-vms.trioVms';

describeWithN8n('2.x', 'real n8n 2.x with N8N_DEFAULT_BINARY_DATA_MODE=filesystem', () => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let credential: CredentialRef;
	useRealN8n(
		{ jobs: 6 },
		{ line: '2.x', key: 'plain', env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' } },
		(started) => ({ sandbox, n8n, credential } = started),
	);

	test('Submission Create sends the resume n8n stored on disk, once', async () => {
		const [job] = (await listJobs(sandbox)).filter((each) => each.JobStatus === 'Open');
		const email = `ana.reyes.${randomUUID().slice(0, 8)}@agency.example.com`;
		const text = `Resume of Ana Reyes <${email}>\nTelemetry RN, 4 years, BLS.\n`;
		const fileName = 'Ana Reyes resume.txt';
		const trio = (name: string, parameters: Record<string, unknown>): WorkflowNode => ({
			name,
			type: NODE_TYPE,
			typeVersion: 1,
			parameters,
			credentials: { trioVmsApi: credential },
		});

		const run = await runWebhookWorkflow(
			n8n,
			[
				trio('Find or Create', {
					resource: 'candidate',
					operation: 'findOrCreate',
					email,
					firstName: 'Ana',
					lastName: 'Reyes',
					additionalFields: {},
					options: {},
				}),
				...textFileNodes(text, fileName),
				trio('Submit', {
					resource: 'submission',
					operation: 'create',
					job: { __rl: true, mode: 'number', value: String(job.Number) },
					candidateNumber: "={{ $('Find or Create').item.json.number }}",
					binaryPropertyName: 'data',
					additionalFields: {},
					options: {},
				}),
			],
			{
				'Find or Create': { main: [[{ node: 'Resume Text', type: 'main', index: 0 }]] },
				'Resume Text': { main: [[{ node: 'Make File', type: 'main', index: 0 }]] },
				'Make File': { main: [[{ node: 'Submit', type: 'main', index: 0 }]] },
			},
			{ keepExecution: true },
		);
		expect(run.failure).toBeUndefined();
		expect(run.items).toHaveLength(1);
		const [submission] = run.items;
		expect(submission).toMatchObject({ Status: 'Submitted', JobNumber: job.Number });

		// n8n kept the file on disk, not in memory: the reference it passed between the nodes names
		// its filesystem store. (The file itself went with the harness's workflow, which n8n deletes
		// with its executions once the run is read.)
		const made = run.execution?.data?.resultData.runData['Make File']?.[0]?.data?.main[0]?.[0] as
			{ binary?: { data?: { id?: string } } } | undefined;
		const binaryId = made?.binary?.data?.id ?? '';
		expect(binaryId).toMatch(/^filesystem(-v2)?:/);

		const content = Buffer.from(text, 'utf8');
		const received = await callSandbox<{ filename: string; size: number; sha256: string }>(
			sandbox,
			'GET',
			`/_sandbox/submissions/${String(submission.Number)}/file`,
		);
		expect(received).toMatchObject({
			filename: fileName,
			size: content.length,
			sha256: createHash('sha256').update(content).digest('hex'),
		});
		const submissionsOfJob = (
			await callSandbox<Array<{ JobNumber: number; CandidateNumber: number }>>(
				sandbox,
				'GET',
				'/api/v3/Submission',
				undefined,
				sandbox.key,
			)
		).filter(
			(each) =>
				each.JobNumber === job.Number && each.CandidateNumber === submission.CandidateNumber,
		);
		expect(submissionsOfJob).toHaveLength(1);
		process.stderr.write(`[binary filesystem] the resume passed as ${binaryId.split(':')[0]}\n`);
	});
});
