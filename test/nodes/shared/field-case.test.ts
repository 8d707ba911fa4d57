/**
 * Issue 22 point 11: the service's field names are read in any letter case by the one reader
 * (nodes/shared/recordFields.ts). Shared readers here; through n8n's engine against a scripted server
 * for Get Withdraw Reasons, which returned no items for `{ name }` entries.
 */
import { nameOfListItem } from '../../../nodes/shared/schemas';
import { runNode, trioCredentials } from '../../../harness/engine/engine';
import { ScriptedServer } from '../../support/scripted-server';

describe('nameOfListItem', () => {
	it('reads Name, name or NAME, and a plain string', () => {
		expect(nameOfListItem('Filled')).toBe('Filled');
		expect(nameOfListItem({ Name: 'Filled' })).toBe('Filled');
		expect(nameOfListItem({ name: 'Filled' })).toBe('Filled');
		expect(nameOfListItem({ NAME: 'Filled' })).toBe('Filled');
		expect(nameOfListItem({ name: 5 })).toBeUndefined();
		expect(nameOfListItem(['Filled'])).toBeUndefined();
	});
});

describe('Get Withdraw Reasons with camelCase entries', () => {
	const server = ScriptedServer.forEachTest();

	it('outputs one item per { name } entry', async () => {
		server.respond({ json: [{ name: 'Position filled' }, { name: 'Candidate declined' }] });
		const { output, error } = await runNode({
			parameters: { resource: 'submission', operation: 'getWithdrawReasons' },
			credentials: trioCredentials(server.baseUrl, 'key'),
		});
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.reason)).toEqual([
			'Position filled',
			'Candidate declined',
		]);
	});
});
