/**
 * Spreadsheet rows as field values, the way n8n's resource mapper offers them: Map Automatically
 * matches each column of the row to a field by name (letter case, spaces and punctuation do not
 * matter, as users name columns "First Name", "first_name" or "FIRST NAME"); Map Each Column
 * Manually takes the values the user dragged into each field. Either way the values then go
 * through the same checks as the fields typed in the node, and every message names the column and
 * the row. Which unmatched column is a misspelt field is misspelling.ts's one rule.
 */
import type {
	FieldType,
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import { comparableName, fieldsByName, resembledField, type NamedField } from './misspelling';
import { ParameterError } from './validation';

export interface ColumnField extends NamedField {
	/** The key in the mapped value and in the code. */
	id: string;
	/** The field's name as the user sees it, and the column name that matches it best. */
	displayName: string;
	required?: boolean;
	type?: FieldType;
	/** Other column names users give this field. */
	aliases?: string[];
	/** The name Map Each Column Manually shows, where it must say more than the field's name. */
	mapperName?: string;
}

/** Columns that n8n's own nodes add to rows, never a user's data (Google Sheets' row number). */
const ROW_BOOKKEEPING = new Set(['rownumber']);

/** The resource mapper's field list, as its `resourceMapperMethod` returns it. */
export function mapperFields(fields: ColumnField[]): ResourceMapperFields {
	return {
		fields: fields.map((field): ResourceMapperField => ({
			id: field.id,
			displayName: field.mapperName ?? field.displayName,
			required: field.required ?? false,
			defaultMatch: false,
			canBeUsedToMatch: false,
			display: true,
			type: field.type ?? 'string',
		})),
	};
}

/** The resource mapper parameter, Map Automatically by default. */
export function columnsProperty(method: string, description: string): INodeProperties {
	return {
		displayName: 'Columns',
		name: 'columns',
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'autoMapInputData', value: null },
		required: true,
		description,
		typeOptions: {
			resourceMapper: {
				resourceMapperMethod: method,
				mode: 'add',
				// Trio has fields; the sheet has the columns (n8n's notice: "named the same as the fields in Trio VMS").
				fieldWords: { singular: 'field', plural: 'fields' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: true,
			},
		},
	};
}

/** The option that decides what a column matching no field does (Map Automatically only). */
export const otherColumnsOption: INodeProperties = {
	displayName: 'Columns Matching No Field',
	name: 'otherColumns',
	type: 'options',
	options: [
		{
			name: 'Ignore Them',
			value: 'ignore',
			description: 'Leave out every such column, a misspelt one too: its values are not sent',
		},
		{
			name: 'Ignore Them Unless Misspelt',
			value: 'unlessMisspelt',
			description:
				'Leave out columns of your own (Notes, Recruiter, Phone 2, Second Email, License State); stop on a column named as a field with a letter or two wrong (Emial, Strat Date), so a misspelt column is never skipped silently',
		},
		{
			name: 'Stop With an Error',
			value: 'error',
			description: 'Stop on any column that matches no field, naming it',
		},
	],
	default: 'unlessMisspelt',
	description: 'What to do when a column of the row matches no field by name',
	// Map Each Column Manually reads only the columns dragged in: there is nothing to decide.
	displayOptions: {
		show: { '/valuesFrom': ['columns'], '/columns.mappingMode': ['autoMapInputData'] },
	},
};

/**
 * The advice for a column that stops a row. Never "Ignore Them": that would send every row without
 * the misspelt column's values (a start date, a phone) and nobody would know.
 */
const RENAME =
	'Rename the column to the field it holds (letter case and spaces do not matter), or choose Map Each Column Manually.';
/**
 * With Stop With an Error, what the user chose to leave columns of their own out: Ignore Them
 * Unless Misspelt still stops on a misspelt one.
 */
const KEEP_OWN_COLUMNS =
	'To leave out columns of your own, set Columns Matching No Field to Ignore Them Unless Misspelt under Options.';

/** How many names a message lists before it says how many more there are. */
const NAMES_LISTED = 10;
/** How much of one name a message shows: a cell or header can be any length. */
const NAME_SHOWN = 60;

/** A name as a message quotes it, cut to NAME_SHOWN characters. */
function quoted(name: string): string {
	const characters = [...name];
	return `"${characters.length > NAME_SHOWN ? `${characters.slice(0, NAME_SHOWN - 1).join('')}…` : name}"`;
}

/**
 * Names as a sentence lists them ("a", "b" and "c"), at most NAMES_LISTED of them and then how many
 * more: a row with thousands of columns still gives a message one can read.
 */
export function listedNames(names: string[], noun = 'columns'): string {
	const shown = names.slice(0, NAMES_LISTED).map(quoted);
	const more = names.length - shown.length;
	if (more > 0) return `${shown.join(', ')} and ${more.toLocaleString('en-US')} more ${noun}`;
	return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : shown.join('');
}

export interface RowValues {
	/** The value of each field the row gives, by field id. */
	values: Record<string, unknown>;
	/** The field's name for messages: the column it came from, else the field's own name. */
	label: (id: string) => string;
	/** What a message adds: where the row is, and when no column gives the field, which ones do. */
	where: (id: string) => string;
	/** Where the row is, for messages: "sheet row 3". */
	row: string;
}

/**
 * The row in the sheet's own numbering, and no other number: Google Sheets' row_number where the
 * row has it, else the item's place under one header row (as Extract from File reads a CSV or
 * XLSX file). n8n's editor adds its own item number to an error.
 */
function rowName(json: IDataObject, itemIndex: number): string {
	const sheetRow = Number(json.row_number);
	return `sheet row ${Number.isInteger(sheetRow) && sheetRow > 0 ? sheetRow : itemIndex + 2}`;
}
/**
 * The item's values for `fields`, from the row's columns (Map Automatically) or from the values
 * mapped in the node (Map Each Column Manually).
 */
export function readRow(
	context: IExecuteFunctions,
	itemIndex: number,
	fields: ColumnField[],
	otherColumns: unknown,
): RowValues {
	const json = context.getInputData()[itemIndex]?.json ?? {};
	const row = rowName(json, itemIndex);
	const mode = context.getNodeParameter('columns.mappingMode', itemIndex, 'autoMapInputData');
	if (mode === 'defineBelow') return readMappedValues(context, itemIndex, fields, row);
	return readColumns(json, fields, otherColumns, row);
}

/** Map Each Column Manually: the values mapped in the node, for the fields it knows. */
function readMappedValues(
	context: IExecuteFunctions,
	itemIndex: number,
	fields: ColumnField[],
	row: string,
): RowValues {
	const byId = new Map(fields.map((field) => [field.id, field]));
	const mapped = (context.getNodeParameter('columns.value', itemIndex, {}) ?? {}) as IDataObject;
	const values: Record<string, unknown> = {};
	for (const [id, value] of Object.entries(mapped)) if (byId.has(id)) values[id] = value;
	return {
		values,
		row,
		label: (id) => byId.get(id)?.displayName ?? id,
		where: () => row,
	};
}

/** Map Automatically: each column of the row matched to a field by name, stopping as otherColumns says. */
function readColumns(
	json: IDataObject,
	fields: ColumnField[],
	otherColumns: unknown,
	row: string,
): RowValues {
	const byId = new Map(fields.map((field) => [field.id, field]));
	const byName = fieldsByName(fields);
	const values: Record<string, unknown> = {};
	const columnOf = new Map<string, string>();
	const unmatched: string[] = [];
	for (const [column, value] of Object.entries(json)) {
		const key = comparableName(column);
		if (ROW_BOOKKEEPING.has(key)) continue;
		const field = byName.get(key);
		if (!field) {
			unmatched.push(column);
			continue;
		}
		const earlier = columnOf.get(field.id);
		if (earlier !== undefined) {
			throw new ParameterError(
				field.displayName,
				`is given by two columns, ${listedNames([earlier, column])} (${row})`,
				'Rename or remove one of them, or choose Map Each Column Manually.',
			);
		}
		columnOf.set(field.id, column);
		values[field.id] = value;
	}
	stopOnUnmatched(unmatched, fields, byName, otherColumns, row);
	return {
		values,
		row,
		label: (id) => columnOf.get(id) ?? byId.get(id)?.displayName ?? id,
		where: (id) =>
			columnOf.has(id)
				? row
				: `${row}: no column is named so; the row's columns are ${listedNames(Object.keys(json))}`,
	};
}

/**
 * Throws for the columns that match no field and stop the row: none with Ignore Them, every one
 * with Stop With an Error, the misspelt ones (misspelling.ts) otherwise.
 */
function stopOnUnmatched(
	unmatched: string[],
	fields: ColumnField[],
	byName: Map<string, ColumnField>,
	otherColumns: unknown,
	row: string,
): void {
	const stopping =
		otherColumns === 'ignore'
			? []
			: otherColumns === 'error'
				? unmatched
				: unmatched.filter((column) => resembledField(column, byName));
	if (!stopping.length) return;
	const like = otherColumns === 'error' ? undefined : resembledField(stopping[0], byName);
	// The message opens with the first column's name, as every ParameterError opens with its field.
	const first = quoted(stopping[0]);
	const others = listedNames(stopping).slice(first.length).trimStart();
	throw new ParameterError(
		first.slice(1, -1),
		`${others ? `${others} match` : 'matches'} no field${like ? ` (is it "${like.displayName}"?)` : ''} (${row}). The fields are: ${fields.map((field) => field.displayName).join(', ')}`,
		otherColumns === 'error' ? `${RENAME} ${KEEP_OWN_COLUMNS}` : RENAME,
	);
}

/**
 * Runs `run`, adding to a ParameterError it throws where field `id` of the row is: the row, and for a
 * field no column gives, the columns the row has.
 */
export function inRow<T>(row: RowValues, id: string, run: () => T): T {
	let outcome: { value: T } | { failure: unknown };
	try {
		outcome = { value: run() };
	} catch (failure) {
		outcome = { failure };
	}
	if ('failure' in outcome) throw located(outcome.failure, row.where(id));
	return outcome.value;
}

/** A ParameterError with where it happened added to its message; any other error as it is. */
export function located(error: unknown, where: string): unknown {
	return error instanceof ParameterError
		? new ParameterError(error.label, `${error.problem} (${where})`, error.hint)
		: error;
}

/** The choice between the node's own fields and the row's columns. */
export function valuesFromProperty(columnsDescription: string): INodeProperties {
	return {
		displayName: 'Values From',
		name: 'valuesFrom',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Fields Below',
				value: 'fields',
				description: 'Fill in each field in this node, by typing or dragging values in',
			},
			{ name: 'Spreadsheet Columns', value: 'columns', description: columnsDescription },
		],
		default: 'fields',
	};
}

/** Shows a property only with one choice of Values From. */
export function onlyWith<T extends INodeProperties>(
	valuesFrom: 'fields' | 'columns',
	property: T,
): T {
	return {
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, valuesFrom: [valuesFrom] },
		},
	};
}
