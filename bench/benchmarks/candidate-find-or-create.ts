/**
 * Candidate: Find or Create for 200 input items whose e-mails all exist (the sandbox's 50
 * candidates, four times over, with their names read by expressions as from a sheet), through
 * n8n's engine: 200 lookups, no creates.
 * Baseline: the same 200 GET /api/v3/candidates?email=... one after another with fetch.
 */
import type { IDataObject } from 'n8n-workflow';

import { benchmarkCase, type BenchmarkDefinition } from '../runner';
import { callJson, expectSuccess, nodeExecutionTime } from '../support';

const ITEMS = 200;

export const benchmarks: BenchmarkDefinition[] = [
	{
		id: 'candidate-find-or-create',
		title: `Candidate Find or Create, ${ITEMS} items, all found`,
		node: `Source (${ITEMS} rows) -> Trio VMS (candidate: findOrCreate, fields from expressions) in the engine; ${ITEMS} GET /api/v3/candidates`,
		baseline: `${ITEMS} sequential fetch GET /api/v3/candidates?email=... with JSON.parse`,
		async prepare(context) {
			// Loaded here, not at the top: reading the bench's flags and names (--list, --help) then
			// does not load n8n-core.
			const { runNode, trioCredentials } = await import('../../harness/engine/engine');
			const candidates = await callJson<IDataObject[]>(`${context.url}/_sandbox/candidates`);
			const rows = Array.from({ length: ITEMS }, (_, index) => {
				const candidate = candidates[index % candidates.length];
				return { first: candidate.firstName, last: candidate.lastName, email: candidate.email1 };
			});
			const credentials = trioCredentials(context.url, context.key);
			return benchmarkCase({
				node: () =>
					runNode({
						parameters: {
							resource: 'candidate',
							operation: 'findOrCreate',
							email: '={{ $json.email }}',
							firstName: '={{ $json.first }}',
							lastName: '={{ $json.last }}',
						},
						input: rows,
						credentials,
					}),
				async baseline() {
					const found: IDataObject[][] = [];
					for (const row of rows) {
						const query = new URLSearchParams({ email: String(row.email) });
						const response = await fetch(`${context.apiUrl}/candidates?${query}`, {
							headers: { 'X-API-KEY': context.key, Accept: 'application/json' },
						});
						found.push(JSON.parse(await response.text()) as IDataObject[]);
					}
					return found;
				},
				check(run, found) {
					expectSuccess(run);
					const actions = run.output.map(
						(item) => (item.json._trio as IDataObject | undefined)?.action,
					);
					if (actions.length !== ITEMS || actions.some((action) => action !== 'found')) {
						throw new Error(
							`Expected ${ITEMS} "found" items, the node returned ${actions.length}: ${[...new Set(actions)].join(', ')}`,
						);
					}
					if (
						found.length !== ITEMS ||
						found.some((matches) => !Array.isArray(matches) || matches.length === 0)
					) {
						throw new Error('The baseline did not find every candidate');
					}
				},
				nodeOwnMs: nodeExecutionTime,
			});
		},
	},
];
