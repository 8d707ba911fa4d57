/**
 * The Resume Folder on n8n's disk (Submission Create with Values From = Spreadsheet Columns): the
 * folder checked once per execution (it exists, is a folder, n8n lets nodes read it), and a
 * row's file read inside it through n8n's own file helpers. What `~` means and which path a cell
 * may name are resumePaths.ts's pure functions; the checks of the file itself (type by extension
 * and content, size) are profileFile.ts's.
 */
import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { markRunLevel } from '../../shared/failureMarks';
import { PROFILE_FILE_MAX_BYTES } from '../../shared/serviceFacts';
import { checkProfileFile, type CheckedProfileFile } from './profileFile';
import { homeFromStoragePath, isInsideFolder, pathInFolder, resumeFolderPath } from './resumePaths';
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

type FileHelpers = IExecuteFunctions['helpers'] & {
	// Recent n8n resolves links and `..` (realpath) and says which paths it refuses; older n8n
	// (n8n-core 2.0.0, for one) does neither.
	resolvePath?: (path: string) => Promise<string>;
	isFilePathBlocked?: (path: string) => boolean;
	getStoragePath?: () => string;
};

/** The Resume Folder as typed, as this node reads it (`~` expanded), and as n8n resolves it. */
export interface ResumeFolder {
	typed: string;
	path: string;
	/** After n8n resolves links and `..`; `path` where n8n resolves nothing for nodes (older n8n). */
	resolved: string;
	/** The folder `~` stands for, when the folder was typed with `~`. */
	home?: string;
}

/** What n8n's file helpers find at the folder. */
type FolderState = 'folder' | 'missing' | 'file' | 'blocked' | { unreadable: string };

/** The system's code of a failure, also where n8n wrapped it in a NodeOperationError. */
function codeOf(error: unknown): string | undefined {
	for (let cause = error, depth = 0; cause && depth < 3; depth++) {
		const { code } = cause as { code?: unknown };
		if (typeof code === 'string') return code;
		cause = (cause as { cause?: unknown }).cause;
	}
	return undefined;
}

/** What a failure to open or read the folder says about it. */
function stateOfFailure(error: unknown): FolderState {
	const code = codeOf(error);
	const message = error instanceof Error ? error.message : String(error);
	if (code === 'EISDIR') return 'folder';
	if (code === 'ENOENT' || code === 'ENOTDIR' || message.includes('could not be accessed'))
		return 'missing';
	if (message.startsWith('Access to the file is not allowed')) return 'blocked';
	return { unreadable: message };
}

/**
 * Whether the folder exists, is a folder, and n8n lets nodes read it, asked of n8n's own file
 * helpers (a node may not touch the disk itself): opening a folder for reading fails with EISDIR,
 * at once on Windows, at the first read elsewhere; a file gives its bytes.
 */
async function folderState(helpers: FileHelpers, resolved: string): Promise<FolderState> {
	if (helpers.isFilePathBlocked?.(resolved)) return 'blocked';
	let stream: ReadStream;
	try {
		stream = await helpers.createReadStream(
			resolved as Parameters<typeof helpers.createReadStream>[0],
		);
	} catch (error) {
		return stateOfFailure(error);
	}
	try {
		// The first read: a folder fails it, a file (even an empty one) does not.
		await stream[Symbol.asyncIterator]().next();
		return 'file';
	} catch (error) {
		return stateOfFailure(error);
	} finally {
		stream.destroy();
	}
}

/** The folder as the user typed it and, where that differs, as n8n's machine knows it. */
function folderShown(folder: ResumeFolder): string {
	const same = folder.resolved === folder.typed || folder.resolved === folder.path;
	return same && !folder.typed.startsWith('~')
		? folder.typed
		: `${folder.typed} (${folder.resolved})`;
}

/**
 * For a missing or refused folder typed with `~`: what `~` was read as, and why that can differ
 * from n8n's own `~` (see homeFromStoragePath).
 */
function homeNote(folder: ResumeFolder): string {
	if (folder.home === undefined) return '';
	return ` Here ~ is ${folder.home}, the folder that holds n8n's .n8n folder: the home folder of the user n8n runs as, or N8N_USER_FOLDER where that is set. n8n itself reads ~ in N8N_RESTRICT_FILE_ACCESS_TO as the home folder of the user it runs as also where N8N_USER_FOLDER is set, a folder n8n does not tell nodes: then write the full path of the folder.`;
}

