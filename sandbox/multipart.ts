/**
 * Reads the multipart submission form (spec section 4) and checks it the way the service must:
 * the text parts are converted to numbers and dates and validated with the sandbox's own schema
 * (wire.ts), the profile file is checked for presence, size and extension. The file is hashed,
 * not kept.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import busboy from 'busboy';

import { fieldMessage, HttpError, mediaType, validationError, zodErrors } from './http';
import type { ProfileFileInfo } from './types';
import {
	agencyContacts,
	PROFILE_FILE_LIMIT_BYTES,
	PROFILE_FILE_PART as FILE_FIELD,
	PROFILE_FILE_TYPES,
	submissionFormFields,
	type SubmissionFormFields,
} from './wire';

const INTEGER_FIELDS = ['JobNumber', 'CandidateNumber'] as const;
const TEXT_FIELDS = [
	'BestContactDescription',
	'StartDate',
	'AvailabilityDescription',
	'DaysOffDescription',
	'ExperienceDescription',
	'Description',
	'ModifyNote',
] as const;
const KNOWN_FIELDS = new Set<string>([
	...INTEGER_FIELDS,
	...TEXT_FIELDS,
	'BillRateAmount',
	'AgencyContacts',
	FILE_FIELD,
]);

interface RawForm {
	fields: Map<string, string>;
	repeated: Set<string>;
	files: Array<{
		filename: string;
		contentType: string;
		size: number;
		sha256: string;
		truncated: boolean;
	}>;
	fileAsText: boolean;
}

function readForm(req: IncomingMessage): Promise<RawForm> {
	return new Promise((resolve, reject) => {
		let parser: busboy.Busboy;
		try {
			// busboy flags a file as truncated once it reaches fileSize bytes, so a file of exactly
			// 2,500,000 bytes is flagged and refused, as "under 2.5 MB" is read (service notes).
			parser = busboy({
				headers: req.headers,
				defParamCharset: 'utf8',
				limits: { fileSize: PROFILE_FILE_LIMIT_BYTES, fields: 100, files: 10 },
			});
		} catch (error) {
			req.resume();
			reject(
				validationError({ $: [`The multipart body cannot be read: ${(error as Error).message}`] }),
			);
			return;
		}
		const form: RawForm = { fields: new Map(), repeated: new Set(), files: [], fileAsText: false };
		// The parser may close before the last file stream has ended; wait for both.
		let openFiles = 0;
		let parsed = false;
		const settle = () => {
			if (parsed && openFiles === 0) resolve(form);
		};
		parser.on('field', (name, value) => {
			if (name === FILE_FIELD) form.fileAsText = true;
			else if (form.fields.has(name)) form.repeated.add(name);
			else form.fields.set(name, value);
		});
		parser.on('file', (name, stream, info) => {
			if (name !== FILE_FIELD) {
				// Unknown parts are ignored, as model binding ignores them.
				stream.resume();
				return;
			}
			openFiles++;
			const hash = createHash('sha256');
			let size = 0;
			let truncated = false;
			stream.on('data', (chunk: Buffer) => {
				size += chunk.length;
				hash.update(chunk);
			});
			stream.on('limit', () => {
				truncated = true;
			});
			stream.on('end', () => {
				form.files.push({
					filename: info.filename ?? '',
					contentType: info.mimeType,
					size,
					sha256: hash.digest('hex'),
					truncated,
				});
				openFiles--;
				settle();
			});
		});
		parser.on('close', () => {
			parsed = true;
			settle();
		});
		parser.on('error', (error: Error) =>
			reject(validationError({ $: [`The multipart body is malformed: ${error.message}`] })),
		);
		req.on('error', reject);
		req.pipe(parser);
	});
}

export interface SubmissionForm {
	fields: SubmissionFormFields;
	file: ProfileFileInfo;
}

/** 415 for anything but multipart/form-data; 400 naming every field that is wrong. */
export async function parseSubmissionForm(req: IncomingMessage): Promise<SubmissionForm> {
	const type = mediaType(req);
	if (type !== 'multipart/form-data') {
		req.resume();
		throw new HttpError(
			415,
			`Submission creation takes multipart/form-data with a ${FILE_FIELD} file part, not ${type ? `'${type}'` : 'a body without Content-Type'}.`,
		);
	}
	const form = await readForm(req);
	const errors: Record<string, string[]> = {};
	const fail = (field: string, message: string) => {
		(errors[field] ??= []).push(fieldMessage(field, message));
	};

	for (const name of form.repeated)
		if (KNOWN_FIELDS.has(name)) fail(name, 'is given more than once');
	const values: Record<string, unknown> = {};
	// An empty part binds to "not given", as ASP.NET model binding treats it.
	const text = (name: string) => {
		const value = form.fields.get(name);
		return value === undefined || value.trim() === '' ? undefined : value;
	};
	for (const name of INTEGER_FIELDS) {
		const raw = text(name);
		if (raw === undefined) continue;
		if (/^\s*[+-]?\d+\s*$/.test(raw) && Number.isSafeInteger(Number(raw)))
			values[name] = Number(raw);
		else fail(name, `must be a whole number, not '${raw}'`);
	}
	const rate = text('BillRateAmount');
	if (rate !== undefined) {
		if (/^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(rate)) values.BillRateAmount = Number(rate);
		else fail('BillRateAmount', `must be a number such as 72.50, not '${rate}'`);
	}
	for (const name of TEXT_FIELDS) {
		const raw = text(name);
		if (raw !== undefined) values[name] = name === 'StartDate' ? raw.trim() : raw;
	}
	const contacts = text('AgencyContacts');
	if (contacts !== undefined) {
		let parsed: unknown;
		try {
			parsed = JSON.parse(contacts);
		} catch {
			fail('AgencyContacts', 'must be a JSON array of objects with name, email and phoneNumber');
		}
		if (parsed !== undefined) {
			const checked = agencyContacts.safeParse(parsed);
			if (checked.success) values.AgencyContacts = checked.data;
			else Object.assign(errors, zodErrors(checked.error, 'AgencyContacts'));
		}
	}
	const checked = submissionFormFields.safeParse(values);
	if (!checked.success) {
		for (const [field, messages] of Object.entries(zodErrors(checked.error)))
			if (!errors[field]) errors[field] = messages;
	}

	const file = checkFile(form, fail);
	if (Object.keys(errors).length > 0 || !checked.success || !file) throw validationError(errors);
	return { fields: checked.data, file };
}

