/**
 * npm run sandbox -- --port 4010 --jobs 200 --seed 1 --admin-key KEY --key KEY
 * Starts the sandbox and prints what to type into the n8n credential.
 */
import { parseArgs as readArgs } from 'node:util';

import { DEFAULTS, startSandbox } from './index';
import type { SandboxOptions } from './index';

const USAGE = `Usage: tsx sandbox/cli.ts [options]

  --port N               port to listen on (default ${DEFAULTS.cliPort}; 0 picks a free one)
  --host HOST            interface to bind (default ${DEFAULTS.host}; 0.0.0.0 lets n8n in Docker reach it)
  --jobs N               seeded jobs (default ${DEFAULTS.jobs})
  --seed N               seed of all invented data (default ${DEFAULTS.seed})
  --admin-key KEY        key with the agency administrator permission (default ${DEFAULTS.adminKey})
  --key KEY              plain agency key (default ${DEFAULTS.key})
  --allow-http-webhooks  accept http:// webhook URLs on any host (loopback http is always accepted)
  --quiet                no request and delivery lines
  --help                 this text`;

const text = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;

/** The number given to `--name`, if any; anything but a whole number (from 0 to `max`) is refused. */
function count(name: string, given: string | undefined, max?: number): number | undefined {
	if (given === undefined) return undefined;
	const value = Number(given);
	const outside = max !== undefined && (value < 0 || value > max);
	if (given.trim() === '' || !Number.isInteger(value) || outside)
		throw new Error(
			`--${name} needs a whole number${max === undefined ? '' : ` from 0 to ${max}`}, got ${JSON.stringify(given)}`,
		);
	return value;
}

function parseArgs(argv: string[]): SandboxOptions {
	const { values } = readArgs({
		args: argv,
		options: {
			port: text,
			host: text,
			jobs: text,
			seed: text,
			'admin-key': text,
			key: text,
			'allow-http-webhooks': flag,
			quiet: flag,
			help: { type: 'boolean', short: 'h' },
		},
	});
	if (values.help) {
		console.log(USAGE);
		process.exit(0);
	}
	return {
		port: count('port', values.port, 65_535) ?? DEFAULTS.cliPort,
		host: values.host,
		jobs: count('jobs', values.jobs),
		seed: count('seed', values.seed),
		adminKey: values['admin-key'],
		key: values.key,
		allowHttpWebhooks: values['allow-http-webhooks'],
		quiet: values.quiet,
	};
}

async function main(): Promise<void> {
	let options: SandboxOptions;
	try {
		options = parseArgs(process.argv.slice(2));
	} catch (error) {
		console.error(`${(error as Error).message}\n\n${USAGE}`);
		process.exit(2);
	}
	const started = Date.now();
	const sandbox = await startSandbox(options);
	const scenario = `${sandbox.url}/_sandbox`;
	console.log(`Trio VMS sandbox ready in ${Date.now() - started} ms (seed ${options.seed ?? DEFAULTS.seed}, ${options.jobs ?? DEFAULTS.jobs} jobs)

  n8n credential "Trio VMS API":
    Environment   Custom URL
    Base URL      ${sandbox.url}
    API key       ${sandbox.adminKey}   (agency admin: everything, including webhooks / the trigger)
                  ${sandbox.key}   (plain agency user: everything but webhook management)

  API             ${sandbox.apiUrl}   e.g. curl -H 'X-API-KEY: ${sandbox.key}' ${sandbox.apiUrl}/Job
  Scenario API    ${scenario}   (no key; act as the facility and the MSP, each action fires its event)
    curl ${scenario}                                   state summary and every route
    curl -X POST ${scenario}/jobs -H 'Content-Type: application/json' -d '{"Title":"RN - ICU (Nights)"}'
    curl -X POST ${scenario}/submissions/90001/status -H 'Content-Type: application/json' -d '{"status":"Rejected"}'
    curl -X POST ${scenario}/per-diem/shifts -H 'Content-Type: application/json' -d '{"count":3}'
    curl ${scenario}/deliveries?wait=1                what the webhooks received
  See sandbox/README.md for every route, faults and the decisions taken where the spec is silent.

Ctrl-C stops.`);

	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) {
			console.log('forced exit');
			process.exit(1);
		}
		stopping = true;
		console.log(`\n${signal}: stopping (deliveries under way are aborted; Ctrl-C again to force)`);
		void sandbox.stop().then(() => process.exit(0));
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

void main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
