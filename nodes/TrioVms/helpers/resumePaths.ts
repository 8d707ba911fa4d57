/**
 * Paths of the Resume Folder, as pure functions (text in, text out; nothing read from disk): what
 * `~` means, following n8n's own rule, and which file a spreadsheet cell may name inside the
 * folder. resumeFolder.ts applies them to n8n's disk.
 */
import { ParameterError } from './validation';

/** An absolute path (/home/node/..., C:\..., \\server\...). */
function isAbsolutePath(path: string): boolean {
	return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

/**
 * The folder that holds n8n's own `.n8n` folder, from n8n's storage folder
 * `<folder>/.n8n/storage/<node type>`: N8N_USER_FOLDER where that is set, else the home folder n8n
 * read from HOME (USERPROFILE on Windows). Nodes may not ask the operating system for its home
 * folder (n8n's rules for community nodes refuse `os` and `process`), so this is the nearest a
 * node can learn: the same folder as n8n's own `~` unless N8N_USER_FOLDER is set.
 */
export function homeFromStoragePath(storagePath: string): string | undefined {
	const match = /^(.*?)[\\/]\.n8n[\\/]storage(?:[\\/][^\\/]*)?$/.exec(storagePath);
	return match ? match[1] || '/' : undefined;
}

/**
 * `~` as n8n reads it in N8N_RESTRICT_FILE_ACCESS_TO, following getAllowedPaths in n8n-core's
 * file-system-helper-functions (`path.startsWith('~') ? path.replace('~', homedir()) : path`): a
 * leading `~` is replaced by the home folder, whatever follows it, so `~`, `~/x` and `~\x` are
 * in the home folder and `~x` becomes `<home>x` (n8n knows no `~user`); a `~` later in the path
 * stays. The same on Windows. Only a separator the home folder ends with (the root folder `/`)
 * is dropped before a separator, which names the same folder.
 */
export function expandHome(path: string, home: string): string {
	if (!path.startsWith('~')) return path;
	const rest = path.slice(1);
	return `${/^[\\/]/.test(rest) ? home.replace(/[\\/]+$/, '') : home}${rest}`;
}

/**
 * The Resume Folder as typed, with `~` expanded as n8n expands it (expandHome) and without
 * trailing separators, except that a root folder (`/`, `C:\`) stays what it is.
 */
export function resumeFolderPath(typed: string, home: string | undefined): string {
	let folder = typed.trim();
	if (folder.startsWith('~')) {
		if (!home) {
			throw new ParameterError(
				'Resume Folder',
				`starts with ~, but n8n does not tell this node its home folder: ${folder}`,
				'Write the full path of the folder, for example /home/node/.n8n-files/resumes.',
			);
		}
		folder = expandHome(folder, home);
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
