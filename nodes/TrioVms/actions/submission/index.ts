import { resourceProperties } from '../common.descriptions';
import * as accept from './accept.operation';
import * as create from './create.operation';
import * as decline from './decline.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getWithdrawReasons from './getWithdrawReasons.operation';
import * as withdraw from './withdraw.operation';

export const operations = { accept, create, decline, get, getAll, getWithdrawReasons, withdraw };

export const description = resourceProperties('submission', operations, {
	options: [
		{
			name: 'Accept',
			value: 'accept',
			description: 'Accept an offered submission, with an optional reason',
			action: 'Accept offer on submission',
		},
		{
			name: 'Create',
			value: 'create',
			description: 'Submit a candidate to a job with their resume (PDF, DOC, DOCX, RTF or TXT)',
			action: 'Submit candidate to job with resume',
		},
		{
			name: 'Decline',
			value: 'decline',
			description: 'Decline an offered submission, giving a reason from the withdraw reasons list',
			action: 'Decline offer on submission',
		},
		{
			name: 'Get',
			value: 'get',
			description: 'Get one submission by its number, with its current status',
			action: 'Get submission by number',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'Get many of your submissions, optionally only those modified after a date or for one job or candidate',
			action: 'Get many agency submissions',
		},
		{
			name: 'Get Withdraw Reasons',
			value: 'getWithdrawReasons',
			description: 'Get the reasons Trio accepts when declining or withdrawing a submission',
			action: 'Get decline and withdraw reasons',
		},
		{
			name: 'Withdraw',
			value: 'withdraw',
			description: 'Withdraw a submitted candidate, giving a reason from the withdraw reasons list',
			action: 'Withdraw submission with reason',
		},
	],
	default: 'create',
});
