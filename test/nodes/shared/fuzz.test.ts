/**
 * The counted fuzzing suite: property-based tests (fast-check) of what reads outside input — the
 * trigger's delivery judge, item builder and fingerprint, the registration list reader, the field
 * checks, the date and number readers, and the multipart encoder. Nothing may throw anything but
 * the intended error. The number of properties and runs is printed.
 */
import fc from 'fast-check';

import {
	htmlToText,
	MAX_CLEANED_CHARS,
	readServiceMessage,
} from '../../../nodes/shared/serviceMessage';
import { encodeMultipart } from '../../../nodes/shared/transport/multipart';
import { redact } from '../../../nodes/shared/secrets';
import { nameOfListItem } from '../../../nodes/shared/schemas';
import { readRegistrationList } from '../../../nodes/shared/webhookRegistrations';
import {
	toDateOnly,
	toModifiedDateQuery,
	toStartDateTime,
} from '../../../nodes/TrioVms/helpers/dates';
import {
	ParameterError,
	optionalAmount,
	optionalBoolean,
	optionalText,
	positiveInteger,
	requiredEmail,
	stateAbbreviation,
	webhookUrl,
} from '../../../nodes/TrioVms/helpers/validation';
import { TRIO_EVENT_NAMES } from '../../../nodes/shared/events';
import { deliveryFingerprint } from '../../../nodes/TrioVmsTrigger/dedup';
import { buildItems, judgeDelivery } from '../../../nodes/TrioVmsTrigger/judge';
import { parseMultipart } from '../../support/parse-multipart';

const RUNS = 300;
const counted = { properties: 0, runs: 0 };

function check<Ts extends [unknown, ...unknown[]]>(
	property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>,
): Promise<void> | void {
	counted.properties++;
	counted.runs += RUNS;
	return fc.assert(property as fc.IProperty<Ts>, { numRuns: RUNS });
}

afterAll(() => {
	process.stderr.write(
		`fuzzing: ${counted.properties} properties, ${counted.runs} generated inputs, none threw anything but the intended error\n`,
	);
});

/** Whatever a spreadsheet cell, an expression or a JSON body can hold. */
const anyValue = fc.oneof(
	fc.jsonValue(),
	fc.string(),
	fc.double(),
	fc.integer(),
	fc.boolean(),
	fc.constant(undefined),
	fc.constant(null),
	fc.date({ noInvalidDate: false }),
	fc.array(fc.anything(), { maxLength: 3 }),
);

/** Only a ParameterError naming the field may come out of a field check. */
function onlyFieldErrors(read: (value: unknown) => unknown, field: string) {
	return fc.property(anyValue, (value) => {
		try {
			read(value);
		} catch (error) {
			if (!(error instanceof ParameterError)) throw error;
			expect(error.label).toBe(field);
			expect(error.message.startsWith(`"${field}"`)).toBe(true);
		}
	});
}

describe('field checks and readers', () => {
	it.each([
		['positiveInteger', (v: unknown) => positiveInteger(v, 'Job')],
		['optionalAmount', (v: unknown) => optionalAmount(v, 'Job')],
		['optionalBoolean', (v: unknown) => optionalBoolean(v, 'Job')],
		['optionalText', (v: unknown) => optionalText(v, 'Job')],
		['requiredEmail', (v: unknown) => requiredEmail(v, 'Job')],
		['stateAbbreviation', (v: unknown) => stateAbbreviation(v, 'Job')],
		['webhookUrl', (v: unknown) => webhookUrl(v, 'Job')],
		['toModifiedDateQuery', (v: unknown) => toModifiedDateQuery(v, 'Job', 'America/Chicago')],
		['toDateOnly', (v: unknown) => toDateOnly(v, 'Job')],
		['toStartDateTime', (v: unknown) => toStartDateTime(v, 'Job')],
	])('%s throws nothing but a ParameterError naming the field', (_name, read) => {
		check(onlyFieldErrors(read, 'Job'));
	});

	it('positiveInteger gives back a positive safe integer whenever it accepts', () => {
		check(
			fc.property(anyValue, (value) => {
				try {
					const number = positiveInteger(value, 'Job');
					expect(Number.isSafeInteger(number) && number > 0).toBe(true);
				} catch (error) {
					if (!(error instanceof ParameterError)) throw error;
				}
			}),
		);
	});

	it('toModifiedDateQuery gives an ISO 8601 UTC timestamp whenever it accepts', () => {
		check(
			fc.property(
				fc.oneof(
					anyValue,
					fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
				),
				(value) => {
					try {
						const query = toModifiedDateQuery(value, 'Modified After');
						if (query !== undefined)
							expect(query).toMatch(
								/^\d{4,6}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$|^[+-]\d{6}-/,
							);
					} catch (error) {
						if (!(error instanceof ParameterError)) throw error;
					}
				},
			),
		);
	});
});

