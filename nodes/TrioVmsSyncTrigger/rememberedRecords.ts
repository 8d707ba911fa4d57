/**
 * The remembered records as the state keeps them: one short string per record, decoded only when
 * asked for and bounded in number (the least recently modified are forgotten first, and what was
 * forgotten is summed up so it is never taken for new). Generic over the record kind; the codecs
 * for jobs and submissions are in state.ts.
 */

/** Records kept at most; beyond it the least recently modified are forgotten. */
export const MAX_ENTRIES = 100_000;

export interface Codec<Entry> {
	encode(entry: Entry): string;
	decode(text: string): Entry;
}

/** What was left out at the size limit: the newest stamp and the highest number among it. */
export interface Forgotten {
	forgottenUpTo: string | null;
	forgottenNumber: number | null;
}

/**
 * Keeps the `limit` most recently modified entries (records without a stamp go first) and says
 * up to which stamp and number records were forgotten, so they are not taken for new ones later.
 */
export function bound<Entry extends { stamp: string | null }>(
	entries: Map<number, Entry>,
	limit = MAX_ENTRIES,
): { kept: Map<number, Entry> } & Forgotten {
	if (entries.size <= limit) return { kept: entries, forgottenUpTo: null, forgottenNumber: null };
	const sorted = [...entries].sort(([, a], [, b]) => ((b.stamp ?? '') > (a.stamp ?? '') ? 1 : -1));
	let forgottenUpTo: string | null = null;
	let forgottenNumber: number | null = null;
	for (const [number, entry] of sorted.slice(limit)) {
		if (entry.stamp !== null && (forgottenUpTo === null || entry.stamp > forgottenUpTo))
			forgottenUpTo = entry.stamp;
		if (forgottenNumber === null || number > forgottenNumber) forgottenNumber = number;
	}
	return { kept: new Map(sorted.slice(0, limit)), forgottenUpTo, forgottenNumber };
}

/**
 * The remembered records, read lazily from their stored strings: a cheap poll that sees a few
 * changes decodes and re-encodes only those, not all 10,000 (the stored strings of the others
 * are copied as they are). A map of number -> entry to the diff.
 */
export class RememberedRecords<Entry> implements Iterable<[number, Entry]> {
	private readonly changes: Map<number, Entry | null>;

	private storedCount: number | undefined;

	constructor(
		readonly codec: Codec<Entry>,
		private readonly stored: Readonly<Record<string, string>> = {},
		changes?: Map<number, Entry | null>,
	) {
		this.changes = new Map(changes);
	}

	private isStored(number: number): boolean {
		return Object.prototype.hasOwnProperty.call(this.stored, number);
	}

	get(number: number): Entry | undefined {
		if (this.changes.has(number)) return this.changes.get(number) ?? undefined;
		return this.isStored(number) ? this.codec.decode(this.stored[number]) : undefined;
	}

	has(number: number): boolean {
		if (this.changes.has(number)) return this.changes.get(number) !== null;
		return this.isStored(number);
	}

	set(number: number, entry: Entry): this {
		this.changes.set(number, entry);
		return this;
	}

	delete(number: number): void {
		this.changes.set(number, null);
	}

	get size(): number {
		this.storedCount ??= Object.keys(this.stored).length;
		let size = this.storedCount;
		for (const [number, entry] of this.changes) {
			if (entry === null && this.isStored(number)) size--;
			else if (entry !== null && !this.isStored(number)) size++;
		}
		return size;
	}

	*[Symbol.iterator](): Iterator<[number, Entry]> {
		for (const key of Object.keys(this.stored)) {
			const number = Number(key);
			if (!this.changes.has(number)) yield [number, this.codec.decode(this.stored[key])];
		}
		for (const [number, entry] of this.changes) if (entry !== null) yield [number, entry];
	}

	/** The numbers of every record, without decoding any. */
	*numbers(): Iterable<number> {
		for (const key of Object.keys(this.stored)) {
			const number = Number(key);
			if (!this.changes.has(number)) yield number;
		}
		for (const [number, entry] of this.changes) if (entry !== null) yield number;
	}

	/** An independent copy that shares the (never modified) stored strings. */
	copy(): RememberedRecords<Entry> {
		return new RememberedRecords(this.codec, this.stored, this.changes);
	}

	/**
	 * The stored form, bounded to `limit` records (only changed entries are encoded), and the
	 * newest stamp and highest number among the records left out.
	 */
	toRecord(limit = MAX_ENTRIES): { record: Record<string, string> } & Forgotten {
		if (this.size > limit) {
			const record: Record<string, string> = {};
			const { kept, forgottenUpTo, forgottenNumber } = bound(
				new Map(this) as Map<number, Entry & { stamp: string | null }>,
				limit,
			);
			for (const [number, entry] of kept) record[number] = this.codec.encode(entry);
			return { record, forgottenUpTo, forgottenNumber };
		}
		const record: Record<string, string> = { ...this.stored };
		for (const [number, entry] of this.changes) {
			if (entry === null) delete record[number];
			else record[number] = this.codec.encode(entry);
		}
		return { record, forgottenUpTo: null, forgottenNumber: null };
	}
}
