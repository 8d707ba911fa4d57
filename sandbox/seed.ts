/**
 * Invents realistic jobs, candidates, submissions and per diem shifts from a seeded PRNG. Each
 * kind draws from its own stream, and each item draws a fixed sequence, so the first 300 jobs
 * of a 10,000-job sandbox are the jobs of a 300-job sandbox with the same seed.
 */
import type { NamedIdentifier } from '../nodes/shared/events';
import type { Certification, Job, JobStateLicense } from '../nodes/shared/schemas';
import type { JobStatus } from '../nodes/shared/serviceFacts';
import {
	STANDARD_WITHDRAW_REASONS,
	SUBMISSION_STATUSES,
	type SubmissionStatus,
} from './service-rules';
import {
	CERTIFICATIONS,
	CITIES,
	CLIENTS,
	CLOSE_REASONS,
	COMPACT_STATES,
	DURATIONS_WEEKS,
	FACILITY_DESCRIPTIONS,
	FACILITY_PREFIXES,
	FACILITY_SUFFIXES,
	FIRST_NAMES,
	HOLD_REASONS,
	JOB_SHIFTS,
	JOB_TYPES,
	LAST_NAMES,
	ON_CALL,
	POOL_KINDS,
	PROFESSIONS,
	REJECT_REASONS,
	SHIFT_NOTES,
	SHIFT_RATE_TYPES,
	SHIFT_TYPES,
	SPECIALTY_CERTIFICATIONS,
	STREETS,
	UNIT_NAMES,
	WEEKENDS,
} from './data';
import type { City, JobTypeInfo, Profession } from './data';
import { Rng } from './random';
import { addDays, isoDateOnly, poolLocal, startOfUtcDay, ticksUtc } from './time';
import type {
	CandidateRecord,
	JobRecord,
	ProfileFileInfo,
	ShiftRecord,
	ShiftStatus,
	SubmissionRecord,
} from './types';
import { US_STATE_NAMES } from './wire';

export const FIRST_JOB_NUMBER = 100_001;
export const FIRST_CANDIDATE_NUMBER = 5_001;
export const FIRST_SUBMISSION_NUMBER = 90_001;
export const FIRST_SHIFT_NUMBER = 700_001;
const SEEDED_CANDIDATES = 50;
const SEEDED_SUBMISSIONS = 40;
const SEEDED_SHIFTS = 8;

const LOCUMS_JOB_TYPE: JobTypeInfo = { label: 'Locums', code: 6 };
const WEIGHTED_PROFESSIONS = PROFESSIONS.map((p) => [p, p.weight] as const);
const LICENSE_STATES = [...new Set(CITIES.map((c) => c.state))];
const PER_DIEM_PROFESSIONS = PROFESSIONS.filter((p) =>
	['RN', 'LPN', 'CNA', 'Respiratory Therapist'].includes(p.name),
);

function money(amount: number): string {
	return `$${amount.toLocaleString('en-US')}`;
}

function pad2(value: number): string {
	return String(value).padStart(2, '0');
}

/** A named thing keeps one GUID wherever it appears, as a real pool or facility would. */
function stableId(name: string): string {
	return Rng.derive(0, name).uuid();
}

function named(name: string): NamedIdentifier {
	return { Id: stableId(name), Name: name };
}

export interface JobOverrides {
	status?: JobStatus;
	modified?: Date;
}

export class Generator {
	constructor(private readonly rng: Rng) {}

	private phone(city: City): string {
		return `(${city.areaCode}) 555-01${pad2(this.rng.int(0, 99))}`;
	}

	private person(): { name: string; email: string } {
		const first = this.rng.pick(FIRST_NAMES);
		const last = this.rng.pick(LAST_NAMES);
		return { name: `${first} ${last}`, email: `${first}.${last}@msp.example.com`.toLowerCase() };
	}

	private facilityName(city: City): string {
		const prefix = this.rng.chance(0.25) ? city.city : this.rng.pick(FACILITY_PREFIXES);
		return `${prefix} ${this.rng.pick(FACILITY_SUFFIXES)}`;
	}

	private unitName(specialty: string): string {
		const named = UNIT_NAMES[specialty];
		if (named && this.rng.chance(0.5)) return this.rng.pick(named);
		return `${this.rng.int(2, 9)} ${this.rng.pick(['North', 'South', 'East', 'West'])} ${specialty}`;
	}

