/**
 * A scripted history against the sandbox, with its own ledger of what the Sync Trigger must
 * emit. Every action goes through the sandbox's HTTP APIs as the facility (scenario API) or
 * the agency (agency API) would act; the ledger says when each change becomes visible:
 * opened and updated jobs at the next poll, closed jobs and open-position changes at the next
 * full list (spec 3.1 and 2.3), submission changes at the next poll.
 */
import type { IDataObject } from 'n8n-workflow';

import type { RunningSandbox } from '../../sandbox';

export type Json = Record<string, unknown>;

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
	/** Only at a full list. */
	atFullList: boolean;
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

	expect(number: number, change: string, atFullList = false): void {
		this.pending.push({ number, change, atFullList });
	}

	/** What the next poll must emit, and forget it (call after the poll succeeded). */
	take(full: boolean): string[] {
		const due = this.pending.filter((entry) => full || !entry.atFullList);
		this.pending = this.pending.filter((entry) => !due.includes(entry));
		if (full) this.touched.clear();
		return keys(due);
	}

	get size(): number {
		return this.pending.length;
	}
}
