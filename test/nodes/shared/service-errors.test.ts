/** How the service's error bodies become messages, hints and NodeApiErrors (pure functions). */
import { connectionError, serviceError } from '../../../nodes/shared/errors';
import { hintForStatus, statusText } from '../../../nodes/shared/statusWords';
import { isOutcomeUnknown, isTimedOut } from '../../../nodes/shared/failureMarks';
import { redact } from '../../../nodes/shared/secrets';
import {
	htmlToText,
	MAX_CLEANED_CHARS,
	readServiceMessage,
} from '../../../nodes/shared/serviceMessage';
import { workflowNode } from '../../support/workflow-node';

const NO_DETAILS = 'The service gave no details';

describe('readServiceMessage', () => {
	it('reads ASP.NET problem details with field errors', () => {
		const body = {
			type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
			title: 'One or more validation errors occurred.',
			status: 400,
			traceId: '00-abc-01',
			errors: {
				Email: ['The Email field is not a valid e-mail address.'],
				FirstName: ['Required.', 'Too short.'],
			},
		};
		expect(readServiceMessage(body)).toEqual({
			message: 'One or more validation errors occurred.',
			fieldErrors: {
				Email: ['The Email field is not a valid e-mail address.'],
				FirstName: ['Required.', 'Too short.'],
			},
		});
		// The same, still as the text the transport received.
		expect(readServiceMessage(JSON.stringify(body))).toEqual(readServiceMessage(body));
	});

	it('joins title and detail', () => {
		expect(
			readServiceMessage({ title: 'Conflict', detail: 'Candidate already submitted to job 5' })
				.message,
		).toBe('Conflict: Candidate already submitted to job 5');
	});

	it.each([
		[{ message: 'Job is closed' }, 'Job is closed'],
		[{ Message: 'An error has occurred.' }, 'An error has occurred.'],
		[{ error: 'invalid_key' }, 'invalid_key'],
		[{ error: { message: 'Nested reason' } }, 'Nested reason'],
		[{ error: { Message: 'Nested Reason' } }, 'Nested Reason'],
		[
			{ error: 'invalid_request', error_description: 'Missing header' },
			'invalid_request: Missing header',
		],
		[
			{ Message: 'An error has occurred.', ExceptionMessage: 'Object reference not set' },
			'An error has occurred.: Object reference not set',
		],
		[{ message: 'Same', Message: 'Same' }, 'Same'],
		[{ errors: { Email: ['Required'] } }, 'One or more fields are invalid'],
		[['First problem', { message: 'Second problem' }], 'First problem; Second problem'],
		[{ unexpected: 'shape' }, '{"unexpected":"shape"}'],
		[42, '42'],
	])('reads %j', (body, message) => {
		expect(readServiceMessage(body).message).toBe(message);
	});

	it('reads plain text as it is', () => {
		expect(readServiceMessage('Job 9 not found')).toEqual({
			message: 'Job 9 not found',
			fieldErrors: {},
		});
		expect(readServiceMessage('  spaced\n\n out  ')).toEqual({
			message: 'spaced out',
			fieldErrors: {},
		});
	});

	it("keeps the words of a gateway's HTML page", () => {
		const nginx =
			'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
		expect(readServiceMessage(nginx).message).toBe('502 Bad Gateway 502 Bad Gateway nginx');
	});

	it('drops the style sheet, script and comments of an HTML error page', () => {
		const page = `<!DOCTYPE html><html><head><title>Service Unavailable</title>
			<style type="text/css">body { font-family: Segoe UI; } h1 { color: #333; }</style>
			<script>window.dataLayer = [];</script><!-- server: iis-07 --></head>
			<body><h1>The service is unavailable &amp; will be back soon.</h1></body></html>`;
		expect(readServiceMessage(page).message).toBe(
			'Service Unavailable The service is unavailable & will be back soon.',
		);
	});

	// Issue 22 point 8: the clean-up's patterns are quadratic, so it must never see a whole large
	// body. Counted, not timed: a spy stands in for the clean-up and records what it is handed.
	it('hands the HTML clean-up at most MAX_CLEANED_CHARS of a 1 MB pathological body', () => {
		const seen: number[] = [];
		const spy = (text: string) => {
			seen.push(text.length);
			return htmlToText(text);
		};
		const pathological = '<a'.repeat(512 * 1024);
		const message = readServiceMessage(pathological, spy).message;
		expect(seen).toEqual([MAX_CLEANED_CHARS]);
		expect(message.length).toBeLessThanOrEqual(300);
		seen.length = 0;
		readServiceMessage([pathological, { detail: pathological }], spy);
		expect(Math.max(...seen)).toBeLessThanOrEqual(MAX_CLEANED_CHARS);
	});

	it('cuts a long text to one readable line', () => {
		const message = readServiceMessage('x'.repeat(1_000)).message;
		expect(message).toHaveLength(300);
		expect(message.endsWith('...')).toBe(true);
	});

	it.each([undefined, null, '', '   \n ', '<html><body></body></html>', {}])(
		'says there were no details for %j',
		(body) => {
			expect(readServiceMessage(body)).toEqual({ message: NO_DETAILS, fieldErrors: {} });
		},
	);

	it('keeps a field error that is not a list of strings readable', () => {
		expect(
			readServiceMessage({ errors: { Phone: 'Bad', Address: [{ code: 'x' }] } }).fieldErrors,
		).toEqual({ Phone: ['Bad'], Address: ['{"code":"x"}'] });
	});
});