function checkFile(
	form: RawForm,
	fail: (field: string, message: string) => void,
): ProfileFileInfo | undefined {
	if (form.files.length === 0) {
		fail(
			FILE_FIELD,
			form.fileAsText
				? 'must be a file part (with a filename), not a text field'
				: 'is required: a candidate profile document must accompany the submission',
		);
		return undefined;
	}
	if (form.files.length > 1) {
		fail(FILE_FIELD, 'must be given once');
		return undefined;
	}
	const [file] = form.files;
	const extension = /\.([^.]+)$/.exec(file.filename)?.[1]?.toLowerCase() ?? '';
	let ok = true;
	if (!PROFILE_FILE_TYPES.includes(extension)) {
		fail(FILE_FIELD, `must be a ${PROFILE_FILE_TYPES.join(', ')} file; '${file.filename}' is not`);
		ok = false;
	}
	if (file.truncated) {
		fail(
			FILE_FIELD,
			`must be under 2.5 MB (less than ${PROFILE_FILE_LIMIT_BYTES.toLocaleString('en-US')} bytes)`,
		);
		ok = false;
	} else if (file.size === 0) {
		fail(FILE_FIELD, 'is empty');
		ok = false;
	}
	if (!ok) return undefined;
	return {
		filename: file.filename,
		contentType: file.contentType,
		size: file.size,
		sha256: file.sha256,
		receivedUtc: new Date().toISOString(),
	};
}
