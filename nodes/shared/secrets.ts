/**
 * Keeping secrets out of what the nodes show: the API key and the trigger's delivery tokens,
 * however the service may echo them back in an error or a listing (plainly, URL-encoded, as HTML
 * entities, in base64, or in part). The nodes read the key to mask it here, never to send it anywhere but the service.
 */
import { jsonParse } from 'n8n-workflow';

/** The text with every character a regular expression gives meaning to escaped. */
export function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The trigger's delivery secret travels as `token=` in registration URLs, which the service may
 * echo in an error and the Webhook operations would output; it is shown only as its first four
 * characters, enough to tell two registrations apart. Any `token=` is masked, whatever comes
 * before it (`&`, `&amp;`, `&#38;`, `\u0026`, a space, the start of a plain-text body).
 */
export function maskUrlTokens(text: string): string {
	return text.replace(/(token(?:=|%3D))([^&\s"'<>\\]{4})[^&\s"'<>\\]*/gi, '$1$2[redacted]');
}

/** Named HTML entities for the characters an API key may hold besides letters and digits. */
const NAMED_ENTITIES: Record<string, string[]> = {
	'+': ['&plus;'],
	'/': ['&sol;'],
	'=': ['&equals;'],
	'&': ['&amp;'],
	'<': ['&lt;'],
	'>': ['&gt;'],
	'"': ['&quot;'],
	"'": ['&apos;', '&#39;'],
	'.': ['&period;'],
	'-': ['&hyphen;', '&dash;'],
	_: ['&lowbar;'],
	'%': ['&percnt;'],
};

/** One character of a secret as it may be written: as is, percent-encoded, or an HTML entity. */
function charForms(char: string): string {
	const code = char.codePointAt(0) ?? 0;
	const hex = code.toString(16);
	const forms = [
		escapeRegExp(char),
		code < 0x80 ? `%${hex.padStart(2, '0')}` : undefined,
		`&#0*${code};`,
		`&#x0*${hex};`,
		...(NAMED_ENTITIES[char] ?? []).map(escapeRegExp),
	].filter(Boolean);
	return forms.length === 1 ? forms[0]! : `(?:${forms.join('|')})`;
}

/** Matches a secret written plainly, URL-encoded, as HTML entities, or any mix of them. */
const secretPatterns = new Map<string, RegExp>();
function secretPattern(secret: string): RegExp {
	let pattern = secretPatterns.get(secret);
	if (!pattern) {
		pattern = new RegExp([...secret].map(charForms).join(''), 'gi');
		// A few keys per process; the map never grows past that in practice, but is bounded.
		if (secretPatterns.size >= 20) secretPatterns.clear();
		secretPatterns.set(secret, pattern);
	}
	return pattern;
}

/**
 * The secret's bytes as they appear inside any base64 text (standard or URL-safe alphabet),
 * whatever came before them: one form per alignment (0, 1 or 2 bytes before), without the
 * characters the neighbouring bytes also decide. A server that echoes a header it decoded, or
 * a `Basic` credential, writes the key this way.
 */
function base64Forms(secret: string): string[] {
	const bytes = Buffer.from(secret, 'utf8');
	const forms = new Set<string>();
	for (let before = 0; before < 3; before++) {
		const encoded = Buffer.concat([Buffer.alloc(before), bytes]).toString('base64');
		const from = Math.ceil((before * 8) / 6);
		const to = Math.floor(((before + bytes.length) * 8) / 6);
		const core = encoded.slice(from, to);
		if (core.length < PARTIAL_RUN) continue;
		forms.add(core);
		forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return [...forms];
}

/**
 * How many consecutive characters of a secret give it away: a service that echoes part of the
 * key (its first or last characters, or a truncated copy) is masked from this many on. Shorter
 * runs are too likely to be ordinary words or numbers.
 */
const PARTIAL_RUN = 8;

/**
 * Masks every run of PARTIAL_RUN or more consecutive characters of the secret, as written
 * (partial echoes in URL-encoded or entity form are not looked for).
 */
function maskPartial(text: string, secret: string): string {
	if (secret.length < PARTIAL_RUN || text.length < PARTIAL_RUN) return text;
	const pieces = new Set<string>();
	for (let at = 0; at + PARTIAL_RUN <= secret.length; at++)
		pieces.add(secret.slice(at, at + PARTIAL_RUN));
	const hidden = new Uint8Array(text.length);
	let found = false;
	for (let at = 0; at + PARTIAL_RUN <= text.length; at++) {
		if (!pieces.has(text.slice(at, at + PARTIAL_RUN))) continue;
		hidden.fill(1, at, at + PARTIAL_RUN);
		found = true;
	}
	if (!found) return text;
	let out = '';
	for (let at = 0; at < text.length;) {
		if (!hidden[at]) {
			out += text[at++];
			continue;
		}
		while (at < text.length && hidden[at]) at++;
		out += '[redacted]';
	}
	return out;
}

/**
 * Removes every occurrence of a secret (the API key, delivery tokens) from a text, however the
 * service echoed it: as is, URL-encoded (`Ab%2Bcd`), as HTML entities (`Ab&#43;cd`), in base64,
 * or in part (any PARTIAL_RUN or more consecutive characters of it).
 */
export function redact(text: string, secret: string | undefined): string {
	const masked = maskUrlTokens(text);
	if (!secret || secret.length < 4) return masked;
	let result = masked.split(secret).join('[redacted]').replace(secretPattern(secret), '[redacted]');
	for (const form of base64Forms(secret)) result = result.split(form).join('[redacted]');
	return maskPartial(result, secret);
}

/** The body with every form of the secret masked, in its strings as well as in plain text. */
export function withoutSecret(body: unknown, secret: string | undefined): unknown {
	if (!secret || secret.length < 4 || body === undefined || body === null) return body;
	if (typeof body === 'string') return redact(body, secret);
	if (typeof body !== 'object') return body;
	const text = JSON.stringify(body);
	const masked = redact(text, secret);
	if (masked === text) return body;
	return jsonParse<unknown>(masked, { fallbackValue: masked });
}
