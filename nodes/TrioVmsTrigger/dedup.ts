/**
 * Duplicate deliveries (the service says they can occur): each trigger node remembers the
 * fingerprints of the last N deliveries it accepted (for a job or a submission: of the last one
 * about it) and drops a delivery identical to one of them.
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

/**
 * The job (Job Update) or submission (Submission Update) a delivery is about, by its Number;
 * empty for every other event. Those two carry the record's modification stamp, which a move
 * back to an earlier state may repeat (Open, On Hold, Open again with the same stamp): such a
 * delivery is compared with the last one about its record only. Every per diem payload carries
 * a Timestamp of its own change, so a delivery identical to a recent one is a copy, whatever
 * arrived between (a copy sent again after a later change is still caught).
 */
export function deliveryEntities(event: string, payload: unknown): string[] {
	if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return [];
	const number = (payload as Record<string, unknown>).Number;
	const usable =
		(typeof number === 'string' && number !== '') ||
		(typeof number === 'number' && Number.isFinite(number));
	if (!usable) return [];
	if (event === 'Job Update') return [`job:${String(number)}`];
	if (event === 'Submission Update') return [`submission:${String(number)}`];
	return [];
}

/**
 * The last delivery accepted for each of the `window` most recently moved jobs and submissions,
 * and every other delivery as an entry of its own, keyed by its fingerprint (oldest first).
 */
class LastDeliveries {
	private readonly last = new Map<string, string>();

	get(entity: string): string | undefined {
		return this.last.get(entity);
	}

	set(entity: string, fingerprint: string, window: number): void {
		setNewest(this.last, entity, fingerprint, window);
	}

	get size(): number {
		return this.last.size;
	}
}

export class DeliveryMemory {
	private readonly rings = new Map<string, LastDeliveries>();

	constructor(private readonly maxNodes = MAX_NODES) {}

	/**
	 * True when this delivery repeats the last one accepted for everything it is about (a
	 * duplicate); otherwise remembers it and returns false. Check and update happen in one step.
	 *
	 * "The last one", not "any recent one": Open, On Hold, then Open again with the same stamp is
	 * three changes of one job, and the third is as identical to the first as a re-sent copy would
	 * be. Only a copy of the latest state is dropped; a late copy of an earlier state (sent again
	 * after the job moved on) passes, since nothing in it tells it from a genuine move back.
	 * Without `entities` (every event but Job Update and Submission Update) the delivery is
	 * compared with every one remembered, as one entry each.
	 */
	seen(
		key: string,
		fingerprint: string,
		window: number,
		entities: readonly string[] = [],
	): boolean {
		// Least recently used order: a ring in use becomes the newest.
		const ring = this.rings.get(key) ?? new LastDeliveries();
		setNewest(this.rings, key, ring, this.maxNodes);
		const keys = entities.length ? entities : [`=${fingerprint}`];
		if (keys.every((entity) => ring.get(entity) === fingerprint)) return true;
		const size = clampWindow(window);
		for (const entity of keys) ring.set(entity, fingerprint, size);
		return false;
	}

	/** Forgets one node's deliveries (when its registrations are removed). */
	forget(key: string): void {
		this.rings.delete(key);
	}

	/** Number of entries remembered for a key (for tests). */
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
