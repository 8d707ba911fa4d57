/**
 * Checks on the candidate profile document before it is uploaded (spec section 8): under
 * 2,500,000 bytes, one of pdf/doc/docx/rtf/txt, and content that really is what the extension
 * says. The checks are pure (bytes and names in, what to send or a ParameterError out);
 * readProfileFile, at the end, reads the document from the item's binary data and applies them.
 * A resume read from the Resume Folder on disk is resumeFolder.ts's, which applies the same checks.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import {
	PROFILE_FILE_CONTENT_TYPES,
	PROFILE_FILE_EXTENSIONS,
	PROFILE_FILE_MAX_BYTES,
	type ProfileFileExtension,
} from '../../shared/serviceFacts';
import { ParameterError, requiredText } from './validation';

export interface ProfileFileInput {
	data: Buffer;
	/** The file name the binary data carries, if any. */
	fileName?: string;
	/** The user's File Name option, which wins over the binary data's own name. */
	fileNameOverride?: string;
	/** The binary data's MIME type; only used when no name gives an extension. */
	mimeType?: string;
	/** Labels of the fields as the user sees them, for messages. */
	labels?: { binaryProperty?: string; fileName?: string };
}

export interface CheckedProfileFile {
	fileName: string;
	extension: ProfileFileExtension;
	contentType: string;
	size: number;
}

/** What the bytes look like, judged by their first bytes. */
export type DetectedKind = 'pdf' | 'zip' | 'ole' | 'rtf' | 'text' | 'binary';

const EXTENSION_BY_MIME: Record<string, ProfileFileExtension> = Object.fromEntries(
	Object.entries(PROFILE_FILE_CONTENT_TYPES).map(([extension, mime]) => [
		mime,
		extension as ProfileFileExtension,
	]),
);
EXTENSION_BY_MIME['text/rtf'] = 'rtf';
EXTENSION_BY_MIME['application/x-rtf'] = 'rtf';

const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

const KIND_LABEL: Record<DetectedKind, string> = {
	pdf: 'a PDF document',
	zip: 'a ZIP archive that is not a Word document',
	ole: 'a DOC (Word 97-2003) document',
	rtf: 'an RTF document',
	text: 'plain text',
	binary: 'not a document Trio accepts',
};

const SUGGESTED_EXTENSION: Partial<Record<DetectedKind, ProfileFileExtension>> = {
	pdf: 'pdf',
	zip: 'docx',
	ole: 'doc',
	rtf: 'rtf',
	text: 'txt',
};

const EXPECTED_CONTENT: Record<ProfileFileExtension, string> = {
	pdf: 'PDF files carry %PDF- within their first 1024 bytes',
	docx: 'DOCX files are ZIP archives holding [Content_Types].xml and a word/ folder',
	doc: 'DOC files are Word 97-2003 (OLE) files starting with the bytes D0 CF 11 E0',
	rtf: 'RTF files start with {\\rtf',
	txt: 'text files are UTF-8 without NUL bytes, or UTF-16 with a byte order mark',
};

/** The name without any folder part ("C:\\Users\\jane\\cv.pdf" or "/tmp/cv.pdf" give "cv.pdf"). */
function baseName(fileName: string): string {
	return fileName.trim().split(/[\\/]/).pop() ?? '';
}

export function extensionOf(fileName: string | undefined): string | undefined {
	if (!fileName) return undefined;
	const base = baseName(fileName);
	const dot = base.lastIndexOf('.');
	if (dot <= 0 || dot === base.length - 1) return undefined;
	return base.slice(dot + 1).toLowerCase();
}

function isAllowedExtension(extension: string | undefined): extension is ProfileFileExtension {
	return !!extension && (PROFILE_FILE_EXTENSIONS as readonly string[]).includes(extension);
}

/**
 * PDF readers accept the %PDF- header anywhere in the first 1024 bytes (ISO 32000, 7.5.2), but
 * a file that starts as a ZIP or a Word 97 file is that, whatever it carries near its start.
 */
function isPdf(data: Buffer): boolean {
	const start = data.subarray(0, 4);
	if (start.equals(ZIP_SIGNATURE) || start.equals(OLE_SIGNATURE.subarray(0, 4))) return false;
	return data.subarray(0, 1024).includes('%PDF-', 0, 'latin1');
}

