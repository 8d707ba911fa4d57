/**
 * Receiving a delivery: check it before any workflow starts, then turn it into items.
 *
 *   1. token   the `token` query parameter must equal the node's secret (constant-time) -> else 403
 *   2. event   the `event` query parameter must name one of the 15 events             -> else 400
 *   3. body    at most MAX_DELIVERY_BYTES                                            -> else 413
 *              a JSON object (not null, a list, a number or a string)                -> else 400
 *   4. the event must still be selected in the node                                  -> else 200, ignored
 *   5. duplicates (optional)                                                         -> 200, dropped
 *   6. items: the payload plus `event` and `receivedAt`; checked against the event's schema
 *
 * Everything here is pure so it can be tested without n8n; deliveries.ts wires it to the request.
 * What the request carries is read by deliveryRequest.ts, the token checked by deliveryToken.ts.
 */
import type { IDataObject } from 'n8n-workflow';

import { isTrioEventName, TRIO_EVENTS, type TrioEventName } from '../shared/events';
import { simplifyJob } from '../shared/jobOutput';
import { isRecord } from '../shared/listAnswer';
import { describeIssues } from '../shared/schemas';
import { simplifyShift } from '../shared/shiftOutput';
import { simplifySubmission } from '../shared/submissionOutput';
import { deliveryFingerprint } from './dedup';
import {
	bodyTooLarge,
	declaredLength,
	MAX_DELIVERY_BYTES,
	MAX_PAYLOAD_DEPTH,
	nestsDeeperThan,
	readJsonBody,
	singleQueryValue,
} from './deliveryRequest';
import { tokenMatches } from './deliveryToken';

// ------------------------------------------------------------------ items

interface ValidationNote {
	valid: false;
	issues: string[];
}

/**
 * Issue lines ("Items.0.Start: must be an ISO 8601 date-time ...") when the payload does not
 * match its schema; one line per field (the first problem found with it).
 */
export function validatePayload(event: TrioEventName, payload: unknown): string[] {
	if (!TRIO_EVENTS[event].payloadShown) return [];
	const result = TRIO_EVENTS[event].payload.safeParse(payload);
	if (result.success) return [];
	const seen = new Set<string>();
	return describeIssues(result.error).filter((line) => {
		const field = line.slice(0, line.indexOf(': '));
		if (seen.has(field)) return false;
		seen.add(field);
		return true;
	});
}

/**
 * Copies a payload's own fields. Object.assign would run the `__proto__` setter for a field of
 * that name (JSON.parse makes it an ordinary own field) and swap the item's prototype.
 */
function copyFields(target: IDataObject, source: IDataObject): IDataObject {
	Object.assign(target, source);
	if (Object.prototype.hasOwnProperty.call(source, '__proto__')) {
		Object.defineProperty(target, '__proto__', {
			value: source['__proto__'],
			enumerable: true,
			writable: true,
			configurable: true,
		});
		Object.setPrototypeOf(target, Object.prototype);
	}
	return target;
}

/** `event` and `receivedAt` first, then the payload's own fields exactly as sent. */
function item(
	event: string,
	receivedAt: string,
	fields: IDataObject,
	issues: string[],
): IDataObject {
	const json: IDataObject = copyFields({ event, receivedAt }, fields);
	json.event = event;
	json.receivedAt = receivedAt;
	if (issues.length) json._validation = { valid: false, issues } satisfies ValidationNote;
	return json;
}

const ITEM_ISSUE = /^Items\.(\d+)(?:\.|:)/;

/**
 * The events whose records Output Simplified shortens, and how: a job and a submission as every
 * node outputs them, each per diem shift flat. Non Locums Confirmation Signed is flat and short
 * as Trio sends it.
 */
export function simplifierFor(
	event: TrioEventName,
): ((record: IDataObject) => IDataObject) | undefined {
	if (event === 'Job Update') return simplifyJob;
	if (event === 'Submission Update') return simplifySubmission;
	if (event.startsWith('Per Diem Shift ')) return simplifyShift;
	return undefined;
}

/**
 * The output items of one delivery. Payloads are passed through untouched unless simplified
 * (per diem Start and End stay the pool-local strings they are either way). A payload that does
 * not match the event's schema is still output, with `_validation: { valid: false, issues }`,
 * checked as Trio sent it; a valid one has no `_validation` field. With `split`, a batched event
 * (Items) gives one item per element, each keeping the payload's other fields (Action) and only
 * the issues that concern it. With `simplify`, each job, submission or shift is the simplified
 * one (nodes/shared/jobOutput.ts, submissionOutput.ts, shiftOutput.ts).
 */
