/**
 * Per diem shifts, driven by the scenario API (the spec gives the agency no per diem endpoint).
 * The status rules are decided, the spec shows only the statuses seen in events:
 *   Open -assign-> Assigned -confirm-> Confirmed
 *   Assigned|Confirmed -cancel-> Cancelled        Open -remove-> Removed
 *   Assigned|Confirmed -release-> Open            Assigned -decline-> Open
 *   staffing pool, location, time, rate and note change while Open, Assigned or Confirmed.
 */
import { z } from 'zod/v3';

import type { NamedIdentifier } from '../nodes/shared/events';
import { fieldError, fieldMessage, notFound, throwIfInvalid, validationError } from './http';
import { candidateIdentifier } from './seed';
import type { Store } from './store';
import { parsePoolLocal } from './time';
import type { ShiftRecord, ShiftStatus } from './types';
import { namedIdentifier, openedShift } from './wire';

const ACTIVE: readonly ShiftStatus[] = ['Open', 'Assigned', 'Confirmed'];
const HELD: readonly ShiftStatus[] = ['Assigned', 'Confirmed'];
const OPEN_LIMIT = 500;
const OPENED_FIELDS = new Set(
	Object.keys(openedShift.shape).filter((key) => key !== 'Status' && key !== 'Timestamp'),
);

function rejectUnknown(
	body: Record<string, unknown>,
	allowed: readonly string[],
	prefix = '',
): void {
	const errors: Record<string, string[]> = {};
	for (const key of Object.keys(body)) {
		if (!allowed.includes(key))
			errors[`${prefix}${key}`] = [
				fieldMessage(
					`${prefix}${key}`,
					`is not accepted here; use ${allowed.join(', ') || 'no fields'}`,
				),
			];
	}
	if (Object.keys(errors).length > 0) throw validationError(errors);
}

function poolLocalField(value: unknown, field: string): string {
	if (typeof value !== 'string' || !parsePoolLocal(value)) {
		throw fieldError(
			field,
			"must be a pool-local date-time without offset, such as 2026-03-01T07:00:00 (the staffing pool's wall clock)",
		);
	}
	return value;
}

export class PerDiem {
	constructor(private readonly store: Store) {}

	list(): ShiftRecord[] {
		return [...this.store.shifts.values()].map((shift) => ({ ...shift }));
	}

	shift(id: string): ShiftRecord {
		const shift = this.store.shifts.get(id);
		if (!shift) throw notFound(`Per diem shift ${id} was not found.`, 'id');
		return shift;
	}

	/** Opens several shifts at once: one Opened delivery carries them all in Items. */
	open(body: Record<string, unknown>): ShiftRecord[] {
		rejectUnknown(body, ['count', 'shifts']);
		const given = body.shifts;
		if (given !== undefined && (!Array.isArray(given) || given.length === 0))
			throw fieldError('shifts', 'must be a non-empty array of shift fields');
		const count = body.count ?? (Array.isArray(given) ? given.length : 1);
		if (!Number.isSafeInteger(count) || (count as number) < 1 || (count as number) > OPEN_LIMIT)
			throw fieldError('count', `must be a whole number from 1 to ${OPEN_LIMIT}`);
		const partials = (given as unknown[] | undefined) ?? [];
		if (partials.length > (count as number))
			throw fieldError('count', `is smaller than the ${partials.length} shifts given`);

		const now = this.store.clock.now();
		const timestamp = this.store.timestamp();
		const created: ShiftRecord[] = [];
		const errors: Record<string, string[]> = {};
		const ids = new Set<string>();
		for (let index = 0; index < (count as number); index++) {
			const partial = partials[index] ?? {};
			const prefix = `shifts[${index}].`;
			if (!partial || typeof partial !== 'object' || Array.isArray(partial)) {
				errors[`shifts[${index}]`] = [
					fieldMessage(`shifts[${index}]`, 'must be an object of shift fields'),
				];
				continue;
			}
			const fields = partial as Record<string, unknown>;
			try {
				rejectUnknown(fields, [...OPENED_FIELDS], prefix);
				if ('Start' in fields) poolLocalField(fields.Start, `${prefix}Start`);
				if ('End' in fields) poolLocalField(fields.End, `${prefix}End`);
				const generated = this.store.generator.shift(this.store.nextShiftNumber, now, timestamp);
				const shift = {
					...generated,
					...fields,
					Status: 'Open',
					Timestamp: timestamp,
					Candidate: null,
				} as ShiftRecord;
				throwIfInvalid(openedShift.safeParse(openedItem(shift)), prefix.slice(0, -1));
				if (this.store.shifts.has(shift.Id) || ids.has(shift.Id))
					throw fieldError(`${prefix}Id`, `${shift.Id} is already taken`);
				ids.add(shift.Id);
				this.store.nextShiftNumber++;
				created.push(shift);
			} catch (error) {
				const problem = (error as { errors?: Record<string, string[]> }).errors;
				if (!problem) throw error;
				Object.assign(errors, problem);
			}
		}
		if (Object.keys(errors).length > 0) throw validationError(errors);
		for (const shift of created) this.store.shifts.set(shift.Id, shift);
		this.store.emit('Per Diem Shift Opened', {
			Action: 'Per Diem Shift Opened',
			Items: created.map(openedItem),
		});
		return created;
	}

