/**
 * The two candidate requests, shared by Create, Find by Email and Find or Create so that no
 * operation file imports another, and the find-or-create that Create (with Skip If Email Exists
 * on) and Find or Create both run.
 */
import type { IDataObject } from 'n8n-workflow';

import { fieldOf } from '../../../shared/recordFields';
import type { CandidateCreateRequest } from '../../../shared/schemas';
import { PATHS } from '../../../shared/serviceFacts';
import type { TrioClient } from '../../../shared/transport';
import { answerInWords, isRecord, readList } from '../../../shared/listAnswer';
import { objectOf } from '../../helpers/output';
import {
	createdWithoutCheck,
	createOnce,
	sentCreateOutput,
	type CreateSteps,
} from '../../helpers/createOnce';

/** The lookup answers a JSON array (spec 4); a list wrapped in an object is read too. */
function readCandidateList(response: unknown, email: string): IDataObject[] {
	const list = readList(response, {
		names: ['candidates'],
		emptyIsNone: true,
		refused: (sent) =>
			`Trio VMS answered the lookup of ${email} with ${answerInWords(sent)}, not a list of candidates, so it is not known whether the candidate exists`,
	});
	const candidates = list.filter(isRecord);
	if (
		candidates.length !== list.length ||
		candidates.some((entry) => candidateNumber(entry) === undefined)
	) {
		throw new Error(
			`Trio VMS answered the lookup of ${email} with a list whose entries are not all candidates with a number`,
		);
	}
	return candidates;
}

/** The candidate's number, whatever the letter case of its name; undefined when missing. */
function candidateNumber(candidate: IDataObject): number | undefined {
	const found = fieldOf(candidate, 'number');
	const value = found === undefined ? undefined : Number(found);
	return value !== undefined && Number.isInteger(value) && value > 0 ? value : undefined;
}

async function lookUp(
	client: TrioClient,
	email: string,
	itemIndex: number,
): Promise<IDataObject[]> {
	const response = await client.request({
		method: 'GET',
		path: PATHS.candidates,
		query: { email },
		itemIndex,
		context: { subject: `candidate with email ${email}` },
	});
	return readCandidateList(response, email);
}

/**
 * Looks candidates up by e-mail. Whether the service compares addresses ignoring letter case is
 * not shown, so when the address as written finds nobody, its lower-case form is tried too.
 */
export async function findCandidates(
	client: TrioClient,
	email: string,
	itemIndex: number,
): Promise<IDataObject[]> {
	const found = await lookUp(client, email, itemIndex);
	const lower = email.toLowerCase();
	if (found.length || lower === email) return found;
	return await lookUp(client, lower, itemIndex);
}

/**
 * Sending the candidate, as both creates run it through createOnce. Its name in messages and in
 * the memory of creates is one per address, whatever its letter case.
 */
function candidateCreate(
	client: TrioClient,
	body: CandidateCreateRequest,
	itemIndex: number,
): CreateSteps {
	return {
		what: `candidate with the email ${body.email1.trim().toLowerCase()}`,
		itemIndex,
		send: async (lookBeforeResend) => {
			const created = await client.request({
				method: 'POST',
				path: PATHS.candidates,
				body,
				// Never repeated once it may have reached Trio: a second request could create the candidate twice.
				idempotent: false,
				lookBeforeResend,
				itemIndex,
			});
			return objectOf(created, { ...(body as unknown as IDataObject) });
		},
		lookBeforeResend: async () => await candidateSent(client, body, itemIndex),
	};
}

/**
 * The candidate a create answered 429 may have stored, with one request (the e-mail as sent):
 * the newest with this e-mail and the names sent. Create with Skip If Email Exists off may share
 * its address with an older candidate of other names, who is not the one it made.
 */
async function candidateSent(
	client: TrioClient,
	body: CandidateCreateRequest,
	itemIndex: number,
): Promise<IDataObject | undefined> {
	const sameAs = (candidate: IDataObject, field: 'firstName' | 'lastName') =>
		String(fieldOf(candidate, field) ?? '')
			.trim()
			.toLowerCase() === body[field].trim().toLowerCase();
	const found = (await lookUp(client, body.email1, itemIndex)).filter(
		(candidate) => sameAs(candidate, 'firstName') && sameAs(candidate, 'lastName'),
	);
	return found.sort((a, b) => (candidateNumber(b) ?? 0) - (candidateNumber(a) ?? 0))[0];
}

/**
 * Creates the candidate, whether or not one with this e-mail exists (Create with the check off),
 * `_trio` saying how.
 */
export async function createCandidate(
	client: TrioClient,
	body: CandidateCreateRequest,
	itemIndex: number,
): Promise<IDataObject> {
	const created = await createOnce(client, candidateCreate(client, body, itemIndex));
	const { record, trio } = createdWithoutCheck(created);
	return { ...record, _trio: trio };
}

/** The oldest of several candidates sharing an address: the lowest number, the usual one to keep. */
function oldestCandidate(candidates: IDataObject[]): IDataObject | undefined {
	return [...candidates].sort(
		(a, b) => (candidateNumber(a) ?? Infinity) - (candidateNumber(b) ?? Infinity),
	)[0];
}

/**
 * The candidate with this e-mail (the oldest when several share it), created when there is none;
 * when the create fails so that it is unknown whether the candidate was created (a 5xx, or a
 * connection broken after sending), the e-mail is looked up again before reporting.
 * `_trio.action` says "found" (with `matchCount`), "created" or "created despite an error" (with the
 * failure in `error`).
 */
export async function findOrCreateCandidate(
	client: TrioClient,
	body: CandidateCreateRequest,
	itemIndex: number,
): Promise<IDataObject> {
	const result = await createOnce(client, {
		...candidateCreate(client, body, itemIndex),
		existing: async () => await findCandidates(client, body.email1, itemIndex),
		lookAgain: async () => oldestCandidate(await findCandidates(client, body.email1, itemIndex)),
	});
	switch (result.action) {
		case 'found':
			return {
				...oldestCandidate(result.matches),
				_trio: { action: 'found', matchCount: result.matches.length },
			};
		case 'madeByThisWorkflow':
			return {
				...result.record,
				_trio: { action: 'found', matchCount: 0, createdByThisWorkflow: true },
			};
		case 'created':
		case 'createdDespiteError':
			return sentCreateOutput(result);
	}
}
