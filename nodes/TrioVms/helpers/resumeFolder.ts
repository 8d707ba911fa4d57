/**
 * The Resume Folder on n8n's disk (Submission Create with Values From = Spreadsheet Columns):
 * what `~` means, which paths a cell may name, and reading a row's file through n8n's own file
 * helpers. The checks of the file itself (type by extension and content, size) are in
 * profileFile.ts.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { PROFILE_FILE_MAX_BYTES } from '../../shared/serviceFacts';
import { checkProfileFile, type CheckedProfileFile } from './profileFile';
import { ParameterError, requiredText } from './validation';

type ReadStream = Awaited<ReturnType<IExecuteFunctions['helpers']['createReadStream']>>;

/** The stream's bytes, stopping one byte past the limit: a larger file is refused, never read whole. */
async function bytesOf(stream: ReadStream, limit: number): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
		chunks.push(buffer);
		size += buffer.length;
		if (size > limit) {
			stream.destroy();
			break;
		}
	}
	return Buffer.concat(chunks);
}

/** An absolute path (/home/node/..., C:\..., \\server\...). */
function isAbsolutePath(path: string): boolean {
	return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

/**
 * The home folder of the user n8n runs as, from where n8n keeps its own files: n8n's storage
 * folder is `<home>/.n8n/storage/<node type>` (`<N8N_USER_FOLDER>/.n8n/...` where that is set).
 * Nodes may not ask the operating system, so this is the one place that knows it.
 */
export function homeFromStoragePath(storagePath: string): string | undefined {
	const match = /^(.*?)[\\/]\.n8n[\\/]storage(?:[\\/][^\\/]*)?$/.exec(storagePath);
	return match ? match[1] || '/' : undefined;
}

/**
 * The Resume Folder as typed, with `~` as the home folder of the user n8n runs as and without
 * trailing separators, except that a root folder (`/`, `C:\`) stays what it is.
 */
export function resumeFolderPath(typed: string, home: string | undefined): string {
	let folder = typed.trim();
	if (folder === '~' || /^~[\\/]/.test(folder)) {
		if (!home) {
			throw new ParameterError(
				'Resume Folder',
				`starts with ~, but n8n does not tell this node its home folder: ${folder}`,
				'Write the full path of the folder, for example /home/node/.n8n-files/resumes.',
			);
		}
		folder = `${home.replace(/[\\/]+$/, '')}${folder.slice(1)}`;
	}
	const trimmed = folder.replace(/[\\/]+$/, '');
	if (trimmed === '' && folder !== '') return folder[0];
	if (/^[A-Za-z]:$/.test(trimmed)) return `${trimmed}${folder[trimmed.length]}`;
	return trimmed;
}

/** `folder` and `name` joined with one separator, whatever the folder ends with. */
function joined(folder: string, name: string): string {
	return /[\\/]$/.test(folder) ? `${folder}${name}` : `${folder}/${name}`;
}

/**
 * Where the cell's file is, or undefined when the cell names no file inside the folder: a full
 * path, or a name that climbs out with `..`. With `fullPaths` (the recruiter's choice), a full
 * path is read as it is and a relative one from the folder.
 */
export function pathInFolder(folder: string, name: string, fullPaths: boolean): string | undefined {
	if (isAbsolutePath(name)) return fullPaths ? name : undefined;
	if (!fullPaths && name.split(/[\\/]/).includes('..')) return undefined;
	return folder ? joined(folder, name) : name;
}

/** Whether `path` is inside `folder`, both already resolved (links and `..` gone). */
export function isInsideFolder(folder: string, path: string): boolean {
	const windows = /^[A-Za-z]:|^\\\\/.test(folder);
	const normal = (text: string) => {
		const slashes = text.replace(/\\/g, '/');
		return windows ? slashes.toLowerCase() : slashes;
	};
	const base = normal(folder).replace(/\/+$/, '');
	return normal(path).startsWith(`${base}/`);
}

/**
 * The one message for a cell that names no file this node reads, whether the file is missing,
 * outside the folder, behind a link that leads out, or refused by n8n: whoever edits the sheet
 * learns nothing about which files exist on n8n's machine.
 */
function noFileInFolder(
	name: string,
	folder: string,
	label: string,
	fullPaths: boolean,
): ParameterError {
	return new ParameterError(
		label,
		fullPaths
			? `names "${name}", but n8n finds no file it may read there (Resume Folder ${folder})`
			: `names "${name}", which is no file n8n may read in the Resume Folder ${folder}`,
		fullPaths
			? 'Check the file name in the row and the Resume Folder. n8n reads files only inside the folders N8N_RESTRICT_FILE_ACCESS_TO lists (in n8n 2.x by default ~/.n8n-files, in Docker /home/node/.n8n-files).'
			: 'Check the file name in the row: a name such as jane-doe.pdf in the Resume Folder (files outside the folder are never read, also not through ../ or a link). The folder is on the machine (or in the container) where n8n runs.',
	);
}

/** Resume Folder itself outside the folders n8n lets nodes read: the recruiter's setting, not the row's. */
function folderNotAllowed(folder: string): ParameterError {
	return new ParameterError(
		'Resume Folder',
		`is ${folder}, where n8n does not let nodes read files ("Access to the file is not allowed.")`,
		'n8n reads files only inside the folders N8N_RESTRICT_FILE_ACCESS_TO lists (in n8n 2.x by default ~/.n8n-files, in Docker /home/node/.n8n-files). Put the resumes there, or add their folder to N8N_RESTRICT_FILE_ACCESS_TO and restart n8n.',
	);
}

type FileHelpers = IExecuteFunctions['helpers'] & {
	// n8n 2.x resolves links and `..` (realpath) and says which paths it refuses; n8n 1.x does neither.
	resolvePath?: (path: string) => Promise<string>;
	isFilePathBlocked?: (path: string) => boolean;
	getStoragePath?: () => string;
};

export interface ResumeFolderSetting {
	/** Resume Folder as typed. */
	folder: string;
	/** Whether a cell may name a full path anywhere n8n may read (Allow Full Paths in Resume File). */
	fullPaths: boolean;
}

/**
 * The resume a spreadsheet cell names, read from n8n's disk through n8n's own file helpers, so
 * that n8n's rules on which folders nodes may read (N8N_RESTRICT_FILE_ACCESS_TO, by default
 * ~/.n8n-files in n8n 2.x) apply as they do to Read/Write Files from Disk. A sheet is edited by
 * others than the recruiter: by default only a file inside Resume Folder is read, judged after
 * n8n resolves links and `..`, so that nobody who edits the sheet can send Trio another file of
 * n8n's machine. The row stays the item, so its other columns need no reaching back.
 */
export async function readProfileFileFromDisk(
	context: IExecuteFunctions,
	setting: ResumeFolderSetting,
	cell: unknown,
	label: string,
	fileNameOverride: string | undefined,
): Promise<CheckedProfileFile & { data: Buffer }> {
	const name = requiredText(cell, label);
	const helpers = context.helpers as FileHelpers;
	const storage = helpers.getStoragePath?.();
	const folder = resumeFolderPath(
		requiredText(setting.folder, 'Resume Folder'),
		storage && homeFromStoragePath(storage),
	);
	const { fullPaths } = setting;
	const path = pathInFolder(folder, name, fullPaths);
	if (path === undefined) throw noFileInFolder(name, folder, label, fullPaths);
	let outcome: { data: Buffer } | { failure: unknown };
	try {
		let resolved = path;
		if (helpers.resolvePath) {
			const resolvedFolder = fullPaths ? undefined : await helpers.resolvePath(folder);
			resolved = await helpers.resolvePath(path);
			if (resolvedFolder && !isInsideFolder(resolvedFolder, resolved))
				throw new Error('outside the folder');
			// A folder n8n refuses is the recruiter's setting to fix, whichever file a row names.
			if (
				resolvedFolder &&
				helpers.isFilePathBlocked?.(resolved) &&
				helpers.isFilePathBlocked(resolvedFolder)
			)
				throw folderNotAllowed(folder);
		}
		outcome = {
			data: await bytesOf(
				await helpers.createReadStream(resolved as Parameters<typeof helpers.createReadStream>[0]),
				PROFILE_FILE_MAX_BYTES,
			),
		};
	} catch (failure) {
		outcome = { failure };
	}
	if ('failure' in outcome) {
		if (outcome.failure instanceof ParameterError) throw outcome.failure;
		throw noFileInFolder(name, folder, label, fullPaths);
	}
	const { data } = outcome;
	const file = checkProfileFile({
		data,
		fileName: name,
		fileNameOverride,
		labels: { binaryProperty: label, fileName: 'File Name' },
	});
	return { ...file, data };
}
