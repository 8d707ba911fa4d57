/**
 * Process memory that must not grow without bound (paces, deactivations, delivery windows, job
 * lists): a Map keeps insertion order, so re-inserting a key makes it the newest and the first
 * key is always the one to forget.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, maxEntries: number): void {
	map.delete(key);
	map.set(key, value);
	while (map.size > maxEntries) {
		const oldest = map.keys().next().value;
		if (oldest === undefined) break;
		map.delete(oldest);
	}
}
