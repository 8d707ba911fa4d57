/**
 * The local Trio VMS sandbox: a stand-in for the real service, which cannot be reached, that
 * behaves as the specification and docs/service-notes say, so the nodes are tested over real
 * HTTP and flows can be built without a key. See sandbox/README.md.
 */
import type { DeliveryRecord } from './deliveries';
import type { FaultConfig } from './faults';
import { faultConfigSchema } from './faults';
import type { PerDiem } from './per-diem';
import type { RequestRecord } from './request-log';
import { Sandbox } from './server';
import type { Store } from './store';

export interface SandboxOptions {
	/** 0 picks a free port (the default here); the CLI defaults to 4010. */
	port?: number;
	/** Interface to bind; default 127.0.0.1. */
	host?: string;
	/** Seed of every invented value; default 1. */
	seed?: number;
	/** Number of seeded jobs; default 300. */
	jobs?: number;
	/** Key with the agency administrator permission (webhook management); default 'sandbox-admin-key'. */
	adminKey?: string;
	/** Plain agency key (everything but webhook management); default 'sandbox-agency-key'. */
	key?: string;
	/** No request or delivery lines on the console. */
	quiet?: boolean;
	/** Day the seeded dates are relative to (default: today, UTC); fix it for byte-identical data. */
	referenceDate?: Date | string;
	/** How long a webhook receiver may take to answer; default 10 s as the service waits. */
	deliveryTimeoutMs?: number;
	/** Accept http:// webhook URLs on any host, e.g. n8n in Docker; loopback http is always accepted. */
	allowHttpWebhooks?: boolean;
}

export interface RunningSandbox {
	/** 'http://127.0.0.1:PORT': the credential's Base URL; the API is under `${url}/api/v3`. */
	url: string;
	/** `${url}/api/v3` */
	apiUrl: string;
	port: number;
	adminKey: string;
	key: string;
	/** Closes the server, in-flight deliveries and timers: no open handles. */
	stop(): Promise<void>;
	/** Resolves once every webhook delivery under way (duplicates included) has finished. */
	idle(): Promise<void>;
	deliveries(): DeliveryRecord[];
	clearDeliveries(): void;
	requests(): RequestRecord[];
	clearRequests(): void;
	setFaults(config: Partial<FaultConfig>): void;
	clearFaults(): void;
	/** The agency revokes one of its two keys in Trio, or takes that back (`revoked` false). */
	revokeKey(key: string, revoked?: boolean): void;
	/** The latencies (ms) of the requests a latency fault is holding now. */
	heldRequests(): number[];
	/** Ends every latency fault's wait now. */
	releaseHeld(): void;
	/** The clock rate limits count on (undefined: the machine's), so a test can run on virtual time. */
	useFaultClock(now: (() => number) | undefined): void;
	/** Reseeds all data; clears registrations (unless kept), faults and logs. */
	reset(options?: { seed?: number; jobs?: number; keepWebhooks?: boolean }): void;
	/** Unexpected exceptions the server answered with 500. */
	readonly internalErrors: readonly Error[];
	/** Direct access to the state and its rules (the same ones the scenario API uses). */
	store: Store;
	perDiem: PerDiem;
}

export const DEFAULTS = {
	port: 0,
	cliPort: 4010,
	host: '127.0.0.1',
	seed: 1,
	jobs: 300,
	adminKey: 'sandbox-admin-key',
	key: 'sandbox-agency-key',
} as const;

function checkOptions(options: SandboxOptions): void {
	const problems: string[] = [];
	if (
		options.port !== undefined &&
		(!Number.isInteger(options.port) || options.port < 0 || options.port > 65_535)
	)
		problems.push('port must be 0..65535');
	if (options.seed !== undefined && !Number.isSafeInteger(options.seed))
		problems.push('seed must be a whole number');
	if (options.jobs !== undefined && (!Number.isSafeInteger(options.jobs) || options.jobs < 0))
		problems.push('jobs must be a whole number, 0 or more');
	if (options.adminKey === '' || options.key === '') problems.push('keys must not be empty');
	if ((options.adminKey ?? DEFAULTS.adminKey) === (options.key ?? DEFAULTS.key))
		problems.push('adminKey and key must differ, or the permission check means nothing');
	if (
		options.referenceDate !== undefined &&
		Number.isNaN(new Date(options.referenceDate).getTime())
	)
		problems.push('referenceDate is not a date');
	if (problems.length > 0) throw new Error(`startSandbox: ${problems.join('; ')}`);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	checkOptions(options);
	const sandbox = new Sandbox({
		port: options.port ?? DEFAULTS.port,
		host: options.host ?? DEFAULTS.host,
		seed: options.seed ?? DEFAULTS.seed,
		jobs: options.jobs ?? DEFAULTS.jobs,
		adminKey: options.adminKey ?? DEFAULTS.adminKey,
		key: options.key ?? DEFAULTS.key,
		quiet: options.quiet ?? false,
		referenceDate:
			options.referenceDate === undefined ? undefined : new Date(options.referenceDate),
		deliveryTimeoutMs: options.deliveryTimeoutMs,
		allowHttpWebhooks: options.allowHttpWebhooks ?? false,
	});
	const url = await sandbox.listen();
	return {
		url,
		apiUrl: `${url}/api/v3`,
		port: Number(new URL(url).port),
		adminKey: sandbox.config.adminKey,
		key: sandbox.config.key,
		stop: () => sandbox.stop(),
		idle: () => sandbox.deliveries.idle(),
		deliveries: () => sandbox.deliveries.records(),
		clearDeliveries: () => sandbox.deliveries.clear(),
		requests: () => sandbox.requests.records(),
		clearRequests: () => sandbox.requests.clear(),
		setFaults: (config) => sandbox.faults.set(faultConfigSchema.parse(config)),
		clearFaults: () => sandbox.faults.clear(),
		revokeKey: (key, revoked = true) => {
			if (key !== sandbox.config.adminKey && key !== sandbox.config.key)
				throw new Error('revokeKey: not one of the sandbox keys');
			if (revoked) sandbox.revokedKeys.add(key);
			else sandbox.revokedKeys.delete(key);
		},
		heldRequests: () => sandbox.heldRequests(),
		releaseHeld: () => sandbox.releaseHeld(),
		useFaultClock: (now) => {
			sandbox.faultClock = now ?? (() => Date.now());
		},
		reset: (resetOptions) => sandbox.reset(resetOptions),
		get internalErrors() {
			return sandbox.internalErrors;
		},
		store: sandbox.store,
		perDiem: sandbox.perDiem,
	};
}

export type { DeliveryRecord } from './deliveries';
export type { EndpointFault, FaultConfig } from './faults';
export type { RequestRecord } from './request-log';
export { SANDBOX_WITHDRAW_REASONS } from './store';
