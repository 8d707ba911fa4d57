/**
 * Duplicate deliveries (the service says they can occur): each trigger node remembers the
 * fingerprints of the last N deliveries it accepted and drops one it has already seen.
 *
 * The memory lives in this module, inside the n8n process that receives the webhooks, not
 * in the workflow's static data: n8n saves static data changed by a webhook call only in
 * some versions, reads it from the database for every call (two copies of one delivery that
 * arrive together would both pass), and rewrites the whole workflow's static data each time.
 * Module memory is checked and updated in one synchronous step, so simultaneous copies are
 * caught too. It is bounded (N fingerprints per node, a fixed number of nodes) and it starts
 * empty when n8n restarts; the docs point to the Remove Duplicates node for longer windows.
 */
import { createHash } from 'node:crypto';

import { setNewest } from '../shared/boundedMap';

export const DEFAULT_WINDOW = 100;
export const MAX_WINDOW = 10_000;
/** How many trigger nodes (per scope) are remembered at once; the least recently used go first. */
const MAX_NODES = 1_000;

/** JSON with object keys sorted, so that key order does not make two equal payloads differ. */
export function stableStringify(value: unknown): string {
	if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
	if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
	const record = value as Record<string, unknown>;
	const keys = Object.keys(record)
		.filter((key) => record[key] !== undefined)
		.sort();
	return `{${keys.map((key) => `${JSON.stringify(key)}:${stableStringify(record[key])}`).join(',')}}`;
}

/** SHA-256 of the event and the payload: two deliveries are the same when both are equal. */
export function deliveryFingerprint(event: string, payload: unknown): string {
	return createHash('sha256')
		.update(event)
		.update('\n')
		.update(stableStringify(payload))
		.digest('hex');
}

export function clampWindow(value: unknown): number {
	const number = typeof value === 'number' ? value : Number(value);
	if (!Number.isFinite(number)) return DEFAULT_WINDOW;
	return Math.min(MAX_WINDOW, Math.max(1, Math.floor(number)));
}

/** The last `window` fingerprints, oldest first, with a set for constant-time lookups. */
class FingerprintRing {
	private readonly order: string[] = [];

	private readonly members = new Set<string>();

	has(fingerprint: string): boolean {
		return this.members.has(fingerprint);
	}

	add(fingerprint: string, window: number): void {
		this.order.push(fingerprint);
		this.members.add(fingerprint);
		while (this.order.length > window) {
			const oldest = this.order.shift();
			if (oldest !== undefined) this.members.delete(oldest);
		}
	}

	get size(): number {
		return this.order.length;
	}
}

export class DeliveryMemory {
	private readonly rings = new Map<string, FingerprintRing>();

	constructor(private readonly maxNodes = MAX_NODES) {}

	/**
	 * True when `fingerprint` is among the last `window` remembered for `key` (a duplicate);
	 * otherwise remembers it and returns false. Check and update happen in one step.
	 */
	seen(key: string, fingerprint: string, window: number): boolean {
		// Least recently used order: a ring in use becomes the newest.
		const ring = this.rings.get(key) ?? new FingerprintRing();
		setNewest(this.rings, key, ring, this.maxNodes);
		if (ring.has(fingerprint)) return true;
		ring.add(fingerprint, clampWindow(window));
		return false;
	}

	/** Forgets one node's deliveries (when its registrations are removed). */
	forget(key: string): void {
		this.rings.delete(key);
	}

	/** Number of fingerprints remembered for a key (for tests). */
	count(key: string): number {
		return this.rings.get(key)?.size ?? 0;
	}

	get nodes(): number {
		return this.rings.size;
	}
}

/** One memory per n8n process, shared by every Trio VMS Trigger node in it. */
export const deliveryMemory = new DeliveryMemory();

/** Which ring a delivery belongs to: the workflow, the node and the scope (test or production). */
export function memoryKey(
	workflowId: string | undefined,
	nodeId: string | undefined,
	nodeName: string,
	scope: string,
): string {
	return `${workflowId ?? '?'}|${nodeId || nodeName}|${scope}`;
}
