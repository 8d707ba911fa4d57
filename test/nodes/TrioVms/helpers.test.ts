/**
 * Plain unit tests of the action node's pure helpers: profile-file checks, dates,
 * field checks, list labels and response reading.
 */
import { DateTime } from 'luxon';

import {
	toDateOnly,
	toModifiedDateQuery,
	toStartDateTime,
} from '../../../nodes/TrioVms/helpers/dates';
import { limited, listOrEmpty, objectOf, objectsOf } from '../../../nodes/TrioVms/helpers/output';
import { wordZip } from '../../support/sandbox-harness';
import {
	checkProfileFile,
	checkProfileFileSize,
	detectKind,
	extensionOf,
	knownSize,
} from '../../../nodes/TrioVms/helpers/profileFile';
import {
	expandHome,
	homeFromStoragePath,
	isInsideFolder,
	pathInFolder,
	resumeFolderPath,
} from '../../../nodes/TrioVms/helpers/resumePaths';
import { listedNames } from '../../../nodes/TrioVms/helpers/columns';
import { resembledField } from '../../../nodes/TrioVms/helpers/misspelling';
import { jobLabel, matchesFilter } from '../../../nodes/TrioVms/helpers/search';
import {
	ParameterError,
	optionalAmount,
	optionalBoolean,
	positiveInteger,
	requiredEmail,
	requiredText,
	stateAbbreviation,
	webhookUrl,
} from '../../../nodes/TrioVms/helpers/validation';
import { PROFILE_FILE_MAX_BYTES } from '../../../nodes/shared/serviceFacts';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');
const DOCX = wordZip();
const DOC = Buffer.concat([
	Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
	Buffer.alloc(60, 1),
]);
const RTF = Buffer.from('{\\rtf1\\ansi Jane Doe, RN}');
const TXT = Buffer.from('Jane Doe, RN\nICU, 6 years\n');

function parameterError(run: () => unknown): ParameterError {
	try {
		run();
	} catch (error) {
		if (error instanceof ParameterError) return error;
		throw error;
	}
	throw new Error('expected a ParameterError');
}

