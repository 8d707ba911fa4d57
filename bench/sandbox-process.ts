/**
 * The sandbox in a process of its own, started by bench/support.ts (startSandboxProcess), so that
 * the server's own work never counts in the memory measured in the benchmark process, and its
 * CPU time runs beside the client's rather than inside it.
 *
 * Protocol over the IPC channel: it sends { url, apiUrl, key, adminKey } once listening, stops on
 * the message 'stop' (or when the parent goes away) and exits.
 */
import { startSandbox } from '../sandbox';

async function main(): Promise<void> {
	const jobs = Number(process.env.BENCH_SANDBOX_JOBS ?? 10_000);
	const sandbox = await startSandbox({
		port: 0,
		host: '127.0.0.1',
		jobs,
		seed: 1,
		quiet: true,
		referenceDate: '2026-03-01',
	});
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		await sandbox.stop();
		process.exit(0);
	};
	process.on('message', (message) => {
		if (message === 'stop') void stop();
	});
	process.on('disconnect', () => void stop());
	process.send?.({
		url: sandbox.url,
		apiUrl: sandbox.apiUrl,
		key: sandbox.key,
		adminKey: sandbox.adminKey,
	});
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
