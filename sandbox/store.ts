/**
 * The sandbox's state and every rule that changes it. Both the agency API and the scenario API
 * (facility and MSP actions) go through here, so a rule and the event it fires live in one place.
 */
import type { Job } from '../nodes/shared/schemas';
import {
	OFFERED_STATUS,
	STANDARD_WITHDRAW_REASONS,
	SUBMISSION_STATUSES,
	WITHDRAWABLE_STATUSES,
	type SubmissionStatus,
} from './service-rules';
import { fieldError, fieldMessage, notFound, throwIfInvalid, validationError } from './http';
import { Rng } from './random';
import {
	candidateIdentifier,
	FIRST_CANDIDATE_NUMBER,
	FIRST_JOB_NUMBER,
	FIRST_SHIFT_NUMBER,
	FIRST_SUBMISSION_NUMBER,
	Generator,
	seedState,
} from './seed';
import { Clock, ticksUtc } from './time';
import type {
	CandidateRecord,
	JobRecord,
	ProfileFileInfo,
	Registration,
	ShiftRecord,
	SubmissionRecord,
} from './types';
import {
	isEventName,
	job as jobShape,
	type AgencyContact,
	type CandidateCreateRequest,
	type EventName,
	type SubmissionFormFields,
	type WebhookRegistrationRequest,
} from './wire';

type Emit = (event: EventName, payload: unknown) => void;

/**
 * The sandbox's withdraw reasons: the standard list plus one reason of its own, so a test can
 * tell a list loaded from the service from anything else.
 */
export const SANDBOX_WITHDRAW_REASONS: readonly string[] = [
	...STANDARD_WITHDRAW_REASONS.filter((reason) => reason !== 'Other'),
	'Candidate accepted a counter-offer',
	'Other',
];

/** Statuses the facility (scenario API) may set; the agency's own outcomes go through the API. */
const FACILITY_STATUSES: readonly SubmissionStatus[] = ['Under Review', 'Offered', 'Rejected'];

const JOB_FIELDS = new Set(Object.keys(jobShape.shape));
/** Fields a PATCH may not touch, and what to use instead. */
const JOB_MANAGED_FIELDS: Record<string, string> = {
	Number: "is the job's identity and cannot change",
	JobStatus: 'changes only through POST /_sandbox/jobs/{number}/hold, /close or /reopen',
	ModifiedDateUtc: 'is set by the sandbox on every change',
	NumberOfCurrentOpenPositions: 'changes only through POST /_sandbox/jobs/{number}/open-positions',
};

export interface StoreOptions {
	seed: number;
	jobs: number;
	referenceDate?: Date;
	allowHttpWebhooks: boolean;
	emit: Emit;
}

