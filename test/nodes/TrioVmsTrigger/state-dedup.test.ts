import type { IDataObject } from 'n8n-workflow';

import {
	clampWindow,
	DeliveryMemory,
	deliveryEntities,
	deliveryFingerprint,
	MAX_WINDOW,
	memoryKey,
	stableStringify,
} from '../../../nodes/TrioVmsTrigger/dedup';
import {
	firstAddressWarning,
	MAX_ADDRESS_WARNINGS,
} from '../../../nodes/TrioVmsTrigger/deliveries';
import { hashToken } from '../../../nodes/TrioVmsTrigger/deliveryToken';
import {
	looksLikeTestUrl,
	readScope,
	scopeForMode,
	scopeForRemoval,
	writeScope,
} from '../../../nodes/TrioVmsTrigger/state';

const PROD = 'https://n8n.agency.com/webhook/abc/webhook';
const TEST = 'https://n8n.agency.com/webhook-test/abc/webhook';

describe('static data layout', () => {
	it('tells test from production by n8n mode', () => {
		expect(scopeForMode('manual')).toBe('test');
		for (const mode of ['trigger', 'webhook', 'internal', 'activate', 'init'])
			expect(scopeForMode(mode)).toBe('production');
	});

	it('writes a scope as a whole and reads it back, dropping what it does not know', () => {
		const data: IDataObject = {};
		const hash = hashToken('t');
		writeScope(data, 'production', {
			webhookUrl: PROD,
			tokenHash: hash,
			ids: { 'Job Update': 'a' },
		});
		expect(data.production).toEqual({
			webhookUrl: PROD,
			tokenHash: hash,
			ids: { 'Job Update': 'a' },
		});
		expect(readScope(data, 'production')).toEqual({
			webhookUrl: PROD,
			tokenHash: hash,
			ids: { 'Job Update': 'a' },
		});
		expect(readScope(data, 'test')).toBeUndefined();
		data.test = {
			webhookUrl: TEST,
			tokenHash: hashToken('x'),
			ids: { 'Job Update': 'b', Bogus: 'c', 'Submission Update': 5 },
		};
		// Only known events with a text Id are read.
		expect(readScope(data, 'test')).toEqual({
			webhookUrl: TEST,
			tokenHash: hashToken('x'),
			ids: { 'Job Update': 'b' },
		});
		// A token kept as itself, not its hash, is not a usable scope.
		data.test = { webhookUrl: TEST, token: 'x', ids: {} };
		expect(readScope(data, 'test')).toBeUndefined();
		data.test = { webhookUrl: TEST };
		expect(readScope(data, 'test')).toBeUndefined();
		writeScope(data, 'production', undefined);
		expect(data).not.toHaveProperty('production');
	});

	it('finds the scope to remove by URL, then by the test endpoint, else production', () => {
		const data: IDataObject = {};
		writeScope(data, 'production', { webhookUrl: PROD, tokenHash: hashToken('t'), ids: {} });
		writeScope(data, 'test', { webhookUrl: TEST, tokenHash: hashToken('u'), ids: {} });
		expect(scopeForRemoval(data, TEST, 'internal')).toBe('test');
		expect(scopeForRemoval(data, PROD, 'internal')).toBe('production');
		expect(scopeForRemoval({}, TEST, 'internal')).toBe('test');
		expect(scopeForRemoval(data, 'https://new.agency.com/webhook/abc/webhook', 'internal')).toBe(
			'production',
		);
		expect(scopeForRemoval({}, PROD, 'manual')).toBe('test');
		expect(looksLikeTestUrl(TEST)).toBe(true);
		expect(looksLikeTestUrl(PROD)).toBe(false);
		expect(looksLikeTestUrl('nonsense')).toBe(false);
	});
});