	assign(id: string, body: Record<string, unknown>): ShiftRecord {
		rejectUnknown(body, ['candidate']);
		const shift = this.requireStatus(id, ['Open'], 'assigned');
		let candidate: NamedIdentifier;
		if (body.candidate === undefined) {
			candidate = candidateIdentifier(this.store.rng.pick([...this.store.candidates.values()]));
		} else if (typeof body.candidate === 'number') {
			candidate = candidateIdentifier(this.store.candidate(body.candidate, 'candidate'));
		} else {
			candidate = throwIfInvalid(
				namedIdentifier.safeParse(body.candidate),
				'candidate',
			) as NamedIdentifier;
		}
		this.change(shift, { Status: 'Assigned', Candidate: candidate });
		this.store.emit('Per Diem Shift Assigned', {
			Action: 'Per Diem Shift Assigned',
			Id: shift.Id,
			Candidate: candidate,
			Status: shift.Status,
			Timestamp: shift.Timestamp,
		});
		return shift;
	}

	confirm(id: string): ShiftRecord {
		const shift = this.requireStatus(id, ['Assigned'], 'confirmed');
		this.change(shift, { Status: 'Confirmed' });
		this.store.emit('Per Diem Shift Confirmed', {
			Action: 'Per Diem Shift Confirmed',
			Id: shift.Id,
			Candidate: shift.Candidate,
			Status: shift.Status,
			Timestamp: shift.Timestamp,
		});
		return shift;
	}

