/**
 * The harness's PostgreSQL and Redis (harness/services.ts) start on loopback, answer, and
 * leave nothing behind: neither on stop() nor when the test process is killed outright.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { isAlive, killGroup, run } from '../../harness/exec';
import { REPO_ROOT } from '../../harness/pack';
import { startPostgres, startRedis } from '../../harness/services';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function gone(pids: number[], folders: string[], timeoutMs: number): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (pids.every((pid) => !isAlive(pid)) && folders.every((folder) => !fs.existsSync(folder)))
			return true;
		if (Date.now() > deadline) return false;
		await sleep(250);
	}
}

describe('PostgreSQL and Redis for the real-n8n harness', () => {
	test('start on 127.0.0.1, answer, and stop() removes process and folder', async () => {
		const [postgres, redis] = await Promise.all([
			startPostgres({ database: 'probe' }),
			startRedis(),
		]);
		try {
			await postgres.createDatabase('second');
			const bin = path.dirname(fs.realpathSync(fs.readlinkSync(`/proc/${postgres.pid}/exe`)));
			const listed = await run(
				path.join(bin, 'psql'),
				[
					'-h',
					'127.0.0.1',
					'-p',
					String(postgres.port),
					'-U',
					'postgres',
					'-At',
					'-c',
					'SELECT datname FROM pg_database ORDER BY 1',
				],
				{ timeoutMs: 30_000 },
			);
			expect(listed.stdout.split('\n')).toEqual(expect.arrayContaining(['probe', 'second']));
			const pong = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(redis.port), 'PING'], {
				timeoutMs: 30_000,
			});
			expect(pong.stdout.trim()).toBe('PONG');
			// Loopback only.
			const listening = fs.readFileSync('/proc/net/tcp', 'utf8');
			for (const port of [postgres.port, redis.port]) {
				const hex = port.toString(16).toUpperCase().padStart(4, '0');
				const lines = listening
					.split('\n')
					.filter((line) => line.includes(`:${hex} 00000000:0000 0A`));
				expect(lines.length).toBeGreaterThan(0);
				expect(lines.every((line) => line.trim().split(/\s+/)[1].startsWith('0100007F:'))).toBe(
					true,
				);
			}
		} finally {
			await Promise.all([postgres.stop(), redis.stop()]);
		}
		expect(await gone([postgres.pid, redis.pid], [postgres.folder, redis.folder], 5000)).toBe(true);
	});

	test('a test process killed with SIGKILL leaves neither server nor folder behind', async () => {
		const script = `
			const { startPostgres, startRedis } = require(${JSON.stringify(path.join(REPO_ROOT, 'harness/services.ts'))});
			Promise.all([startPostgres(), startRedis()]).then(([p, r]) => {
				process.stdout.write(JSON.stringify({ pids: [p.pid, r.pid], folders: [p.folder, r.folder] }) + '\\n');
				setTimeout(() => process.exit(0), 120000);
			});
		`;
		const child = spawn(path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), ['-e', script], {
			cwd: os.tmpdir(),
			detached: true,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		try {
			const started = await new Promise<{ pids: number[]; folders: string[] }>(
				(resolve, reject) => {
					let output = '';
					const timer = setTimeout(
						() => reject(new Error(`no start within 60 s: ${output}`)),
						60_000,
					);
					child.stdout?.on('data', (data: Buffer) => {
						output += data.toString('utf8');
						const line = output.split('\n').find((each) => each.startsWith('{'));
						if (line) {
							clearTimeout(timer);
							resolve(JSON.parse(line) as { pids: number[]; folders: string[] });
						}
					});
					child.stderr?.on('data', (data: Buffer) => {
						output += data.toString('utf8');
					});
				},
			);
			expect(started.pids.every(isAlive)).toBe(true);
			// The test process dies without running anything: only the reapers can clean up.
			killGroup(child.pid, 'SIGKILL');
			expect(await gone(started.pids, started.folders, 15_000)).toBe(true);
		} finally {
			killGroup(child.pid, 'SIGKILL');
		}
	});
});
