import { setNewest } from '../../../nodes/shared/boundedMap';

describe('setNewest', () => {
	it('forgets the least recently set key once the map is over its bound', () => {
		const map = new Map<string, number>();
		setNewest(map, 'a', 1, 2);
		setNewest(map, 'b', 2, 2);
		setNewest(map, 'a', 3, 2);
		setNewest(map, 'c', 4, 2);
		expect([...map]).toEqual([
			['a', 3],
			['c', 4],
		]);
	});
});
