/**
 * Receives one delivery from Trio VMS (I/O): reads it from n8n, has judge.ts (pure) check the
 * token, event and body, checks the duplicate memory, and hands the workflow its items. The
 * pair is named like planner.ts (pure) and registrations.ts (I/O). Per-request work stays here
 * and in judge.ts, where it is measured (bench/benchmarks/trigger-receive.ts).
 */
import {
	sleep,
	type IDataObject,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { setNewest } from '../shared/boundedMap';
import type { TrioEventName } from '../shared/events';
import { DEFAULT_WINDOW, deliveryEntities, deliveryFingerprint, deliveryMemory } from './dedup';
import { apiKeyOf, selectedEvents, tokenOwner, triggerKey } from './nodeContext';
import {
	BODY_WAIT,
	bodyStalled,
	bodyTooLarge,
	declaredLength,
	MAX_DELIVERY_BYTES,
	singleQueryValue,
} from './deliveryRequest';
import { deliveryItems, judgeDelivery, judgeToken, type DeliveryVerdict } from './judge';
import { PROBE_PARAMETER, probeReply } from './registrationUrls';
import {
	hashToken,
	isFreshToken,
	mayBeFresh,
	tokenMatches,
	triggerIdentity,
} from './deliveryToken';
import {
	lastDeactivation,
	readScope,
	scopeForMode,
	type RegistrationScope,
	type ScopeState,
} from './state';

export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const scope = scopeForMode(context.getMode());
	const stored = readScope(context.getWorkflowStaticData('node'), scope);
	const respond = (status: number, body: IDataObject): IWebhookResponseData => {
		context.getResponseObject().status(status).json(body);
		return { noWebhookResponse: true };
	};

	// An n8n with this workflow's data (a copy, or this same n8n at a new address) asks whether
	// this address is alive. The answer does not depend on the stored state or the token.
	const nonce = singleQueryValue(context.getQueryData(), PROBE_PARAMETER);
	if (nonce !== undefined) {
		const identity = triggerIdentity(await apiKeyOf(context), tokenOwner(context, scope));
		return respond(200, {
			...probeReply(identity, nonce, context.getNodeWebhookUrl('default') ?? ''),
		});
	}

	// The token first: a request without a valid one is refused before its body is read.
	const accepted = await acceptedTokenHashes(context, scope, stored);
	const refusal = judgeToken(accepted, context.getQueryData());
	if (refusal) {
		context.logger.warn(
			`Trio VMS Trigger refused a delivery (${refusal.status}): ${refusal.message}`,
		);
		return respond(refusal.status, { message: refusal.message });
	}

	const verdict = await judgeRequest(context, accepted);
	if (verdict.kind === 'refuse') {
		context.logger.warn(
			`Trio VMS Trigger refused a delivery (${verdict.status}): ${verdict.message}`,
		);
		return respond(verdict.status, { message: verdict.message });
	}
	if (verdict.kind === 'ignore') {
		context.logger.info(`Trio VMS Trigger: ${verdict.message}`);
		return respond(200, { received: true, ignored: verdict.message });
	}

	const fingerprint = deliveryFingerprint(verdict.event, verdict.payload);
	if (isDuplicate(context, scope, verdict, fingerprint)) {
		context.logger.info(`Trio VMS Trigger dropped a duplicate "${verdict.event}" delivery`);
		return respond(200, { received: true, duplicate: true });
	}

	warnIfAddressMoved(context, stored?.webhookUrl);

	const items = deliveryItems({
		event: verdict.event,
		payload: verdict.payload,
		fingerprint,
		receivedAt: new Date().toISOString(),
		split: context.getNodeParameter('options.splitShifts', true) as boolean,
		simplify: simplifyOn(context),
	});
	return { workflowData: [context.helpers.returnJsonArray(items)] };
}

/**
 * The verdict on a request whose token is accepted: its body read (from n8n, or from the request
 * when n8n did not read it, within the limits) and judged by judge.ts.
 */
async function judgeRequest(
	context: IWebhookFunctions,
	accepted: readonly string[],
): Promise<DeliveryVerdict> {
	const request = context.getRequestObject();
	let rawBody = (request as { rawBody?: Buffer }).rawBody;
	if (rawBody === undefined) {
		const unread = await bodyNotReadByN8n(request);
		if (unread?.kind === 'refuse') return unread;
		rawBody = unread?.bytes;
	}
	return judgeDelivery({
		expectedTokenHash: accepted,
		query: context.getQueryData(),
		contentType: request.headers['content-type'],
		contentLength: request.headers['content-length'],
		parsedBody: context.getBodyData(),
		rawBody,
		selectedEvents: selectedEvents(context),
	});
}

/** Whether Ignore Duplicate Deliveries is on and this delivery was seen within the window. */
function isDuplicate(
	context: IWebhookFunctions,
	scope: RegistrationScope,
	verdict: { event: TrioEventName; payload: unknown },
	fingerprint: string,
): boolean {
	if (!(context.getNodeParameter('options.ignoreDuplicates', true) as boolean)) return false;
	const window = duplicateWindowOf(context);
	const about = deliveryEntities(verdict.event, verdict.payload);
	return deliveryMemory.seen(triggerKey(context, scope), fingerprint, window, about);
}

