/**
 * Decline and Withdraw take the same fields: a submission, a reason from the withdraw reasons
 * list, and a description. The list is loaded from Trio; a reason can also be typed with an
 * expression, so the operations work when the list cannot be loaded.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { nameOfListItem } from '../../../shared/schemas';
import { PATHS } from '../../../shared/service';
import type { TrioClient } from '../../../shared/transport';
import { listOf, objectOf } from '../../helpers/output';
import { shapeSubmission } from '../../helpers/outputChoices';
import { FieldError, optionalText, positiveInteger, requiredText } from '../../helpers/validation';
import {
	optionsCollection,
	submissionNumberField,
	submissionOutputProperty,
} from '../common.descriptions';

export function reasonedProperties(action: 'decline' | 'withdraw'): INodeProperties[] {
	return [
		submissionNumberField(
			action === 'decline'
				? 'The offered submission to decline'
				: 'The submission to withdraw (submitted, under review or offered)',
		),
		{
			// A list or a text, not a dropdown: Trio's reasons are texts without IDs, and n8n asks a
			// dropdown loaded from a service to be labelled "Name or ID".
			displayName: 'Reason',
			name: 'reason',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			required: true,
			description: "One of Trio's withdraw reasons",
			hint: 'If the list cannot be loaded, choose By Text and type the reason exactly as Trio lists it',
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					placeholder: 'Select a reason...',
					typeOptions: { searchListMethod: 'searchWithdrawReasons', searchable: true },
				},
				{
					displayName: 'By Text',
					name: 'text',
					type: 'string',
					placeholder: 'e.g. Candidate accepted another position',
				},
			],
		},
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
			listOf(response)
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
	throw new FieldError(
		'Reason',
		`must be one of Trio's withdraw reasons (got: ${typed}). Choose one from the list`,
		`Use one of: ${reasons.join('; ')}.`,
	);
}

export async function sendReasoned(
	this: IExecuteFunctions,
	itemIndex: number,
	client: TrioClient,
	action: 'decline' | 'withdraw',
): Promise<IDataObject> {
	const submissionNumber = positiveInteger(
		this.getNodeParameter('submissionNumber', itemIndex, ''),
		'Submission Number',
	);
	const reason = await checkedReason(
		client,
		requiredText(this.getNodeParameter('reason', itemIndex, '', { extractValue: true }), 'Reason'),
	);
	const description = optionalText(
		this.getNodeParameter('description', itemIndex, ''),
		'Description',
	);
	// The spec lists description for both; it is sent empty when not given.
	const body: IDataObject = { submissionNumber, reason, description: description ?? '' };
	const response = await client.request({
		method: 'POST',
		path: action === 'decline' ? PATHS.submissionDecline : PATHS.submissionWithdraw,
		body,
		itemIndex,
		context: { subject: `submission ${submissionNumber}` },
	});
	return shapeSubmission(
		this,
		itemIndex,
		objectOf(response, {
			Number: submissionNumber,
			[action === 'decline' ? 'declined' : 'withdrawn']: true,
		}),
	);
}