	private certifications(profession: Profession, specialty: string): Certification[] {
		const names = new Set(profession.certifications);
		if (profession.nursing) {
			for (const extra of SPECIALTY_CERTIFICATIONS[specialty] ?? []) {
				// Specialty certifications beyond the first are often "preferred", so left off.
				if (names.size < 2 || this.rng.chance(0.6)) names.add(extra);
			}
		}
		return [...names].map((name) => ({ ...CERTIFICATIONS[name] }));
	}

	private rate(
		profession: Profession,
		jobType: JobTypeInfo,
	): { description: string; internal: string | null } {
		const { unit, min, max } = profession.rate;
		if (unit === 'wk' && jobType.label === 'Per Diem') {
			const hourly = Math.round(this.rng.int(min, max) / 36);
			return {
				description: `${money(hourly)}/hr`,
				internal: this.rng.chance(0.5) ? null : `${money(Math.round(hourly * 0.78))}.00/hr`,
			};
		}
		if (unit === 'wk' && jobType.label === 'Permanent') {
			const yearly = Math.round((this.rng.int(min, max) * 40) / 1000) * 1000;
			return { description: `${money(yearly)}/yr`, internal: null };
		}
		const step = unit === 'hr' ? 5 : 25;
		const amount = Math.round(this.rng.int(min, max) / step) * step;
		const hourlyCost = unit === 'wk' ? amount / 36 : unit === 'day' ? amount / 10 : amount;
		return {
			description: `${money(amount)}/${unit}`,
			internal: this.rng.chance(0.4) ? null : `$${(hourlyCost * 0.8).toFixed(2)}/hr`,
		};
	}

