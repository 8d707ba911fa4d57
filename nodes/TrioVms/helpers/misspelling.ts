/**
 * The one misspelling rule for spreadsheet columns: which column name is a field's name with a
 * letter or two wrong ("Emial", "Strat Date"), and which is a column of the sheet's own ("Phone 2",
 * "Second Email", "License State"). Pure; columns.ts reads the row and stops on what this finds.
 */

/** What the rule reads of a field: its names. */
export interface NamedField {
	id: string;
	displayName: string;
	aliases?: string[];
}

/** A column or field name reduced to what matters: letters and digits, lower case. */
export function comparableName(name: string): string {
	return name.toLowerCase().replace(/[^a-z0-9]/g, '');
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
function wordsOfField<F extends NamedField>(field: F, byName: Map<string, F>): Set<string> {
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
export function resembledField<F extends NamedField>(
	column: string,
	byName: Map<string, F>,
): F | undefined {
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
export function fieldsByName<F extends NamedField>(fields: F[]): Map<string, F> {
	const byName = new Map<string, F>();
	for (const field of fields) {
		for (const name of [field.id, field.displayName, ...(field.aliases ?? [])])
			byName.set(comparableName(name), field);
	}
	return byName;
}