describe('profile file checks', () => {
	it.each([
		['resume.pdf', PDF, 'pdf', 'application/pdf'],
		[
			'resume.DOCX',
			DOCX,
			'docx',
			'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
		],
		['resume.doc', DOC, 'doc', 'application/msword'],
		['resume.rtf', RTF, 'rtf', 'application/rtf'],
		['resume.txt', TXT, 'txt', 'text/plain'],
	])('accepts %s', (fileName, data, extension, contentType) => {
		expect(checkProfileFile({ data, fileName })).toEqual({
			fileName,
			extension,
			contentType,
			size: data.length,
		});
	});

	it('refuses a file of 2,500,000 bytes and accepts one byte less', () => {
		const big = Buffer.alloc(PROFILE_FILE_MAX_BYTES, 0x20);
		big.write('%PDF-1.4');
		const error = parameterError(() => checkProfileFile({ data: big, fileName: 'big.pdf' }));
		expect(error.label).toBe('Input Field With the Resume');
		expect(error.message).toContain('2,500,000 bytes');
		expect(
			checkProfileFile({ data: big.subarray(0, PROFILE_FILE_MAX_BYTES - 1), fileName: 'big.pdf' })
				.size,
		).toBe(PROFILE_FILE_MAX_BYTES - 1);
	});

	it('refuses an empty file', () => {
		expect(
			parameterError(() => checkProfileFile({ data: Buffer.alloc(0), fileName: 'a.pdf' })).message,
		).toContain('empty');
	});

	it('refuses extensions other than pdf, doc, docx, rtf and txt', () => {
		const error = parameterError(() => checkProfileFile({ data: PDF, fileName: 'resume.png' }));
		expect(error.message).toContain('.png is not accepted');
		expect(error.message).toContain('.pdf, .doc, .docx, .rtf, .txt');
	});

	it('lets the File Name override win and names it in the error', () => {
		expect(
			checkProfileFile({ data: PDF, fileName: 'upload.bin', fileNameOverride: 'Jane Doe.pdf' })
				.fileName,
		).toBe('Jane Doe.pdf');
		const error = parameterError(() =>
			checkProfileFile({ data: PDF, fileName: 'a.pdf', fileNameOverride: 'a.exe' }),
		);
		expect(error.label).toBe('File Name');
	});

	it('borrows the extension from the own name or the MIME type when the name has none', () => {
		expect(
			checkProfileFile({ data: PDF, fileName: 'resume.pdf', fileNameOverride: 'Jane Doe RN' })
				.fileName,
		).toBe('Jane Doe RN.pdf');
		expect(checkProfileFile({ data: PDF, mimeType: 'application/pdf' }).fileName).toBe(
			'candidate-profile.pdf',
		);
		expect(parameterError(() => checkProfileFile({ data: PDF, fileName: 'resume' })).label).toBe(
			'File Name',
		);
	});

	it.each([
		['a.pdf', DOCX, 'DOCX'],
		['a.docx', PDF, 'PDF'],
		['a.doc', DOCX, 'DOCX'],
		['a.rtf', TXT, 'plain text'],
		['a.txt', Buffer.from([0x41, 0x00, 0x42]), 'not a document Trio accepts'],
	])('refuses %s whose content does not match', (fileName, data, seen) => {
		const error = parameterError(() => checkProfileFile({ data, fileName }));
		expect(error.message).toContain(seen);
	});

	it('suggests the extension that matches the content', () => {
		expect(
			parameterError(() => checkProfileFile({ data: DOCX, fileName: 'cv.doc' })).hint,
		).toContain('.docx');
	});

	it('takes only a Word ZIP as DOCX, UTF-16 text with its mark as TXT, and a PDF header within 1024 bytes', () => {
		const spreadsheet = wordZip(['[Content_Types].xml', 'xl/workbook.xml']);
		expect(
			parameterError(() => checkProfileFile({ data: spreadsheet, fileName: 'cv.docx' })).message,
		).toContain('a ZIP archive that is not a Word document');
		// Issue 22 point 12: any entry containing "word/" used to pass.
		for (const parts of [
			['[Content_Types].xml', 'notes/word/readme.txt'],
			['[Content_Types].xml', 'word/'],
			['[Content_Types].xml', 'word/document.xml.bak'],
			['word/document.xml'],
		]) {
			expect(
				parameterError(() => checkProfileFile({ data: wordZip(parts), fileName: 'cv.docx' }))
					.message,
			).toContain('a ZIP archive that is not a Word document');
		}
		// A real Word file names its parts in the central directory too; a stream whose local
		// headers carry no names (sizes in a data descriptor) is still read there.
		const central = Buffer.concat(
			['[Content_Types].xml', 'word/document.xml'].map((name) =>
				Buffer.concat([
					Buffer.from([0x50, 0x4b, 0x01, 0x02]),
					Buffer.alloc(24),
					Buffer.from([name.length, 0]),
					Buffer.alloc(16),
					Buffer.from(name, 'latin1'),
				]),
			),
		);
		const fromCentral = Buffer.concat([
			Buffer.from([0x50, 0x4b, 0x03, 0x04]),
			Buffer.alloc(40),
			central,
		]);
		expect(checkProfileFile({ data: fromCentral, fileName: 'cv.docx' }).extension).toBe('docx');
		const utf16 = Buffer.concat([
			Buffer.from([0xff, 0xfe]),
			Buffer.from('Jane Doe, RN', 'utf16le'),
		]);
		expect(checkProfileFile({ data: utf16, fileName: 'cv.txt' }).extension).toBe('txt');
		const late = Buffer.concat([Buffer.alloc(300, 0x20), PDF]);
		expect(checkProfileFile({ data: late, fileName: 'cv.pdf' }).extension).toBe('pdf');
		const zipHoldingPdf = Buffer.concat([wordZip(['report.pdf']), PDF]);
		expect(() => checkProfileFile({ data: zipHoldingPdf, fileName: 'cv.pdf' })).toThrow(
			/ZIP archive/,
		);
		const tooLate = Buffer.concat([Buffer.alloc(1100, 0x20), PDF]);
		expect(() => checkProfileFile({ data: tooLate, fileName: 'cv.pdf' })).toThrow(
			/first 1024 bytes/,
		);
	});

	it('sends only the file name, never the folder it came from', () => {
		expect(
			checkProfileFile({ data: PDF, fileName: 'C:\\Users\\jane\\Jane Doe.pdf' }).fileName,
		).toBe('Jane Doe.pdf');
		expect(checkProfileFile({ data: PDF, fileNameOverride: '/home/jane/cv.pdf' }).fileName).toBe(
			'cv.pdf',
		);
	});

	it('knows the size of binary data without reading it', () => {
		expect(knownSize({ bytes: 2_600_000, id: 'filesystem-v2:x' })).toBe(2_600_000);
		expect(knownSize({ data: Buffer.from('hello!').toString('base64') })).toBe(6);
		expect(knownSize({ data: Buffer.from('hello').toString('base64') })).toBe(5);
		expect(knownSize({ data: 'filesystem-v2', id: 'filesystem-v2:x' })).toBeUndefined();
		expect(() => checkProfileFileSize(2_500_000)).toThrow(/under 2,500,000 bytes/);
	});

	it('detects kinds and reads extensions', () => {
		expect([PDF, DOCX, DOC, RTF, TXT, Buffer.from([0, 1])].map(detectKind)).toEqual([
			'pdf',
			'zip',
			'ole',
			'rtf',
			'text',
			'binary',
		]);
		expect(extensionOf('C:\\files\\Jane.Doe.PDF')).toBe('pdf');
		expect(extensionOf('.bashrc')).toBeUndefined();
		expect(extensionOf('noext')).toBeUndefined();
	});
});

