/**
 * The candidate creation fields (spec 2.1), shared by Create and Find or Create, and the one
 * function that reads and checks them for an item.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fieldOf } from '../../../shared/fields';
import {
	candidateCreateSchema,
	type CandidateCreateRequest,
	type CandidateStateLicense,
} from '../../../shared/schemas';
import { US_STATES } from '../../../shared/service';
import { toDateOnly } from '../../helpers/dates';
import {
	fieldErrorFromZod,
	FieldError,
	isBlank,
	optionalBoolean,
	optionalText,
	requiredEmail,
	requiredText,
	stateAbbreviation,
} from '../../helpers/validation';

export const emailField: INodeProperties = {
	displayName: 'Email',
	name: 'email',
	type: 'string',
	placeholder: 'e.g. nathan@example.com',
	default: '',
	required: true,
	description: "The candidate's email address; Trio finds candidates by it",
};

export const candidateFields: INodeProperties[] = [
	{
		displayName: 'First Name',
		name: 'firstName',
		type: 'string',
		default: '',
		required: true,
	},
	{
		displayName: 'Last Name',
		name: 'lastName',
		type: 'string',
		default: '',
		required: true,
	},
	{
		displayName: 'State Licenses',
		name: 'stateLicenses',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add State License',
		default: {},
		description:
			"The candidate's professional licenses, one per state. An entry whose State is empty is skipped, so rows with fewer licenses can share one node.",
		options: [
			{
				displayName: 'License',
				name: 'license',
				values: [
					{
						displayName: 'State',
						name: 'state',
						type: 'options',
						options: US_STATES.map((state) => ({
							name: `${state.name} (${state.abbreviation})`,
							value: state.abbreviation,
						})),
						default: '',
						description:
							'The state, DC or territory that issued the license. With an expression, give the abbreviation (TX) or the name (Texas).',
					},
					{
						displayName: 'Compact License',
						name: 'isCompact',
						type: 'boolean',
						default: false,
						description: 'Whether the license is a multistate (Nurse Licensure Compact) license',
					},
					{
						displayName: 'Expiration Date',
						name: 'expirationDate',
						type: 'dateTime',
						default: '',
						description: 'The day the license expires (sent as YYYY-MM-DD)',
					},
				],
			},
		],
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Alcohol Free',
				name: 'isAlcoholFree',
				type: 'boolean',
				default: false,
				description: 'Whether the candidate is alcohol free',
			},
			{
				displayName: 'Nicotine Free',
				name: 'isNicotineFree',
				type: 'boolean',
				default: false,
				description: 'Whether the candidate is nicotine free',
			},
			{
				displayName: 'State Licenses (List)',
				name: 'licenseList',
				type: 'string',
				default: '',
				placeholder: 'e.g. TX, CA',
				description:
					'Several licenses from one spreadsheet cell or expression, added to State Licenses: states such as "TX, CA", or an expression giving a list of states or of licenses with state, isCompact and expirationDate',
			},
			{
				displayName: 'Phone',
				name: 'phone',
				type: 'string',
				default: '',
				placeholder: 'e.g. (512) 555-0142',
				description: "The candidate's telephone number",
			},
		],
	},
];

const LABELS: Record<string, string> = {
	firstName: 'First Name',
	lastName: 'Last Name',
	email1: 'Email',
	phone1: 'Phone',
	isNicotineFree: 'Nicotine Free',
	isAlcoholFree: 'Alcohol Free',
	stateLicenses: 'State Licenses',
};

/** Reads the candidate fields of one item into the creation body, checking each one. */
export function readCandidate(this: IExecuteFunctions, itemIndex: number): CandidateCreateRequest {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const licenseEntries =
		(this.getNodeParameter('stateLicenses.license', itemIndex, []) as IDataObject[]) ?? [];

	const body: CandidateCreateRequest = {
		firstName: requiredText(this.getNodeParameter('firstName', itemIndex, ''), 'First Name'),
		lastName: requiredText(this.getNodeParameter('lastName', itemIndex, ''), 'Last Name'),
		email1: requiredEmail(this.getNodeParameter('email', itemIndex, ''), 'Email'),
	};
	const phone = optionalText(additional.phone, 'Phone');
	if (phone !== undefined) body.phone1 = phone;
	const nicotineFree = optionalBoolean(additional.isNicotineFree, 'Nicotine Free');
	if (nicotineFree !== undefined) body.isNicotineFree = nicotineFree;
	const alcoholFree = optionalBoolean(additional.isAlcoholFree, 'Alcohol Free');
	if (alcoholFree !== undefined) body.isAlcoholFree = alcoholFree;

	const licenses: CandidateStateLicense[] = [];
	const seen = new Set<string>();
	const entries = [
		...(Array.isArray(licenseEntries) ? licenseEntries : []).map((entry, index) => ({
			entry,
			where: `State Licenses (license ${index + 1})`,
		})),
		...licensesFromList(additional.licenseList).map((entry, index) => ({
			entry,
			where: `State Licenses (List) (license ${index + 1})`,
		})),
	];
	for (const { entry, where } of entries) {
		// A spreadsheet row with fewer licenses than columns leaves whole entries empty.
		if (isBlank(entry.state) && isBlank(entry.expirationDate)) continue;
		if (isBlank(entry.state)) throw new FieldError(`${where}: State`, 'is required but empty');
		const state = stateAbbreviation(entry.state, `${where}: State`);
		if (seen.has(state)) {
			throw new FieldError(
				'State Licenses',
				`list ${state} more than once; give one license per state`,
			);
		}
		seen.add(state);
		const license: CandidateStateLicense = {
			state,
			isCompact: optionalBoolean(entry.isCompact, `${where}: Compact License`) ?? false,
		};
		const expirationDate = toDateOnly(entry.expirationDate, `${where}: Expiration Date`);
		if (expirationDate !== undefined) license.expirationDate = expirationDate;
		licenses.push(license);
	}
	if (licenses.length) body.stateLicenses = licenses;

	// The shared schema is the service's rule book: nothing it refuses is sent.
	const checked = candidateCreateSchema.safeParse(body);
	if (!checked.success) throw fieldErrorFromZod(checked.error, LABELS);
	return body;
}

/**
 * Licenses given at once: a text of states ("TX, CA"), or a list of states or of license
 * objects (state, isCompact, expirationDate in any letter case), as a spreadsheet cell or an
 * expression gives them.
 */
function licensesFromList(value: unknown): IDataObject[] {
	if (value === undefined || value === null) return [];
	if (typeof value === 'string')
		return value
			.split(/[,;\n]/)
			.map((part) => part.trim())
			.filter(Boolean)
			.map((state) => ({ state }));
	const list = Array.isArray(value) ? value : [value];
	return list.map((item) => {
		if (item && typeof item === 'object' && !Array.isArray(item)) {
			const record = item as IDataObject;
			return {
				state: fieldOf(record, 'state') as IDataObject[string],
				isCompact: fieldOf(record, 'isCompact') as IDataObject[string],
				expirationDate: fieldOf(record, 'expirationDate') as IDataObject[string],
			};
		}
		return { state: item as IDataObject[string] };
	});
}
