/**
 * multipart/form-data encoding for the submission form (RFC 7578). Built by hand rather than
 * with the form-data package: the body is one Buffer whose length is known, it needs no
 * runtime dependency, and it does not rely on n8n recognising another copy's FormData class.
 */
import { randomBytes } from 'node:crypto';

interface TextPart {
	name: string;
	value: string;
}

interface FilePart {
	name: string;
	fileName: string;
	contentType: string;
	data: Buffer;
}

export type MultipartPart = TextPart | FilePart;

export interface EncodedMultipart {
	body: Buffer;
	contentType: string;
}

function isFilePart(part: MultipartPart): part is FilePart {
	return (part as FilePart).data !== undefined;
}

/**
 * Quotes and line breaks would end the header early; browsers percent-encode them too. A
 * backslash is an escape character inside a quoted string for many parsers (busboy among them),
 * so it is encoded as well.
 */
function headerValue(value: string): string {
	return value
		.replace(/\r/g, '%0D')
		.replace(/\n/g, '%0A')
		.replace(/"/g, '%22')
		.replace(/\\/g, '%5C');
}

export function encodeMultipart(
	parts: MultipartPart[],
	boundary = `----TrioVmsN8n${randomBytes(12).toString('hex')}`,
): EncodedMultipart {
	const chunks: Buffer[] = [];
	for (const part of parts) {
		let head = `--${boundary}\r\nContent-Disposition: form-data; name="${headerValue(part.name)}"`;
		if (isFilePart(part)) {
			head += `; filename="${headerValue(part.fileName)}"\r\nContent-Type: ${part.contentType}`;
		}
		chunks.push(Buffer.from(`${head}\r\n\r\n`, 'utf8'));
		chunks.push(isFilePart(part) ? part.data : Buffer.from(part.value, 'utf8'));
		chunks.push(Buffer.from('\r\n', 'utf8'));
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
	return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
