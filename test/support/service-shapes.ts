/**
 * Service shapes only the tests read: the nodes never parse a candidate the service answers with,
 * nor the body of a registration they send (they build it), so these stay out of the package.
 * The contract tests parse what the sandbox answers with them.
 */
import { z } from 'zod/v3';

import { isoDate, isoDateTime } from '../../nodes/shared/schemas';

export function isIsoDate(value: string): boolean {
	return isoDate.safeParse(value).success;
}
export function isIsoDateTime(value: string): boolean {
	return isoDateTime.safeParse(value).success;
}

export const candidateSchema = z
	.object({
		number: z.number().int(),
		firstName: z.string().nullable().optional(),
		lastName: z.string().nullable().optional(),
		email1: z.string().nullable().optional(),
		phone1: z.string().nullable().optional(),
		isNicotineFree: z.boolean().nullable().optional(),
		isAlcoholFree: z.boolean().nullable().optional(),
		stateLicenses: z
			.array(
				z
					.object({
						state: z.string(),
						isCompact: z.boolean().nullable().optional(),
						expirationDate: z.string().nullable().optional(),
					})
					.passthrough(),
			)
			.nullable()
			.optional(),
	})
	.passthrough();

export const webhookRegistrationRequestSchema = z.object({
	Id: z.string().min(1).optional(),
	Name: z.string().trim().min(1, 'is required'),
	Url: z
		.string()
		.url('must be an absolute URL')
		.refine(
			(value) => /^https?:\/\//i.test(value),
			'must start with https:// (or http:// for a local test address)',
		),
	Events: z.array(z.string().min(1)).min(1, 'must name at least one event'),
	IsActive: z.boolean(),
});