describe('Modified After', () => {
	it('sends a plain date as midnight UTC', () => {
		expect(toModifiedDateQuery('2026-03-01', 'Modified After')).toBe('2026-03-01T00:00:00Z');
		expect(toModifiedDateQuery('3/1/2026', 'Modified After')).toBe('2026-03-01T00:00:00Z');
	});

	it('converts date-times with an offset to UTC', () => {
		expect(toModifiedDateQuery('2026-03-01T07:00:00Z', 'x')).toBe('2026-03-01T07:00:00Z');
		expect(toModifiedDateQuery('2026-03-01T02:00:00-05:00', 'x')).toBe('2026-03-01T07:00:00Z');
		// The ends of the real range are accepted.
		expect(toModifiedDateQuery('2026-03-01T00:00:00-12:00', 'x')).toBe('2026-03-01T12:00:00Z');
		expect(toModifiedDateQuery('2026-03-01T14:00:00+14:00', 'x')).toBe('2026-03-01T00:00:00Z');
		expect(toModifiedDateQuery('2026-03-01T12:30:00.250+0530', 'x')).toBe(
			'2026-03-01T07:00:00.250Z',
		);
		expect(toModifiedDateQuery('2026-03-01 07:00', 'x')).toBe('2026-03-01T07:00:00Z');
	});

	it("reads a date-time without offset in the workflow's time zone", () => {
		expect(toModifiedDateQuery('2026-03-01T08:00:00', 'x', 'America/Chicago')).toBe(
			'2026-03-01T14:00:00Z',
		);
		expect(toModifiedDateQuery('2026-07-01T08:00:00', 'x', 'America/Chicago')).toBe(
			'2026-07-01T13:00:00Z',
		);
		expect(toModifiedDateQuery('2026-03-01T08:00:00', 'x', 'UTC')).toBe('2026-03-01T08:00:00Z');
		expect(toModifiedDateQuery('2026-03-01T08:00:00', 'x', 'Not/AZone')).toBe(
			'2026-03-01T08:00:00Z',
		);
	});

	it('accepts Date objects, luxon-like objects and epoch numbers', () => {
		expect(toModifiedDateQuery(new Date('2026-03-01T07:00:00Z'), 'x')).toBe('2026-03-01T07:00:00Z');
		expect(toModifiedDateQuery({ toISO: () => '2026-03-01T02:00:00.000-05:00' }, 'x')).toBe(
			'2026-03-01T07:00:00Z',
		);
		expect(toModifiedDateQuery(Date.UTC(2026, 2, 1, 7), 'x')).toBe('2026-03-01T07:00:00Z');
		expect(toModifiedDateQuery(Date.UTC(2026, 2, 1, 7) / 1000, 'x')).toBe('2026-03-01T07:00:00Z');
	});

	it('treats empty as not given and refuses what it cannot read', () => {
		expect(toModifiedDateQuery('', 'x')).toBeUndefined();
		expect(toModifiedDateQuery(undefined, 'x')).toBeUndefined();
		expect(parameterError(() => toModifiedDateQuery('yesterday', 'Modified After')).message).toBe(
			'"Modified After" must be a date (YYYY-MM-DD) or an ISO 8601 date-time such as 2026-03-01T07:00:00Z, got "yesterday"',
		);
		expect(parameterError(() => toModifiedDateQuery('2026-02-30', 'x')).message).toContain(
			'not a real calendar date',
		);
		expect(
			parameterError(() => toModifiedDateQuery('2026-02-01T25:00:00Z', 'x')).message,
		).toContain('not a real date and time');
	});

	it('computes zone offsets across daylight saving time', () => {
		expect(toModifiedDateQuery('2026-01-15T00:00:00', 'x', 'America/New_York')).toBe(
			'2026-01-15T05:00:00Z',
		);
		expect(toModifiedDateQuery('2026-07-15T00:00:00', 'x', 'America/New_York')).toBe(
			'2026-07-15T04:00:00Z',
		);
		// 01:30 happens twice on the night clocks go back; either reading is a real instant.
		expect(toModifiedDateQuery('2026-11-01T01:30:00', 'x', 'America/New_York')).toMatch(
			/^2026-11-01T0[56]:30:00Z$/,
		);
	});
});

