/** encodeMultipart, checked by parsing its output with busboy as a server would. */
import { encodeMultipart } from '../../../../nodes/shared/transport/multipart';
import { parseMultipart } from '../../../support/parse-multipart';

describe('encodeMultipart', () => {
	const pdf = Buffer.concat([
		Buffer.from('%PDF-1.7\r\n'),
		Buffer.from([0, 255, 13, 10, 45, 45, 0x80]),
		Buffer.from('\r\n--not-a-boundary\r\n'),
	]);

	it('encodes text fields and files that a server parses back exactly', async () => {
		const encoded = encodeMultipart([
			{ name: 'JobNumber', value: '123' },
			{ name: 'Notes', value: 'line one\r\nline two — ünïcödé' },
			{ name: 'File', fileName: 'resume.pdf', contentType: 'application/pdf', data: pdf },
		]);
		const parsed = await parseMultipart(encoded.body, encoded.contentType);
		expect(parsed.fields).toEqual([
			{ name: 'JobNumber', value: '123' },
			{ name: 'Notes', value: 'line one\r\nline two — ünïcödé' },
		]);
		expect(parsed.files).toHaveLength(1);
		expect(parsed.files[0]).toMatchObject({
			name: 'File',
			fileName: 'resume.pdf',
			mimeType: 'application/pdf',
		});
		expect(parsed.files[0].data.equals(pdf)).toBe(true);
	});

	it('uses the given boundary, and a fresh random one otherwise', () => {
		expect(encodeMultipart([], 'XYZ')).toEqual({
			body: Buffer.from('--XYZ--\r\n'),
			contentType: 'multipart/form-data; boundary=XYZ',
		});
		const first = encodeMultipart([{ name: 'a', value: 'b' }]).contentType;
		const second = encodeMultipart([{ name: 'a', value: 'b' }]).contentType;
		expect(first).toMatch(/^multipart\/form-data; boundary=----TrioVmsN8n[0-9a-f]{24}$/);
		expect(first).not.toBe(second);
	});

	it('keeps quotes and line breaks in names from ending the part header', async () => {
		const encoded = encodeMultipart([
			{ name: 'we"ird\r\nX-Injected: 1', value: 'v' },
			{
				name: 'File',
				fileName: 'my "best"\ncv.pdf',
				contentType: 'application/pdf',
				data: Buffer.from('x'),
			},
		]);
		expect(encoded.body.toString('latin1')).not.toContain('\r\nX-Injected: 1');
		const parsed = await parseMultipart(encoded.body, encoded.contentType);
		expect(parsed.fields).toEqual([{ name: 'we%22ird%0D%0AX-Injected: 1', value: 'v' }]);
		expect(parsed.files[0].fileName).toBe('my %22best%22%0Acv.pdf');
	});

	it('sends a non-ASCII filename as UTF-8, as browsers do', async () => {
		const encoded = encodeMultipart([
			{
				name: 'File',
				fileName: 'Lebenslauf Müller.docx',
				contentType: 'application/octet-stream',
				data: Buffer.from('x'),
			},
		]);
		const parsed = await parseMultipart(encoded.body, encoded.contentType);
		expect(parsed.files[0].fileName).toBe('Lebenslauf Müller.docx');
	});

	it('sends an empty file as a file part with no bytes', async () => {
		const encoded = encodeMultipart([
			{ name: 'File', fileName: 'empty.txt', contentType: 'text/plain', data: Buffer.alloc(0) },
		]);
		const parsed = await parseMultipart(encoded.body, encoded.contentType);
		expect(parsed.files).toEqual([
			{ name: 'File', fileName: 'empty.txt', mimeType: 'text/plain', data: Buffer.alloc(0) },
		]);
	});
});