	/** All or nothing: one shift that cannot be cancelled leaves every shift as it was. */
	cancel(body: Record<string, unknown>): ShiftRecord[] {
		rejectUnknown(body, ['ids']);
		const ids = body.ids;
		if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string')) {
			throw fieldError('ids', 'must be a non-empty array of shift ids');
		}
		const errors: Record<string, string[]> = {};
		const shifts: ShiftRecord[] = [];
		(ids as string[]).forEach((id, index) => {
			const shift = this.store.shifts.get(id);
			const field = `ids[${index}]`;
			if (!shift) throw notFound(`Per diem shift ${id} was not found.`, field);
			if (!HELD.includes(shift.Status))
				errors[field] = [
					fieldMessage(
						field,
						`shift ${id} is ${shift.Status}; only Assigned or Confirmed shifts can be cancelled`,
					),
				];
			shifts.push(shift);
		});
		if (Object.keys(errors).length > 0) throw validationError(errors);
		const unique = [...new Set(shifts)];
		const timestamp = this.store.timestamp();
		for (const shift of unique) Object.assign(shift, { Status: 'Cancelled', Timestamp: timestamp });
		this.store.emit('Per Diem Shift Cancelled', {
			Action: 'Per Diem Shift Cancelled',
			Items: unique.map((shift) => ({
				Id: shift.Id,
				Status: shift.Status,
				Timestamp: shift.Timestamp,
			})),
		});
		return unique;
	}

	remove(id: string): ShiftRecord {
		const shift = this.requireStatus(id, ['Open'], 'removed');
		this.change(shift, { Status: 'Removed' });
		this.store.emit('Per Diem Shift Removed', {
			Action: 'Per Diem Shift Removed',
			Id: shift.Id,
			Timestamp: shift.Timestamp,
		});
		return shift;
	}

	release(id: string): ShiftRecord {
		return this.giveBack(id, HELD, 'released', 'Per Diem Shift Released');
	}

	decline(id: string): ShiftRecord {
		return this.giveBack(id, ['Assigned'], 'declined', 'Per Diem Shift Declined');
	}

	/** The clinician lets go of the shift: it is Open again and the event names who let go. */
	private giveBack(
		id: string,
		from: readonly ShiftStatus[],
		verb: string,
		event: 'Per Diem Shift Released' | 'Per Diem Shift Declined',
	): ShiftRecord {
		const shift = this.requireStatus(id, from, verb);
		const candidate = shift.Candidate ?? { Id: null, Name: null };
		this.change(shift, { Status: 'Open', Candidate: null });
		this.store.emit(event, {
			Action: event,
			Id: shift.Id,
			Candidate: candidate,
			Timestamp: shift.Timestamp,
		});
		return shift;
	}

	changeStaffingPool(id: string, body: Record<string, unknown>): ShiftRecord {
		rejectUnknown(body, ['StaffingPool', 'StaffingPoolClient', 'Profession', 'Specialty']);
		const shift = this.requireStatus(id, ACTIVE, 'changed');
		const generated = this.store.generator.staffingPool();
		const changes = throwIfInvalid(
			z
				.object({
					StaffingPool: namedIdentifier,
					StaffingPoolClient: namedIdentifier,
					Profession: z.string().min(1),
					Specialty: z.string().min(1),
				})
				.safeParse({
					StaffingPool: generated.pool,
					StaffingPoolClient: generated.client,
					Profession: generated.profession,
					Specialty: generated.specialty,
					...body,
				}),
		);
		this.change(shift, changes as Partial<ShiftRecord>);
		this.store.emit('Per Diem Shift Staffing Pool Changed', {
			Action: 'Per Diem Shift Staffing Pool Changed',
			Id: shift.Id,
			StaffingPool: shift.StaffingPool,
			StaffingPoolClient: shift.StaffingPoolClient,
			Profession: shift.Profession,
			Specialty: shift.Specialty,
			Timestamp: shift.Timestamp,
		});
		return shift;
	}

	changeLocation(id: string, body: Record<string, unknown>): ShiftRecord {
		rejectUnknown(body, ['Facility', 'Unit']);
		const shift = this.requireStatus(id, ACTIVE, 'changed');
		const generated = this.store.generator.location(shift.Specialty);
		const changes = throwIfInvalid(
			z
				.object({ Facility: namedIdentifier, Unit: namedIdentifier })
				.safeParse({ Facility: generated.facility, Unit: generated.unit, ...body }),
		);
		this.change(shift, changes as Partial<ShiftRecord>);
		this.store.emit('Per Diem Shift Location Changed', {
			Action: 'Per Diem Shift Location Changed',
			Id: shift.Id,
			Facility: shift.Facility,
			Unit: shift.Unit,
			Timestamp: shift.Timestamp,
		});
		return shift;
	}

	/** Times are the pool's wall clock and are stored and sent exactly as given. */
	changeTime(id: string, body: Record<string, unknown>): ShiftRecord {
		rejectUnknown(body, ['start', 'end']);
		const shift = this.requireStatus(id, ACTIVE, 'changed');
		if (body.start === undefined && body.end === undefined)
			throw fieldError('start', 'or end is required');
		const start = body.start === undefined ? shift.Start : poolLocalField(body.start, 'start');
		const end = body.end === undefined ? shift.End : poolLocalField(body.end, 'end');
		const hours =
			((parsePoolLocal(end)?.getTime() ?? 0) - (parsePoolLocal(start)?.getTime() ?? 0)) / 3_600_000;
		if (hours <= 0) throw fieldError('end', `must be after start (${start})`);
		this.change(shift, {
			Start: start,
			End: end,
			Duration: shift.Duration === null ? null : hours,
		});
		this.store.emit('Per Diem Shift Time Changed', {
			Action: 'Per Diem Shift Time Changed',
			Id: shift.Id,
			Start: shift.Start,
			End: shift.End,
			Timestamp: shift.Timestamp,
		});
		return shift;
	}

	changeRate(id: string, body: Record<string, unknown>): ShiftRecord {
		rejectUnknown(body, ['rateType']);
		const shift = this.requireStatus(id, ACTIVE, 'changed');
		if (typeof body.rateType !== 'string' || body.rateType.trim() === '')
			throw fieldError('rateType', 'is required, e.g. Premium');
		this.change(shift, { RateType: body.rateType });
		this.store.emit('Per Diem Shift Rate Changed', {
			Action: 'Per Diem Shift Rate Changed',
			Id: shift.Id,
			RateType: shift.RateType,
			Timestamp: shift.Timestamp,
		});
		return shift;
	}

	changeNote(id: string, body: Record<string, unknown>): ShiftRecord {
		rejectUnknown(body, ['notes']);
		const shift = this.requireStatus(id, ACTIVE, 'changed');
		if (!('notes' in body) || (body.notes !== null && typeof body.notes !== 'string'))
			throw fieldError('notes', 'is required: a string, or null to clear the note');
		this.change(shift, { Notes: body.notes as string | null });
		this.store.emit('Per Diem Shift Note Changed', {
			Action: 'Per Diem Shift Note Changed',
			Id: shift.Id,
			Notes: shift.Notes,
			Timestamp: shift.Timestamp,
		});
		return shift;
	}

	private requireStatus(id: string, allowed: readonly ShiftStatus[], verb: string): ShiftRecord {
		const shift = this.shift(id);
		if (!allowed.includes(shift.Status))
			throw fieldError(
				'id',
				`shift ${id} is ${shift.Status}; only a shift that is ${allowed.join(' or ')} can be ${verb}`,
			);
		return shift;
	}

	private change(shift: ShiftRecord, changes: Partial<ShiftRecord>): void {
		Object.assign(shift, changes, { Timestamp: this.store.timestamp() });
	}
}

/** The Opened item: every field of the shift except the sandbox's own Candidate bookkeeping. */
function openedItem(shift: ShiftRecord): Record<string, unknown> {
	const { Candidate: _candidate, ...item } = shift;
	return item;
}
