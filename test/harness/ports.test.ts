/**
 * The harness's ports (freePort in harness/n8n.ts) come from below the kernel's ephemeral range,
 * where no outgoing connection can take one between the check and n8n's listen, and from a slice
 * of the Jest worker's own; a port something listens on is passed over.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

import { freePort } from '../../harness/n8n';

const ephemeralFirst = Number(
	readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0],
);

const listenOn = (port: number) =>
	new Promise<Server>((resolve, reject) => {
		const server = createServer();
		server.on('error', reject);
		server.listen(port, '127.0.0.1', () => resolve(server));
	});

describe('freePort', () => {
	it('hands out ports below the ephemeral range, a different one each time', async () => {
		const ports = [await freePort(), await freePort(), await freePort()];
		for (const port of ports) {
			expect(port).toBeGreaterThanOrEqual(10_000);
			expect(port).toBeLessThan(ephemeralFirst);
		}
		expect(new Set(ports).size).toBe(3);
	});

	it('passes over a port something listens on', async () => {
		const next = await freePort();
		// The port after `next` is the one the next call would try: taken, it is skipped.
		const taken = await listenOn(next + 1);
		try {
			const port = await freePort();
			expect(port).not.toBe(next + 1);
			expect(port).toBeGreaterThan(next + 1);
		} finally {
			await new Promise((resolve) => taken.close(resolve));
		}
	});
});
