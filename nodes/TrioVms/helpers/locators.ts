/**
 * The value a resource locator holds, however the user gave it (picked from the list, typed, or
 * mapped), checked. n8n reports a missing or malformed value with the parameter's internal name;
 * these name the field as the panel shows it.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { positiveInteger, requiredText } from './validation';

function locatorValue(context: IExecuteFunctions, itemIndex: number, name: string): unknown {
	return context.getNodeParameter(name, itemIndex, '', { extractValue: true });
}

/** A locator of numbered records (a job): its value as a positive whole number. */
export function locatorNumber(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): number {
	return positiveInteger(locatorValue(context, itemIndex, name), label);
}

/** A locator of records named by text (a webhook registration's ID, a reason): its value, trimmed. */
export function locatorText(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
	label: string,
): string {
	return requiredText(locatorValue(context, itemIndex, name), label);
}
