/**
 * Issue 40 points 6 and 12: the outputs the docs show are the outputs the nodes give. A recruiter
 * copies `{{ $json.Profession }}` from a sample; a field the sample shows and the node does not
 * output gives nothing. Each simplified sample must be exactly what the node's own simplifier
 * makes, from a sandbox record and from the sample itself; each Raw sample, simplified by the
 * node, must give the Simplified one shown beside it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { SIMPLIFIED_JOB_FIELDS, simplifyJob } from '../../nodes/shared/jobOutput';
import { SIMPLE_SUBMISSION_FIELDS, simplifySubmission } from '../../nodes/shared/submissionOutput';
import { buildItems } from '../../nodes/TrioVmsTrigger/judge';
import { startSandbox, type RunningSandbox } from '../../sandbox';

const ROOT = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The ```json blocks of a section (from its heading to the next heading of the same level). */
function jsonBlocks(file: string, heading: string): IDataObject[] {
	const text = read(file);
	const start = text.indexOf(`${heading}\n`);
	if (start < 0) throw new Error(`${file} has no heading "${heading}"`);
	const level = /^#+/.exec(heading)![0];
	const rest = text.slice(start + heading.length);
	const end = rest.search(new RegExp(`\\n${level} `));
	const section = end < 0 ? rest : rest.slice(0, end);
	return (
		[...section.matchAll(/```json\n([\s\S]*?)```/g)]
			.map((match) => match[1])
			// A whole item, not a fragment ("_validation": …) or a request sent (// sent).
			.filter((block) => block.trimStart().startsWith('{'))
			.map((block) => JSON.parse(block) as IDataObject)
	);
}

let sandbox: RunningSandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, quiet: true, jobs: 20, seed: 1 });
});
afterAll(async () => await sandbox.stop());

describe('docs/operations.md shows what the nodes output', () => {
	it('Job Get Many: the simplified job, exactly the ten fields the node outputs, in order', () => {
		const [sample] = jsonBlocks('docs/operations.md', '## Job: Get Many');
		expect(Object.keys(sample)).toEqual([...SIMPLIFIED_JOB_FIELDS]);
		// A whole job as Trio sends it, with the sample's values where the sample shows them.
		const job = sandbox.store.listJobs()[0] as unknown as IDataObject;
		const { ShiftDescription, ...flat } = sample;
		const whole = { ...job, ...flat, Shift: { ...(job.Shift as IDataObject), ShiftDescription } };
		expect(simplifyJob(whole)).toEqual(sample);
		for (const each of sandbox.store.listJobs())
			expect(Object.keys(simplifyJob(each as unknown as IDataObject))).toEqual(Object.keys(sample));
	});

	it('Submission Create: Simplified is the eight fields plus _trio; Raw, simplified, gives it', () => {
		const [simplified, raw] = jsonBlocks('docs/operations.md', '## Submission: Create');
		expect(Object.keys(simplified)).toEqual([...SIMPLE_SUBMISSION_FIELDS, '_trio']);
		const { _trio: rawMark, ...rawSubmission } = raw;
		const { _trio: simpleMark, ...simpleSubmission } = simplified;
		expect(simplifySubmission(rawSubmission)).toEqual(simpleSubmission);
		expect(rawMark).toEqual(simpleMark);
	});

	it.each(['## Submission: Accept'])('%s: the simplified submission', (heading) => {
		const [sample] = jsonBlocks('docs/operations.md', heading);
		expect(Object.keys(sample)).toEqual([...SIMPLE_SUBMISSION_FIELDS]);
		expect(simplifySubmission(sample)).toEqual(sample);
	});
});

describe('docs/trigger.md shows what the trigger outputs', () => {
	it('the Simplified per diem item is what the trigger makes of the Raw one shown after it', () => {
		const [simplified, raw] = jsonBlocks('docs/trigger.md', '## What each item contains');
		const { event, receivedAt, deliveryKey, ...payload } = raw;
		expect(event).toBe('Per Diem Shift Assigned');
		const [built] = buildItems({
			event: 'Per Diem Shift Assigned',
			payload,
			receivedAt: receivedAt as string,
			split: true,
			simplify: true,
		});
		expect({ ...built, deliveryKey }).toEqual(simplified);
		const [whole] = buildItems({
			event: 'Per Diem Shift Assigned',
			payload,
			receivedAt: receivedAt as string,
			split: true,
		});
		expect({ ...whole, deliveryKey }).toEqual(raw);
	});
});