describe('calendar dates and start dates', () => {
	it('keeps the date as written', () => {
		expect(toDateOnly('2027-05-31', 'x')).toBe('2027-05-31');
		expect(toDateOnly('2027-05-31T00:00:00', 'x')).toBe('2027-05-31');
		expect(toDateOnly('2027-05-31T23:00:00-05:00', 'x')).toBe('2027-05-31');
		expect(toDateOnly('5/31/2027', 'x')).toBe('2027-05-31');
		expect(toDateOnly({ toISO: () => '2027-05-31T00:00:00.000-04:00' }, 'x')).toBe('2027-05-31');
		expect(toDateOnly('', 'x')).toBeUndefined();
	});

	it('refuses impossible or unreadable dates, naming the field', () => {
		expect(parameterError(() => toDateOnly('2027-02-29', 'Expiration Date')).message).toBe(
			'"Expiration Date" is not a real calendar date: "2027-02-29"',
		);
		expect(toDateOnly('2028-02-29', 'x')).toBe('2028-02-29');
		expect(parameterError(() => toDateOnly('31.05.2027', 'Expiration Date')).message).toContain(
			'YYYY-MM-DD',
		);
		expect(parameterError(() => toDateOnly(3_000_000, 'Expiration Date')).message).toContain(
			'got 3000000',
		);
	});

	it('sends start dates without shifting them', () => {
		expect(toStartDateTime('2026-04-06', 'x')).toBe('2026-04-06T00:00:00');
		expect(toStartDateTime('4/6/2026', 'x')).toBe('2026-04-06T00:00:00');
		expect(toStartDateTime('2026-04-06T07:00', 'x')).toBe('2026-04-06T07:00:00');
		expect(toStartDateTime('2026-04-06 07:00:00-0500', 'x')).toBe('2026-04-06T07:00:00-05:00');
		expect(toStartDateTime('2026-04-06T07:00:00.5Z', 'x')).toBe('2026-04-06T07:00:00.5Z');
		expect(parameterError(() => toStartDateTime('next monday', 'Start Date')).label).toBe(
			'Start Date',
		);
	});
});