describe('hintForStatus', () => {
	it('explains each status in terms of what to do', () => {
		expect(hintForStatus(400)).toMatch(/^Check the values in the node/);
		expect(hintForStatus(403)).toMatch(/API key is wrong, expired or lacks permission/);
		expect(hintForStatus(401)).toBe(hintForStatus(403));
		expect(hintForStatus(403, { webhookManagement: true })).toMatch(
			/agency administrator permission/,
		);
		expect(hintForStatus(404, { subject: 'job 123' })).toMatch(/^No job 123 was found/);
		expect(hintForStatus(404)).toMatch(
			/^Check the number, and the credential's environment and base URL/,
		);
		expect(hintForStatus(429)).toMatch(/Pause Between Requests/);
		expect(hintForStatus(500, { creates: true })).toMatch(
			/may or may not have created it: check in Trio/,
		);
		expect(hintForStatus(503)).toMatch(/Try again later/);
		expect(hintForStatus(418)).toBe(
			'Check the node and its input data; if it keeps failing, ask your MSP contact.',
		);
	});

	// Issue 46: "Raise Pause Between Requests" cannot help when Trio said how long to wait.
	it('tells to wait as long as Trio asked on a 429 with Retry-After, and to pace only without it', () => {
		expect(hintForStatus(429, {}, 120_000)).toBe(
			'Trio VMS asked to wait 120 s (2 min) before the next request: run again after that.',
		);
		expect(hintForStatus(429, {}, 4_500)).toBe(
			'Trio VMS asked to wait 5 s before the next request: run again after that.',
		);
		expect(hintForStatus(429, {}, 120_000)).not.toMatch(/Pause Between Requests/);
		expect(hintForStatus(429, {}, 0)).toMatch(/Pause Between Requests/);
	});
});

