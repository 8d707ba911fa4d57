import type { NamedIdentifier } from '../nodes/shared/events';
import type { Job, Submission } from '../nodes/shared/schemas';
import type { SubmissionStatus } from './service-rules';
import type { AgencyContact } from './wire';

export interface JobRecord {
	/** Exactly the shape of GET /Job/{number} and of the Job Update payload. */
	job: Job;
	/** Kept apart: it appears only on list items and moves neither ModifiedDateUtc nor events. */
	currentOpenPositions: number;
}

interface CandidateStateLicenseRecord {
	state: string;
	isCompact: boolean | null;
	expirationDate: string | null;
}

/** The decided candidate response: the creation fields in camelCase plus `number`. */
export interface CandidateRecord {
	number: number;
	firstName: string;
	lastName: string;
	email1: string;
	phone1: string | null;
	isNicotineFree: boolean | null;
	isAlcoholFree: boolean | null;
	stateLicenses: CandidateStateLicenseRecord[];
}

export interface ProfileFileInfo {
	filename: string;
	contentType: string;
	size: number;
	sha256: string;
	receivedUtc: string;
}

export interface SubmissionRecord {
	/** Shape 2.2, what the API answers and the Submission Update payload carries. */
	submission: Submission & { Status: SubmissionStatus };
	/** Received on create but not part of shape 2.2; visible through the scenario API only. */
	description: string | null;
	modifyNote: string | null;
	agencyContacts: AgencyContact[];
	/** Last free-text description given with a decline or withdraw. */
	actionDescription: string | null;
	file: ProfileFileInfo | null;
	confirmationSignedUtc: string | null;
}

export type ShiftStatus = 'Open' | 'Assigned' | 'Confirmed' | 'Cancelled' | 'Removed';

export interface ShiftRecord {
	Id: string;
	Number: number;
	StaffingPool: NamedIdentifier;
	StaffingPoolClient: NamedIdentifier;
	Facility: NamedIdentifier;
	Unit: NamedIdentifier;
	Profession: string;
	Specialty: string;
	/** Local to the staffing pool, no offset: stored and sent exactly as given. */
	Start: string;
	End: string;
	PeriodOfWork: string | null;
	Duration: number | null;
	Status: ShiftStatus;
	RateType: string;
	ShiftType: string;
	Notes: string | null;
	Timestamp: string;
	Candidate: NamedIdentifier | null;
}

export interface Registration {
	Id: string;
	Name: string;
	Url: string;
	Events: string[];
	IsActive: boolean;
}