	/** A full job of shape 2.3; `base` anchors StartDate and the seeded ModifiedDateUtc. */
	job(number: number, base: Date, overrides: JobOverrides = {}): JobRecord {
		const r = this.rng;
		const status =
			overrides.status ??
			r.weighted<JobStatus>([
				['Open', 70],
				['OnHold', 15],
				['Closed', 15],
			]);
		// Seeded jobs were modified over the six weeks before `base`, with random milliseconds so
		// that strictly-after comparisons are exercised at full precision.
		const modifiedOffset = r.int(3_600, 42 * 86_400) * 1000 + r.int(0, 999);
		const modified = overrides.modified ?? new Date(base.getTime() - modifiedOffset);

		const profession = r.weighted(WEIGHTED_PROFESSIONS);
		const specialty = r.pick(profession.specialties);
		const city = r.pick(CITIES);
		const stateName = US_STATE_NAMES[city.state] ?? city.state;
		const client = r.pick(CLIENTS);
		const facility = this.facilityName(city);
		const unit = this.unitName(specialty);
		const jobType = profession.locums ? LOCUMS_JOB_TYPE : r.weighted(JOB_TYPES);
		const shift = r.chance(0.08) ? null : r.weighted(JOB_SHIFTS);
		const positions = r.weighted([
			[1, 60],
			[2, 22],
			[3, 10],
			[4, 5],
			[5, 3],
		] as const);
		const openPositions = status === 'Closed' ? 0 : r.int(1, positions);
		const currentOpen =
			status === 'Closed' ? 0 : Math.max(0, openPositions - (r.chance(0.2) ? 1 : 0));
		const start = r.chance(0.1) ? null : addDays(startOfUtcDay(base), r.int(7, 70));
		const weeks = r.pick(DURATIONS_WEEKS);
		const compact = profession.nursing && COMPACT_STATES.has(city.state);
		const licensed = profession.nursing || profession.locums || r.chance(0.5);
		const stateLicenses: JobStateLicense[] = licensed
			? [{ Name: stateName, Abbreviation: city.state, IsCompat: compact }]
			: [];
		const certifications = this.certifications(profession, specialty);
		const rate = this.rate(profession, jobType);
		const manager = this.person();
		const coordinator = r.chance(0.8) ? this.person() : null;
		const facilityDescription = r.chance(0.85) ? r.pick(FACILITY_DESCRIPTIONS) : null;
		const reason =
			status === 'OnHold'
				? r.pick(HOLD_REASONS)
				: status === 'Closed'
					? r.pick(CLOSE_REASONS)
					: null;

		const duration =
			jobType.label === 'Permanent'
				? 'Permanent, full time'
				: jobType.label === 'Per Diem'
					? 'Per diem, as needed'
					: profession.locums
						? `${weeks} weeks, renewable`
						: `${weeks} weeks`;

		const job: Job = {
			Number: number,
			Title: `${jobType.label} ${profession.name} - ${specialty}${shift ? ` (${shift.short})` : ''}`,
			JobStatus: status,
			JobStatusReason: reason,
			StartDate: start ? start.toISOString().replace('.000Z', 'Z') : null,
			NumberOfPositions: positions,
			NumberOfOpenPositions: openPositions,
			ClientNumber: client.number,
			ClientName: client.name,
			UnitName: r.chance(0.9) ? unit : null,
			FacilityName: r.chance(0.95) ? facility : null,
			FacilityDescription: facilityDescription,
			// The spec lists JobType as both a string and an integer: the sandbox sends both kinds.
			JobType: r.chance(0.3) ? jobType.code : jobType.label,
			PrimaryAddress: `${r.int(100, 9800)} ${r.pick(STREETS)}`,
			AltAddress: r.chance(0.2)
				? `Building ${r.pick(['A', 'B', 'C', 'D'])}, Floor ${r.int(1, 9)}`
				: null,
			City: city.city,
			State: stateName,
			StateAbbreviation: city.state,
			ZipCode: city.zip,
			PrimaryPhone: r.chance(0.9) ? this.phone(city) : null,
			AltPhone: r.chance(0.3) ? this.phone(city) : null,
			Profession: profession.name,
			InternalRate: rate.internal,
			Description: r.chance(0.95)
				? `${facility} is seeking a ${profession.title} for its ${specialty} team.` +
					`${facilityDescription ? ` ${facilityDescription}.` : ''}` +
					`${shift ? ` Schedule: ${shift.ShiftDescription}.` : ''} EMR: ${r.pick(['Epic', 'Cerner', 'Meditech'])}.`
				: null,
			DurationDescription: duration,
			RateDescription: r.chance(0.95) ? rate.description : null,
			OnCallDescription: r.pick(ON_CALL),
			WeekendDescription: r.pick(WEEKENDS),
			LicenseDescription: profession.nursing
				? compact
					? `Active ${city.state} or multistate compact ${profession.name} license`
					: `Active ${stateName} ${profession.name} license required before start`
				: licensed
					? `${stateName} license or certification as required by the state`
					: null,
			RequirementDescription: `${r.int(1, 3)}+ years recent ${specialty} experience; ${certifications.map((c) => c.Name).join(', ')} required`,
			AllowsCompactLicense: compact,
			RelationshipManager: manager.name,
			RelationshipManagerEmail: manager.email,
			RelationshipManagerPhone: this.phone(city),
			PlacementCoordinator: coordinator?.name ?? null,
			PlacementCoordinatorEmail: coordinator?.email ?? null,
			PlacementCoordinatorPhone: coordinator ? this.phone(city) : null,
			IsLocums: profession.locums,
			Specialties:
				r.chance(0.15) && profession.specialties.length > 1
					? r.sample(profession.specialties, 2)
					: [specialty],
			Segments: profession.locums
				? ['Locums']
				: r.chance(0.1)
					? [jobType.label, 'Rapid Response']
					: [jobType.label],
			Certifications: certifications,
			StateLicenses: stateLicenses,
			Shift: shift
				? {
						ShiftDescription: shift.ShiftDescription,
						ShiftIdentifier: shift.ShiftIdentifier,
						ShiftStart: shift.ShiftStart,
						ShiftEnd: shift.ShiftEnd,
						ShiftHours: shift.ShiftHours,
					}
				: null,
			OrientationDates:
				start && r.chance(0.7)
					? `${isoDateOnly(start)} and ${isoDateOnly(addDays(start, 1))}, 08:00-16:30`
					: null,
			ModifiedDateUtc: modified.toISOString(),
		};
		return { job, currentOpenPositions: currentOpen };
	}

	candidate(number: number, base: Date): CandidateRecord {
		const r = this.rng;
		const first = r.pick(FIRST_NAMES);
		const last = r.pick(LAST_NAMES);
		const city = r.pick(CITIES);
		const local = `${first}.${last}.${number}`;
		// Some addresses are stored with capitals so that lookups must ignore case.
		const email = r.chance(0.2) ? `${local}@Example.com` : `${local}@example.com`.toLowerCase();
		const states = r.sample(LICENSE_STATES, r.int(0, 3));
		return {
			number,
			firstName: first,
			lastName: last,
			email1: email,
			phone1: r.chance(0.9) ? this.phone(city) : null,
			isNicotineFree: r.chance(0.1) ? null : r.chance(0.85),
			isAlcoholFree: r.chance(0.1) ? null : r.chance(0.9),
			stateLicenses: states.map((state) => ({
				state,
				isCompact: COMPACT_STATES.has(state) ? r.chance(0.8) : false,
				expirationDate: isoDateOnly(addDays(startOfUtcDay(base), r.int(30, 900))),
			})),
		};
	}

