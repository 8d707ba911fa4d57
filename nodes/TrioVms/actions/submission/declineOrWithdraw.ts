/**
 * Decline and Withdraw take the same fields: a submission, a reason from the withdraw reasons
 * list, and a description, and send them the same way, so both operations are made here. The list
 * is loaded from Trio; a reason can also be typed with an expression, so the operations work when
 * the list cannot be loaded.
 */
import type { INodeProperties } from 'n8n-workflow';

import { nameOfListItem } from '../../../shared/schemas';
import { PATHS } from '../../../shared/serviceFacts';
import type { TrioClient } from '../../../shared/transport';
import { locatorText } from '../../helpers/locators';
import { listOrEmpty } from '../../helpers/output';
import { ParameterError, optionalText } from '../../helpers/validation';
import {
	optionsCollection,
	searchableLocator,
	shownUnder,
	submissionNumberParameter,
	submissionOutputProperty,
} from '../common.descriptions';
import type { TrioOperation } from '../node.type';
import { answerSubmission, readSubmissionNumber } from './submissionRequests';

function reasonedProperties(action: 'decline' | 'withdraw'): INodeProperties[] {
	return [
		submissionNumberParameter(
			action === 'decline'
				? 'The offered submission to decline'
				: 'The submission to withdraw (submitted, under review or offered)',
		),
		// A list or a text, not a dropdown: Trio's reasons are texts without IDs, and n8n asks a
		// dropdown loaded from a service to be labelled "Name or ID".
		searchableLocator(
			{
				displayName: 'Reason',
				name: 'reason',
				description: "One of Trio's withdraw reasons",
				hint: 'If the list cannot be loaded, choose By Text and type the reason exactly as Trio lists it',
			},
			{ placeholder: 'Select a reason...', searchListMethod: 'searchWithdrawReasons' },
			{
				displayName: 'By Text',
				name: 'text',
				placeholder: 'e.g. Candidate accepted another position',
			},
		),
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description: `More detail about why the submission is ${action === 'decline' ? 'declined' : 'withdrawn'}`,
		},
		submissionOutputProperty(),
		optionsCollection(),
	];
}

/** The reasons of a withdraw-reasons answer: names, trimmed, once each. */
export function withdrawReasonNames(response: unknown): string[] {
	return [
		...new Set(
			listOrEmpty(response)
				.map((entry) => nameOfListItem(entry)?.trim())
				.filter((name): name is string => !!name),
		),
	];
}

/** Trio's reasons, read once per execution; undefined when Trio does not give them. */
const reasonsByClient = new WeakMap<TrioClient, Promise<string[] | undefined>>();

function knownReasons(client: TrioClient): Promise<string[] | undefined> {
	let reasons = reasonsByClient.get(client);
	if (!reasons) {
		reasons = client
			.request({ method: 'GET', path: PATHS.withdrawReasons })
			.then((response) => {
				const names = withdrawReasonNames(response);
				return names.length ? names : undefined;
			})
			.catch(() => undefined);
		reasonsByClient.set(client, reasons);
	}
	return reasons;
}

/**
 * The reason as Trio lists it. Checked against Trio's list when it can be read, so a typo is
 * caught before anything is sent and the error shows the valid reasons; sent as typed otherwise.
 */
async function checkedReason(client: TrioClient, typed: string): Promise<string> {
	const reasons = await knownReasons(client);
	if (!reasons) return typed;
	const wanted = typed.trim().toLowerCase();
	const match = reasons.find((reason) => reason.toLowerCase() === wanted);
	if (match) return match;
	throw new ParameterError(
		'Reason',
		`must be one of Trio's withdraw reasons (got: ${typed}). Choose one from the list`,
		`Use one of: ${reasons.join('; ')}.`,
	);
}

/** Decline and Withdraw: the same fields and the same steps, each to its own path. */
export function declineOrWithdrawOperation(action: 'decline' | 'withdraw'): TrioOperation {
	return {
		description: shownUnder('submission', action, reasonedProperties(action)),
		async execute(itemIndex, client) {
			const submissionNumber = readSubmissionNumber(this, itemIndex);
			const reason = await checkedReason(client, locatorText(this, itemIndex, 'reason', 'Reason'));
			const description = optionalText(
				this.getNodeParameter('description', itemIndex, ''),
				'Description',
			);
			return await answerSubmission(this, itemIndex, client, {
				path: action === 'decline' ? PATHS.submissionDecline : PATHS.submissionWithdraw,
				// The spec lists description for both; it is sent empty when not given.
				body: { submissionNumber, reason, description: description ?? '' },
				outcome: action === 'decline' ? 'declined' : 'withdrawn',
			});
		},
	};
}