const N8N_FOLDERS =
	'n8n reads files only inside the folders N8N_RESTRICT_FILE_ACCESS_TO lists (in n8n 2.x by default ~/.n8n-files, in Docker /home/node/.n8n-files).';

/** The words of each folder problem: what follows "Resume Folder is <folder>", and what to do. */
function folderProblem(state: Exclude<FolderState, 'folder'>): [string, string] {
	if (state === 'missing')
		return [
			'which does not exist on the machine (or in the container) where n8n runs',
			'Make the folder and put the resumes in it, or set Resume Folder to the folder that holds them.',
		];
	if (state === 'file')
		return [
			'which is a file, not a folder',
			"Set Resume Folder to the folder that holds the resumes; each row's Resume File names one file in it.",
		];
	if (state === 'blocked')
		return [
			'where n8n does not let nodes read files ("Access to the file is not allowed.")',
			`${N8N_FOLDERS} Put the resumes there, or add their folder to N8N_RESTRICT_FILE_ACCESS_TO and restart n8n.`,
		];
	return [
		// The system's words go to the description: n8n replaces a message that names EACCES with its own.
		'which n8n cannot read',
		`The system said: "${state.unreadable}". Let the user n8n runs as read the folder and its files, or set Resume Folder to a folder it can read.`,
	];
}

/**
 * A Resume Folder problem: the recruiter's setting, the same for every row, so it is said once,
 * about the folder, and marked as about the run (isRunLevelFailure), not about the row it met.
 */
function folderFailure(context: IExecuteFunctions, message: string, hint: string) {
	return markRunLevel(
		new NodeOperationError(context.getNode(), message, {
			description: `${hint} No resume was read from this folder, and no row that uses it was sent to Trio VMS.`,
		}),
	);
}

/** The folder as typed, with `~` expanded and resolved by n8n; a folder that cannot be named fails. */
async function resumeFolderOf(context: IExecuteFunctions, typed: unknown): Promise<ResumeFolder> {
	const helpers = context.helpers as FileHelpers;
	const storage = helpers.getStoragePath?.();
	const home = storage ? homeFromStoragePath(storage) : undefined;
	let folder: ResumeFolder;
	try {
		const text = requiredText(typed, 'Resume Folder');
		const path = resumeFolderPath(text, home);
		folder = { typed: text, path, resolved: path, home: text.startsWith('~') ? home : undefined };
	} catch (error) {
		// requiredText and resumeFolderPath throw only ParameterErrors.
		const { message, hint } = error as ParameterError;
		const example = 'for example ~/.n8n-files/resumes, or its full path';
		throw folderFailure(context, message, hint ?? `Set it, ${example}.`);
	}
	const { path } = folder;
	try {
		if (helpers.resolvePath) folder.resolved = await helpers.resolvePath(path);
	} catch (error) {
		const state = stateOfFailure(error);
		if (state !== 'folder') throw problemOf(context, folder, state);
	}
	return folder;
}

/** The run's failure for a folder that is not a folder n8n lets nodes read. */
function problemOf(
	context: IExecuteFunctions,
	folder: ResumeFolder,
	state: Exclude<FolderState, 'folder'>,
) {
	const [problem, hint] = folderProblem(state);
	const note = state === 'missing' || state === 'blocked' ? homeNote(folder) : '';
	return folderFailure(
		context,
		`"Resume Folder" is ${folderShown(folder)}, ${problem}`,
		`${hint}${note}`,
	);
}

/** The folders checked in each node execution (each execution has its own context), by path. */
const checkedFolders = new WeakMap<IExecuteFunctions, Map<string, Promise<ResumeFolder>>>();

/**
 * The Resume Folder, checked once per node execution before the first row's resume is read: it
 * exists, is a folder, and n8n lets nodes read it. A problem fails the run once with a
 * NodeOperationError marked as about the run (isRunLevelFailure), never as the row's file name.
 */