	profileFile(candidate: CandidateRecord, received: Date): ProfileFileInfo {
		const ext = this.rng.weighted([
			['pdf', 70],
			['docx', 20],
			['doc', 5],
			['txt', 5],
		] as const);
		const types = {
			pdf: 'application/pdf',
			docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
			doc: 'application/msword',
			txt: 'text/plain',
		};
		return {
			filename: `${candidate.lastName}_${candidate.firstName}_Profile.${ext}`,
			contentType: types[ext],
			size: this.rng.int(30_000, 900_000),
			sha256: Array.from({ length: 64 }, () => this.rng.int(0, 15).toString(16)).join(''),
			receivedUtc: received.toISOString(),
		};
	}

	submission(
		number: number,
		job: Job,
		candidate: CandidateRecord,
		status: SubmissionStatus,
		modified: Date,
	): SubmissionRecord {
		const r = this.rng;
		const reason =
			status === 'Declined' || status === 'Withdrawn'
				? r.pick(STANDARD_WITHDRAW_REASONS)
				: status === 'Rejected'
					? r.pick(REJECT_REASONS)
					: null;
		return {
			submission: {
				Number: number,
				Status: status,
				StatusCode: SUBMISSION_STATUSES[status],
				StatusReason: reason,
				JobNumber: job.Number,
				CandidateNumber: candidate.number,
				BestContactDescription: r.chance(0.7)
					? r.pick([
							'Text anytime',
							'Call after 5pm local time',
							'E-mail preferred',
							'Call or text mornings',
						])
					: null,
				BillRateAmount: r.chance(0.8) ? r.int(4_500, 9_800) / 100 : null,
				StartDate: job.StartDate,
				AvailabilityDescription: r.chance(0.7)
					? r.pick([
							'Available immediately',
							'Two weeks notice',
							'Available after current contract ends',
						])
					: null,
				DaysOffDescription: r.chance(0.4)
					? r.pick([
							'None requested',
							'Needs one weekend off in week 6',
							'Three days off for a family event',
						])
					: null,
				ExperienceDescription: r.chance(0.8)
					? `${r.int(2, 15)} years ${job.Profession}, ${job.Specialties[0] ?? 'general'} focus`
					: null,
				ModifiedDateUTC: modified.toISOString(),
			},
			description: null,
			modifyNote: null,
			agencyContacts: [],
			actionDescription: null,
			file: this.profileFile(candidate, modified),
			confirmationSignedUtc: null,
		};
	}

	staffingPool(): {
		pool: NamedIdentifier;
		client: NamedIdentifier;
		profession: string;
		specialty: string;
	} {
		const city = this.rng.pick(CITIES);
		const profession = this.rng.pick(PER_DIEM_PROFESSIONS);
		return {
			pool: named(`${city.city} ${profession.name} ${this.rng.pick(POOL_KINDS)}`),
			client: named(this.rng.pick(CLIENTS).name),
			profession: profession.name,
			specialty: this.rng.pick(profession.specialties),
		};
	}

	/** The spec allows Facility and Unit with both Id and Name null on opened shifts. */
	location(specialty: string): { facility: NamedIdentifier; unit: NamedIdentifier } {
		if (this.rng.chance(0.1))
			return { facility: { Id: null, Name: null }, unit: { Id: null, Name: null } };
		const facility = named(this.facilityName(this.rng.pick(CITIES)));
		return { facility, unit: named(this.unitName(specialty)) };
	}

