/**
 * CSV as n8n's Extract from File reads it and Convert to File writes it, for the suites that
 * read the files a workflow wrote and write the sheets a user would.
 */

/** RFC 4180 CSV (quotes, doubled quotes, line breaks inside quotes); a leading BOM is dropped. */
export function parseCsv(text: string): Array<Record<string, string>> {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	const input = text.replace(/^\uFEFF/, '');
	for (let i = 0; i < input.length; i++) {
		const char = input[i];
		if (quoted) {
			if (char === '"' && input[i + 1] === '"') {
				field += '"';
				i++;
			} else if (char === '"') {
				quoted = false;
			} else {
				field += char;
			}
		} else if (char === '"') {
			quoted = true;
		} else if (char === ',') {
			row.push(field);
			field = '';
		} else if (char === '\n' || char === '\r') {
			if (char === '\r' && input[i + 1] === '\n') i++;
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
		} else {
			field += char;
		}
	}
	if (field !== '' || row.length) {
		row.push(field);
		rows.push(row);
	}
	const [header, ...body] = rows;
	return body.map((cells) =>
		Object.fromEntries(header.map((name, index) => [name, cells[index] ?? ''])),
	);
}

/** Rows as a CSV file with a header row, every field quoted (quotes doubled inside). */
export function toCsv(rows: Array<Record<string, unknown>>): string {
	const header = Object.keys(rows[0] ?? {});
	const quote = (value: unknown) => `"${String(value ?? '').replace(/"/g, '""')}"`;
	return `${[header, ...rows.map((row) => header.map((name) => row[name]))].map((cells) => cells.map(quote).join(',')).join('\n')}\n`;
}
