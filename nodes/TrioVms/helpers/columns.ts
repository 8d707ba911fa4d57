/**
 * Spreadsheet rows as field values, the way n8n's resource mapper offers them: Map Automatically
 * matches each column of the row to a field by name (letter case, spaces and punctuation do not
 * matter, as users name columns "First Name", "first_name" or "FIRST NAME"); Map Each Column
 * Manually takes the values the user dragged into each field. Either way the values then go
 * through the same checks as the fields typed in the node, and every message names the column and
 * the row.
 */
import type {
	FieldType,
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import { ParameterError } from './validation';

export interface ColumnField {
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

/** A column or field name reduced to what matters: letters and digits, lower case. */
function comparableName(name: string): string {
	return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

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

/** The number of single-letter edits (a letter added, removed, changed, or two swapped) from a to b. */
function editDistance(a: string, b: string): number {
	const rows = Array.from({ length: a.length + 1 }, (_, i) =>
		Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
	);
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
				rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
		}
	}
	return rows[a.length][b.length];
}

/**
 * The words of a name, lower case: split at spaces, punctuation, digits and inner capitals, so
 * "First Name", "first_name" and "firstName" all have the words "first" and "name".
 */
function wordsOf(name: string): string[] {
	return name
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z]+/)
		.filter(Boolean);
}

/** How many edits a name or a word of `length` letters may be from another to be its misspelling. */
function editsAllowed(length: number): number {
	return length >= 9 ? 2 : 1;
}

/**
 * The words a field's names are made of, and the names themselves as one word each ("jobnumber"),
 * for a column written without spaces.
 */
function wordsOfField(field: ColumnField, byName: Map<string, ColumnField>): Set<string> {
	const names = [field.id, field.displayName, ...(field.aliases ?? [])];
	const words = new Set(names.flatMap(wordsOf));
	for (const name of names) words.add(comparableName(name));
	for (const [known, owner] of byName) if (owner === field) words.add(known);
	return words;
}

/**
 * Whether the words of a column are a field's words with at least one misspelt: each word is one
 * of the field's or a letter off one (two for words of 9 letters or more; words of one or two
 * letters are never taken as misspelt). A word of the column's own ("Second", "Alt", "home") or
 * none misspelt (the field's words in another order, "License State") is no misspelling.
 */
function hasMisspeltWord(words: string[], fieldWords: Set<string>): boolean {
	let misspelt = false;
	for (const word of words) {
		if (fieldWords.has(word)) continue;
		const near = [...fieldWords].some(
			(known) =>
				word.length >= 3 &&
				known.length >= 3 &&
				Math.abs(known.length - word.length) <= editsAllowed(word.length) &&
				editDistance(word, known) <= editsAllowed(word.length),
		);
		if (!near) return false;
		misspelt = true;
	}
	return misspelt;
}

/**
 * The field a column name is a misspelling of, the one rule: a name with no digit, one edit away
 * from a field's name (letter case, spaces and punctuation aside) for names of 5 to 8 letters, two
 * for longer ones, whose words are the field's with one or more misspelt ("Emial", "Strat Date",
 * "Job Nmber"). Anything else is a column of the sheet's own: a number added ("Phone 2",
 * "Lastname1"), a word of its own added ("Second Email", "Phone (home)"), the field's words
 * reordered ("License State"), or a name shorter than 5 letters ("Date", "Rate": too alike to
 * tell). Undefined when it is a misspelling of none.
 */
export function resembledField(
	column: string,
	byName: Map<string, ColumnField>,
): ColumnField | undefined {
	const name = comparableName(column);
	if (name.length < 5 || name.length > 60 || /\d/.test(name)) return undefined;
	const allowed = editsAllowed(name.length);
	const words = wordsOf(column);
	for (const [known, field] of byName) {
		if (Math.abs(known.length - name.length) > allowed || known.length < 5) continue;
		if (editDistance(name, known) > allowed) continue;
		if (hasMisspeltWord(words, wordsOfField(field, byName))) return field;
	}
	return undefined;
}

/** Each name a column may have to match a field (its id, name and aliases, compared), to its field. */
export function fieldsByName(fields: ColumnField[]): Map<string, ColumnField> {
	const byName = new Map<string, ColumnField>();
	for (const field of fields) {
		for (const name of [field.id, field.displayName, ...(field.aliases ?? [])])
			byName.set(comparableName(name), field);
	}
	return byName;
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
	const byId = new Map(fields.map((field) => [field.id, field]));

	if (mode === 'defineBelow') {
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
	const stopping =
		otherColumns === 'ignore'
			? []
			: otherColumns === 'error'
				? unmatched
				: unmatched.filter((column) => resembledField(column, byName));
	if (stopping.length) {
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
