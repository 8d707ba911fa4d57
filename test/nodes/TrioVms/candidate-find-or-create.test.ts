/**
 * Find or Create is Create with Skip If Email Exists on (issue 29): for the same rows both give
 * the same outputs and send the same requests, whether the candidate exists or not.
 */
import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../../support/sandbox-harness';

const t = useSandbox();

function without(json: IDataObject, key: string): IDataObject {
	return Object.fromEntries(Object.entries(json).filter(([name]) => name !== key));
}

/** The outputs and requests of one run, with the candidate number (new for each create) left out. */
async function runAs(operation: 'create' | 'findOrCreate', email: string) {
	t.clearRequests();
	const { output, error } = await t.run({
		resource: 'candidate',
		operation,
		firstName: 'Dana',
		lastName: 'Reyes',
		email,
		stateLicenses: { license: [{ state: 'TX', isCompact: false, expirationDate: '2027-06-30' }] },
	});
	const json = output.map((item) => without(item.json, 'number'));
	return {
		error,
		json,
		requests: t.apiRequests().map((request) => `${request.method} ${request.path}`),
	};
}

describe('Candidate: Find or Create runs what Create runs by default', () => {
	it('gives the same output as Create when the candidate exists', async () => {
		const existing = [...t.sandbox.store.candidates.values()][0];
		const create = await runAs('create', existing.email1);
		const findOrCreate = await runAs('findOrCreate', existing.email1);
		expect(create.json[0]._trio).toEqual({ action: 'found', matchCount: 1 });
		expect(findOrCreate).toEqual(create);
	});

	it('gives the same output as Create when nobody has the address', async () => {
		const create = await runAs('create', 'dana.reyes.1@agency.example');
		const findOrCreate = await runAs('findOrCreate', 'dana.reyes.2@agency.example');
		expect(create.json[0]._trio).toEqual({ action: 'created', matchCount: 0 });
		expect(findOrCreate.requests).toEqual(create.requests);
		const withoutEmail = (json: IDataObject) => without(json, 'email1');
		expect(findOrCreate.json.map(withoutEmail)).toEqual(create.json.map(withoutEmail));
	});
});