describe('duplicate detection', () => {
	it('fingerprints ignore key order but not values or the event', () => {
		expect(stableStringify({ b: 1, a: [{ d: 2, c: null }] })).toBe(
			'{"a":[{"c":null,"d":2}],"b":1}',
		);
		expect(deliveryFingerprint('Job Update', { a: 1, b: 2 })).toBe(
			deliveryFingerprint('Job Update', { b: 2, a: 1 }),
		);
		expect(deliveryFingerprint('Job Update', { a: 1 })).not.toBe(
			deliveryFingerprint('Job Update', { a: 2 }),
		);
		expect(deliveryFingerprint('Job Update', { a: 1 })).not.toBe(
			deliveryFingerprint('Submission Update', { a: 1 }),
		);
	});

	it('drops a delivery seen among the last N and forgets older ones', () => {
		const memory = new DeliveryMemory();
		expect(memory.seen('k', 'one', 2)).toBe(false);
		expect(memory.seen('k', 'one', 2)).toBe(true);
		expect(memory.seen('k', 'two', 2)).toBe(false);
		expect(memory.seen('k', 'three', 2)).toBe(false);
		expect(memory.count('k')).toBe(2);
		// "one" fell out of the window of 2.
		expect(memory.seen('k', 'one', 2)).toBe(false);
		expect(memory.seen('k', 'three', 2)).toBe(true);
	});

	it('lets a legitimate repeat through: Open, On Hold, Open again with the same stamp are three changes of one job', () => {
		const memory = new DeliveryMemory();
		const open = { Number: 1001, JobStatus: 'Open', ModifiedDateUtc: '2026-11-02T10:00:00Z' };
		const onHold = { ...open, JobStatus: 'On Hold' };
		const deliver = (payload: IDataObject) =>
			memory.seen(
				'k',
				deliveryFingerprint('Job Update', payload),
				100,
				deliveryEntities('Job Update', payload),
			);
		expect(deliver(open)).toBe(false);
		expect(deliver(open)).toBe(true); // a copy of the latest state: dropped
		expect(deliver(onHold)).toBe(false);
		expect(deliver(open)).toBe(false); // open again: passes
		expect(deliver(open)).toBe(true);
		// Another job's identical state is not a copy of this one's.
		expect(deliver({ ...open, Number: 1002 })).toBe(false);
	});

	it('still drops a per diem copy sent again after a later change: each change has its own Timestamp', () => {
		const memory = new DeliveryMemory();
		const deliver = (event: string, payload: IDataObject) =>
			memory.seen('k', deliveryFingerprint(event, payload), 100, deliveryEntities(event, payload));
		const first = { Action: 'Per Diem Shift Note Changed', Id: 's1', Notes: 'a', Timestamp: 't1' };
		const second = { ...first, Notes: 'b', Timestamp: 't2' };
		expect(deliver('Per Diem Shift Note Changed', first)).toBe(false);
		expect(deliver('Per Diem Shift Note Changed', second)).toBe(false);
		expect(deliver('Per Diem Shift Note Changed', first)).toBe(true);
		expect(deliver('Per Diem Shift Note Changed', { ...first, Timestamp: 't3' })).toBe(false);
	});

	it('says which job or submission a delivery is about, and nothing for the other events', () => {
		expect(deliveryEntities('Job Update', { Number: 7 })).toEqual(['job:7']);
		expect(deliveryEntities('Submission Update', { Number: '8' })).toEqual(['submission:8']);
		expect(deliveryEntities('Per Diem Shift Assigned', { Id: 'a', Number: 3 })).toEqual([]);
		expect(deliveryEntities('Non Locums Confirmation Signed', { JobNumber: 1 })).toEqual([]);
		expect(deliveryEntities('Job Update', { Number: null })).toEqual([]);
		expect(deliveryEntities('Job Update', null)).toEqual([]);
	});

	it('keeps nodes and scopes apart', () => {
		const memory = new DeliveryMemory();
		expect(memory.seen(memoryKey('w1', 'n1', 'T', 'production'), 'x', 10)).toBe(false);
		expect(memory.seen(memoryKey('w1', 'n1', 'T', 'test'), 'x', 10)).toBe(false);
		expect(memory.seen(memoryKey('w2', 'n1', 'T', 'production'), 'x', 10)).toBe(false);
		expect(memory.seen(memoryKey('w1', 'n1', 'T', 'production'), 'x', 10)).toBe(true);
	});

	it('is bounded: N per node, a fixed number of nodes, least recently used dropped first', () => {
		const memory = new DeliveryMemory(2);
		for (let i = 0; i < 50; i++) memory.seen('a', `f${i}`, 10);
		expect(memory.count('a')).toBe(10);
		memory.seen('b', 'x', 10);
		memory.seen('a', 'y', 10);
		memory.seen('c', 'x', 10);
		expect(memory.nodes).toBe(2);
		expect(memory.count('b')).toBe(0);
		expect(memory.count('a')).toBe(10);
		memory.forget('a');
		expect(memory.count('a')).toBe(0);
	});

	it('clamps the window option', () => {
		expect(clampWindow(0)).toBe(1);
		expect(clampWindow(1e9)).toBe(MAX_WINDOW);
		expect(clampWindow('abc')).toBe(100);
		expect(clampWindow(12.7)).toBe(12);
	});
});

describe('the memory of address-change warnings (deliveries.ts)', () => {
	it('warns once per address change and stays bounded, forgetting the oldest first', () => {
		const key = (i: number) => `wf-${i}|https://old.example/${i}|https://new.example/${i}`;
		expect(firstAddressWarning(key(0))).toBe(true);
		expect(firstAddressWarning(key(0))).toBe(false);
		const newer = Array.from({ length: MAX_ADDRESS_WARNINGS }, (_, i) => key(i + 1));
		for (const each of newer) firstAddressWarning(each);
		// Every one of the newest is remembered (asking about a remembered one changes nothing)...
		expect(newer.filter((each) => firstAddressWarning(each))).toEqual([]);
		// ...and the first one was forgotten, so it is warned about once more.
		expect(firstAddressWarning(key(0))).toBe(true);
	});
});
