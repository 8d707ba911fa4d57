/**
 * Issue 26 point 8: one output control, worded alike, in all three nodes at the versions the
 * editor adds today: Output, Simplified (the same ten job fields) or Raw; no Simplify switch.
 */
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { SIMPLIFIED_JOB_FIELDS_IN_WORDS } from '../../../nodes/shared/jobOutput';
import { SIMPLE_SUBMISSION_FIELDS_IN_WORDS } from '../../../nodes/shared/submissionOutput';
import { TrioVms } from '../../../nodes/TrioVms/TrioVms.node';
import { TrioVmsSyncTrigger } from '../../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node';
import { TrioVmsTrigger } from '../../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';

/** The properties n8n shows for these values at the node's default version. */
function shownAtDefault(
	description: INodeTypeDescription,
	values: INodeParameters,
): INodeProperties[] {
	const typeVersion = description.defaultVersion as number;
	const node = { typeVersion, parameters: values } as unknown as INode;
	return description.properties.filter((property) =>
		NodeHelpers.displayParameter(values, property, node, description),
	);
}

const CASES: Array<[string, INodeTypeDescription, INodeParameters]> = [
	['Trio VMS, Job Get', new TrioVms().description, { resource: 'job', operation: 'get' }],
	['Trio VMS, Job Get Many', new TrioVms().description, { resource: 'job', operation: 'getAll' }],
	['Trio VMS Trigger, Job Update', new TrioVmsTrigger().description, { events: ['Job Update'] }],
	['Trio VMS Sync Trigger, jobs', new TrioVmsSyncTrigger().description, { watch: 'jobs' }],
];

describe('one output control in all three nodes', () => {
	it.each(CASES)(
		'%s: Output, Simplified (ten fields) or Raw, no Simplify',
		(_, description, values) => {
			const shown = shownAtDefault(description, values);
			expect(shown.map((property) => property.name)).not.toContain('simplify');
			const outputs = shown.filter((property) => property.name === 'output');
			expect(outputs).toHaveLength(1);
			const [output] = outputs;
			expect(output).toMatchObject({ displayName: 'Output', type: 'options', default: 'simple' });
			const options = output.options as INodePropertyOptions[];
			expect(options.slice(0, 2).map((option) => [option.name, option.value])).toEqual([
				['Simplified', 'simple'],
				['Raw', 'raw'],
			]);
			expect(options[0].description).toContain(SIMPLIFIED_JOB_FIELDS_IN_WORDS);
			expect(options[1].description).toBe('Every detail Trio sends');
		},
	);

	it.each(['create', 'get', 'getAll', 'accept', 'decline', 'withdraw'])(
		"Trio VMS, Submission %s: the same Output, Simplified (the Sync Trigger's fields) or Raw",
		(operation) => {
			const shown = shownAtDefault(new TrioVms().description, {
				resource: 'submission',
				operation,
				// Create's default; the other operations have no Values From.
				...(operation === 'create' ? { valuesFrom: 'fields' } : {}),
			});
			const outputs = shown.filter((property) => property.name === 'output');
			expect(outputs).toHaveLength(1);
			expect(outputs[0]).toMatchObject({
				displayName: 'Output',
				type: 'options',
				default: 'simple',
			});
			const options = outputs[0].options as INodePropertyOptions[];
			expect(options.map((option) => [option.name, option.value])).toEqual([
				['Simplified', 'simple'],
				['Raw', 'raw'],
			]);
			expect(options[0].description?.toLowerCase()).toBe(SIMPLE_SUBMISSION_FIELDS_IN_WORDS);
			const sync = shownAtDefault(new TrioVmsSyncTrigger().description, { watch: 'submissions' });
			const syncOutput = sync.find((property) => property.name === 'output')!;
			expect((syncOutput.options as INodePropertyOptions[])[0].description).toContain(
				SIMPLE_SUBMISSION_FIELDS_IN_WORDS,
			);
		},
	);

	it("Trio VMS Trigger, Submission Update: the same Output, Simplified naming the submission's fields", () => {
		const shown = shownAtDefault(new TrioVmsTrigger().description, {
			events: ['Submission Update'],
		});
		const outputs = shown.filter((property) => property.name === 'output');
		expect(outputs).toHaveLength(1);
		const options = outputs[0].options as INodePropertyOptions[];
		expect(options.map((option) => option.value)).toEqual(['simple', 'raw']);
		expect(options[0].description).toContain(
			`for a Submission Update: ${SIMPLE_SUBMISSION_FIELDS_IN_WORDS}`,
		);
	});

	it('Trio VMS, Submission create from spreadsheet columns: Row With Result first and default, then the same Simplified and Raw', () => {
		const shown = shownAtDefault(new TrioVms().description, {
			resource: 'submission',
			operation: 'create',
			valuesFrom: 'columns',
		});
		const outputs = shown.filter((property) => property.name === 'output');
		expect(outputs).toHaveLength(1);
		expect(outputs[0]).toMatchObject({ displayName: 'Output', type: 'options', default: 'row' });
		const options = outputs[0].options as INodePropertyOptions[];
		expect(options.map((option) => [option.name, option.value])).toEqual([
			['Row With Result', 'row'],
			['Simplified', 'simple'],
			['Raw', 'raw'],
		]);
	});
});