describe('field checks', () => {
	it('reads positive whole numbers from numbers and spreadsheet text', () => {
		expect(positiveInteger(1042, 'x')).toBe(1042);
		expect(positiveInteger(' 1042 ', 'x')).toBe(1042);
		expect(positiveInteger('1042.0', 'x')).toBe(1042);
		for (const bad of [0, -3, 12.5, '12.5', 'abc', '1e3', NaN, true, {}]) {
			expect(parameterError(() => positiveInteger(bad, 'Candidate Number')).message).toMatch(
				/^"Candidate Number" must be a positive whole number/,
			);
		}
		expect(parameterError(() => positiveInteger('', 'Job')).message).toBe(
			'"Job" is required but empty',
		);
	});

	it('checks e-mail addresses', () => {
		expect(requiredEmail(' jane@agency.com ', 'Email')).toBe('jane@agency.com');
		expect(parameterError(() => requiredEmail('jane@agency', 'Email')).message).toBe(
			'"Email" must be a valid email address such as name@agency.com, got "jane@agency"',
		);
		expect(parameterError(() => requiredEmail('', 'Email')).message).toBe(
			'"Email" is required but empty',
		);
	});

	it('reads amounts, booleans and states as spreadsheets write them', () => {
		expect(optionalAmount('$1,250.50', 'x')).toBe(1250.5);
		expect(optionalAmount(65, 'x')).toBe(65);
		expect(optionalAmount('', 'x')).toBeUndefined();
		expect(parameterError(() => optionalAmount('-5', 'Bill Rate Amount')).label).toBe(
			'Bill Rate Amount',
		);
		expect(parameterError(() => optionalAmount('ten', 'Bill Rate Amount')).label).toBe(
			'Bill Rate Amount',
		);
		expect([true, 'Yes', 'TRUE', 1, 'n', false].map((v) => optionalBoolean(v, 'x'))).toEqual([
			true,
			true,
			true,
			true,
			false,
			false,
		]);
		expect(parameterError(() => optionalBoolean('maybe', 'Compact License')).label).toBe(
			'Compact License',
		);
		expect(
			['TX', 'tx', 'Texas', ' new york ', 'DC', 'PR'].map((v) => stateAbbreviation(v, 'x')),
		).toEqual(['TX', 'TX', 'TX', 'NY', 'DC', 'PR']);
		expect(parameterError(() => stateAbbreviation('XX', 'State')).message).toContain(
			'two-letter US state',
		);
		expect(parameterError(() => requiredText('  ', 'First Name')).message).toBe(
			'"First Name" is required but empty',
		);
	});

	it('wants https webhook addresses, allowing http only on this machine', () => {
		expect(webhookUrl('https://example.com/hook', 'URL')).toBe('https://example.com/hook');
		expect(webhookUrl('http://127.0.0.1:5678/webhook', 'URL')).toBe(
			'http://127.0.0.1:5678/webhook',
		);
		expect(parameterError(() => webhookUrl('http://example.com/hook', 'URL')).message).toContain(
			'https://',
		);
		expect(parameterError(() => webhookUrl('example.com', 'URL')).message).toContain('absolute');
	});
});

describe('lists and responses', () => {
	it('labels jobs for the list search and matches every typed word', () => {
		const label = jobLabel({
			Number: 7,
			Title: 'ICU RN',
			FacilityName: 'St. Mary',
			City: 'Austin',
			StateAbbreviation: 'TX',
			JobStatus: 'OnHold',
		});
		expect(label).toBe('7 · ICU RN · St. Mary · Austin, TX (On Hold)');
		expect(matchesFilter(label, 'icu austin')).toBe(true);
		expect(matchesFilter(label, 'icu dallas')).toBe(false);
		expect(matchesFilter(label, undefined)).toBe(true);
	});

	it('reads list and object responses tolerantly', () => {
		expect(listOrEmpty([1, 2])).toEqual([1, 2]);
		expect(listOrEmpty({ value: [1] })).toEqual([1]);
		expect(listOrEmpty(undefined)).toEqual([]);
		expect(objectsOf(['a', { b: 1 }])).toEqual([{ value: 'a' }, { b: 1 }]);
		expect(objectOf(undefined, { ok: true })).toEqual({ ok: true });
		expect(objectOf('done', { ok: true })).toEqual({ ok: true, message: 'done' });
		expect(limited([1, 2, 3], false, 2)).toEqual([1, 2]);
		expect(limited([1, 2, 3], true, 1)).toEqual([1, 2, 3]);
	});
});

