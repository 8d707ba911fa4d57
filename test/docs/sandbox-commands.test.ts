/**
 * Every command examples/README.md gives for trying an example against the sandbox runs as
 * written (only the port differs) against a sandbox started as `npm run sandbox` starts it, and
 * the facts the text states about the sandbox's default data hold. What the commands make the
 * workflows do is asserted where the workflows run: test/e2e/examples.e2e.test.ts (it also runs
 * the one command here that reads what a workflow run sent, example 2's submission file).
 */
import { startSandbox, type RunningSandbox } from '../../sandbox';
import { curlCommands, readRepoFile, section, type ShellRequest } from './markdown';

const README = readRepoFile('examples/README.md');
const ADDRESS = 'http://127.0.0.1:4010';

function commandsOf(title: string): ShellRequest[] {
	const commands = curlCommands(section(README, title));
	for (const command of commands) expect(command.url.startsWith(ADDRESS)).toBe(true);
	return commands;
}

describe('the sandbox commands in examples/README.md', () => {
	let sandbox: RunningSandbox;
	let executed = 0;

	beforeEach(async () => {
		// `npm run sandbox`'s data: its defaults are the in-process sandbox's (seed 1, 300 jobs).
		sandbox = await startSandbox({ port: 0, quiet: true });
	});
	afterEach(async () => {
		await sandbox.idle();
		await sandbox.stop();
	});
	afterAll(() => {
		process.stdout.write(`Sandbox commands executed from examples/README.md: ${executed}\n`);
	});

	async function run(command: ShellRequest): Promise<{ status: number; body: unknown }> {
		const response = await fetch(command.url.replace(ADDRESS, sandbox.url), {
			method: command.method,
			headers: command.headers,
			body: command.body,
			signal: AbortSignal.timeout(10_000),
		});
		const text = await response.text();
		executed++;
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// not JSON: kept as text
		}
		return { status: response.status, body };
	}

	async function runAll(commands: ShellRequest[]): Promise<unknown[]> {
		const bodies: unknown[] = [];
		for (const command of commands) {
			const { status, body } = await run(command);
			expect({ command: command.command, status }).toEqual({
				command: command.command,
				status: 200,
			});
			bodies.push(body);
		}
		return bodies;
	}

	async function get(path: string): Promise<Record<string, unknown>> {
		const response = await fetch(`${sandbox.url}/_sandbox${path}`);
		expect(response.status).toBe(200);
		return (await response.json()) as Record<string, unknown>;
	}

	it('the README names the sandbox keys and address `npm run sandbox` uses', () => {
		const text = section(README, 'Trying the examples against the sandbox');
		expect(text).toContain(`**Base URL** \`${ADDRESS}\``);
		expect(text).toContain(`**API key** \`${sandbox.adminKey}\``);
		expect(text).toContain('port 4010; seed 1 and 300 jobs by default');
	});

	it('1. New jobs: the command opens a job', async () => {
		const [job] = (await runAll(commandsOf('1. New jobs'))) as Array<{
			Number: number;
			JobStatus: string;
		}>;
		expect(job.JobStatus).toBe('Open');
	});

	it("2. Spreadsheet: the default data is what the results table says; the commands reopen Luis's job and list submissions", async () => {
		const text = section(README, '2. Spreadsheet');
		expect(text).toContain('Rachel is already in the sandbox (candidate 5001)');
		const rachel = (await (
			await fetch(`${sandbox.apiUrl}/candidates?email=rachel.anderson.5001@example.com`, {
				headers: { 'X-API-KEY': sandbox.adminKey },
			})
		).json()) as Array<{ number: number }>;
		expect(rachel.map((candidate) => candidate.number)).toEqual([5001]);
		// Trio's OnHold, in the node's words for it.
		expect(text).toContain('job 100002 is On Hold');
		expect(JSON.stringify(await get('/jobs/100002'))).toContain('"JobStatus":"OnHold"');

		const commands = commandsOf('2. Spreadsheet');
		// The last command reads the file of a submission the workflow's run made: run there.
		const readsRunOutput = commands.filter((command) =>
			/\/submissions\/\d+\/file$/.test(command.url),
		);
		expect(readsRunOutput).toHaveLength(1);
		await runAll(commands.filter((command) => !readsRunOutput.includes(command)));
		expect(JSON.stringify(await get('/jobs/100002'))).toContain('"JobStatus":"Open"');
	});

	it('3. Offer: the command offers on a Submitted submission; the others named are open to offers too', async () => {
		const text = section(README, '3. Offer');
		const commands = commandsOf('3. Offer');
		const offered = Number(/submissions\/(\d+)\/status/.exec(commands[0].url)![1]);
		expect(text).toContain(`submission ${offered} (Submitted in the sandbox's default data)`);
		const before = await get(`/submissions/${offered}`);
		expect(JSON.stringify(before)).toContain('"Status":"Submitted"');
		const others = /Other submissions to try: (\d+) and (\d+)/.exec(text)!.slice(1).map(Number);
		for (const number of others)
			expect(JSON.stringify(await get(`/submissions/${number}`))).toMatch(
				/"Status":"(Submitted|Under Review)"/,
			);
		const bodies = await runAll(commands);
		expect(JSON.stringify(bodies[bodies.length - 1])).toContain('"Status":"Offered"');
	});

	it('4. Nightly job sync: the commands close, fill and open jobs as the text says', async () => {
		const commands = commandsOf('4. Nightly job sync');
		await runAll(commands);
		expect(JSON.stringify(await get('/jobs/100003'))).toContain('"NumberOfCurrentOpenPositions":0');
		// The text's follow-up, written inline: reopening job 100001.
		const text = section(README, '4. Nightly job sync');
		const reopen =
			/`curl -X POST (http:\/\/127\.0\.0\.1:4010\/_sandbox\/jobs\/100001\/reopen)`/.exec(text);
		expect(reopen).not.toBeNull();
		await runAll([{ command: reopen![0], method: 'POST', url: reopen![1], headers: {} }]);
	});

	it('5. Per diem shifts: the command opens two shifts in one delivery', async () => {
		const text = section(README, '5. Per diem shifts');
		expect(text).toContain('You get one delivery and two messages');
		const [opened] = (await runAll(commandsOf('5. Per diem shifts'))) as unknown[][];
		expect(opened).toHaveLength(2);
	});
});