export type JobListItem = Job & { NumberOfCurrentOpenPositions: number };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function isLoopbackHost(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

export class Store {
	readonly jobs = new Map<number, JobRecord>();
	readonly candidates = new Map<number, CandidateRecord>();
	readonly submissions = new Map<number, SubmissionRecord>();
	readonly registrations = new Map<string, Registration>();
	readonly shifts = new Map<string, ShiftRecord>();
	readonly clock = new Clock();

	seed = 1;
	jobCount = 0;
	/** Draws runtime inventions (new jobs, shifts, ids) so a scripted scenario replays identically. */
	generator!: Generator;
	rng!: Rng;
	private nextJobNumber = FIRST_JOB_NUMBER;
	private nextCandidateNumber = FIRST_CANDIDATE_NUMBER;
	private nextSubmissionNumber = FIRST_SUBMISSION_NUMBER;
	nextShiftNumber = FIRST_SHIFT_NUMBER;

	constructor(private readonly options: StoreOptions) {
		this.reset({ seed: options.seed, jobs: options.jobs });
	}

	reset(options: { seed: number; jobs: number; keepWebhooks?: boolean }): void {
		this.seed = options.seed;
		this.jobCount = options.jobs;
		this.clock.set({ offsetMs: 0, frozenAt: null });
		const seeded = seedState({
			seed: options.seed,
			jobs: options.jobs,
			referenceDate: this.options.referenceDate ?? new Date(),
		});
		this.jobs.clear();
		this.candidates.clear();
		this.submissions.clear();
		this.shifts.clear();
		if (!options.keepWebhooks) this.registrations.clear();
		for (const record of seeded.jobs) this.jobs.set(record.job.Number, record);
		for (const record of seeded.candidates) this.candidates.set(record.number, record);
		for (const record of seeded.submissions) this.submissions.set(record.submission.Number, record);
		for (const record of seeded.shifts) this.shifts.set(record.Id, record);
		this.nextJobNumber = FIRST_JOB_NUMBER + seeded.jobs.length;
		this.nextCandidateNumber = FIRST_CANDIDATE_NUMBER + seeded.candidates.length;
		this.nextSubmissionNumber = FIRST_SUBMISSION_NUMBER + seeded.submissions.length;
		this.nextShiftNumber = FIRST_SHIFT_NUMBER + seeded.shifts.length;
		this.rng = Rng.derive(options.seed, 'runtime');
		this.generator = new Generator(this.rng);
	}

	emit(event: EventName, payload: unknown): void {
		this.options.emit(event, payload);
	}

	/** Per diem Timestamp: now, with .NET's seven fractional digits. */
	timestamp(): string {
		return ticksUtc(this.clock.now(), (performance.now() % 1) * 10_000);
	}

	// ------------------------------------------------------------ jobs

	listJobs(modifiedAfter?: Date): JobListItem[] {
		const result: JobListItem[] = [];
		for (const record of this.jobs.values()) {
			if (record.job.JobStatus === 'Closed') continue;
			if (
				modifiedAfter &&
				!(
					record.job.ModifiedDateUtc &&
					Date.parse(record.job.ModifiedDateUtc) > modifiedAfter.getTime()
				)
			)
				continue;
			result.push(listItem(record));
		}
		return result.sort((a, b) => a.Number - b.Number);
	}

	job(number: number, field = 'number'): JobRecord {
		const record = this.jobs.get(number);
		if (!record) throw notFound(`Job ${number} was not found.`, field);
		return record;
	}

	/** One job as a list item would show it, whatever its status. */
	jobListItem(number: number): JobListItem {
		return listItem(this.job(number));
	}

	/** The facility opens a job: given fields over a generated one; fires Job Update. */
	createJob(fields: Record<string, unknown>): Job {
		const errors: Record<string, string[]> = {};
		for (const key of Object.keys(fields)) {
			if (!JOB_FIELDS.has(key))
				errors[key] = [fieldMessage(key, 'is not a field of the job shape (spec 2.3)')];
		}
		for (const key of ['JobStatus', 'ModifiedDateUtc']) {
			if (key in fields)
				errors[key] = [fieldMessage(key, `${JOB_MANAGED_FIELDS[key]}; a new job is always Open`)];
		}
		let number = this.nextJobNumber;
		if (fields.Number !== undefined) {
			if (!Number.isSafeInteger(fields.Number) || (fields.Number as number) <= 0)
				errors.Number = [fieldMessage('Number', 'must be a positive whole number')];
			else if (this.jobs.has(fields.Number as number))
				errors.Number = [fieldMessage('Number', `${fields.Number} is already taken`)];
			else number = fields.Number as number;
		}
		if (Object.keys(errors).length > 0) throw validationError(errors);

		const now = this.clock.now();
		const { NumberOfCurrentOpenPositions, ...rest } = fields;
		const generated = this.generator.job(number, now, { status: 'Open', modified: now });
		const job = { ...generated.job, ...rest, Number: number } as Job;
		throwIfInvalid(jobShape.safeParse(job));
		const current =
			NumberOfCurrentOpenPositions === undefined
				? job.NumberOfOpenPositions
				: NumberOfCurrentOpenPositions;
		if (!Number.isSafeInteger(current) || (current as number) < 0)
			throw fieldError('NumberOfCurrentOpenPositions', 'must be a whole number, 0 or more');

		const record: JobRecord = { job, currentOpenPositions: current as number };
		this.jobs.set(number, record);
		this.nextJobNumber = Math.max(this.nextJobNumber, number + 1);
		this.emit('Job Update', record.job);
		return record.job;
	}

	/** Changes fields and moves ModifiedDateUtc; Job Update fires only while the job is Open. */
	updateJob(number: number, patch: Record<string, unknown>): Job {
		const record = this.job(number);
		const errors: Record<string, string[]> = {};
		for (const key of Object.keys(patch)) {
			if (JOB_MANAGED_FIELDS[key]) errors[key] = [fieldMessage(key, JOB_MANAGED_FIELDS[key])];
			else if (!JOB_FIELDS.has(key))
				errors[key] = [fieldMessage(key, 'is not a field of the job shape (spec 2.3)')];
		}
		if (Object.keys(patch).length === 0)
			errors.$ = ['The body must name at least one job field to change.'];
		if (Object.keys(errors).length > 0) throw validationError(errors);

		const next = {
			...record.job,
			...patch,
			ModifiedDateUtc: this.clock.now().toISOString(),
		} as Job;
		throwIfInvalid(jobShape.safeParse(next));
		record.job = next;
		if (next.JobStatus === 'Open') this.emit('Job Update', next);
		return next;
	}

	/**
	 * Decided: putting a job on hold is none of the spec's three Job Update triggers, so it fires
	 * nothing; ModifiedDateUtc moves so that synchronisation still sees the change.
	 */
	holdJob(number: number, reason?: string): Job {
		const record = this.job(number);
		if (record.job.JobStatus !== 'Open')
			throw fieldError(
				'number',
				`job ${number} is ${record.job.JobStatus}; only an Open job can be put on hold`,
			);
		return this.setJobStatus(record, 'OnHold', reason ?? 'On hold by facility', false);
	}

	closeJob(number: number, reason?: string): Job {
		const record = this.job(number);
		if (record.job.JobStatus === 'Closed')
			throw fieldError('number', `job ${number} is already Closed`);
		return this.setJobStatus(record, 'Closed', reason ?? 'Closed by facility', true);
	}

	/** Opening a job again counts as "a job is opened": Job Update fires. */
	reopenJob(number: number, reason?: string): Job {
		const record = this.job(number);
		if (record.job.JobStatus === 'Open')
			throw fieldError('number', `job ${number} is already Open`);
		return this.setJobStatus(record, 'Open', reason ?? null, true);
	}

	private setJobStatus(
		record: JobRecord,
		status: string,
		reason: string | null,
		fire: boolean,
	): Job {
		record.job = {
			...record.job,
			JobStatus: status,
			JobStatusReason: reason,
			ModifiedDateUtc: this.clock.now().toISOString(),
		};
		if (fire) this.emit('Job Update', record.job);
		return record.job;
	}

	/** Spec 2.3: this count moves neither ModifiedDateUtc nor fires an event. */
	setCurrentOpenPositions(number: number, count: unknown): JobListItem {
		const record = this.job(number);
		if (!Number.isSafeInteger(count) || (count as number) < 0)
			throw fieldError('count', 'must be a whole number, 0 or more');
		if ((count as number) > record.job.NumberOfPositions) {
			throw fieldError(
				'count',
				`must not exceed the job's NumberOfPositions (${record.job.NumberOfPositions})`,
			);
		}
		record.currentOpenPositions = count as number;
		return listItem(record);
	}

	// ------------------------------------------------------------ candidates

	findCandidates(email: string): CandidateRecord[] {
		const wanted = email.trim().toLowerCase();
		return [...this.candidates.values()].filter(
			(candidate) => candidate.email1.trim().toLowerCase() === wanted,
		);
	}

	candidate(number: number, field = 'CandidateNumber'): CandidateRecord {
		const record = this.candidates.get(number);
		if (!record) throw notFound(`Candidate ${number} was not found.`, field);
		return record;
	}

	/** Decided: a second candidate with an e-mail already on file is allowed (the spec is silent). */
	createCandidate(input: CandidateCreateRequest): CandidateRecord {
		const record: CandidateRecord = {
			number: this.nextCandidateNumber++,
			firstName: input.firstName,
			lastName: input.lastName,
			email1: input.email1,
			phone1: input.phone1 ?? null,
			isNicotineFree: input.isNicotineFree ?? null,
			isAlcoholFree: input.isAlcoholFree ?? null,
			stateLicenses: (input.stateLicenses ?? []).map((license) => ({
				state: license.state,
				isCompact: license.isCompact ?? null,
				expirationDate: license.expirationDate ?? null,
			})),
		};
		this.candidates.set(record.number, record);
		return record;
	}

	// ------------------------------------------------------------ submissions

	listSubmissions(modifiedAfter?: Date): Array<SubmissionRecord['submission']> {
		return [...this.submissions.values()]
			.filter(
				(record) =>
					!modifiedAfter || Date.parse(record.submission.ModifiedDateUTC) > modifiedAfter.getTime(),
			)
			.map((record) => ({ ...record.submission }))
			.sort((a, b) => a.Number - b.Number);
	}

	submission(number: number, field = 'submissionNumber'): SubmissionRecord {
		const record = this.submissions.get(number);
		if (!record) throw notFound(`Submission ${number} was not found.`, field);
		return record;
	}

	/**
	 * Decided: creating a submission fires no Submission Update (no status changed; the agency
	 * has the answer), and the same candidate may be submitted to the same job more than once so
	 * that a client's accidental re-send stays visible.
	 */
	createSubmission(fields: SubmissionFormFields, file: ProfileFileInfo): SubmissionRecord {
		const job = this.job(fields.JobNumber, 'JobNumber');
		this.candidate(fields.CandidateNumber, 'CandidateNumber');
		if (job.job.JobStatus !== 'Open') {
			throw fieldError(
				'JobNumber',
				`job ${fields.JobNumber} is ${job.job.JobStatus}; only Open jobs accept submissions`,
			);
		}
		const record: SubmissionRecord = {
			submission: {
				Number: this.nextSubmissionNumber++,
				Status: 'Submitted',
				StatusCode: SUBMISSION_STATUSES.Submitted,
				StatusReason: null,
				JobNumber: fields.JobNumber,
				CandidateNumber: fields.CandidateNumber,
				BestContactDescription: fields.BestContactDescription ?? null,
				BillRateAmount: fields.BillRateAmount ?? null,
				StartDate: fields.StartDate ?? null,
				AvailabilityDescription: fields.AvailabilityDescription ?? null,
				DaysOffDescription: fields.DaysOffDescription ?? null,
				ExperienceDescription: fields.ExperienceDescription ?? null,
				ModifiedDateUTC: this.clock.now().toISOString(),
			},
			description: fields.Description ?? null,
			modifyNote: fields.ModifyNote ?? null,
			agencyContacts: (fields.AgencyContacts ?? []) as AgencyContact[],
			actionDescription: null,
			file,
			confirmationSignedUtc: null,
		};
		this.submissions.set(record.submission.Number, record);
		return record;
	}

	accept(number: number, reason?: string): SubmissionRecord {
		const record = this.submission(number);
		this.requireStatus(record, [OFFERED_STATUS], 'accepted');
		return this.setSubmissionStatus(record, 'Accepted', reason?.trim() ? reason : null);
	}

	decline(number: number, reason: string, description?: string): SubmissionRecord {
		const record = this.submission(number);
		this.requireWithdrawReason(reason);
		this.requireStatus(record, [OFFERED_STATUS], 'declined');
		record.actionDescription = description ?? null;
		return this.setSubmissionStatus(record, 'Declined', reason);
	}

	withdraw(number: number, reason: string, description?: string): SubmissionRecord {
		const record = this.submission(number);
		this.requireWithdrawReason(reason);
		this.requireStatus(record, WITHDRAWABLE_STATUSES, 'withdrawn');
		record.actionDescription = description ?? null;
		return this.setSubmissionStatus(record, 'Withdrawn', reason);
	}

	/** The facility moves a submission on (review, offer, rejection); terminal ones stay put. */
	facilityStatus(number: number, status: unknown, reason?: unknown): SubmissionRecord {
		const record = this.submission(number, 'number');
		if (typeof status !== 'string' || !FACILITY_STATUSES.includes(status as SubmissionStatus)) {
			throw fieldError(
				'status',
				`must be one of ${FACILITY_STATUSES.join(', ')} (the agency's own outcomes go through the API)`,
			);
		}
		if (reason !== undefined && reason !== null && typeof reason !== 'string')
			throw fieldError('reason', 'must be a string');
		if (record.submission.Status === status)
			throw fieldError('status', `submission ${number} is already ${status}`);
		this.requireStatus(record, WITHDRAWABLE_STATUSES, `moved to ${status}`, 'status');
		return this.setSubmissionStatus(
			record,
			status as SubmissionStatus,
			(reason as string | undefined) ?? null,
		);
	}

	/**
	 * Non Locums Confirmation Signed (decided): the clinician of an Accepted submission on a
	 * non-locums job signs the placement confirmation, once. The status does not change.
	 */
	signConfirmation(number: number, signedBy?: unknown): Record<string, unknown> {
		const record = this.submission(number, 'number');
		if (signedBy !== undefined && signedBy !== null && typeof signedBy !== 'string')
			throw fieldError('signedBy', 'must be a string or null');
		if (record.submission.Status !== 'Accepted') {
			throw fieldError(
				'number',
				`submission ${number} is ${record.submission.Status}; only an Accepted placement has a confirmation to sign`,
			);
		}
		const job = this.jobs.get(record.submission.JobNumber);
		if (job?.job.IsLocums)
			throw fieldError(
				'number',
				`job ${record.submission.JobNumber} is a locums job; this event is for non-locums placements`,
			);
		if (record.confirmationSignedUtc)
			throw fieldError(
				'number',
				`the confirmation of submission ${number} was already signed at ${record.confirmationSignedUtc}`,
			);
		const candidate = this.candidates.get(record.submission.CandidateNumber);
		const signed = this.clock.now();
		record.confirmationSignedUtc = signed.toISOString();
		const payload = {
			Action: 'Non Locums Confirmation Signed',
			SubmissionNumber: record.submission.Number,
			JobNumber: record.submission.JobNumber,
			CandidateNumber: record.submission.CandidateNumber,
			SignedBy:
				signedBy === undefined
					? candidate
						? candidateIdentifier(candidate).Name
						: null
					: (signedBy as string | null),
			SignedDateUtc: signed.toISOString(),
			Timestamp: this.timestamp(),
		};
		this.emit('Non Locums Confirmation Signed', payload);
		return payload;
	}

	private requireWithdrawReason(reason: string): void {
		if (!SANDBOX_WITHDRAW_REASONS.includes(reason)) {
			throw fieldError(
				'reason',
				`must be one of the withdraw reasons (GET /api/v3/Submission/WithdrawReasons); '${reason}' is not`,
			);
		}
	}

	private requireStatus(
		record: SubmissionRecord,
		allowed: readonly SubmissionStatus[],
		verb: string,
		field = 'submissionNumber',
	): void {
		const { Number: number, Status: status } = record.submission;
		if (!allowed.includes(status)) {
			throw fieldError(
				field,
				`submission ${number} is ${status}; only a submission that is ${allowed.join(', ')} can be ${verb}`,
			);
		}
	}

	private setSubmissionStatus(
		record: SubmissionRecord,
		status: SubmissionStatus,
		reason: string | null,
	): SubmissionRecord {
		record.submission = {
			...record.submission,
			Status: status,
			StatusCode: SUBMISSION_STATUSES[status],
			StatusReason: reason,
			ModifiedDateUTC: this.clock.now().toISOString(),
		};
		this.emit('Submission Update', record.submission);
		return record;
	}

	// ------------------------------------------------------------ webhook registrations

	listRegistrations(): Registration[] {
		return [...this.registrations.values()].map((registration) => ({
			...registration,
			Events: [...registration.Events],
		}));
	}

	saveRegistration(request: WebhookRegistrationRequest): Registration {
		const errors: Record<string, string[]> = {};
		const url = new URL(request.Url);
		const loopback = isLoopbackHost(url.hostname);
		if (
			url.protocol !== 'https:' &&
			!(url.protocol === 'http:' && (loopback || this.options.allowHttpWebhooks))
		) {
			errors.Url = [
				fieldMessage(
					'Url',
					`must be an https:// address (http:// is accepted only for 127.0.0.1 and localhost in the sandbox); got ${url.protocol}//${url.host}`,
				),
			];
		}
		request.Events.forEach((event, index) => {
			if (!isEventName(event)) {
				errors[`Events[${index}]`] = [
					fieldMessage(
						`Events[${index}]`,
						`'${event}' is not an event name; GET /api/v3/Webhooks/Events lists them`,
					),
				];
			}
		});
		if (Object.keys(errors).length > 0) throw validationError(errors);

		if (request.Id !== undefined && !this.registrations.has(request.Id)) {
			throw notFound(`Webhook registration ${request.Id} was not found.`, 'Id');
		}
		const registration: Registration = {
			Id: request.Id ?? this.rng.uuid(),
			Name: request.Name,
			Url: request.Url,
			Events: [...new Set(request.Events)],
			IsActive: request.IsActive,
		};
		this.registrations.set(registration.Id, registration);
		return { ...registration, Events: [...registration.Events] };
	}
}

/** A list item: the job shape with NumberOfCurrentOpenPositions right after NumberOfOpenPositions. */
function listItem(record: JobRecord): JobListItem {
	const item: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(record.job)) {
		item[key] = value;
		if (key === 'NumberOfOpenPositions')
			item.NumberOfCurrentOpenPositions = record.currentOpenPositions;
	}
	return item as JobListItem;
}
