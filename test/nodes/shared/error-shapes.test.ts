/**
 * The order in which an error body is read (issue 29): the decided shape, problem details,
 * through its schema first; the other shapes the service notes require only when it says nothing.
 */
import { problemDetailsSchema, readServiceMessage } from '../../../nodes/shared/serviceMessage';

describe('which shape of an error body is read', () => {
	it('reads problem details first, and nothing else beside them', () => {
		const body = { title: 'Conflict', detail: 'Already submitted', message: 'Other words' };
		expect(problemDetailsSchema.safeParse(body).success).toBe(true);
		expect(readServiceMessage(body).message).toBe('Conflict: Already submitted');
	});

	it('reads the other shapes when problem details say nothing', () => {
		expect(readServiceMessage({ status: 409, message: 'Job is closed' }).message).toBe(
			'Job is closed',
		);
	});

	it('reads a body that only looks like problem details as another shape', () => {
		// `title` is not text, so this is not problem details: its message is what it says.
		const body = { title: 7, message: 'Job is closed' };
		expect(problemDetailsSchema.safeParse(body).success).toBe(false);
		expect(readServiceMessage(body).message).toBe('Job is closed');
	});
});
