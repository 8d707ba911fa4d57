/**
 * The candidate creation parameters (spec 2.1), shared by Create and Find or Create, and the one
 * function that reads and checks them for an item.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { fieldOf } from '../../../shared/recordFields';
import { isRecord } from '../../../shared/listAnswer';
import {
	candidateCreateSchema,
	type CandidateCreateRequest,
	type CandidateStateLicense,
} from '../../../shared/schemas';
import { US_STATES } from '../../../shared/serviceFacts';
import { inRow, type ColumnField, type RowValues } from '../../helpers/columns';
import { toDateOnly } from '../../helpers/dates';
import { additionalFieldsCollection, emailAddressParameter } from '../common.descriptions';
import {
	parameterErrorFromZod,
	ParameterError,
	isBlank,
	optionalBoolean,
	optionalText,
	personName,
	requiredEmail,
	stateAbbreviation,
} from '../../helpers/validation';

export const emailParameter: INodeProperties = {
	...emailAddressParameter,
	description: "The candidate's email address; Trio finds candidates by it",
};

export const candidateParameters: INodeProperties[] = [
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
	additionalFieldsCollection([
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
				'Several licenses from one spreadsheet cell or expression, added to State Licenses: states such as "TX, CA", each sent as a license that is not compact and has no expiration date. For a compact license or an expiration date, add the license under State Licenses.',
		},
		{
			displayName: 'Phone',
			name: 'phone',
			type: 'string',
			default: '',
			placeholder: 'e.g. (512) 555-0142',
			description: "The candidate's telephone number",
		},
	]),
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

/** The candidate's values as read from the node or a row, before any check. */
interface CandidateValues {
	firstName: unknown;
	lastName: unknown;
	email: unknown;
	phone?: unknown;
	isNicotineFree?: unknown;
	isAlcoholFree?: unknown;
	licenseEntries?: unknown;
	licenseList?: unknown;
}

/** The labels messages use; a spreadsheet row gives its column names instead. */
type CandidateLabels = Record<
	'firstName' | 'lastName' | 'email' | 'phone' | 'isNicotineFree' | 'isAlcoholFree' | 'licenseList',
	string
>;

const PARAMETER_LABELS: CandidateLabels = {
	firstName: 'First Name',
	lastName: 'Last Name',
	email: 'Email',
	phone: 'Phone',
	isNicotineFree: 'Nicotine Free',
	isAlcoholFree: 'Alcohol Free',
	licenseList: 'State Licenses (List)',
};

/** Reads the candidate parameters of one item into the creation body, checking each one. */
export function readCandidate(this: IExecuteFunctions, itemIndex: number): CandidateCreateRequest {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	return candidateFromValues({
		firstName: this.getNodeParameter('firstName', itemIndex, ''),
		lastName: this.getNodeParameter('lastName', itemIndex, ''),
		email: this.getNodeParameter('email', itemIndex, ''),
		phone: additional.phone,
		isNicotineFree: additional.isNicotineFree,
		isAlcoholFree: additional.isAlcoholFree,
		licenseEntries: this.getNodeParameter('stateLicenses.license', itemIndex, []),
		licenseList: additional.licenseList,
	});
}

/**
 * The creation body from the candidate's values, each checked: the one rule book for fields typed
 * in the node and for spreadsheet columns. `check` wraps each check so that a row's message can
 * name its column and row.
 */