export async function checkedResumeFolder(
	context: IExecuteFunctions,
	typed: unknown,
): Promise<ResumeFolder> {
	let checks = checkedFolders.get(context);
	if (!checks) checkedFolders.set(context, (checks = new Map()));
	// The folder as typed decides the path: n8n's storage folder, the other input, is the execution's.
	const key = String(typed ?? '').trim();
	let check = checks.get(key);
	if (!check) {
		check = (async () => {
			const folder = await resumeFolderOf(context, typed);
			const state = await folderState(context.helpers as FileHelpers, folder.resolved);
			if (state !== 'folder') throw problemOf(context, folder, state);
			return folder;
		})();
		checks.set(key, check);
	}
	return await check;
}

export interface ResumeFolderSetting {
	/** Resume Folder as typed. */
	folder: string;
	/** Whether a cell may name a full path anywhere n8n may read (Allow Full Paths in Resume File). */
	fullPaths: boolean;
}

/**
 * The cell's file, read through n8n's helpers, or the one failure of a cell that names no file n8n
 * reads. n8n resolves the path (links and `..`) and the node judges that resolved path, then hands
 * n8n exactly it to read: where n8n opens a path without following a link in any of its folders
 * (n8n-core 2.41.1 and 1.122.48, in n8n 2.41 and 1.123.81), a folder swapped for a link between
 * the judging and the reading makes the read fail. Where n8n's open follows a linked folder
 * (n8n-core 2.20.0, 1.122.10), the node resolves the path again once the file is open and refuses
 * it when that changed: a link swapped in before the open and out again before that second look
 * is then read (n8n gives nodes no way to ask what an open file is). Where n8n resolves nothing
 * for nodes (n8n-core 2.0.0), the path is read as it stands, and a link in it followed.
 */
async function bytesInFolder(
	helpers: FileHelpers,
	folder: ResumeFolder,
	path: string,
	fullPaths: boolean,
): Promise<{ data: Buffer } | { failure: unknown }> {
	try {
		let resolved = path;
		if (helpers.resolvePath) {
			resolved = await helpers.resolvePath(path);
			if (!fullPaths && !isInsideFolder(folder.resolved, resolved))
				throw new Error('outside the folder');
		}
		const stream = await helpers.createReadStream(
			resolved as Parameters<typeof helpers.createReadStream>[0],
		);
		const resolveAgain = helpers.resolvePath;
		const unchanged =
			!resolveAgain ||
			(await resolveAgain(resolved).then(
				(again) => again === resolved,
				() => false,
			));
		if (!unchanged) {
			stream.destroy();
			throw new Error('the path changed between its check and its read');
		}
		return { data: await bytesOf(stream, PROFILE_FILE_MAX_BYTES) };
	} catch (failure) {
		return { failure };
	}
}

/**
 * The resume a spreadsheet cell names, read from n8n's disk through n8n's own file helpers, so
 * that n8n's rules on which folders nodes may read (N8N_RESTRICT_FILE_ACCESS_TO, by default
 * ~/.n8n-files in n8n 2.x) apply as they do to Read/Write Files from Disk. The Resume Folder is
 * checked first, once per execution (checkedResumeFolder). A sheet is edited by others than the
 * recruiter: by default only a file inside Resume Folder is read, judged after n8n resolves links
 * and `..`, so that nobody who edits the sheet can send Trio another file of n8n's machine. The
 * row stays the item, so its other columns need no reaching back.
 */
export async function readProfileFileFromDisk(
	context: IExecuteFunctions,
	setting: ResumeFolderSetting,
	cell: unknown,
	label: string,
	fileNameOverride: string | undefined,
): Promise<CheckedProfileFile & { data: Buffer }> {
	const folder = await checkedResumeFolder(context, setting.folder);
	const name = requiredText(cell, label);
	const { fullPaths } = setting;
	const path = pathInFolder(folder.path, name, fullPaths);
	if (path === undefined) throw noFileInFolder(name, folder.path, label, fullPaths);
	const outcome = await bytesInFolder(context.helpers as FileHelpers, folder, path, fullPaths);
	if ('failure' in outcome) throw noFileInFolder(name, folder.path, label, fullPaths);
	const { data } = outcome;
	const file = checkProfileFile({
		data,
		fileName: name,
		fileNameOverride,
		labels: { binaryProperty: label, fileName: 'File Name' },
	});
	return { ...file, data };
}
