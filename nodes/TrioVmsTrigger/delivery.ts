/**
 * One delivery from Trio VMS: judged by receive.ts (token, event, body), checked against the
 * duplicate memory, and turned into the workflow's items. Per-request work stays here and in
 * receive.ts, where it is measured (bench/benchmarks/trigger-receive.ts).
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { DEFAULT_WINDOW, deliveryFingerprint, deliveryMemory } from './dedup';
import { apiKeyOf, selectedEvents, tokenOwner, triggerKey } from './nodeContext';
import { buildItems, judgeDelivery, singleQueryValue } from './receive';
import { PROBE_PARAMETER, probeAnswer } from './registrationUrls';
import { hashToken, isFreshToken } from './deliveryToken';
import { lastDeactivation, readScope, scopeForMode, type RegistrationScope } from './state';

/** 16 hex characters (64 bits): unique enough for any delivery window, short enough to read. */
const DELIVERY_KEY_LENGTH = 16;

export async function receiveDelivery(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const scope = scopeForMode(context.getMode());
	const stored = readScope(context.getWorkflowStaticData('node'), scope);
	const request = context.getRequestObject();
	const respond = (status: number, body: IDataObject): IWebhookResponseData => {
		context.getResponseObject().status(status).json(body);
		return { noWebhookResponse: true };
	};

	// Another n8n with a copy of this workflow's data asks whether this address is still alive.
	const nonce = singleQueryValue(context.getQueryData(), PROBE_PARAMETER);
	if (nonce !== undefined && stored) {
		return respond(200, { probe: probeAnswer(stored.tokenHash, nonce) });
	}

	const verdict = judgeDelivery({
		expectedTokenHash: stored?.tokenHash ?? (await freshTokenHash(context, scope)),
		query: context.getQueryData(),
		contentType: request.headers['content-type'],
		parsedBody: context.getBodyData(),
		rawBody: (request as { rawBody?: Buffer }).rawBody ?? (await bodyNotReadByN8n(request)),
		selectedEvents: selectedEvents(context),
	});

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
	if (context.getNodeParameter('ignoreDuplicates', true) as boolean) {
		const window = context.getNodeParameter('duplicateWindow', DEFAULT_WINDOW) as number;
		if (deliveryMemory.seen(triggerKey(context, scope), fingerprint, window)) {
			context.logger.info(`Trio VMS Trigger dropped a duplicate "${verdict.event}" delivery`);
			return respond(200, { received: true, duplicate: true });
		}
	}

	warnIfAddressMoved(context, stored?.webhookUrl);

	const items = buildItems({
		event: verdict.event,
		payload: verdict.payload,
		receivedAt: new Date().toISOString(),
		split: context.getNodeParameter('splitShifts', true) as boolean,
	});
	// The same delivery always gets the same key, in every process: n8n's Remove Duplicates, whose
	// memory n8n keeps in its database, can key on it across processes and restarts.
	const deliveryKey = fingerprint.slice(0, DELIVERY_KEY_LENGTH);
	if (items.length === 1) items[0].deliveryKey = deliveryKey;
	else items.forEach((item, index) => (item.deliveryKey = `${deliveryKey}:${index}`));
	return { workflowData: [context.helpers.returnJsonArray(items)] };
}

/**
 * Before n8n has saved the hash of a new token (or in a queue-mode process that reads static
 * data the activating process has not saved yet), the token is checked on its own: signed with
 * the credential's key, fresh, and issued after this process last deactivated the trigger.
 */
async function freshTokenHash(
	context: IWebhookFunctions,
	scope: RegistrationScope,
): Promise<string | undefined> {
	const token = singleQueryValue(context.getQueryData(), 'token');
	if (token === undefined) return undefined;
	const fresh = isFreshToken(
		await apiKeyOf(context),
		tokenOwner(context, scope),
		token,
		Date.now(),
		lastDeactivation(triggerKey(context, scope)),
	);
	return fresh ? hashToken(token) : undefined;
}

/** n8n's own default limit for a request body (N8N_PAYLOAD_SIZE_MAX, 16 MiB). */
const MAX_UNPARSED_BODY_BYTES = 16 * 1024 * 1024;

/**
 * For a start node above version 1, n8n reads the body only for the content types it parses
 * (JSON, text, form, XML). A delivery with another or no content type is read here, so JSON is
 * judged by its bytes at every node version. Bodies over the limit are not read (and refused as
 * not JSON); a request n8n already read, or one that is not a stream, gives undefined.
 */
async function bodyNotReadByN8n(request: unknown): Promise<Buffer | undefined> {
	const stream = request as Partial<NodeJS.ReadableStream & { readableEnded: boolean }>;
	if (stream.readableEnded !== false || typeof stream.on !== 'function') return undefined;
	return await new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		stream.on?.('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= MAX_UNPARSED_BODY_BYTES) chunks.push(chunk);
		});
		stream.on?.('end', () =>
			resolve(size <= MAX_UNPARSED_BODY_BYTES ? Buffer.concat(chunks) : undefined),
		);
		stream.on?.('error', () => resolve(undefined));
	});
}

const warnedAboutAddress = new Set<string>();

/**
 * n8n 2.x does not run a trigger's webhook methods when it restarts, so after n8n's public address
 * (WEBHOOK_URL) changed, Trio keeps sending to the old one. If deliveries still arrive there, say
 * so once per process, in words that tell what to do.
 */
function warnIfAddressMoved(context: IWebhookFunctions, registeredFor: string | undefined): void {
	const current = context.getNodeWebhookUrl('default');
	if (!registeredFor || !current || registeredFor === current) return;
	const key = `${context.getWorkflow().id ?? ''}|${registeredFor}|${current}`;
	if (warnedAboutAddress.has(key)) return;
	warnedAboutAddress.add(key);
	context.logger.warn(
		`Trio VMS Trigger: n8n's webhook address changed: Trio still sends to ${registeredFor}, but this workflow's address is now ${current}. Deactivate and activate the workflow "${context.getWorkflow().name ?? ''}" once to move its Trio registrations.`,
	);
}