	/** A shift `base`-relative in the pool's wall clock; `timestamp` is the event time. */
	shift(
		number: number,
		base: Date,
		timestamp: string,
		status: ShiftStatus = 'Open',
		candidate: NamedIdentifier | null = null,
	): ShiftRecord {
		const r = this.rng;
		const { pool, client, profession, specialty } = this.staffingPool();
		const { facility, unit } = this.location(specialty);
		const period = r.weighted([
			['Day', 50],
			['Night', 35],
			['Evening', 15],
		] as const);
		const startHour = period === 'Day' ? 7 : period === 'Night' ? 19 : 15;
		const hours = period === 'Evening' ? 8 : r.chance(0.3) ? 12.5 : 12;
		const day = addDays(startOfUtcDay(base), r.int(1, 21));
		const start = new Date(day.getTime() + startHour * 3_600_000);
		const end = new Date(start.getTime() + hours * 3_600_000);
		return {
			Id: r.uuid(),
			Number: number,
			StaffingPool: pool,
			StaffingPoolClient: client,
			Facility: facility,
			Unit: unit,
			Profession: profession,
			Specialty: specialty,
			Start: poolLocal(start),
			End: poolLocal(end),
			PeriodOfWork: r.chance(0.9) ? period : null,
			Duration: r.chance(0.9) ? hours : null,
			Status: status,
			RateType: r.pick(SHIFT_RATE_TYPES),
			ShiftType: r.pick(SHIFT_TYPES),
			Notes: r.pick(SHIFT_NOTES),
			Timestamp: timestamp,
			Candidate: candidate,
		};
	}
}

export function candidateIdentifier(candidate: CandidateRecord): NamedIdentifier {
	// Decided: the candidate's number as the NamedIdentifier Id, so flows can look the candidate up.
	return { Id: String(candidate.number), Name: `${candidate.firstName} ${candidate.lastName}` };
}

export interface SeededState {
	jobs: JobRecord[];
	candidates: CandidateRecord[];
	submissions: SubmissionRecord[];
	shifts: ShiftRecord[];
}

export function seedState(options: {
	seed: number;
	jobs: number;
	referenceDate: Date;
}): SeededState {
	const { seed, referenceDate } = options;
	const base = startOfUtcDay(referenceDate);

	const jobGenerator = new Generator(Rng.derive(seed, 'jobs'));
	const jobs: JobRecord[] = [];
	for (let i = 0; i < options.jobs; i++) jobs.push(jobGenerator.job(FIRST_JOB_NUMBER + i, base));

	const candidateGenerator = new Generator(Rng.derive(seed, 'candidates'));
	const candidates: CandidateRecord[] = [];
	for (let i = 0; i < SEEDED_CANDIDATES; i++)
		candidates.push(candidateGenerator.candidate(FIRST_CANDIDATE_NUMBER + i, base));

	const submissions: SubmissionRecord[] = [];
	if (jobs.length > 0) {
		const rng = Rng.derive(seed, 'submissions');
		const generator = new Generator(rng);
		const openJobs = jobs.filter((record) => record.job.JobStatus === 'Open');
		const pool = openJobs.length > 0 ? openJobs : jobs;
		for (let i = 0; i < SEEDED_SUBMISSIONS; i++) {
			// The first four are Offered so Accept and Decline can be tried on any seed.
			const status =
				i < 4
					? 'Offered'
					: rng.weighted<SubmissionStatus>([
							['Submitted', 30],
							['Under Review', 20],
							['Offered', 15],
							['Accepted', 10],
							['Declined', 5],
							['Withdrawn', 8],
							['Rejected', 12],
						]);
			const modified = new Date(
				base.getTime() - rng.int(3_600, 21 * 86_400) * 1000 - rng.int(0, 999),
			);
			submissions.push(
				generator.submission(
					FIRST_SUBMISSION_NUMBER + i,
					rng.pick(pool).job,
					rng.pick(candidates),
					status,
					modified,
				),
			);
		}
	}

	const shiftRng = Rng.derive(seed, 'shifts');
	const shiftGenerator = new Generator(shiftRng);
	const shifts: ShiftRecord[] = [];
	const shiftStatuses: ShiftStatus[] = [
		'Open',
		'Open',
		'Open',
		'Open',
		'Open',
		'Assigned',
		'Assigned',
		'Confirmed',
	];
	for (let i = 0; i < SEEDED_SHIFTS; i++) {
		const status = shiftStatuses[i % shiftStatuses.length];
		const candidate = status === 'Open' ? null : candidateIdentifier(shiftRng.pick(candidates));
		const timestamp = ticksUtc(new Date(base.getTime() - shiftRng.int(60, 7 * 86_400) * 1000));
		shifts.push(shiftGenerator.shift(FIRST_SHIFT_NUMBER + i, base, timestamp, status, candidate));
	}

	return { jobs, candidates, submissions, shifts };
}
