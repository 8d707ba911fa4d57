/**
 * The two candidate requests, shared by Create, Find by Email and Find or Create so that no
 * operation file imports another.
 */
import type { IDataObject } from 'n8n-workflow';

import type { CandidateCreateRequest } from '../../../shared/schemas';
import { PATHS } from '../../../shared/service';
import type { TrioClient } from '../../../shared/transport';
import { objectOf, objectsOf } from '../../helpers/output';

/** Looks candidates up by e-mail . */
export async function findCandidates(
	client: TrioClient,
	email: string,
	itemIndex: number,
): Promise<IDataObject[]> {
	const response = await client.request({
		method: 'GET',
		path: PATHS.candidates,
		query: { email },
		itemIndex,
		context: { subject: `candidate with e-mail ${email}` },
	});
	return objectsOf(response);
}

/** Sends the creation request once (never retried after it may have reached the service). */
export async function createCandidate(
	client: TrioClient,
	body: CandidateCreateRequest,
	itemIndex: number,
): Promise<IDataObject> {
	const created = await client.request({
		method: 'POST',
		path: PATHS.candidates,
		body,
		idempotent: false,
		itemIndex,
	});
	return objectOf(created, { ...(body as unknown as IDataObject) });
}
