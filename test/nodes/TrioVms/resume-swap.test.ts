/**
 * The Resume File check and the read are two steps (issue 47 item 9): a cell's path is resolved by
 * n8n (`helpers.resolvePath`, a realpath) and judged inside the Resume Folder, then read with
 * `helpers.createReadStream`. Here a folder of the path is swapped for a link that leads out right
 * after the check: n8n-core's own helpers run, only the timing is forced, by wrapping the real
 * resolvePath of the execution's helpers so that it swaps once it has answered for the cell.
 * Also: a hard link inside the folder to a file outside it is the same file, and is read.
 */
import { constants, linkSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';

import * as fileSystemHelpers from 'n8n-core/dist/execution-engine/node-execution-context/utils/file-system-helper-functions';
import type { IDataObject } from 'n8n-workflow';

import { PATHS } from '../../../nodes/shared/serviceFacts';
import {
	PDF,
	errorText,
	readableResumeFolders,
	submitRowsFrom,
	useSandbox,
} from '../../support/sandbox-harness';

const t = useSandbox({ jobs: 10 });

const { folder, otherFolder } = readableResumeFolders('trio-swap-');
/** Not a resume of this sheet: a PDF n8n may read, outside the Resume Folder (told by its size). */
const SECRET = Buffer.concat([PDF, Buffer.from('% secret\n')]);
writeFileSync(join(otherFolder, 'secret.pdf'), SECRET);

/** The size of the file Trio stored with the latest submission. */
const storedFileSize = () => [...t.sandbox.store.submissions.values()].at(-1)?.file?.size;

type Helpers = ReturnType<typeof fileSystemHelpers.getFileSystemHelperFunctions>;
const realHelpers = fileSystemHelpers.getFileSystemHelperFunctions;

/**
 * Every execution's file helpers are n8n-core's, with `change` applied (a wrapped resolvePath);
 * undone after the test.
 */
function withHelpers(change: (helpers: Helpers) => void) {
	jest.spyOn(fileSystemHelpers, 'getFileSystemHelperFunctions').mockImplementation((node) => {
		const helpers = realHelpers(node);
		change(helpers);
		return helpers;
	});
}
afterEach(() => jest.restoreAllMocks());

/** `sub/` in the folder, a real folder holding a resume named as the file outside. */
function subFolder(sub: string) {
	mkdirSync(join(folder, sub));
	writeFileSync(join(folder, sub, 'secret.pdf'), PDF);
	return {
		/** `sub` becomes a link to other/. */
		swapIn: () => {
			renameSync(join(folder, sub), join(folder, `${sub}-was`));
			symlinkSync(otherFolder, join(folder, sub));
		},
		/** `sub` is the real folder again. */
		swapOut: () => {
			renameSync(join(folder, sub), join(folder, `${sub}-link`));
			renameSync(join(folder, `${sub}-was`), join(folder, sub));
		},
	};
}

/** The first time n8n has resolved a path ending in `cell`, `swap` runs. */
function afterCheckOf(cell: string, swap: () => void) {
	return (helpers: Helpers) => {
		const resolve = helpers.resolvePath;
		let swapped = false;
		helpers.resolvePath = async (path) => {
			const resolved = await resolve(path);
			if (!swapped && String(path).endsWith(cell)) {
				swapped = true;
				swap();
			}
			return resolved;
		};
	};
}

/**
 * n8n-core 2.20.0's createReadStream, less its folder rules (the same as today's): it stats the
 * path, opens it refusing a link only as the file itself (O_NOFOLLOW), and compares the two; a
 * linked folder is followed by both. Those versions give nodes no pinDirectory either.
 */
function asInN8nCore2_20(helpers: Helpers) {
	helpers.createReadStream = async (path) => {
		const identity = await stat(path);
		const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
		const opened = await handle.stat();
		if (opened.dev !== identity.dev || opened.ino !== identity.ino) {
			await handle.close();
			throw new Error('The file has changed and cannot be accessed.');
		}
		return handle.createReadStream();
	};
	delete (helpers as Partial<Helpers>).pinDirectory;
	delete (helpers as Partial<Helpers>).assertNoSymlinkInPath;
}

const SUBMIT_ROWS = submitRowsFrom(folder);

/** A row naming `cell`; what the run said, and the submissions that reached Trio. */
async function submitWith(cell: string) {
	const job = t.sandbox.store.listJobs().find((each) => each.JobStatus === 'Open')!.Number;
	const row: IDataObject = {
		'First Name': 'Jane',
		'Last Name': 'Swapped',
		Email: `swap.${Math.random().toString(36).slice(2)}@example.com`,
		'Job Number': String(job),
		'Resume File': cell,
	};
	t.clearRequests();
	const result = await t.run(SUBMIT_ROWS, { input: [row] });
	const sent = t
		.apiRequests()
		.filter(
			(request) => request.method === 'POST' && request.path === `/api/v3${PATHS.submissions}`,
		);
	return { ...result, sent };
}

/** The refusal of a cell that names no file n8n may read in the folder: a missing file's. */
const noFile = (cell: string) =>
	`"Resume File" names "${cell}", which is no file n8n may read in the Resume Folder ${folder} (sheet row 2)`;

describe('a folder of the path swapped for a link between the check and the read (issue 47 item 9)', () => {
	it("fails the read with n8n-core's own helpers (2.41.1): the row gets the message of a missing file, and nothing is sent", async () => {
		const sub = subFolder('sub');
		withHelpers(afterCheckOf('sub/secret.pdf', sub.swapIn));
		const { error, sent } = await submitWith('sub/secret.pdf');
		expect(sent).toEqual([]);
		expect(errorText(error).message).toBe(noFile('sub/secret.pdf'));
	});

	/**
	 * A row naming `<name>/secret.pdf`, read by n8n-core 2.20.0's open, with `<name>` swapped for
	 * a link right after the check; with `swapBack`, swapped back once n8n has opened the file.
	 */
	async function swappedUnder2_20(name: string, swapBack: boolean) {
		const sub = subFolder(name);
		const cell = `${name}/secret.pdf`;
		withHelpers((helpers) => {
			asInN8nCore2_20(helpers);
			afterCheckOf(cell, sub.swapIn)(helpers);
			const opening = helpers.createReadStream;
			helpers.createReadStream = async (path) => {
				const stream = await opening(path);
				if (swapBack && String(path).endsWith(cell)) sub.swapOut();
				return stream;
			};
		});
		return { cell, ...(await submitWith(cell)) };
	}

	it('fails the read also where n8n opens a linked folder (as n8n-core 2.20.0): the node resolves the path again once it is open', async () => {
		const { cell, error, sent } = await swappedUnder2_20('sub-2-20', false);
		expect(sent).toEqual([]);
		expect(errorText(error).message).toBe(noFile(cell));
	});

	it('the limit there: a link swapped in before the open and out again before the second look is read', async () => {
		const { error, sent } = await swappedUnder2_20('sub-back', true);
		expect(error).toBeUndefined();
		expect(sent).toHaveLength(1);
		expect(storedFileSize()).toBe(SECRET.length);
	});
});

describe('a hard link inside the folder (issue 47 item 9)', () => {
	it('is the file it links to, wherever that is, and is read: n8n gives nodes no way to tell it', async () => {
		linkSync(join(otherFolder, 'secret.pdf'), join(folder, 'hard-link.pdf'));
		const { error, sent } = await submitWith('hard-link.pdf');
		expect(error).toBeUndefined();
		expect(sent).toHaveLength(1);
		expect(storedFileSize()).toBe(SECRET.length);
	});
});