/**
 * The hashes a delivery's token may match: the stored one, and the received token's own when it
 * is fresh. Both, because
 * n8n adds the webhook route and the trigger registers at Trio before n8n saves the static data
 * that holds the new hash (and in queue mode the receiving process may read static data the
 * activating one has not saved yet): until then the stored hash is missing, or is the one the
 * rotation replaced. A fresh token is signed with the credential's key, was issued within the
 * last minutes and after this process last deactivated the trigger (deliveryToken.ts).
 */
async function acceptedTokenHashes(
	context: IWebhookFunctions,
	scope: RegistrationScope,
	stored: ScopeState | undefined,
): Promise<string[]> {
	const accepted = stored ? [stored.tokenHash] : [];
	const token = singleQueryValue(context.getQueryData(), 'token');
	if (token === undefined || tokenMatches(stored?.tokenHash, token)) return accepted;
	// A token the stored one replaced (issued before or with it) stays refused.
	const notBefore = Math.max(
		lastDeactivation(triggerKey(context, scope)) ?? 0,
		stored?.tokenIssuedAt !== undefined ? stored.tokenIssuedAt + 1 : 0,
	);
	const now = Date.now();
	// Its issue time first: most wrong tokens are refused without decrypting the credential.
	if (!mayBeFresh(token, now, notBefore)) return accepted;
	const fresh = isFreshToken(
		await apiKeyOf(context),
		tokenOwner(context, scope),
		token,
		now,
		notBefore,
	);
	return fresh ? [...accepted, hashToken(token)] : accepted;
}

/** Output: Simplified (the short record of judge.ts simplifierFor) or Raw. */
function simplifyOn(context: IWebhookFunctions): boolean {
	return context.getNodeParameter('output', 'simple') === 'simple';
}

function duplicateWindowOf(context: IWebhookFunctions): number {
	return context.getNodeParameter('options.duplicateWindow', DEFAULT_WINDOW) as number;
}

const WATCH_STEP_MS = 250;

type UnreadBody =
	{ kind: 'read'; bytes: Buffer } | { kind: 'refuse'; status: 408 | 413; message: string };

/**
 * For a start node above version 1, n8n reads the body only for the content types it parses
 * (JSON, text, form, XML). A delivery with another or no content type is read here, so JSON is
 * judged by its bytes at every node version. Reading stops at MAX_DELIVERY_BYTES (413) and
 * after BODY_WAIT (408): only a request with a valid token gets here, but a stalled or endless
 * body must not hold the receiver. A request n8n already read, or one that is not a stream,
 * gives undefined.
 */
async function bodyNotReadByN8n(request: unknown): Promise<UnreadBody | undefined> {
	const stream = request as Partial<
		NodeJS.ReadableStream & { readableEnded: boolean; headers: Record<string, unknown> }
	>;
	if (stream.readableEnded !== false || typeof stream.on !== 'function') return undefined;
	const declared = declaredLength(stream.headers?.['content-length']);
	if (declared !== undefined && declared > MAX_DELIVERY_BYTES)
		return { kind: 'refuse', status: 413, message: bodyTooLarge(declared) };
	return await new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		const finish = (result: UnreadBody) => {
			if (done) return;
			done = true;
			stream.removeListener?.('data', onData);
			// Nothing more is read; n8n's HTTP server discards what still arrives once it has answered.
			stream.pause?.();
			resolve(result);
		};
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_DELIVERY_BYTES)
				finish({ kind: 'refuse', status: 413, message: bodyTooLarge(undefined) });
			else chunks.push(chunk);
		};
		stream.on?.('data', onData);
		stream.on?.('end', () => finish({ kind: 'read', bytes: Buffer.concat(chunks) }));
		stream.on?.('error', () => finish({ kind: 'read', bytes: Buffer.alloc(0) }));
		// The bound, watched in short steps so that nothing waits on after the body has arrived.
		const deadline = Date.now() + BODY_WAIT.ms;
		void (async () => {
			while (!done) {
				const left = deadline - Date.now();
				if (left <= 0) return finish({ kind: 'refuse', status: 408, message: bodyStalled() });
				await sleep(Math.min(WATCH_STEP_MS, left));
			}
		})();
	});
}

/**
 * The address changes this process has already warned about (per workflow, old and new
 * address). Bounded like every other process memory: the oldest entry goes first, and a
 * forgotten one is warned about once more.
 */
export const MAX_ADDRESS_WARNINGS = 1_000;
const warnedAboutAddress = new Map<string, true>();

/** True the first time a key is seen (again after it was forgotten); remembers it. */
export function firstAddressWarning(key: string): boolean {
	if (warnedAboutAddress.has(key)) return false;
	setNewest(warnedAboutAddress, key, true, MAX_ADDRESS_WARNINGS);
	return true;
}

/**
 * n8n 2.x does not run a trigger's webhook methods when it restarts, so after n8n's public address
 * (WEBHOOK_URL) changed, Trio keeps sending to the old one. If deliveries still arrive there, say
 * so once per process, in words that tell what to do.
 */
function warnIfAddressMoved(context: IWebhookFunctions, registeredFor: string | undefined): void {
	const current = context.getNodeWebhookUrl('default');
	if (!registeredFor || !current || registeredFor === current) return;
	const key = `${context.getWorkflow().id ?? ''}|${registeredFor}|${current}`;
	if (!firstAddressWarning(key)) return;
	context.logger.warn(
		`Trio VMS Trigger: n8n's webhook address changed: Trio still sends to ${registeredFor}, but this workflow's address is now ${current}. Unpublish the workflow "${context.getWorkflow().name ?? ''}" and publish it again once to move its Trio registrations.`,
	);
}
