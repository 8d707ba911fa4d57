/** The simplified job shared by Job Get, Job Get Many and both triggers, and the case-insensitive reader under it. */
import { fieldOf, hasField } from '../../../nodes/shared/recordFields';
import {
	simplifyJob,
	SIMPLIFIED_JOB_FIELDS,
	SIMPLIFIED_JOB_FIELDS_IN_WORDS,
} from '../../../nodes/shared/jobOutput';
import { TrioVms } from '../../../nodes/TrioVms/TrioVms.node';
import { TrioVmsSyncTrigger } from '../../../nodes/TrioVmsSyncTrigger/TrioVmsSyncTrigger.node';
import { TrioVmsTrigger } from '../../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';

const job = {
	Number: 48213,
	Title: 'ICU RN - Nights',
	JobStatus: 'Open',
	FacilityName: 'St. Mary',
	ClientName: 'Mercy Health',
	City: 'Austin',
	State: 'Texas',
	StateAbbreviation: 'TX',
	Profession: 'RN',
	Specialties: ['ICU', 'Telemetry'],
	StartDate: '2026-04-06T00:00:00',
	Shift: {
		ShiftDescription: '3x12 Nights',
		ShiftIdentifier: 'N',
		ShiftStart: '19:00',
		ShiftEnd: '07:00',
		ShiftHours: 12,
	},
	RateDescription: '$2,400/week',
	NumberOfPositions: 3,
	NumberOfOpenPositions: 2,
	NumberOfCurrentOpenPositions: 1,
	ModifiedDateUtc: '2026-03-01T07:00:00Z',
	Description: 'long text',
	Certifications: [],
};

describe('simplifyJob', () => {
	it('keeps at most ten flat fields, the list count of open positions when Trio sends it', () => {
		const simple = simplifyJob(job);
		expect(simple).toEqual({
			Number: 48213,
			Title: 'ICU RN - Nights',
			JobStatus: 'Open',
			FacilityName: 'St. Mary',
			City: 'Austin',
			StateAbbreviation: 'TX',
			StartDate: '2026-04-06T00:00:00',
			ShiftDescription: '3x12 Nights',
			RateDescription: '$2,400/week',
			NumberOfCurrentOpenPositions: 1,
		});
		expect(SIMPLIFIED_JOB_FIELDS).toHaveLength(10);
		expect(Object.keys(simple)).toEqual([...SIMPLIFIED_JOB_FIELDS]);
		for (const value of Object.values(simple)) expect(typeof value).not.toBe('object');
	});

	// Issue 34: one name for open positions in every simplified job, so example 1's "Open
	// positions" line keeps its value when the workflow switches trigger.
	it("a single job's open positions stand in for the list's count, under the same name", () => {
		const { NumberOfCurrentOpenPositions: _current, ...single } = job;
		const simple = simplifyJob(single);
		expect(Object.keys(simple)).toEqual([...SIMPLIFIED_JOB_FIELDS]);
		expect(simple.NumberOfCurrentOpenPositions).toBe(2);
		expect(simple).not.toHaveProperty('NumberOfOpenPositions');
	});

	it('says its fields in the words the three Output options show', () => {
		expect(SIMPLIFIED_JOB_FIELDS_IN_WORDS).toMatch(/^number, title, status, facility/);
	});
	it('reads a camelCase answer the same way, so nothing is silently dropped', () => {
		const camel: Record<string, unknown> = Object.fromEntries(
			Object.entries(job).map(([key, value]) => [key[0].toLowerCase() + key.slice(1), value]),
		);
		camel.shift = { shiftDescription: '3x12 Nights' };
		delete camel.Shift;
		// A job with every field under its exact name is built in one step, any other field by
		// field: both give the same fields in the same order.
		expect(Object.entries(simplifyJob(camel as never))).toEqual(Object.entries(simplifyJob(job)));
	});

	it('tolerates a job without shift or optional fields', () => {
		const { Shift: _shift, RateDescription: _rate, ...rest } = job;
		const simple = simplifyJob({ ...rest, Shift: null });
		expect(simple.ShiftDescription).toBeNull();
		expect('RateDescription' in simple).toBe(false);
	});
});

describe('fieldOf', () => {
	it('prefers the exact name and falls back to any letter case', () => {
		expect(fieldOf({ Number: 1, number: 2 }, 'Number')).toBe(1);
		expect(fieldOf({ number: 2 }, 'Number')).toBe(2);
		expect(fieldOf({ MODIFIEDDATEUTC: 'x' }, 'ModifiedDateUtc')).toBe('x');
		expect(fieldOf({}, 'Number')).toBeUndefined();
		expect(fieldOf({ toString: 1 } as never, 'constructor')).toBeUndefined();
		expect(hasField({ jobStatus: null }, 'JobStatus')).toBe(true);
		expect(hasField({}, 'JobStatus')).toBe(false);
	});
});

describe("the Output option's words in every node", () => {
	it('opens with a count only where it lists one record (issue 46: "Ten fields" before 8 and 13)', () => {
		const descriptions = [
			new TrioVms().description,
			new TrioVmsTrigger().description,
			new TrioVmsSyncTrigger().description,
		];
		const simplified = descriptions.flatMap((description) =>
			description.properties
				.filter((property) => property.name === 'output')
				.flatMap(
					(property) =>
						(property.options ?? []) as Array<{ value?: unknown; description?: string }>,
				)
				.filter((option) => option.value === 'simple')
				.map((option) => String(option.description)),
		);
		expect(simplified.length).toBeGreaterThanOrEqual(4);
		for (const words of simplified)
			if (words.includes(';')) expect(words).not.toMatch(/^\w+ fields/i);
		expect(simplified).toContain(`Ten fields: ${SIMPLIFIED_JOB_FIELDS_IN_WORDS}`);
	});
});
