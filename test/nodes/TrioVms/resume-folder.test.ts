/**
 * The Resume Folder checked once per node execution (issue 46), against a stand-in for n8n's
 * file helpers that counts what the node asks of the disk: 1,000 rows ask once, and a folder
 * problem is one failure about the run, not a row's.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { isRunLevelFailure } from '../../../nodes/shared/failureMarks';
import { checkedResumeFolder } from '../../../nodes/TrioVms/helpers/resumeFolder';

/** A system failure as Node's fs gives it. */
function systemError(code: string): Error {
	return Object.assign(new Error(`${code}: failure`), { code });
}

/** An execution's context whose disk answers `opened` to every open (a failure, or a folder). */
function execution(opened: Error) {
	const helpers = {
		getStoragePath: () => '/home/jane/.n8n/storage/n8n-nodes-trio-vms.trioVms',
		resolvePath: jest.fn(async (path: string) => path),
		isFilePathBlocked: jest.fn(() => false),
		createReadStream: jest.fn(async () => {
			throw opened;
		}),
	};
	const context = { helpers, getNode: () => ({ name: 'Trio VMS' }) };
	return { helpers, context: context as unknown as IExecuteFunctions };
}

describe('the Resume Folder, checked once per execution', () => {
	it('asks the disk once for 1,000 rows, and again in the next execution', async () => {
		// Windows fails to open a folder with EISDIR: the folder is there.
		const first = execution(systemError('EISDIR'));
		for (let row = 0; row < 1000; row++) {
			const folder = await checkedResumeFolder(first.context, '~/.n8n-files/resumes');
			expect(folder.resolved).toBe('/home/jane/.n8n-files/resumes');
		}
		expect(first.helpers.resolvePath).toHaveBeenCalledTimes(1);
		expect(first.helpers.createReadStream).toHaveBeenCalledTimes(1);

		const next = execution(systemError('EISDIR'));
		await checkedResumeFolder(next.context, '~/.n8n-files/resumes');
		expect(next.helpers.createReadStream).toHaveBeenCalledTimes(1);
	});

	it('fails once, about the run, for a folder that is not there or cannot be read', async () => {
		for (const [code, problem] of [
			['ENOENT', 'which does not exist on the machine (or in the container) where n8n runs'],
			['EACCES', 'which n8n cannot read'],
		]) {
			const { context, helpers } = execution(systemError(code));
			const failures = await Promise.all(
				[1, 2, 3].map(async () =>
					checkedResumeFolder(context, '/srv/resumes').catch((error: unknown) => error),
				),
			);
			expect(helpers.createReadStream).toHaveBeenCalledTimes(1);
			for (const failure of failures) {
				expect(isRunLevelFailure(failure)).toBe(true);
				expect((failure as Error).message).toBe(`"Resume Folder" is /srv/resumes, ${problem}`);
			}
		}
	});

	it('says an empty Resume Folder once, about the run', async () => {
		const { context } = execution(systemError('EISDIR'));
		const failure = await checkedResumeFolder(context, ' ').catch((error: unknown) => error);
		expect(isRunLevelFailure(failure)).toBe(true);
		expect((failure as Error).message).toBe('"Resume Folder" is required but empty');
	});
});
