/**
 * The Job dropdown's search over a camelCase job list (issue 27 point 11): it read PascalCase
 * fields only, so every job was dropped and the list came back empty. Through n8n's
 * LoadOptionsContext against a scripted server.
 */
import { callListSearch, trioCredentials } from '../../../harness/engine/engine';
import { ScriptedServer } from '../../support/scripted-server';

const server = ScriptedServer.forEachTest();

describe('searchJobs over a camelCase list', () => {
	it('lists and filters the jobs', async () => {
		const jobs = [
			{ number: 100001, title: 'ICU RN Nights', city: 'Austin', state: 'TX', profession: 'RN' },
			{ number: 100002, title: 'Cath Lab Tech', city: 'Dallas', state: 'TX', profession: 'CVT' },
		];
		// One answer per credential for a minute (listSearch keeps the choices): one request.
		server.respond({ json: jobs });
		const credentials = trioCredentials(server.baseUrl, 'camel-case-key');
		const all = await callListSearch('searchJobs', { credentials });
		expect(all.results.map((result) => result.value)).toEqual(['100001', '100002']);
		expect(all.results[0].name).toBe('100001 · ICU RN Nights · Austin, TX');
		const dallas = await callListSearch('searchJobs', { credentials, filter: 'dallas' });
		expect(dallas.results.map((result) => result.value)).toEqual(['100002']);
	});
});