// Issue 27 point 11: the Job dropdown's labels and search read PascalCase fields only.
describe('job labels whatever the letter case of the fields', () => {
	const pascal = {
		Number: 48213,
		Title: 'ICU RN Nights',
		FacilityName: 'St. Mary Medical Center',
		City: 'Austin',
		StateAbbreviation: 'TX',
		JobStatus: 'OnHold',
	};
	const camel = Object.fromEntries(
		Object.entries(pascal).map(([key, value]) => [key[0].toLowerCase() + key.slice(1), value]),
	);
	it('labels a camelCase job as its PascalCase twin', () => {
		expect(jobLabel(camel)).toBe(jobLabel(pascal));
		expect(jobLabel(camel)).toBe(
			'48213 · ICU RN Nights · St. Mary Medical Center · Austin, TX (On Hold)',
		);
		expect(matchesFilter(jobLabel(camel), 'icu austin')).toBe(true);
	});
});

// Issue 27 point 15: a day number as text got no hint, and date-times people type were refused.
describe('dates as a sheet gives them', () => {
	// Issue 33 point 11: Excel date cells reach the node as day numbers (Extract from File reads an
	// XLSX so); in a calendar field the number can mean nothing else than that day.
	it('takes a day number, as a number or as text, as that day in the calendar fields', () => {
		for (const value of [46000, '46000', ' 46000 ']) {
			expect(toDateOnly(value, 'Expiration Date')).toBe('2025-12-09');
			expect(toStartDateTime(value, 'Start Date')).toBe('2025-12-09T00:00:00');
		}
		expect(toStartDateTime('46000.5', 'Start Date')).toBe('2025-12-09T12:00:00');
		expect(toStartDateTime(46391.75, 'Start Date')).toBe('2027-01-04T18:00:00');
	});

	// Issue 39 item 9: any number up to 2,958,465 was a day, so a year (2027) became 1905-07-19.
	it('takes a day number only for a day within 20 years of today, and refuses a year with the hint', () => {
		for (const value of [2027, '2027', 1, 100_000]) {
			for (const read of [
				() => toStartDateTime(value, 'Start Date'),
				() => toDateOnly(value, 'Expiration Date'),
			]) {
				const error = parameterError(read);
				expect(error.message).toContain('only for a day within 20 years of today');
				expect(error.hint).toContain('Give the date as text, e.g. 2027-01-04 or 1/4/2027');
			}
		}
		expect(parameterError(() => toStartDateTime(2027, 'Start Date')).message).toBe(
			'"Start Date" must be a date such as 2027-01-04 or 1/4/2027 (month first), or a date and time such as 2027-01-04 8:00 AM, got 2027: a number is read as a spreadsheet\'s day number only for a day within 20 years of today, and 2027 would be 1905-07-19',
		);
		const inTenYears = DateTime.utc().plus({ years: 10 }).startOf('day');
		const dayNumber = inTenYears.diff(DateTime.utc(1899, 12, 30), 'days').days;
		expect(toDateOnly(dayNumber, 'Expiration Date')).toBe(inTenYears.toISODate());
	});

	it('accepts 1/4/2027 in Start Date and says so when refusing', () => {
		expect(toStartDateTime('1/4/2027', 'Start Date')).toBe('2027-01-04T00:00:00');
		expect(parameterError(() => toStartDateTime('next week', 'Start Date')).message).toContain(
			'must be a date such as 2027-01-04 or 1/4/2027',
		);
	});

	it('still refuses a day number in Modified After, naming the date it probably means', () => {
		for (const value of [46000, '46000']) {
			expect(parameterError(() => toModifiedDateQuery(value, 'Modified After')).message).toContain(
				'looks like a spreadsheet day number (2025-12-09)',
			);
		}
	});

	it('reads typed date-times: month first with AM/PM, a one-digit hour', () => {
		expect(toStartDateTime('5/31/2027 8:00 AM', 'x')).toBe('2027-05-31T08:00:00');
		expect(toStartDateTime('5/31/2027 8:30 pm', 'x')).toBe('2027-05-31T20:30:00');
		expect(toStartDateTime('5/31/2027 12:00 AM', 'x')).toBe('2027-05-31T00:00:00');
		expect(toStartDateTime('5/31/2027 12:15 PM', 'x')).toBe('2027-05-31T12:15:00');
		expect(toStartDateTime('2027-05-31 8:00', 'x')).toBe('2027-05-31T08:00:00');
		expect(toStartDateTime('05/31/2027 17:45:10', 'x')).toBe('2027-05-31T17:45:10');
		expect(toDateOnly('5/31/2027 8:00 AM', 'x')).toBe('2027-05-31');
		expect(toModifiedDateQuery('5/31/2027 8:00 AM', 'x', 'America/Chicago')).toBe(
			'2027-05-31T13:00:00Z',
		);
	});

	it('still refuses what is not a time', () => {
		expect(parameterError(() => toStartDateTime('5/31/2027 13:00 PM', 'Start Date')).label).toBe(
			'Start Date',
		);
		expect(
			parameterError(() => toStartDateTime('2/30/2027 8:00 AM', 'Start Date')).message,
		).toContain('is not a real date and time');
		expect(parameterError(() => toStartDateTime('5/31/2027 8 AM', 'Start Date')).label).toBe(
			'Start Date',
		);
	});
});

