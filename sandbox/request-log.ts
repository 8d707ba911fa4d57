/**
 * What reached the API, so node tests can prove that nothing was sent when local validation
 * failed, or that a create went out exactly once. The key's value is never recorded, only
 * which kind of key it was.
 */
export type KeyUse = 'admin' | 'agency' | 'missing' | 'invalid' | 'not checked';

export interface RequestRecord {
	id: number;
	time: string;
	method: string;
	path: string;
	query: Record<string, string | string[]>;
	/** The route template, e.g. "GET /api/v3/Job/{number}"; null for unknown routes. */
	route: string | null;
	key: KeyUse;
	contentType: string | null;
	/** null when the connection was dropped without an answer. */
	status: number | null;
	outcome: 'answered' | 'dropped' | 'dropped after handler';
	/** The fault that shaped the answer, if any. */
	fault: string | null;
	durationMs: number;
}

const LOG_LIMIT = 10_000;

export function queryObject(query: URLSearchParams): Record<string, string | string[]> {
	const result: Record<string, string | string[]> = {};
	for (const key of new Set(query.keys())) {
		const values = query.getAll(key);
		result[key] = values.length === 1 ? values[0] : values;
	}
	return result;
}

export class RequestLog {
	private readonly entries: RequestRecord[] = [];
	private nextId = 1;

	add(entry: Omit<RequestRecord, 'id'>): RequestRecord {
		const record = { id: this.nextId++, ...entry };
		this.entries.push(record);
		if (this.entries.length > LOG_LIMIT) this.entries.splice(0, this.entries.length - LOG_LIMIT);
		return record;
	}

	records(filter: { method?: string; path?: string; route?: string } = {}): RequestRecord[] {
		return this.entries.filter(
			(entry) =>
				(!filter.method || entry.method === filter.method.toUpperCase()) &&
				(!filter.path || entry.path === filter.path) &&
				(!filter.route || entry.route === filter.route),
		);
	}

	clear(): void {
		this.entries.length = 0;
	}
}
