import {
	isIsoDate,
	isIsoDateTime,
	webhookRegistrationRequestSchema,
} from '../../support/service-shapes';

describe('date checks shared by the nodes and the sandbox', () => {
	it('refuses calendar days that Date.parse would roll over', () => {
		expect(isIsoDate('2026-02-30')).toBe(false);
		expect(isIsoDate('2024-02-29')).toBe(true);
		expect(isIsoDateTime('2026-02-30T07:00:00Z')).toBe(false);
		expect(isIsoDateTime('2026-04-31T07:00')).toBe(false);
	});

	it('refuses clock times past 23:59:59', () => {
		expect(isIsoDateTime('2026-02-28T24:00:00Z')).toBe(false);
		expect(isIsoDateTime('2026-02-28T07:61')).toBe(false);
		expect(isIsoDateTime('2026-02-28T07:00:60Z')).toBe(false);
	});

	it('accepts offsets, fractions and pool-local times without offset', () => {
		expect(isIsoDateTime('2026-02-28T07:00:00Z')).toBe(true);
		expect(isIsoDateTime('2026-02-28T07:00:00.1234567')).toBe(true);
		expect(isIsoDateTime('2026-02-28T07:00+05:30')).toBe(true);
		expect(isIsoDateTime('2026-02-28T23:59:59.999-0600')).toBe(true);
	});
});

describe('webhook registration request', () => {
	const base = { Name: 'n8n', Events: ['Job Update'], IsActive: true };

	it('accepts https and http addresses', () => {
		expect(
			webhookRegistrationRequestSchema.safeParse({
				...base,
				Url: 'https://n8n.agency.com/webhook/x',
			}).success,
		).toBe(true);
		expect(
			webhookRegistrationRequestSchema.safeParse({
				...base,
				Url: 'http://127.0.0.1:5678/webhook/x',
			}).success,
		).toBe(true);
	});

	it('refuses other schemes with a message naming what is expected', () => {
		const result = webhookRegistrationRequestSchema.safeParse({
			...base,
			Url: 'ftp://agency.com/x',
		});
		expect(result.success).toBe(false);
		expect(JSON.stringify(result.error?.issues)).toContain('https://');
	});
});
