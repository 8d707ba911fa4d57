/**
 * The one rule by which every list answer is read (nodes/shared/listAnswer.ts), and the readers
 * that stand on it: what the action node outputs, the Sync Trigger's lists, the webhook listing.
 */
import {
	answerInWords,
	readList,
	UnreadableAnswerError,
	type ListRule,
} from '../../../nodes/shared/listAnswer';
import { readRegistrationList } from '../../../nodes/shared/webhookRegistrations';
import { listOrEmpty, objectsOf } from '../../../nodes/TrioVms/helpers/output';
import { readJobs } from '../../../nodes/TrioVmsSyncTrigger/records';

const rule: ListRule = { refused: (sent) => `refused ${answerInWords(sent)}` };

describe('readList', () => {
	it('reads an array as it came, extra fields and all', () => {
		const entries = [{ Number: 1, Extra: { a: 1 } }, 'x'];
		expect(readList(entries, rule)).toBe(entries);
	});

	it('reads a list wrapped under value, items or data in any letter case, or under its own name', () => {
		expect(readList({ Value: [1] }, rule)).toEqual([1]);
		expect(readList({ ITEMS: [2], count: 1 }, rule)).toEqual([2]);
		expect(readList({ data: [3] }, rule)).toEqual([3]);
		expect(readList({ Submissions: [4] }, { ...rule, names: ['submissions'] })).toEqual([4]);
	});

	it.each([
		['nothing', undefined],
		['nothing', null],
		['nothing', ''],
		['text', 'Service Unavailable'],
		['a single object', { Number: 1 }],
		['a single object', { jobs: [] }],
		['a number', 42],
	])('refuses %s loudly, never as an empty list', (words, body) => {
		expect(() => readList(body, rule)).toThrow(UnreadableAnswerError);
		expect(() => readList(body, rule)).toThrow(`refused ${words}`);
	});

	it('takes an answer with no body for an empty list, and one entry for a list of one, only where the caller says so', () => {
		for (const empty of [undefined, null, ''])
			expect(readList(empty, { ...rule, emptyIsNone: true })).toEqual([]);
		const single = { Id: 'a' };
		expect(readList(single, { ...rule, single: (entry) => 'Id' in entry })).toEqual([single]);
		expect(() => readList({ Name: 'x' }, { ...rule, single: (entry) => 'Id' in entry })).toThrow(
			UnreadableAnswerError,
		);
	});
});

describe('the readers on the one rule', () => {
	it('the action node outputs a wrapped list and refuses what is no list instead of outputting it', () => {
		expect(objectsOf({ Items: [{ Number: 1 }] })).toEqual([{ Number: 1 }]);
		expect(listOrEmpty(undefined)).toEqual([]);
		expect(() => objectsOf('<html>Bad Gateway</html>')).toThrow(
			'Trio VMS answered with text instead of a list',
		);
		expect(() => objectsOf({ Number: 1 })).toThrow('with a single object instead of a list');
	});

	it('the Sync Trigger reads a wrapped list as the others do, and still refuses an object that holds none', () => {
		const T = '2026-03-01T10:00:00Z';
		expect(readJobs({ value: [{ Number: 1, ModifiedDateUtc: T }] }).records).toHaveLength(1);
		expect(() => readJobs({ Number: 1 })).toThrow(UnreadableAnswerError);
	});

	it('the webhook listing reads one registration on its own, and refuses an object without one', () => {
		expect(readRegistrationList({ id: 'a', Name: 'x' }).map((r) => r.Id)).toEqual(['a']);
		expect(() => readRegistrationList({ count: 2 })).toThrow(/instead of a list/);
	});
});
