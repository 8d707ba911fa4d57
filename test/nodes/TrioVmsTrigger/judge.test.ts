import type { IDataObject } from 'n8n-workflow';

import { TRIO_EVENT_NAMES, TRIO_EVENTS } from '../../../nodes/shared/events';
import { simplifyShift } from '../../../nodes/shared/shiftOutput';
import {
	SIMPLE_SUBMISSION_FIELDS,
	simplifySubmission,
} from '../../../nodes/shared/submissionOutput';
import {
	buildItems,
	judgeDelivery,
	judgeToken,
	validatePayload,
} from '../../../nodes/TrioVmsTrigger/judge';
import {
	MAX_DELIVERY_BYTES,
	MAX_PAYLOAD_DEPTH,
	nestsDeeperThan,
	readJsonBody,
	singleQueryValue,
} from '../../../nodes/TrioVmsTrigger/deliveryRequest';
import { hashToken, tokenMatches } from '../../../nodes/TrioVmsTrigger/deliveryToken';
import { openedItem, PAYLOADS } from '../../support/trigger-payloads';

const TOKEN = 'a'.repeat(64);
const TOKEN_HASH = hashToken(TOKEN);
const AT = '2026-02-01T10:00:05.000Z';

describe('tokenMatches', () => {
	it('accepts only the exact token', () => {
		expect(tokenMatches(TOKEN_HASH, TOKEN)).toBe(true);
		expect(tokenMatches(TOKEN_HASH, `${TOKEN}x`)).toBe(false);
		expect(tokenMatches(TOKEN_HASH, TOKEN.slice(1))).toBe(false);
		expect(tokenMatches(TOKEN_HASH, TOKEN.toUpperCase())).toBe(false);
	});

	it('refuses a missing token, a non-string token and a node without a token', () => {
		expect(tokenMatches(TOKEN_HASH, undefined)).toBe(false);
		expect(tokenMatches(TOKEN_HASH, '')).toBe(false);
		expect(tokenMatches(TOKEN_HASH, [TOKEN])).toBe(false);
		expect(tokenMatches(undefined, TOKEN)).toBe(false);
		expect(tokenMatches('', '')).toBe(false);
		// The stored value is a hash: the token itself in its place matches nothing.
		expect(tokenMatches(TOKEN, TOKEN)).toBe(false);
	});
});

describe('singleQueryValue', () => {
	it('reads a string and ignores repeated or nested parameters', () => {
		expect(singleQueryValue({ event: 'Job Update' }, 'event')).toBe('Job Update');
		expect(singleQueryValue({ event: ['Job Update', 'x'] }, 'event')).toBeUndefined();
		expect(singleQueryValue({ event: { a: 1 } }, 'event')).toBeUndefined();
		expect(singleQueryValue(undefined, 'event')).toBeUndefined();
	});
});

describe('readJsonBody', () => {
	it('parses the raw bytes whatever the content type says', () => {
		expect(
			readJsonBody({
				contentType: 'text/plain',
				parsedBody: '{"a":1}',
				rawBody: Buffer.from('{"a":1}'),
			}),
		).toEqual({ ok: true, value: { a: 1 } });
		expect(
			readJsonBody({ contentType: undefined, parsedBody: {}, rawBody: Buffer.from('{"a":1}') }),
		).toEqual({ ok: true, value: { a: 1 } });
	});

	it('refuses text, forms and empty bodies', () => {
		expect(
			readJsonBody({
				contentType: 'text/plain',
				parsedBody: 'hello',
				rawBody: Buffer.from('hello'),
			}).ok,
		).toBe(false);
		expect(
			readJsonBody({
				contentType: 'application/x-www-form-urlencoded',
				parsedBody: { a: '1' },
				rawBody: Buffer.from('a=1'),
			}).ok,
		).toBe(false);
		expect(
			readJsonBody({ contentType: 'application/json', parsedBody: {}, rawBody: Buffer.alloc(0) })
				.ok,
		).toBe(false);
	});

	it('falls back to what n8n parsed when the raw bytes are not kept', () => {
		expect(
			readJsonBody({ contentType: 'application/json; charset=utf-8', parsedBody: { a: 1 } }),
		).toEqual({ ok: true, value: { a: 1 } });
		expect(readJsonBody({ contentType: 'text/plain', parsedBody: '[1]' })).toEqual({
			ok: true,
			value: [1],
		});
		expect(
			readJsonBody({ contentType: 'application/x-www-form-urlencoded', parsedBody: { a: '1' } }).ok,
		).toBe(false);
	});

	it('strips a byte order mark', () => {
		expect(
			readJsonBody({
				contentType: 'application/json',
				parsedBody: undefined,
				rawBody: '\uFEFF{"a":1}',
			}),
		).toEqual({ ok: true, value: { a: 1 } });
	});
});

