/**
 * Each cause the Sync Trigger declares, per way a check fails, read against n8n's own split of
 * the causes as n8n ships it: n8n-workflow's TIMED_CAUSES (the source comes back on its own: n8n's
 * scheduler tries again on its curve, from 5 s, doubling to 30 minutes) and ACTIONABLE_CAUSES
 * (someone has to act: it waits its longest, 30 minutes, from the first failure). The back-off
 * function itself belongs to n8n's server (its durable scheduler) and is not in n8n-core 2.41's or
 * n8n-workflow's files, so the split it reads is what is checked here. Only what is known is
 * declared as needing someone; a failure the trigger cannot classify is transient.
 * failures.test.ts shows the same declarations on the errors n8n's poll executor reports.
 */
import {
	ACTIONABLE_CAUSES,
	NodeApiError,
	NodeOperationError,
	TIMED_CAUSES,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

import { markRetryAfter, markTimedOut } from '../../../nodes/shared/failureMarks';
import { withFailure } from '../../../nodes/TrioVmsSyncTrigger/failure';
import type { WatchKind } from '../../../nodes/TrioVmsSyncTrigger/state';

const NODE: INode = {
	id: 'sync',
	name: 'Trio VMS Sync Trigger',
	type: 'n8n-nodes-trio-vms.trioVmsSyncTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function answered(status: number, retryAfterMs?: number): NodeApiError {
	const error = new NodeApiError(NODE, {} as JsonObject, { httpCode: String(status) });
	return markRetryAfter(error, retryAfterMs);
}

function unanswered(code: string, timedOut = false): NodeApiError {
	const error = new NodeApiError(NODE, { code } as JsonObject, {});
	if (timedOut) markTimedOut(error);
	return error;
}

/** How n8n's scheduler treats a cause, by the lists n8n-workflow ships. */
function n8nWaits(cause: string): 'climbs from 5 s' | '30 minutes from the first failure' {
	if ((TIMED_CAUSES as readonly string[]).includes(cause)) return 'climbs from 5 s';
	if ((ACTIONABLE_CAUSES as readonly string[]).includes(cause))
		return '30 minutes from the first failure';
	throw new Error(`${cause} is none of n8n's causes`);
}

type Row = [string, () => unknown, WatchKind, string, ReturnType<typeof n8nWaits>];

const ROWS: Row[] = [
	['Trio busy (429)', () => answered(429, 60_000), 'jobs', 'rate-limited', 'climbs from 5 s'],
	[
		'a 403 with a Retry-After',
		() => answered(403, 5_000),
		'jobs',
		'rate-limited',
		'climbs from 5 s',
	],
	['Trio down (503)', () => answered(503), 'jobs', 'temporarily-unavailable', 'climbs from 5 s'],
	['Trio slow (408)', () => answered(408), 'jobs', 'temporarily-unavailable', 'climbs from 5 s'],
	[
		'no answer in time',
		() => unanswered('ETIMEDOUT', true),
		'jobs',
		'temporarily-unavailable',
		'climbs from 5 s',
	],
	[
		'the connection refused',
		() => unanswered('ECONNREFUSED'),
		'jobs',
		'temporarily-unavailable',
		'climbs from 5 s',
	],
	[
		'a Trio VMS error with no status and no code',
		() => new NodeApiError(NODE, {} as JsonObject, {}),
		'jobs',
		'temporarily-unavailable',
		'climbs from 5 s',
	],
	[
		'an error of no known kind',
		() => new TypeError('Cannot read properties of undefined'),
		'jobs',
		'temporarily-unavailable',
		'climbs from 5 s',
	],
	[
		'an operation error the trigger did not declare',
		() => new NodeOperationError(NODE, 'Something unexpected'),
		'submissions',
		'temporarily-unavailable',
		'climbs from 5 s',
	],
	[
		'a thrown value that is not an error',
		() => 'a string',
		'jobs',
		'temporarily-unavailable',
		'climbs from 5 s',
	],
	[
		'the key refused (401)',
		() => answered(401),
		'jobs',
		'credential-invalid',
		'30 minutes from the first failure',
	],
	[
		'the job list refused (403)',
		() => answered(403),
		'jobs',
		'credential-invalid',
		'30 minutes from the first failure',
	],
	[
		'the submission list refused (403)',
		() => answered(403),
		'submissions',
		'configuration-invalid',
		'30 minutes from the first failure',
	],
	[
		'no list at that address (404)',
		() => answered(404),
		'jobs',
		'configuration-invalid',
		'30 minutes from the first failure',
	],
	[
		'an answer larger than any of Trio',
		() => unanswered('ERESPONSETOOLARGE'),
		'jobs',
		'configuration-invalid',
		'30 minutes from the first failure',
	],
	[
		'the list asked for as the node asks is refused (400)',
		() => answered(400),
		'jobs',
		'node-defect',
		'30 minutes from the first failure',
	],
];

describe("Sync Trigger: each declared cause, against n8n's split as shipped", () => {
	test.each(ROWS)('%s', (_, thrown, watch, cause, waits) => {
		const { failure } = withFailure(thrown(), watch) as Error & { failure: { cause: string } };
		expect(failure.cause).toBe(cause);
		expect(n8nWaits(failure.cause)).toBe(waits);
	});

	test('a cause a step declared itself is kept as it is', () => {
		const declared = Object.assign(new Error('cut short'), {
			failure: { cause: 'temporarily-unavailable' },
		});
		expect(withFailure(declared, 'jobs')).toBe(declared);
	});

	test('node-defect is declared for a request Trio calls malformed, and for nothing the trigger cannot name', () => {
		const defects = ROWS.filter((row) => row[3] === 'node-defect').map((row) => row[0]);
		expect(defects).toEqual(['the list asked for as the node asks is refused (400)']);
	});
});