// Issue 39 items 7 and 8: a cell reads only inside the folder; ~ and / mean what they say.
describe('the Resume Folder and the Resume File cell', () => {
	it("finds the home folder from n8n's storage folder, on Linux, macOS, Windows and in Docker", () => {
		const type = 'n8n-nodes-trio-vms.trioVms';
		expect(homeFromStoragePath(`/home/jane/.n8n/storage/${type}`)).toBe('/home/jane');
		expect(homeFromStoragePath(`/Users/jane/.n8n/storage/${type}`)).toBe('/Users/jane');
		expect(homeFromStoragePath(`C:\\Users\\jane\\.n8n\\storage\\${type}`)).toBe('C:\\Users\\jane');
		expect(homeFromStoragePath(`/home/node/.n8n/storage/${type}`)).toBe('/home/node');
		expect(homeFromStoragePath(`/.n8n/storage/${type}`)).toBe('/');
		expect(homeFromStoragePath('/somewhere/else')).toBeUndefined();
	});

	it('reads ~ as the home folder and keeps a root folder', () => {
		expect(resumeFolderPath('~/.n8n-files/resumes/', '/home/jane')).toBe(
			'/home/jane/.n8n-files/resumes',
		);
		expect(resumeFolderPath('~', '/home/jane')).toBe('/home/jane');
		// n8n's own rule: a leading ~ is the home folder, whatever follows it (no ~user).
		expect(resumeFolderPath('~other/resumes', '/home/jane')).toBe('/home/janeother/resumes');
		expect(resumeFolderPath('~/', '/')).toBe('/');
		expect(resumeFolderPath('/', '/home/jane')).toBe('/');
		expect(resumeFolderPath('//', '/home/jane')).toBe('/');
		expect(resumeFolderPath('C:\\', undefined)).toBe('C:\\');
		expect(resumeFolderPath('C:/resumes/', undefined)).toBe('C:/resumes');
		expect(parameterError(() => resumeFolderPath('~/resumes', undefined)).label).toBe(
			'Resume Folder',
		);
	});

	// Issue 46: n8n's getAllowedPaths reads ~ in N8N_RESTRICT_FILE_ACCESS_TO with this rule.
	it("expands ~ in exactly the forms n8n's getAllowedPaths does, also on Windows", () => {
		const n8nRule = (path: string, home: string) =>
			path.startsWith('~') ? path.replace('~', home) : path;
		const cases: Array<[string, string]> = [
			['~', '/home/jane'],
			['~/.n8n-files/resumes', '/home/jane'],
			['~\\resumes', 'C:\\Users\\jane'],
			['~/resumes', 'C:\\Users\\jane'],
			['~jane/resumes', '/home/node'],
			['/srv/~/resumes', '/home/jane'],
			['resumes/~', '/home/jane'],
		];
		for (const [path, home] of cases) expect(expandHome(path, home)).toBe(n8nRule(path, home));
		// Only a root home folder's own separator is not doubled: the same folder.
		expect(expandHome('~/resumes', '/')).toBe('/resumes');
	});

	it('joins a name to the folder, and refuses a full path or ../ unless full paths are allowed', () => {
		expect(pathInFolder('/r', 'jane.pdf', false)).toBe('/r/jane.pdf');
		expect(pathInFolder('/', 'r/jane.pdf', false)).toBe('/r/jane.pdf');
		expect(pathInFolder('C:\\', 'jane.pdf', false)).toBe('C:\\jane.pdf');
		for (const cell of [
			'../x.pdf',
			'a/../../x.pdf',
			'..\\x.pdf',
			'/etc/x.pdf',
			'C:\\x.pdf',
			'\\\\srv\\x.pdf',
		])
			expect(pathInFolder('/r', cell, false)).toBeUndefined();
		expect(pathInFolder('/r', '/etc/x.pdf', true)).toBe('/etc/x.pdf');
		expect(pathInFolder('/r', '../x.pdf', true)).toBe('/r/../x.pdf');
		expect(pathInFolder('/r', 'a..b.pdf', false)).toBe('/r/a..b.pdf');
	});

	it('tells a path inside the folder from one beside it', () => {
		expect(isInsideFolder('/r', '/r/jane.pdf')).toBe(true);
		expect(isInsideFolder('/r', '/r')).toBe(false);
		expect(isInsideFolder('/r', '/resumes/jane.pdf')).toBe(false);
		expect(isInsideFolder('/', '/r/jane.pdf')).toBe(true);
		expect(isInsideFolder('C:\\Resumes', 'c:\\resumes\\jane.pdf')).toBe(true);
		expect(isInsideFolder('C:\\Resumes', 'C:\\Other\\jane.pdf')).toBe(false);
	});
});