describe('judgeDelivery', () => {
	const base = {
		expectedTokenHash: TOKEN_HASH,
		contentType: 'application/json',
		parsedBody: PAYLOADS['Job Update'],
		rawBody: Buffer.from(JSON.stringify(PAYLOADS['Job Update'])),
		selectedEvents: ['Job Update', 'Submission Update'],
	};

	it('accepts a delivery with the token, a selected event and JSON', () => {
		const verdict = judgeDelivery({ ...base, query: { event: 'Job Update', token: TOKEN } });
		expect(verdict).toEqual({
			kind: 'accept',
			event: 'Job Update',
			payload: PAYLOADS['Job Update'],
		});
	});

	it('refuses a body that is null, a list or a bare value (400): only a JSON object starts the workflow', () => {
		const query = { event: 'Job Update', token: TOKEN };
		for (const [text, what] of [
			['null', 'null'],
			['[]', 'a list'],
			[JSON.stringify([PAYLOADS['Job Update']]), 'a list'],
			['42', 'a number'],
			['"Open"', 'a string'],
		]) {
			expect(
				judgeDelivery({ ...base, query, parsedBody: JSON.parse(text), rawBody: Buffer.from(text) }),
			).toEqual({
				kind: 'refuse',
				status: 400,
				message: `The body is ${what}; a Trio VMS delivery is a JSON object`,
			});
		}
	});

	it('refuses a body over 2 MiB (413) before parsing it, by its bytes or by its declared length', () => {
		const query = { event: 'Job Update', token: TOKEN };
		const big = JSON.stringify({ ...PAYLOADS['Job Update'], Description: 'x'.repeat(15_000_000) });
		expect(judgeDelivery({ ...base, query, rawBody: Buffer.from(big) })).toEqual({
			kind: 'refuse',
			status: 413,
			message:
				'The body is 14.3 MB, more than 2 MB, the most a Trio VMS delivery may have; it was not read',
		});
		// n8n parsed it and kept no bytes: the Content-Length header says the size.
		expect(
			judgeDelivery({ ...base, query, rawBody: undefined, contentLength: String(big.length) }),
		).toMatchObject({ kind: 'refuse', status: 413 });
		// Up to the bound, accepted.
		const padded = JSON.stringify(PAYLOADS['Job Update']).replace(
			/^\{/,
			`{"Notes":"${'x'.repeat(MAX_DELIVERY_BYTES - JSON.stringify(PAYLOADS['Job Update']).length - 11)}",`,
		);
		expect(Buffer.byteLength(padded)).toBe(MAX_DELIVERY_BYTES);
		expect(judgeDelivery({ ...base, query, rawBody: Buffer.from(padded) })).toMatchObject({
			kind: 'accept',
		});
	});

	it('refuses a wrong or missing token with 403 before looking at anything else', () => {
		expect(judgeDelivery({ ...base, query: { event: 'Job Update', token: 'nope' } })).toMatchObject(
			{ kind: 'refuse', status: 403 },
		);
		expect(judgeDelivery({ ...base, query: { event: 'Job Update' } })).toMatchObject({
			kind: 'refuse',
			status: 403,
		});
		expect(judgeDelivery({ ...base, query: { event: 'Nonsense' } })).toMatchObject({
			kind: 'refuse',
			status: 403,
		});
		expect(judgeDelivery({ ...base, rawBody: Buffer.from('nope'), query: {} })).toMatchObject({
			kind: 'refuse',
			status: 403,
		});
	});

	it('refuses when the node has no token (nothing registered in this scope)', () => {
		expect(
			judgeDelivery({
				...base,
				expectedTokenHash: undefined,
				query: { event: 'Job Update', token: TOKEN },
			}),
		).toMatchObject({
			kind: 'refuse',
			status: 403,
		});
	});

	it('refuses an unknown event and a body that is not JSON with 400', () => {
		expect(judgeDelivery({ ...base, query: { event: 'Job Deleted', token: TOKEN } })).toMatchObject(
			{ kind: 'refuse', status: 400 },
		);
		expect(judgeDelivery({ ...base, query: { token: TOKEN } })).toMatchObject({
			kind: 'refuse',
			status: 400,
		});
		expect(
			judgeDelivery({
				...base,
				contentType: 'text/plain',
				parsedBody: 'hi',
				rawBody: Buffer.from('hi'),
				query: { event: 'Job Update', token: TOKEN },
			}),
		).toMatchObject({ kind: 'refuse', status: 400, message: 'The body is not JSON' });
	});

	it('ignores (200) a known event that is no longer selected', () => {
		expect(
			judgeDelivery({ ...base, query: { event: 'Per Diem Shift Removed', token: TOKEN } }),
		).toMatchObject({ kind: 'ignore' });
	});
});

describe('validatePayload', () => {
	it.each(TRIO_EVENT_NAMES)('the fixture of %s is valid', (event) => {
		expect(validatePayload(event, PAYLOADS[event])).toEqual([]);
	});

	it('names the field that differs', () => {
		const issues = validatePayload('Per Diem Shift Time Changed', {
			...PAYLOADS['Per Diem Shift Time Changed'],
			Start: 'tomorrow',
		});
		expect(issues).toHaveLength(1);
		expect(issues[0]).toMatch(/^Start: /);
	});

	it('never flags Non Locums Confirmation Signed, whose payload the spec does not show', () => {
		expect(
			validatePayload('Non Locums Confirmation Signed', { confirmationId: 'abc', signed: true }),
		).toEqual([]);
	});
});

describe('buildItems', () => {
	it('puts event and receivedAt first and keeps every payload field as sent, with no _validation when valid', () => {
		for (const event of TRIO_EVENT_NAMES) {
			const [item, ...rest] = buildItems({
				event,
				payload: PAYLOADS[event],
				receivedAt: AT,
				split: false,
			});
			expect(rest).toEqual([]);
			expect(Object.keys(item).slice(0, 2)).toEqual(['event', 'receivedAt']);
			expect(item).toEqual({ event, receivedAt: AT, ...PAYLOADS[event] });
			expect(item).not.toHaveProperty('_validation');
		}
	});

	it('passes per diem Start and End through untouched', () => {
		const [item] = buildItems({
			event: 'Per Diem Shift Time Changed',
			payload: PAYLOADS['Per Diem Shift Time Changed'],
			receivedAt: AT,
			split: true,
		});
		expect(item.Start).toBe('2026-03-01T08:00:00');
		expect(item.End).toBe('2026-03-01T20:00:00');
	});

	it('still emits a payload that does not match, with what differed', () => {
		const payload = { ...PAYLOADS['Submission Update'], StatusCode: 'three', Extra: 1 };
		const [item] = buildItems({
			event: 'Submission Update',
			payload,
			receivedAt: AT,
			split: false,
		});
		expect(item.StatusCode).toBe('three');
		expect(item.Extra).toBe(1);
		expect(item._validation).toEqual({
			valid: false,
			issues: [expect.stringMatching(/^StatusCode: /)],
		});
	});

	it('keeps our event and receivedAt over payload fields of the same name', () => {
		const [item] = buildItems({
			event: 'Job Update',
			payload: { ...PAYLOADS['Job Update'], event: 'x', receivedAt: 'y' },
			receivedAt: AT,
			split: false,
		});
		expect(item.event).toBe('Job Update');
		expect(item.receivedAt).toBe(AT);
	});

	it('emits a body that is JSON but not an object under "body", marked invalid', () => {
		const [item] = buildItems({
			event: 'Job Update',
			payload: [1, 2],
			receivedAt: AT,
			split: false,
		});
		expect(item.body).toEqual([1, 2]);
		expect(item._validation).toEqual({
			valid: false,
			issues: ['body: expected a JSON object, received a list'],
		});
	});

	it('splits opened and cancelled shifts into one item per shift, keeping Action, event and receivedAt', () => {
		const opened = buildItems({
			event: 'Per Diem Shift Opened',
			payload: PAYLOADS['Per Diem Shift Opened'],
			receivedAt: AT,
			split: true,
		});
		expect(opened).toHaveLength(2);
		expect(opened[0]).toEqual({
			event: 'Per Diem Shift Opened',
			receivedAt: AT,
			Action: 'Per Diem Shift Opened',
			...openedItem('s1', 1),
		});
		expect(opened[1].Id).toBe('s2');
		expect(opened[0]).not.toHaveProperty('Items');

		const cancelled = buildItems({
			event: 'Per Diem Shift Cancelled',
			payload: PAYLOADS['Per Diem Shift Cancelled'],
			receivedAt: AT,
			split: true,
		});
		expect(cancelled.map((item) => [item.Action, item.Id, item.Status])).toEqual([
			['Per Diem Shift Cancelled', 's1', 'Cancelled'],
			['Per Diem Shift Cancelled', 's2', 'Cancelled'],
		]);
	});

	it('does not split when the option is off, the list is empty, or the event is not batched', () => {
		expect(
			buildItems({
				event: 'Per Diem Shift Opened',
				payload: PAYLOADS['Per Diem Shift Opened'],
				receivedAt: AT,
				split: false,
			}),
		).toHaveLength(1);
		expect(
			buildItems({
				event: 'Per Diem Shift Opened',
				payload: { Action: 'Per Diem Shift Opened', Items: [] },
				receivedAt: AT,
				split: true,
			}),
		).toHaveLength(1);
		expect(
			buildItems({
				event: 'Job Update',
				payload: { ...PAYLOADS['Job Update'], Items: [1, 2] },
				receivedAt: AT,
				split: true,
			}),
		).toHaveLength(1);
	});

	it('gives each split item only its own issues plus the shared ones', () => {
		const bad = { ...openedItem('s2', 2), Start: 'soon' };
		const payload = { Action: 'Per Diem Shift Openedd', Items: [openedItem('s1', 1), bad] };
		const [first, second] = buildItems({
			event: 'Per Diem Shift Opened',
			payload,
			receivedAt: AT,
			split: true,
		});
		expect(first._validation).toEqual({
			valid: false,
			issues: [expect.stringMatching(/^Action: /)],
		});
		expect(second._validation).toEqual({
			valid: false,
			issues: [expect.stringMatching(/^Action: /), expect.stringMatching(/^Start: /)],
		});
	});
});

describe('payloads built to break the receiver', () => {
	const base = {
		expectedTokenHash: TOKEN_HASH,
		contentType: 'application/json',
		selectedEvents: ['Job Update', 'Per Diem Shift Opened'],
	};

	it('keeps a __proto__ field as a field: the item keeps its prototype', () => {
		const raw = '{"Number":1,"__proto__":{"polluted":true,"toString":1}}';
		const payload = JSON.parse(raw) as Record<string, unknown>;
		const [one] = buildItems({ event: 'Job Update', payload, receivedAt: 'now', split: true });
		expect(Object.getPrototypeOf(one)).toBe(Object.prototype);
		expect((one as { polluted?: unknown }).polluted).toBeUndefined();
		expect(Object.prototype.hasOwnProperty.call(one, '__proto__')).toBe(true);
		expect(JSON.stringify(one)).toContain('"__proto__":{"polluted":true');

		const opened = JSON.parse(
			'{"Action":"Per Diem Shift Opened","Items":[{"Id":"a","__proto__":{"x":1}}]}',
		) as Record<string, unknown>;
		const [shift] = buildItems({
			event: 'Per Diem Shift Opened',
			payload: opened,
			receivedAt: 'now',
			split: true,
		});
		expect(Object.getPrototypeOf(shift)).toBe(Object.prototype);
		expect((shift as { x?: unknown }).x).toBeUndefined();
	});

	it('refuses a body nested thousands of levels deep with 400, without overflowing the stack', () => {
		const deep = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
		const verdict = judgeDelivery({
			...base,
			query: { event: 'Job Update', token: TOKEN },
			parsedBody: undefined,
			rawBody: Buffer.from(deep),
		});
		expect(verdict).toMatchObject({ kind: 'refuse', status: 400 });
		expect(nestsDeeperThan({ a: { b: { c: 1 } } }, MAX_PAYLOAD_DEPTH)).toBe(false);
	});
});

const judgeBase = {
	contentType: 'application/json',
	parsedBody: PAYLOADS['Job Update'],
	rawBody: Buffer.from(JSON.stringify(PAYLOADS['Job Update'])),
	selectedEvents: ['Job Update'],
};

describe('judgeToken: the token on its own, before any body is read', () => {
	const OTHER = 'b'.repeat(64);

	it('accepts any of the accepted tokens (the stored one, or a fresh one not saved yet)', () => {
		const accepted = [TOKEN_HASH, hashToken(OTHER)];
		expect(judgeToken(accepted, { token: TOKEN })).toBeUndefined();
		expect(judgeToken(accepted, { token: OTHER })).toBeUndefined();
		expect(tokenMatches(accepted, OTHER)).toBe(true);
		expect(
			judgeDelivery({
				...judgeBase,
				expectedTokenHash: accepted,
				query: { event: 'Job Update', token: OTHER },
			}).kind,
		).toBe('accept');
	});

	it('refuses with 403 a token outside the list, a missing one, and anything when nothing is accepted', () => {
		expect(judgeToken([TOKEN_HASH], { token: OTHER })).toMatchObject({
			kind: 'refuse',
			status: 403,
		});
		expect(judgeToken([TOKEN_HASH], {})).toMatchObject({ status: 403 });
		expect(judgeToken([], { token: TOKEN })).toMatchObject({ status: 403 });
		expect(judgeToken(undefined, { token: TOKEN })).toMatchObject({ status: 403 });
		expect(judgeToken(['not a hash'], { token: TOKEN })).toMatchObject({ status: 403 });
	});
});

describe('buildItems with Simplify', () => {
	it('gives Job Update the simplified job and Submission Update the simplified submission, after event and receivedAt', () => {
		const [job] = buildItems({
			event: 'Job Update',
			payload: PAYLOADS['Job Update'],
			receivedAt: AT,
			split: true,
			simplify: true,
		});
		expect(Object.keys(job).slice(0, 2)).toEqual(['event', 'receivedAt']);
		expect(job).toMatchObject({ Number: 1001, ShiftDescription: 'Nights' });
		expect(job).not.toHaveProperty('Specialties');
		expect(job).not.toHaveProperty('Shift');
		const [submission] = buildItems({
			event: 'Submission Update',
			payload: PAYLOADS['Submission Update'],
			receivedAt: AT,
			split: true,
			simplify: true,
		});
		expect(submission).toEqual({
			event: 'Submission Update',
			receivedAt: AT,
			...simplifySubmission(PAYLOADS['Submission Update'] as IDataObject),
		});
		expect(Object.keys(submission)).toEqual(['event', 'receivedAt', ...SIMPLE_SUBMISSION_FIELDS]);
	});

	it('leaves Non Locums Confirmation Signed as sent, and every event whole without Simplify', () => {
		const event = 'Non Locums Confirmation Signed';
		const [signed] = buildItems({
			event,
			payload: PAYLOADS[event],
			receivedAt: AT,
			split: true,
			simplify: true,
		});
		expect(signed).toEqual({ event, receivedAt: AT, ...PAYLOADS[event] });
		for (const name of TRIO_EVENT_NAMES) {
			if (TRIO_EVENTS[name].batched) continue;
			const [whole] = buildItems({
				event: name,
				payload: PAYLOADS[name],
				receivedAt: AT,
				split: true,
			});
			expect(whole).toEqual({ event: name, receivedAt: AT, ...PAYLOADS[name] });
		}
	});

	it('gives each per diem shift flat: the names of pool, client, facility, unit and candidate, no Action', () => {
		const opened = buildItems({
			event: 'Per Diem Shift Opened',
			payload: {
				Action: 'Per Diem Shift Opened',
				Items: [
					{
						...openedItem('s9', 9),
						Facility: { Id: 'f1', Name: 'Mercy General' },
						Notes: 'Bring badge',
					},
				],
			},
			receivedAt: AT,
			split: true,
			simplify: true,
		});
		expect(opened).toHaveLength(1);
		expect(opened[0]).toMatchObject({
			event: 'Per Diem Shift Opened',
			Id: 's9',
			FacilityName: 'Mercy General',
			UnitName: null,
			Notes: 'Bring badge',
		});
		expect(opened[0]).not.toHaveProperty('Action');
		expect(opened[0]).not.toHaveProperty('Facility');
		expect(Object.keys(opened[0]).length).toBeLessThanOrEqual(2 + 12);

		const [assigned] = buildItems({
			event: 'Per Diem Shift Assigned',
			payload: PAYLOADS['Per Diem Shift Assigned'],
			receivedAt: AT,
			split: true,
			simplify: true,
		});
		expect(assigned).toEqual({
			event: 'Per Diem Shift Assigned',
			receivedAt: AT,
			Id: PAYLOADS['Per Diem Shift Assigned'].Id,
			Status: PAYLOADS['Per Diem Shift Assigned'].Status,
			CandidateName: (PAYLOADS['Per Diem Shift Assigned'].Candidate as { Name: string }).Name,
		});
	});

	it('keeps the list of shifts when not split, each shift simplified', () => {
		const payload = PAYLOADS['Per Diem Shift Opened'];
		const [one] = buildItems({
			event: 'Per Diem Shift Opened',
			payload,
			receivedAt: AT,
			split: false,
			simplify: true,
		});
		const shifts = one.Items as Array<Record<string, unknown>>;
		expect(shifts).toEqual((payload.Items as IDataObject[]).map((shift) => simplifyShift(shift)));
		expect(Object.keys(one)).toEqual(['event', 'receivedAt', 'Items']);
	});

	it('keeps the validation note on a simplified job that differs from its documented shape', () => {
		const [job] = buildItems({
			event: 'Job Update',
			payload: { Number: 1 },
			receivedAt: AT,
			split: true,
			simplify: true,
		});
		expect(job).toMatchObject({ event: 'Job Update', Number: 1, _validation: { valid: false } });
	});
});
