/**
 * Reads a multipart/form-data body the way a server does, with busboy (the parser behind
 * multer and most Node frameworks), so tests check what a receiver really gets out of it.
 */
import busboy from 'busboy';

interface ParsedFile {
	name: string;
	fileName: string;
	mimeType: string;
	data: Buffer;
}

export interface ParsedMultipart {
	fields: Array<{ name: string; value: string }>;
	files: ParsedFile[];
}

export async function parseMultipart(body: Buffer, contentType: string): Promise<ParsedMultipart> {
	return await new Promise<ParsedMultipart>((resolve, reject) => {
		const result: ParsedMultipart = { fields: [], files: [] };
		// Filenames are sent as raw UTF-8, as browsers do (RFC 7578 section 4.2).
		const parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8' });
		parser.on('field', (name, value) => result.fields.push({ name, value }));
		parser.on('file', (name, stream, info) => {
			const chunks: Buffer[] = [];
			stream.on('data', (chunk: Buffer) => chunks.push(chunk));
			stream.on('end', () =>
				result.files.push({
					name,
					fileName: info.filename ?? '',
					mimeType: info.mimeType,
					data: Buffer.concat(chunks),
				}),
			);
		});
		parser.on('error', reject);
		parser.on('close', () => resolve(result));
		parser.end(body);
	});
}
