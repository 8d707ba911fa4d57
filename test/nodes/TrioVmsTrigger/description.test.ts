/** What n8n reads from the trigger's description before the node runs for a delivery. */
import { TrioVmsTrigger } from '../../../nodes/TrioVmsTrigger/TrioVmsTrigger.node';

const { description } = new TrioVmsTrigger();

describe('trigger description', () => {
	it('offers 1.1 to new workflows and keeps 1 for saved ones', () => {
		expect(description.version).toEqual([1, 1.1]);
		expect(description.defaultVersion).toBe(1.1);
	});

	it('declares its webhook with fixed values, so n8n evaluates no expression per delivery', () => {
		for (const webhook of description.webhooks ?? []) {
			for (const value of Object.values(webhook)) {
				if (typeof value === 'string') expect(value.startsWith('=')).toBe(false);
			}
		}
		expect(description.webhooks).toHaveLength(1);
	});
});