export function buildItems(input: {
	event: TrioEventName;
	payload: unknown;
	receivedAt: string;
	split: boolean;
	/** Output Simplified: the short record of simplifierFor instead of every field. */
	simplify?: boolean;
}): IDataObject[] {
	const { event, payload, receivedAt, split } = input;
	const issues = validatePayload(event, payload);
	if (!isRecord(payload)) {
		// Not an object: output it under `body` so nothing is lost.
		const reason = Array.isArray(payload)
			? 'a list'
			: payload === null
				? 'null'
				: `a ${typeof payload}`;
		return [
			item(event, receivedAt, { body: payload as IDataObject['body'] }, [
				`body: expected a JSON object, received ${reason}`,
			]),
		];
	}
	const simplify = input.simplify ? simplifierFor(event) : undefined;
	const elements = payload.Items;
	const batch = TRIO_EVENTS[event].batched && Array.isArray(elements);
	if (!split || !batch || elements.length === 0) {
		if (!simplify) return [item(event, receivedAt, payload, issues)];
		if (!batch) return [item(event, receivedAt, simplify(payload), issues)];
		// One item listing the shifts: each shift simplified, the list kept.
		const shifts = elements.map((element) => (isRecord(element) ? simplify(element) : element));
		return [item(event, receivedAt, { Items: shifts as IDataObject[] }, issues)];
	}
	const rest: IDataObject = { ...payload };
	delete rest.Items;
	const shared = issues.filter((issue) => !ITEM_ISSUE.test(issue));
	return elements.map((element, index) => {
		const own = issues
			.filter((issue) => ITEM_ISSUE.exec(issue)?.[1] === String(index))
			.map((issue) => issue.replace(ITEM_ISSUE, (match) => (match.endsWith(':') ? 'item:' : '')));
		// Object.assign rather than two spreads: on Node 20 the spreads cost a quarter of a whole
		// 200-shift delivery (npm run bench, trigger-receive); the object built is the same.
		const fields: IDataObject = isRecord(element)
			? copyFields(copyFields({}, rest), element)
			: copyFields(copyFields({}, rest), { item: element as IDataObject['item'] });
		return item(event, receivedAt, simplify && isRecord(element) ? simplify(fields) : fields, [
			...shared,
			...own,
		]);
	});
}

/** 16 hex characters (64 bits): unique enough for any delivery window, short enough to read. */
const DELIVERY_KEY_LENGTH = 16;

/**
 * What the trigger outputs for one accepted delivery: buildItems, each item with its
 * `deliveryKey` last. The same delivery always gets the same key, in every process, so n8n's
 * Remove Duplicates (whose memory n8n keeps in its database) can key on it across processes and
 * restarts; a split delivery's items get `<key>:<index>`.
 */
export function deliveryItems(
	input: Parameters<typeof buildItems>[0] & {
		/** deliveryFingerprint of the event and payload, when the caller has it already. */
		fingerprint?: string;
	},
): IDataObject[] {
	const items = buildItems(input);
	// The fingerprint costs as much as validating the payload: the receiver computes it once.
	const fingerprint = input.fingerprint ?? deliveryFingerprint(input.event, input.payload);
	const deliveryKey = fingerprint.slice(0, DELIVERY_KEY_LENGTH);
	if (items.length === 1) items[0].deliveryKey = deliveryKey;
	else items.forEach((entry, index) => (entry.deliveryKey = `${deliveryKey}:${index}`));
	return items;
}

// ------------------------------------------------------------------ the whole check
export type DeliveryVerdict =
	| { kind: 'refuse'; status: 403 | 400 | 408 | 413; message: string }
	| { kind: 'ignore'; message: string }
	| { kind: 'accept'; event: TrioEventName; payload: unknown };

const FORBIDDEN =
	"Forbidden: this address accepts only deliveries from this workflow's Trio VMS webhook registrations";

/**
 * Step 1 on its own, for the receiver to run before it reads the body: an unauthenticated
 * request must not make n8n read up to 16 MiB. Undefined when the token is accepted.
 */
export function judgeToken(
	acceptedHashes: string | readonly string[] | undefined,
	query: unknown,
): { kind: 'refuse'; status: 403; message: string } | undefined {
	if (tokenMatches(acceptedHashes, singleQueryValue(query, 'token'))) return undefined;
	return { kind: 'refuse', status: 403, message: FORBIDDEN };
}

/** Steps 1-4 above: who may deliver, which event, whether the body is JSON, whether it is wanted. */
export function judgeDelivery(input: {
	/** SHA-256 (hex) of the token this node's registrations carry, or of each token accepted. */
	expectedTokenHash: string | readonly string[] | undefined;
	query: unknown;
	contentType?: string;
	/** The Content-Length header, where the request has one. */
	contentLength?: unknown;
	parsedBody: unknown;
	rawBody?: Buffer | string;
	selectedEvents: readonly string[];
}): DeliveryVerdict {
	const refusal = judgeToken(input.expectedTokenHash, input.query);
	if (refusal) return refusal;
	const event = singleQueryValue(input.query, 'event');
	if (!isTrioEventName(event)) {
		return { kind: 'refuse', status: 400, message: `Unknown event "${event ?? ''}"` };
	}
	const size =
		input.rawBody === undefined || input.rawBody === null
			? declaredLength(input.contentLength)
			: Buffer.byteLength(input.rawBody);
	if (size !== undefined && size > MAX_DELIVERY_BYTES) {
		return { kind: 'refuse', status: 413, message: bodyTooLarge(size) };
	}
	const body = readJsonBody(input);
	if (!body.ok) return { kind: 'refuse', status: 400, message: body.reason };
	if (!isRecord(body.value)) {
		const what = Array.isArray(body.value)
			? 'a list'
			: body.value === null
				? 'null'
				: `a ${typeof body.value}`;
		return {
			kind: 'refuse',
			status: 400,
			message: `The body is ${what}; a Trio VMS delivery is a JSON object`,
		};
	}
	if (nestsDeeperThan(body.value, MAX_PAYLOAD_DEPTH)) {
		return {
			kind: 'refuse',
			status: 400,
			message: `The body nests deeper than ${MAX_PAYLOAD_DEPTH} levels; no Trio VMS payload does`,
		};
	}
	if (!input.selectedEvents.includes(event)) {
		return {
			kind: 'ignore',
			message: `The event "${event}" is no longer selected in this trigger; the delivery was ignored`,
		};
	}
	return { kind: 'accept', event, payload: body.value };
}