describe('error bodies and emails (issue 22 points 8, 11, 12)', () => {
	it('readServiceMessage hands the clean-up at most MAX_CLEANED_CHARS and never keeps a token', () => {
		check(
			fc.property(
				fc.string({ maxLength: 200 }),
				fc.integer({ min: 0, max: 20_000 }),
				fc.stringMatching(/^[A-Za-z0-9]{8,40}$/),
				fc.constantFrom('', ' ', '&', '&amp;', '?', '&#38;', '<p>'),
				(text, filler, token, before) => {
					// Text around the token that happens to hold the token's secret part is not a leak.
					fc.pre(!text.includes(token.slice(4)));
					const seen: number[] = [];
					const body = `${'<'.repeat(filler)}${text} ${before}token=${token} end`;
					const { message } = readServiceMessage(body, (part) => {
						seen.push(part.length);
						return htmlToText(part);
					});
					expect(Math.max(0, ...seen)).toBeLessThanOrEqual(MAX_CLEANED_CHARS);
					expect(redact(message, undefined)).not.toContain(token.slice(4));
				},
			),
		);
	});

	it('requiredEmail drops bidi controls wherever they sit in an address', () => {
		const bidi = fc.constantFrom(
			...'\u061C\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069'.split(''),
		);
		check(
			fc.property(
				fc.array(bidi, { maxLength: 4 }),
				fc.array(bidi, { maxLength: 4 }),
				(front, back) => {
					expect(
						requiredEmail(`${front.join('')}jane@agency.example${back.join('')}`, 'Email'),
					).toBe('jane@agency.example');
				},
			),
		);
	});

	it('nameOfListItem reads a name in any letter case', () => {
		check(
			fc.property(
				fc.constantFrom('name', 'Name', 'NAME', 'nAmE'),
				fc.string({ minLength: 1 }),
				(key, name) => {
					expect(nameOfListItem({ [key]: name })).toBe(name);
				},
			),
		);
	});
});

describe('the trigger on arbitrary deliveries', () => {
	const TOKEN_HASH = 'a'.repeat(64);
	const delivery = fc.record({
		query: fc.dictionary(
			fc.constantFrom('event', 'token', 'probe', 'x'),
			fc.oneof(
				fc.string(),
				fc.constantFrom(...TRIO_EVENT_NAMES),
				fc.array(fc.string(), { maxLength: 2 }),
			),
		),
		contentType: fc.option(
			fc.constantFrom(
				'application/json',
				'text/plain',
				'application/x-www-form-urlencoded',
				'application/vnd.trio+json; charset=utf-8',
			),
			{ nil: undefined },
		),
		body: fc.oneof(
			fc.jsonValue().map((value) => JSON.stringify(value)),
			fc.string(),
			fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
		),
	});

	it('judgeDelivery answers 400 or 403, ignores, or accepts: it never throws', () => {
		check(
			fc.property(delivery, ({ query, contentType, body }) => {
				const verdict = judgeDelivery({
					expectedTokenHash: TOKEN_HASH,
					query,
					contentType,
					parsedBody: undefined,
					rawBody: Buffer.from(body, 'latin1'),
					selectedEvents: [...TRIO_EVENT_NAMES],
				});
				expect(['refuse', 'ignore', 'accept']).toContain(verdict.kind);
				if (verdict.kind === 'refuse') expect([400, 403]).toContain(verdict.status);
			}),
		);
	});

	it('buildItems and the fingerprint take any JSON payload of any event, and keep plain objects', () => {
		check(
			fc.property(
				fc.constantFrom(...TRIO_EVENT_NAMES),
				fc.jsonValue({ maxDepth: 6 }),
				fc.boolean(),
				(event, payload, split) => {
					const items = buildItems({ event, payload, receivedAt: 'now', split });
					expect(items.length).toBeGreaterThan(0);
					for (const item of items) {
						expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
						expect(item.event).toBe(event);
					}
					expect(deliveryFingerprint(event, payload)).toMatch(/^[0-9a-f]{64}$/);
				},
			),
		);
	});
});

describe('the registration list reader', () => {
	it('returns registrations with an Id or throws an Error that says what it got', () => {
		check(
			fc.property(fc.jsonValue({ maxDepth: 4 }), (body) => {
				try {
					for (const registration of readRegistrationList(body)) {
						expect(typeof registration.Id).toBe('string');
					}
				} catch (error) {
					expect(error).toBeInstanceOf(Error);
					expect((error as Error).message).toMatch(/instead of a list|none could be read/);
				}
			}),
		);
	});
});

describe('the multipart encoder', () => {
	const name = fc.string({ minLength: 1, maxLength: 20 });
	it('encodes any names, values, file names and bytes so that a server reads them back', async () => {
		await check(
			fc.asyncProperty(
				fc.array(fc.record({ name, value: fc.string({ maxLength: 40 }) }), { maxLength: 4 }),
				fc.record({
					name,
					fileName: fc.string({ minLength: 1, maxLength: 20 }),
					data: fc.uint8Array({ maxLength: 200 }),
				}),
				async (fields, file) => {
					const encoded = encodeMultipart([
						...fields,
						{
							name: file.name,
							fileName: file.fileName,
							contentType: 'application/pdf',
							data: Buffer.from(file.data),
						},
					]);
					const parsed = await parseMultipart(encoded.body, encoded.contentType);
					expect(parsed.fields.map((field) => field.value)).toEqual(
						fields.map((field) => field.value),
					);
					expect(parsed.files).toHaveLength(1);
					expect(parsed.files[0].data.equals(Buffer.from(file.data))).toBe(true);
				},
			),
		);
	});
});
