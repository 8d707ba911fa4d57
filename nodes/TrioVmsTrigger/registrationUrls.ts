/**
 * The URLs and names of the trigger's registrations. Each registration's URL is n8n's webhook
 * URL plus two query parameters, `event` (the registration string) and `token` (the node's
 * secret), so every delivery says which event it is and proves it came through a registration
 * of this node.
 */
import { createHmac } from 'node:crypto';

import type { RegistrationScope } from './state';

const EVENT_PARAMETER = 'event';
const TOKEN_PARAMETER = 'token';
/** Asks a registration URL whether a live trigger that holds the same token stands behind it. */
export const PROBE_PARAMETER = 'probe';

/** n8n's webhook URL with the event and the token (when known) added as query parameters. */
export function buildRegistrationUrl(
	webhookUrl: string,
	event: string,
	token: string | undefined,
): string {
	const separator = webhookUrl.includes('?') ? '&' : '?';
	const withEvent = `${webhookUrl}${separator}${EVENT_PARAMETER}=${encodeURIComponent(event)}`;
	return token === undefined
		? withEvent
		: `${withEvent}&${TOKEN_PARAMETER}=${encodeURIComponent(token)}`;
}

/**
 * The part of a URL that identifies the receiving node: scheme, host and path, without
 * query, fragment or trailing slash. Scheme and host compare case-insensitively.
 */
export function urlBase(url: string | null | undefined): string | undefined {
	if (!url) return undefined;
	try {
		const parsed = new URL(url);
		// The WHATWG parser already lower-cases scheme and host.
		return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
	} catch {
		return undefined;
	}
}

export interface RegistrationUrlParts {
	base: string;
	event?: string;
	token?: string;
}

export function readRegistrationUrl(
	url: string | null | undefined,
): RegistrationUrlParts | undefined {
	const base = urlBase(url);
	if (!base || !url) return undefined;
	const params = new URL(url).searchParams;
	return {
		base,
		event: params.get(EVENT_PARAMETER) ?? undefined,
		token: params.get(TOKEN_PARAMETER) ?? undefined,
	};
}

const NAME_LIMIT = 200;

/** What users see in Trio's list of registrations, e.g. "n8n: New jobs to Slack (Job Update)". */
export function registrationName(
	workflowName: string | undefined,
	event: string,
	scope: RegistrationScope,
): string {
	const prefix = scope === 'test' ? 'n8n test' : 'n8n';
	const suffix = ` (${event})`;
	let name = (workflowName ?? '').trim() || 'workflow';
	const room = NAME_LIMIT - prefix.length - 2 - suffix.length;
	if (name.length > room) name = `${name.slice(0, room - 3)}...`;
	return `${prefix}: ${name}${suffix}`;
}

/** What a live trigger answers to a probe (see probeReply). */
export interface ProbeReply {
	/** HMAC of the nonce keyed with the trigger's identity: the same workflow's trigger answered. */
	probe: string;
	/** HMAC of the nonce and the answering n8n's own webhook URL: equal to the prober's own when both are one n8n. */
	self: string;
}

/**
 * A live trigger's answer to a probe. Keyed with the trigger's identity (triggerIdentity), which
 * does not rotate with the token; it reveals nothing about the identity, the token or the key.
 */
export function probeReply(identity: string, nonce: string, ownWebhookUrl: string): ProbeReply {
	const mac = (text: string) => createHmac('sha256', identity).update(text, 'utf8').digest('hex');
	return {
		probe: mac(`probe|${nonce}`),
		self: mac(`self|${nonce}|${urlBase(ownWebhookUrl) ?? ''}`),
	};
}

/** The URL that probes an address: the registration URL without token, with a nonce. */
export function probeUrl(webhookUrl: string, event: string, nonce: string): string {
	return `${buildRegistrationUrl(webhookUrl, event, undefined)}&${PROBE_PARAMETER}=${encodeURIComponent(nonce)}`;
}
