/**
 * The sample payloads users pin as the trigger's mock data (examples/sample-payloads): one file
 * per event, each exactly what the trigger outputs for that event with its defaults (Output Simplified: the ten job fields; Split Shifts Into Items on), built
 * by the trigger's own item builder from the one set of payloads the tests use. Regenerate after a
 * change with:
 *   UPDATE_SAMPLES=1 npx jest test/nodes/TrioVmsTrigger/sample-payloads.test.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { TRIO_EVENT_NAMES, type TrioEventName } from '../../../nodes/shared/events';
import { deliveryItems } from '../../../nodes/TrioVmsTrigger/judge';
import { TrioVmsTrigger } from '../../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';
import { PAYLOADS } from '../../support/trigger-payloads';

const DIRECTORY = join(__dirname, '../../../examples/sample-payloads');
const RECEIVED_AT = '2026-02-01T10:00:05.000Z';

const fileName = (event: TrioEventName) => `${event.toLowerCase().replace(/\s+/g, '-')}.json`;

/**
 * The trigger's defaults, read from its description so a changed default changes the samples:
 * Output Simplified is the ten-field job.
 */
function defaults(): { split: boolean; simplify: boolean } {
	const { properties } = new TrioVmsTrigger().description;
	const value = (name: string) => properties.find((property) => property.name === name)?.default;
	const options = properties.find((property) => property.name === 'options')?.options ?? [];
	const option = (name: string) =>
		(options as INodeProperties[]).find((property) => property.name === name)?.default;
	return {
		split: option('splitShifts') === true,
		simplify: value('output') === 'simple',
	};
}

function expected(event: TrioEventName): string {
	const items = deliveryItems({
		event,
		payload: PAYLOADS[event],
		receivedAt: RECEIVED_AT,
		...defaults(),
	});
	return `${JSON.stringify(items, null, 2)}\n`;
}

if (process.env.UPDATE_SAMPLES) {
	for (const event of TRIO_EVENT_NAMES)
		writeFileSync(join(DIRECTORY, fileName(event)), expected(event));
}

describe('sample payloads', () => {
	it('are for the node as the editor adds it, whose Output defaults to Simplified', () => {
		expect(new TrioVmsTrigger().description.version).toBe(1);
		expect(defaults().simplify).toBe(true);
	});

	it('holds one file per event and nothing else', () => {
		expect(
			readdirSync(DIRECTORY)
				.filter((name) => name.endsWith('.json'))
				.sort(),
		).toEqual(TRIO_EVENT_NAMES.map(fileName).sort());
		expect(TRIO_EVENT_NAMES).toHaveLength(15);
	});

	it.each([...TRIO_EVENT_NAMES])(
		'%s: exactly the items the trigger outputs at its defaults',
		(event) => {
			const text = readFileSync(join(DIRECTORY, fileName(event)), 'utf8');
			expect(text).toBe(expected(event));
			const items = JSON.parse(text) as Array<Record<string, unknown>>;
			// Ready to pin: a list of items, each valid, metadata first.
			expect(items.length).toBeGreaterThan(0);
			for (const item of items) {
				expect(Object.keys(item).slice(0, 2)).toEqual(['event', 'receivedAt']);
				expect(item.event).toBe(event);
				expect(item).not.toHaveProperty('_validation');
				expect(item.deliveryKey).toMatch(/^[0-9a-f]{16}(:\d+)?$/);
			}
		},
	);
});
