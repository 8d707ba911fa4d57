/**
 * Submission: Create with a 2.4 MB PDF profile document, through n8n's engine: the source node
 * stores the file in n8n's binary data service, the Trio VMS node reads it back, checks it and
 * sends it as multipart/form-data.
 * Baseline: the same multipart POST /api/v3/Submission, the body built by the form-data package.
 * (Not fetch's own FormData: it keeps the file in a Blob, which lives outside the V8 heap and the
 * external memory V8 counts, so its memory would read as nearly nothing.)
 */
import FormData from 'form-data';
import type { IDataObject } from 'n8n-workflow';

import { benchmarkCase, type BenchmarkDefinition } from '../runner';
import { callJson, expectSuccess, makePdf, nodeExecutionTime } from '../support';

const PDF_BYTES = 2_400_000;
const FILE_NAME = 'Jane Doe RN.pdf';

export const benchmarks: BenchmarkDefinition[] = [
	{
		id: 'submission-create-pdf',
		title: 'Submission Create, 2.4 MB PDF',
		node: 'Binary Source -> Trio VMS (submission: create) in the engine; one multipart POST /api/v3/Submission',
		baseline:
			'fetch POST /api/v3/Submission, the same parts and file encoded by the form-data package',
		async prepare(context) {
			// Loaded here, not at the top: reading the bench's flags and names (--list, --help) then
			// does not load n8n-core.
			const { runNode, trioCredentials } = await import('../../harness/engine/engine');
			const pdf = makePdf(PDF_BYTES);
			const jobs = await callJson<IDataObject[]>(`${context.apiUrl}/Job`, { key: context.key });
			const job = jobs.find((entry) => entry.JobStatus === 'Open');
			const candidates = await callJson<IDataObject[]>(`${context.url}/_sandbox/candidates`);
			if (!job || !candidates.length)
				throw new Error('The sandbox has no open job or no candidate');
			const jobNumber = String(job.Number);
			const candidateNumber = String(candidates[0].number);
			const billRate = '74.5';
			const credentials = trioCredentials(context.url, context.key);
			const fileSize = async (submission: unknown) => {
				const number = (submission as IDataObject).Number;
				const file = await callJson<IDataObject>(
					`${context.url}/_sandbox/submissions/${String(number)}/file`,
				);
				return file.size;
			};
			return benchmarkCase({
				node: () =>
					runNode({
						parameters: {
							resource: 'submission',
							operation: 'create',
							job: { __rl: true, mode: 'number', value: jobNumber },
							candidateNumber,
							binaryPropertyName: 'data',
							additionalFields: { billRateAmount: Number(billRate) },
							// Every round submits the same pair: measure the upload, not the skip.
							options: { skipIfAlreadySubmitted: false },
						},
						inputBinary: [{ fileName: FILE_NAME, mimeType: 'application/pdf', data: pdf }],
						credentials,
					}),
				async baseline() {
					const form = new FormData();
					form.append('JobNumber', jobNumber);
					form.append('CandidateNumber', candidateNumber);
					form.append('BillRateAmount', billRate);
					form.append('CandidateProfileFile', pdf, {
						filename: FILE_NAME,
						contentType: 'application/pdf',
					});
					const response = await fetch(`${context.apiUrl}/Submission`, {
						method: 'POST',
						headers: { ...form.getHeaders(), 'X-API-KEY': context.key },
						body: form.getBuffer(),
					});
					return JSON.parse(await response.text()) as IDataObject;
				},
				async check(run, created) {
					expectSuccess(run);
					if (run.output.length !== 1)
						throw new Error(`The node returned ${run.output.length} items`);
					for (const [who, submission] of [
						['node', run.output[0].json],
						['baseline', created],
					] as const) {
						const size = await fileSize(submission);
						if (size !== PDF_BYTES)
							throw new Error(
								`The ${who}'s submission arrived with a file of ${String(size)} bytes`,
							);
					}
				},
				nodeOwnMs: nodeExecutionTime,
			});
		},
	},
];