describe('redact and formatting', () => {
	it('removes every occurrence of the secret', () => {
		expect(redact('key abcd1234 and abcd1234.', 'abcd1234')).toBe('key [redacted] and [redacted].');
		expect(redact('a+b/c= here', 'a+b/c=')).toBe('[redacted] here');
	});

	it('masks a partial echo of the key: any eight or more of its characters in a row', () => {
		const key = 'k7Qe92LmZx40Tb1R';
		expect(redact(`Key k7Qe92Lm... is not valid`, key)).toBe('Key [redacted]... is not valid');
		expect(redact(`Key ending ZX40Tb1R, x40Tb1R`, key)).toBe('Key ending ZX40Tb1R, x40Tb1R');
		expect(redact(`Key ending Zx40Tb1R`, key)).toBe('Key ending [redacted]');
		expect(redact(`got "${key.slice(2, 13)}"`, key)).toBe('got "[redacted]"');
		// Seven in a row is not enough to tell, and is left.
		expect(redact('k7Qe92L and 0Tb1R', key)).toBe('k7Qe92L and 0Tb1R');
	});

	it('masks the key echoed in base64, alone or inside a longer encoded text, standard or URL-safe', () => {
		const key = 'k7Qe92Lm+Zx40/Tb1R?';
		const encode = (text: string) => Buffer.from(text).toString('base64');
		for (const before of ['', 'x', 'xy', 'X-API-KEY: ', 'agency:']) {
			const echoed = encode(`${before}${key}`);
			const url = echoed.replace(/\+/g, '-').replace(/\//g, '_');
			for (const form of [echoed, url]) {
				const masked = redact(`Authorization Basic ${form} refused`, key);
				expect(masked).toContain('[redacted]');
				// Nothing decodable to the key is left.
				const rest = masked.replace('Authorization Basic ', '').replace(' refused', '');
				for (const part of rest.split('[redacted]')) {
					expect(Buffer.from(part, 'base64').toString('latin1')).not.toContain(key.slice(0, 8));
				}
			}
		}
	});

	it('leaves the text alone without a usable secret', () => {
		expect(redact('abc', undefined)).toBe('abc');
		// The trigger's delivery token, echoed in a URL, keeps only its first four characters.
		const token = 'c'.repeat(64);
		expect(
			redact(
				`Url https://n8n.example/webhook/x?event=Job%20Update&token=${token} is taken`,
				'key1',
			),
		).toBe('Url https://n8n.example/webhook/x?event=Job%20Update&token=cccc[redacted] is taken');
		// Issue 22 point 12: `token=` is masked whatever precedes it in a non-JSON body.
		for (const before of ['', ' ', '&', '&amp;', '&#38;', '\\u0026', 'callback?']) {
			expect(redact(`bad url ${before}token=${token} here`, undefined)).toBe(
				`bad url ${before}token=cccc[redacted] here`,
			);
		}
		// A one-to-three character "secret" would shred the message rather than protect anything.
		expect(redact('abc', 'b')).toBe('abc');
	});

	it('names a status in words, and a status it does not know as an error', () => {
		expect(statusText(429)).toBe('Too Many Requests');
		expect(statusText(599)).toBe('Error');
	});
});

describe('serviceError and connectionError', () => {
	const node = workflowNode('Trio VMS', 'trioVms');

	// Issue 19 point 10 made the first field error the headline (it was the generic title); issue 46
	// put it in the recruiter's words: no status, no method or path, no service field name, and no
	// label before a message that names its field already.
	it.each([
		[
			'email1',
			'The email1 field is not a valid e-mail address.',
			'Trio VMS refused it: The Email field is not a valid e-mail address.',
		],
		[
			'$.CandidateNumber',
			"'CandidateNumber' must be greater than 0.",
			"Trio VMS refused it: 'Candidate' must be greater than 0.",
		],
		[
			'JobNumber',
			'The JobNumber field is required.',
			'Trio VMS refused it: The Job field is required.',
		],
		[
			'CandidateProfileFile',
			'The CandidateProfileFile field is required.',
			'Trio VMS refused it: The Resume field is required.',
		],
		[
			'request.StartDate',
			'Could not read the date.',
			'Trio VMS refused "Start Date": Could not read the date.',
		],
		[
			'BillRateAmount',
			'Must not be negative.',
			'Trio VMS refused "Bill Rate": Must not be negative.',
		],
		[
			'stateLicenses[0].state',
			'Unknown state.',
			'Trio VMS refused "State Licenses (0.state)": Unknown state.',
		],
		['submissionNumber', 'Not found.', 'Trio VMS refused "Submission": Not found.'],
		['firstName', 'Required.', 'Trio VMS refused "First Name": Required.'],
		['phone1', 'Too long.', 'Trio VMS refused "Phone": Too long.'],
		['reason', 'Not a reason Trio knows.', 'Trio VMS refused "Reason": Not a reason Trio knows.'],
		[
			'NumberOfCurrentOpenPositions',
			'NumberOfCurrentOpenPositions must be 0 or more.',
			'Trio VMS refused it: Number of current open positions must be 0 or more.',
		],
	])('names the field %s by its label', (field, said, headline) => {
		const error = serviceError(node, {
			status: 400,
			body: {
				title: 'One or more validation errors occurred.',
				status: 400,
				errors: { [field]: [said] },
			},
			method: 'POST',
			path: '/candidates',
		});
		expect(error.message).toBe(headline);
		expect(error.message).not.toContain('One or more validation errors occurred');
		expect(error.description).not.toContain('One or more validation errors occurred');
		// Trio's own name for the field is kept for whoever reads the technical part.
		expect(error.description).toContain(`Fields as Trio VMS named them: ${field}`);
	});

	// Issue 46: the Submission Create to a job on hold read "Trio VMS answered 400 Bad Request:
	// Job: Job job 100002 is OnHold; ..." with the validation title and the request in its details.
	describe("a refusal in the recruiter's words (the sandbox's answer to a job on hold)", () => {
		const onHold = () =>
			serviceError(node, {
				status: 400,
				body: {
					type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
					title: 'One or more validation errors occurred.',
					status: 400,
					detail: 'JobNumber job 100002 is OnHold; only Open jobs accept submissions',
					errors: {
						JobNumber: ['JobNumber job 100002 is OnHold; only Open jobs accept submissions'],
					},
				},
				method: 'POST',
				path: '/Submission',
				context: { creates: true, subject: 'job 100002 or candidate 5041' },
			});

		it('has a headline without status, method, path or service field name', () => {
			const { message } = onHold();
			expect(message).toBe(
				'Trio VMS refused it: job 100002 is On Hold; only Open jobs accept submissions',
			);
			expect(message).not.toMatch(/\b(400|Bad Request|POST|\/Submission|JobNumber|answered)\b/);
		});

		it('says the field once: no label before a message naming it, no word said twice', () => {
			const { message, description } = onHold();
			expect(message).not.toMatch(/Job: /);
			expect(message).not.toMatch(/\bjob job\b/i);
			expect(description).not.toMatch(/\bjob job\b/i);
		});

		it('says in its details what to do and that nothing was done, then status, request and field names', () => {
			expect(onHold().description).toBe(
				[
					'Trio VMS did not carry it out. The job must take submissions again (be open in Trio) before anything can be submitted to it: run the node again then, or choose another job.',
					'Status: 400 Bad Request\nRequest: POST /Submission\nFields as Trio VMS named them: JobNumber',
				].join('\n\n'),
			);
		});

		it("keeps Trio's spelling of a word it is not sure is Trio's enum value", () => {
			const error = serviceError(node, {
				status: 400,
				body: { errors: { JobNumber: ['Job 7 is InReview by OnHoldings'] } },
				method: 'POST',
				path: '/Submission',
			});
			expect(error.message).toBe('Trio VMS refused it: Job 7 is InReview by OnHoldings');
		});
	});

	it('words the headline of each status class for the recruiter, keeping the status in the details', () => {
		const cases: Array<[number, unknown, string, string, Record<string, unknown>]> = [
			[
				404,
				{ title: 'Not Found', status: 404, detail: 'Job 123 was not found.' },
				'GET',
				'Trio VMS does not know job 123',
				{ subject: 'job 123' },
			],
			[
				404,
				{
					title: 'Not Found',
					detail: 'Job 42 was not found.',
					errors: { JobNumber: ['Job 42 was not found.'] },
				},
				'POST',
				'Trio VMS does not know job 42 or candidate 5041: Job 42 was not found.',
				{ subject: 'job 42 or candidate 5041', creates: true },
			],
			[403, { title: 'Forbidden', status: 403 }, 'GET', 'Trio VMS refused the API key', {}],
			[
				429,
				{ title: 'Too Many Requests', detail: 'Rate limit exceeded. Retry after 120 seconds.' },
				'GET',
				'Trio VMS asked the node to slow down: Rate limit exceeded. Retry after 120 seconds.',
				{},
			],
			[
				500,
				{ title: 'An error occurred while processing your request.', status: 500 },
				'POST',
				'Trio VMS failed (its error, not yours)',
				{ creates: true },
			],
			[503, '503 Service Unavailable', 'GET', 'Trio VMS failed (its error, not yours)', {}],
			[
				409,
				{ title: 'Conflict', detail: 'Submission 5 is already Accepted' },
				'POST',
				'Trio VMS refused it: Submission 5 is already Accepted',
				{},
			],
			[413, '', 'POST', 'Trio VMS refused it: it is too large', {}],
		];
		for (const [status, body, method, headline, context] of cases) {
			const error = serviceError(node, { status, body, method, path: '/Path', context });
			expect(error.message).toBe(headline);
			expect(error.message).not.toContain(String(status));
			expect(error.httpCode).toBe(String(status));
			expect(error.description).toContain(`Status: ${status} ${statusText(status)}`);
			expect(error.description).toContain(`Request: ${method} /Path`);
			// A refusal stored nothing: said for what could have stored something, never for a read.
			const saysNothingDone = String(error.description).includes('Trio VMS did not carry it out.');
			expect(saysNothingDone).toBe(status < 500 && method !== 'GET');
		}
	});

	it('on a 429 with a Retry-After longer than the node waits, says how long Trio asked to wait', () => {
		const error = serviceError(node, {
			status: 429,
			body: { title: 'Too Many Requests' },
			method: 'POST',
			path: '/Submission',
			retryAfterMs: 120_000,
		});
		expect(error.message).toBe('Trio VMS asked the node to slow down');
		expect(error.description).toContain(
			'Trio VMS asked to wait 120 s (2 min) before the next request: run again after that.',
		);
		expect(error.description).not.toContain('Pause Between Requests');
	});

	it('puts the other field errors and a specific title in the description; an operation can add labels', () => {
		const error = serviceError(node, {
			status: 400,
			body: {
				title: 'The candidate could not be saved.',
				errors: { email1: ['Taken.'], lastName: ['Required.'], Zip: ['Bad.'] },
			},
			method: 'POST',
			path: '/candidates',
			context: { fieldLabels: { zip: 'ZIP Code' } },
		});
		expect(error.message).toBe('Trio VMS refused "Email": Taken.');
		expect(error.description).toContain('Last Name: Required.\nZIP Code: Bad.');
		expect(error.description).toContain('The candidate could not be saved.');
		expect(error.description).toContain('Correct "Email" in the node');
		expect(error.description).toContain('Fields as Trio VMS named them: email1, lastName, Zip');
	});

	it('builds a NodeApiError whose headline is the first field error, named by its label', () => {
		const error = serviceError(node, {
			status: 400,
			body: { title: 'One or more validation errors occurred.', errors: { Email: ['Invalid.'] } },
			method: 'POST',
			path: '/Submission',
			itemIndex: 2,
		});
		expect(error.message).toBe('Trio VMS refused "Email": Invalid.');
		expect(error.description).toBe(
			'Trio VMS did not carry it out. Correct "Email" in the node, or in the input data mapped into it, then run the node again.\n\nStatus: 400 Bad Request\nRequest: POST /Submission\nFields as Trio VMS named them: Email',
		);
		expect(error.httpCode).toBe('400');
		expect(error.context.itemIndex).toBe(2);
	});

	it('does not repeat the status text when the service uses it as its title', () => {
		const error = serviceError(node, {
			status: 403,
			body: { title: 'Forbidden', detail: 'The API key is not valid.' },
			method: 'GET',
			path: '/Job',
		});
		expect(error.message).toBe('Trio VMS refused the API key: The API key is not valid.');
		expect(error.description).toContain('Status: 403 Forbidden');
	});

	it("keeps its own message when the service's text mentions a network error code", () => {
		// NodeApiError swaps any message containing e.g. ECONNREFUSED for n8n's generic text.
		const error = serviceError(node, {
			status: 502,
			body: 'upstream failed: connect ECONNREFUSED 10.0.0.5:443',
			method: 'GET',
			path: '/Job',
		});
		expect(error.message).toBe(
			'Trio VMS failed (its error, not yours): upstream failed: connect ECONNREFUSED 10.0.0.5:443',
		);
	});

	it('redacts the secret from message, description and the kept body', () => {
		const secret = 'sk_live_0123456789';
		const error = serviceError(node, {
			status: 401,
			body: { message: `Key ${secret} is revoked`, errors: { ApiKey: [`${secret} unknown`] } },
			method: 'GET',
			path: '/Job',
			secret,
		});
		expect(error.message).toBe('Trio VMS refused the API key: Key [redacted] is revoked');
		expect(JSON.stringify(error)).not.toContain(secret);
		expect(`${error.message} ${error.description}`).not.toContain(secret);
	});

	it("says plainly when a create's outcome is unknown, and when nothing was sent", () => {
		const unknown = connectionError(node, {
			code: 'ECONNRESET',
			method: 'POST',
			path: '/Submission',
			outcomeUnknown: true,
		});
		// Not n8n's "You can retry the request immediately", which is wrong advice here.
		expect(unknown.message).toBe('Could not reach Trio VMS (ECONNRESET) for POST /Submission');
		expect(unknown.description).toMatch(
			/unknown whether the service carried it out\. It was not sent again/,
		);
		// The transport decides which codes are timeouts (retry.ts) and says so.
		const timedOut = connectionError(node, {
			code: 'ECONNABORTED',
			method: 'POST',
			path: '/Submission',
			outcomeUnknown: true,
			timedOut: true,
		});
		expect(timedOut.message).toBe(
			'Trio VMS did not answer POST /Submission in time (ECONNABORTED)',
		);
		expect(timedOut.description).toMatch(
			/^No answer came in time after the request was sent, so it is unknown/,
		);
		// Both marks set where the error is built, for the callers that read them.
		expect(isTimedOut(timedOut)).toBe(true);
		expect(isOutcomeUnknown(timedOut)).toBe(true);
		expect(isTimedOut(unknown)).toBe(false);
		const refused = connectionError(node, {
			code: 'ECONNREFUSED',
			method: 'GET',
			path: '/Job',
			outcomeUnknown: false,
		});
		expect(refused.message).toBe('Could not reach Trio VMS (ECONNREFUSED) for GET /Job');
		expect(refused.description).toMatch(/base URL/);
	});

	it('marks the failures of a create whose outcome is unknown, so the operation can look again', () => {
		const answered = (status: number, creates: boolean) =>
			serviceError(node, {
				status,
				body: '',
				method: 'POST',
				path: '/Submission',
				context: { creates },
			});
		const broken = (outcomeUnknown: boolean) =>
			connectionError(node, {
				code: 'ECONNRESET',
				method: 'POST',
				path: '/Submission',
				outcomeUnknown,
			});
		expect(isOutcomeUnknown(answered(500, true))).toBe(true);
		expect(isOutcomeUnknown(answered(503, true))).toBe(true);
		expect(isOutcomeUnknown(broken(true))).toBe(true);
		// A refusal, a read, or a request that never left: nothing was created.
		expect(isOutcomeUnknown(answered(400, true))).toBe(false);
		expect(isOutcomeUnknown(answered(429, true))).toBe(false);
		expect(isOutcomeUnknown(answered(503, false))).toBe(false);
		expect(isOutcomeUnknown(broken(false))).toBe(false);
		expect(isOutcomeUnknown(new Error('ECONNRESET'))).toBe(false);
	});
});