function candidateFromValues(
	values: CandidateValues,
	labels: CandidateLabels = PARAMETER_LABELS,
	check: <T>(key: keyof CandidateLabels, run: () => T) => T = (_key, run) => run(),
): CandidateCreateRequest {
	const body: CandidateCreateRequest = {
		firstName: check('firstName', () => personName(values.firstName, labels.firstName)),
		lastName: check('lastName', () => personName(values.lastName, labels.lastName)),
		email1: check('email', () => requiredEmail(values.email, labels.email)),
	};
	const phone = check('phone', () => optionalText(values.phone, labels.phone));
	if (phone !== undefined) body.phone1 = phone;
	const nicotineFree = check('isNicotineFree', () =>
		optionalBoolean(values.isNicotineFree, labels.isNicotineFree),
	);
	if (nicotineFree !== undefined) body.isNicotineFree = nicotineFree;
	const alcoholFree = check('isAlcoholFree', () =>
		optionalBoolean(values.isAlcoholFree, labels.isAlcoholFree),
	);
	if (alcoholFree !== undefined) body.isAlcoholFree = alcoholFree;

	const entries = licenseEntriesOf(values, labels);
	const licenses = check('licenseList', () => checkedLicenses(entries));
	if (licenses.length) body.stateLicenses = licenses;

	// The shared schema is the service's rule book: nothing it refuses is sent.
	const checked = candidateCreateSchema.safeParse(body);
	if (!checked.success) throw parameterErrorFromZod(checked.error, LABELS);
	return body;
}

/** Each license given, typed in State Licenses or listed at once, with where it was given. */
function licenseEntriesOf(
	values: CandidateValues,
	labels: CandidateLabels,
): Array<{ entry: IDataObject; where: string }> {
	const licenseEntries = values.licenseEntries;
	return [
		...(Array.isArray(licenseEntries) ? (licenseEntries as IDataObject[]) : []).map(
			(entry, index) => ({
				entry,
				where: `State Licenses (license ${index + 1})`,
			}),
		),
		...licensesFromList(values.licenseList).map((entry, index) => ({
			entry,
			where: `${labels.licenseList} (license ${index + 1})`,
		})),
	];
}

/** The licenses, each checked, empty entries left out, one per state. */
function checkedLicenses(
	entries: Array<{ entry: IDataObject; where: string }>,
): CandidateStateLicense[] {
	const licenses: CandidateStateLicense[] = [];
	const seen = new Set<string>();
	for (const { entry, where } of entries) {
		// A spreadsheet row with fewer licenses than columns leaves whole entries empty.
		if (isBlank(entry.state) && isBlank(entry.expirationDate)) continue;
		if (isBlank(entry.state)) throw new ParameterError(`${where}: State`, 'is required but empty');
		const state = stateAbbreviation(entry.state, `${where}: State`);
		if (seen.has(state)) {
			throw new ParameterError(
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
	return licenses;
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
		if (isRecord(item)) {
			return {
				state: fieldOf(item, 'state') as IDataObject[string],
				isCompact: fieldOf(item, 'isCompact') as IDataObject[string],
				expirationDate: fieldOf(item, 'expirationDate') as IDataObject[string],
			};
		}
		return { state: item as IDataObject[string] };
	});
}

/** The candidate's fields as spreadsheet columns (Find or Create, and Submission Create). */
export const CANDIDATE_COLUMNS: ColumnField[] = [
	{ id: 'email', displayName: 'Email', required: true, aliases: ['Email Address', 'E-mail'] },
	{ id: 'firstName', displayName: 'First Name', required: true },
	{ id: 'lastName', displayName: 'Last Name', required: true },
	{ id: 'phone', displayName: 'Phone', aliases: ['Phone Number'] },
	{
		id: 'licenseList',
		displayName: 'State Licenses',
		aliases: ['State Licenses (List)', 'Licenses', 'License States'],
	},
	{ id: 'isNicotineFree', displayName: 'Nicotine Free', type: 'boolean' },
	{ id: 'isAlcoholFree', displayName: 'Alcohol Free', type: 'boolean' },
];

/** The candidate a spreadsheet row describes, checked; messages name the column and the row. */
export function candidateFromRow(row: RowValues): CandidateCreateRequest {
	const labels = Object.fromEntries(
		CANDIDATE_COLUMNS.map((field) => [field.id, row.label(field.id)]),
	) as CandidateLabels;
	return candidateFromValues(
		{
			firstName: row.values.firstName,
			lastName: row.values.lastName,
			email: row.values.email,
			phone: row.values.phone,
			isNicotineFree: row.values.isNicotineFree,
			isAlcoholFree: row.values.isAlcoholFree,
			licenseList: row.values.licenseList,
		},
		labels,
		(key, run) => inRow(row, key, run),
	);
}
