/**
 * A scripted history against the sandbox, with its own ledger of what the Sync Trigger must
 * emit. Every action goes through the sandbox's HTTP APIs as the facility (scenario API) or
 * the agency (agency API) would act; the ledger says when each change becomes visible:
 * opened and updated jobs at the next poll, closed jobs and open-position changes at the next
 * full list (spec 3.1 and 2.3), submission changes at the next poll.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RunningSandbox } from '../../sandbox';
import { start } from '../sandbox/helpers';

export type Json = Record<string, unknown>;

/**
 * The sandbox of one Sync Trigger test file: started once, seeded on the fixed reference day,
 * and (unless `resetEach` is false) reset to `jobs` fresh jobs before each test, so no test sees
 * another's history. `use` receives it once started; the file reads it inside its tests.
 */
export function useSyncSandbox(
	jobs: number,
	use: (sandbox: RunningSandbox) => void,
	{ resetEach = true }: { resetEach?: boolean } = {},
): void {
	let sandbox: RunningSandbox;
	beforeAll(async () => {
		sandbox = await start({ jobs });
		use(sandbox);
	});
	afterAll(async () => {
		await sandbox.stop();
	});
	if (resetEach) beforeEach(() => sandbox.reset({ jobs }));
}

export async function scenario(
	sandbox: RunningSandbox,
	method: string,
	path: string,
	json?: unknown,
): Promise<Json> {
	const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
		method,
		headers: json === undefined ? {} : { 'Content-Type': 'application/json' },
		body: json === undefined ? undefined : JSON.stringify(json),
	});
	const body = (await response.json()) as Json;
	if (!response.ok)
		throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(body)}`);
	return body;
}

export async function agency(sandbox: RunningSandbox, path: string, json: unknown): Promise<Json> {
	const response = await fetch(`${sandbox.apiUrl}${path}`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', 'X-API-KEY': sandbox.key },
		body: JSON.stringify(json),
	});
	const body = (await response.json()) as Json;
	if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(body)}`);
	return body;
}

export interface Expected {
	number: number;
	change: string;
	/** How many full lists must pass first: 0 the next poll, 1 the next full list, 2 the one after. */
	fullLists: number;
}

/** `number:change` keys, sorted, for comparing what was emitted with what was expected. */
export function keys(items: Array<{ number: number; change: string }>): string[] {
	return items.map((item) => `${item.number}:${item.change}`).sort();
}

export function emittedKeys(items: IDataObject[]): string[] {
	return keys(items.map((item) => ({ number: Number(item.Number), change: String(item.change) })));
}

export class Ledger {
	private pending: Expected[] = [];

	/** Jobs touched since the last full list: each job changes at most once per interval. */
	readonly touched = new Set<number>();

	expect(number: number, change: string, fullLists: boolean | number = 0): void {
		this.pending.push({ number, change, fullLists: Number(fullLists) });
	}

	/** What the next poll must emit, and forget it (call after the poll succeeded). */
	take(full: boolean): string[] {
		const due = this.pending.filter(
			(entry) => entry.fullLists === 0 || (full && entry.fullLists === 1),
		);
		this.pending = this.pending.filter((entry) => !due.includes(entry));
		if (full) {
			for (const entry of this.pending) entry.fullLists = Math.max(0, entry.fullLists - 1);
			this.touched.clear();
		}
		return keys(due);
	}

	get size(): number {
		return this.pending.length;
	}
}