/** Local file header and central directory header signatures, and where each keeps its name. */
const ZIP_HEADERS = [
	{ signature: ZIP_SIGNATURE, nameLengthAt: 26, nameAt: 30 },
	{ signature: Buffer.from([0x50, 0x4b, 0x01, 0x02]), nameLengthAt: 28, nameAt: 46 },
];

/** The exact part names in a ZIP's local headers and central directory (names are stored uncompressed). */
function zipEntryNames(data: Buffer): Set<string> {
	const names = new Set<string>();
	for (const { signature, nameLengthAt, nameAt } of ZIP_HEADERS) {
		for (let at = data.indexOf(signature); at !== -1; at = data.indexOf(signature, at + 4)) {
			if (at + nameAt > data.length) break;
			const length = data.readUInt16LE(at + nameLengthAt);
			if (length === 0 || at + nameAt + length > data.length) continue;
			names.add(data.toString('latin1', at + nameAt, at + nameAt + length));
		}
	}
	return names;
}

/**
 * A Word document is a ZIP with the parts [Content_Types].xml and word/document.xml, exactly so
 * named: an .xlsx, or any ZIP that merely mentions "word/" somewhere, is not one.
 */
function isWordZip(data: Buffer): boolean {
	if (!data.subarray(0, 4).equals(ZIP_SIGNATURE)) return false;
	const names = zipEntryNames(data);
	return names.has('[Content_Types].xml') && names.has('word/document.xml');
}

/** Text: UTF-8 (or ASCII) without NUL bytes, or UTF-16 marked with its byte order mark. */
function isText(data: Buffer): boolean {
	const bom = data.subarray(0, 2);
	if (bom.equals(Buffer.from([0xff, 0xfe])) || bom.equals(Buffer.from([0xfe, 0xff]))) {
		return data.length % 2 === 0;
	}
	return !data.includes(0);
}

export function detectKind(data: Buffer): DetectedKind {
	if (isPdf(data)) return 'pdf';
	if (data.subarray(0, 4).equals(ZIP_SIGNATURE)) return 'zip';
	if (data.subarray(0, 4).equals(OLE_SIGNATURE.subarray(0, 4))) return 'ole';
	if (data.subarray(0, 5).toString('latin1') === '{\\rtf') return 'rtf';
	return isText(data) ? 'text' : 'binary';
}

/** Whether the content matches the extension (the rule for each format is in EXPECTED_CONTENT). */
function contentMatches(extension: ProfileFileExtension, data: Buffer): boolean {
	switch (extension) {
		case 'pdf':
			return isPdf(data);
		case 'docx':
			return isWordZip(data);
		case 'doc':
			return data.subarray(0, 4).equals(OLE_SIGNATURE.subarray(0, 4));
		case 'rtf':
			return data.subarray(0, 5).toString('latin1') === '{\\rtf';
		case 'txt':
			return isText(data);
	}
}

function formatBytes(size: number): string {
	return `${size.toLocaleString('en-US')} bytes (${(size / 1_000_000).toFixed(2)} MB)`;
}

/**
 * The size of binary data without reading it: n8n records `bytes` for stored binary data; data
 * kept in the item itself is base64, whose length gives the size. Undefined when neither is known.
 */
export function knownSize(binary: {
	bytes?: unknown;
	data?: unknown;
	id?: unknown;
}): number | undefined {
	if (typeof binary.bytes === 'number' && Number.isFinite(binary.bytes)) return binary.bytes;
	if (binary.id || typeof binary.data !== 'string') return undefined;
	const base64 = binary.data.replace(/\s/g, '');
	const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
	return Math.floor((base64.length * 3) / 4) - padding;
}

/** The size rule alone, so that it can be applied before the file is read. */
export function checkProfileFileSize(
	size: number,
	binaryLabel = 'Input Field With the Resume',
): void {
	if (size === 0) {
		throw new ParameterError(
			binaryLabel,
			"holds an empty file (0 bytes); attach the candidate's resume",
		);
	}
	if (size >= PROFILE_FILE_MAX_BYTES) {
		throw new ParameterError(
			binaryLabel,
			`holds a file of ${formatBytes(size)}; Trio VMS accepts resumes under ${PROFILE_FILE_MAX_BYTES.toLocaleString('en-US')} bytes (2.5 MB)`,
			'Compress the document (for example save the PDF with a smaller size) or attach a shorter version.',
		);
	}
}

