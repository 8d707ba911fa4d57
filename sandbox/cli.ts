/* eslint
	"@n8n/community-nodes/no-restricted-globals": "off",
	"no-console": "off"
	-- not in the package: n8n's rules for the code users install do not apply here */
/**
 * npm run sandbox -- --port 4010 --jobs 200 --seed 1 --admin-key KEY --key KEY
 * Starts the sandbox and prints what to type into the n8n credential.
 */
import { parseFlags, usage, whole, type FlagSpec } from './cli-args';
import { DEFAULTS, startSandbox } from './index';
import type { SandboxOptions } from './index';

const FLAGS = {
	port: {
		value: 'N',
		help: `port to listen on (default ${DEFAULTS.cliPort}; 0 picks a free one)`,
		read: whole(0, 65_535),
	},
	host: {
		value: 'HOST',
		help: `interface to bind (default ${DEFAULTS.host}; 0.0.0.0 lets n8n in Docker reach it)`,
	},
	jobs: { value: 'N', help: `seeded jobs (default ${DEFAULTS.jobs})`, read: whole() },
	seed: { value: 'N', help: `seed of all invented data (default ${DEFAULTS.seed})`, read: whole() },
	'admin-key': {
		value: 'KEY',
		help: `key with the agency administrator permission (default ${DEFAULTS.adminKey})`,
	},
	key: { value: 'KEY', help: `plain agency key (default ${DEFAULTS.key})` },
	'allow-http-webhooks': {
		help: 'accept http:// webhook URLs on any host (loopback http is always accepted)',
	},
	quiet: { help: 'no request and delivery lines' },
} satisfies Record<string, FlagSpec>;

const USAGE = usage('Usage: tsx sandbox/cli.ts [options]', FLAGS);

function parseArgs(argv: string[]): SandboxOptions {
	const { help, values } = parseFlags(argv, FLAGS);
	if (help) {
		console.log(USAGE);
		process.exit(0);
	}
	return {
		port: values.port ?? DEFAULTS.cliPort,
		host: values.host,
		jobs: values.jobs,
		seed: values.seed,
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
