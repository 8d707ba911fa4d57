/**
 * A small seeded PRNG (mulberry32). Everything the sandbox invents comes from one of these so a
 * seed reproduces the same jobs, ids and fault decisions on every machine.
 */
// Bound once: under jest's vm context every global lookup is slow, and next() is the hot path.
const imul = Math.imul;
const floor = Math.floor;

export class Rng {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	/** An independent stream, so that e.g. the number of jobs does not change the candidates. */
	static derive(seed: number, label: string): Rng {
		// FNV-1a over seed and label keeps streams for different labels uncorrelated.
		let hash = 0x811c9dc5;
		for (const char of `${seed}:${label}`) {
			hash ^= char.charCodeAt(0);
			hash = Math.imul(hash, 0x01000193) >>> 0;
		}
		return new Rng(hash);
	}

	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = imul(t ^ (t >>> 15), t | 1);
		t ^= t + imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** Inclusive on both ends. */
	int(min: number, max: number): number {
		return min + floor(this.next() * (max - min + 1));
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	pick<T>(items: readonly T[]): T {
		return items[floor(this.next() * items.length)];
	}

	weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
		const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
		let roll = this.next() * total;
		for (const [value, weight] of entries) {
			roll -= weight;
			if (roll < 0) return value;
		}
		return entries[entries.length - 1][0];
	}

	/** Distinct items, in the order drawn. */
	sample<T>(items: readonly T[], count: number): T[] {
		const pool = [...items];
		const result: T[] = [];
		while (result.length < count && pool.length > 0) {
			result.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]);
		}
		return result;
	}

	/** A version-4-shaped GUID, as the service's string ids look. */
	uuid(): string {
		const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
		hex[12] = '4';
		hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
		const s = hex.join('');
		return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
	}
}