export function checkProfileFile(input: ProfileFileInput): CheckedProfileFile {
	const binaryLabel = input.labels?.binaryProperty ?? 'Input Field With the Resume';
	const nameLabel = input.labels?.fileName ?? 'File Name';
	const size = input.data.length;
	checkProfileFileSize(size, binaryLabel);

	// Only the name travels: a folder (C:\\Users\\jane\\) is nobody's business at Trio.
	const override = input.fileNameOverride && baseName(input.fileNameOverride);
	const ownName = input.fileName && baseName(input.fileName);
	let fileName = override || ownName || '';
	let extension = extensionOf(fileName);
	const nameSource = override ? nameLabel : binaryLabel;
	if (!extension) {
		// A name without an extension: borrow one from the file's own name or its MIME type.
		const borrowed =
			extensionOf(ownName) ??
			EXTENSION_BY_MIME[(input.mimeType ?? '').split(';')[0].trim().toLowerCase()];
		if (!borrowed) {
			throw new ParameterError(
				nameLabel,
				`is needed: the file${fileName ? ` "${fileName}"` : ''} has no extension to tell its format (allowed: ${PROFILE_FILE_EXTENSIONS.join(', ')})`,
				'Set the File Name option to a name such as resume.pdf.',
			);
		}
		extension = borrowed;
		fileName = `${fileName || 'candidate-profile'}.${borrowed}`;
	}
	if (!isAllowedExtension(extension)) {
		throw new ParameterError(
			nameSource,
			`gives the file "${fileName}", whose format .${extension} is not accepted; Trio VMS accepts ${PROFILE_FILE_EXTENSIONS.map((e) => `.${e}`).join(', ')}`,
			'Convert the document to PDF or DOCX, or set the File Name option if the name is wrong.',
		);
	}
	if (!contentMatches(extension, input.data)) {
		const kind = detectKind(input.data);
		const suggestion = SUGGESTED_EXTENSION[kind];
		const seen =
			kind === 'zip' && isWordZip(input.data) ? 'a DOCX (ZIP) document' : KIND_LABEL[kind];
		throw new ParameterError(
			nameSource,
			`gives the file "${fileName}" the extension .${extension}, but its content is ${seen} (${EXPECTED_CONTENT[extension]})`,
			suggestion && suggestion !== extension
				? `If the document is fine, set the File Name option to a name ending in .${suggestion}.`
				: 'Check that the right file is attached.',
		);
	}
	return { fileName, extension, contentType: PROFILE_FILE_CONTENT_TYPES[extension], size };
}

/**
 * The profile document of an item, read from its binary data: present, small enough (judged
 * first from what n8n recorded, so that a large file is refused without reading it), an accepted
 * format, and really that format.
 */
export async function readProfileFile(
	context: IExecuteFunctions,
	itemIndex: number,
	binaryPropertyName: unknown,
	fileNameOverride: string | undefined,
): Promise<CheckedProfileFile & { data: Buffer }> {
	const propertyName = requiredText(binaryPropertyName, 'Input Field With the Resume');
	const binaries = context.getInputData()[itemIndex]?.binary ?? {};
	if (!binaries[propertyName]) {
		const available = Object.keys(binaries);
		throw new ParameterError(
			'Input Field With the Resume',
			`names "${propertyName}", but this item has ${available.length ? `only the file fields ${available.map((name) => `"${name}"`).join(', ')}` : 'no file at all'}`,
			available.length
				? `Set Input Field With the Resume to the field that holds the resume (${available.join(', ')}).`
				: 'Add a node before this one that reads the resume (for example Read/Write Files from Disk, Google Drive: Download, or HTTP Request with a file response).',
		);
	}
	const binary = context.helpers.assertBinaryData(itemIndex, propertyName);
	const size =
		knownSize(binary) ??
		(binary.id ? (await context.helpers.getBinaryMetadata(binary.id)).fileSize : undefined);
	if (size !== undefined) checkProfileFileSize(size, 'Input Field With the Resume');
	const data = await context.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	const file = checkProfileFile({
		data,
		fileName: binary.fileName,
		fileNameOverride,
		mimeType: binary.mimeType,
		labels: { binaryProperty: 'Input Field With the Resume', fileName: 'File Name' },
	});
	return { ...file, data };
}