// Issue 39 item 10 and issue 40 item 2: columns in messages, and which ones look misspelt.
describe('columns in messages', () => {
	it('lists names as a sentence, at most ten, each cut', () => {
		expect(listedNames(['a'])).toBe('"a"');
		expect(listedNames(['a', 'b'])).toBe('"a" and "b"');
		expect(listedNames(['a', 'b', 'c'])).toBe('"a", "b" and "c"');
		const many = Array.from({ length: 5000 }, (_, index) => `c${index}`);
		expect(listedNames(many)).toMatch(/^"c0", .*"c9" and 4,990 more columns$/);
		expect(listedNames(['x'.repeat(1000)]).length).toBeLessThan(70);
		expect(listedNames(['\u{1F60A}'.repeat(100)])).toBe(`"${'\u{1F60A}'.repeat(59)}…"`);
	});

	it("finds the field a misspelt column means, and no field for the sheet's own columns", () => {
		const email = { id: 'email', displayName: 'Email' };
		const job = { id: 'jobNumber', displayName: 'Job Number' };
		const rate = { id: 'billRateAmount', displayName: 'Bill Rate' };
		const byName = new Map([
			['email', email],
			['jobnumber', job],
			['billrate', rate],
			['rate', rate],
		]);
		expect(resembledField('Emial', byName)).toBe(email);
		expect(resembledField('Job Nmber', byName)).toBe(job);
		expect(resembledField('Jobnumbre', byName)).toBe(job);
		expect(resembledField('Bill Rte', byName)).toBe(rate);
		for (const own of ['Notes', 'Recruiter', 'Submitted?', 'Date', 'Status', 'Emails sent'])
			expect(resembledField(own, byName)).toBeUndefined();
	});
});
