/**
 * The set-up of a describe that runs against one real n8n: before its tests, a sandbox and an n8n
 * with the packed package and a Trio VMS credential for that sandbox (harness/trio.ts); after
 * them, both stopped, whatever happened.
 */
import type { RunningSandbox, SandboxOptions } from '../../sandbox';
import type { N8nInstance } from '../../harness/n8n';
import {
	startN8nWithTrio,
	type CredentialRef,
	type TrioN8n,
	type TrioN8nOptions,
} from '../../harness/trio';
import { startTestSandbox } from './sandbox-client';

export interface RealN8n {
	sandbox: RunningSandbox;
	n8n: N8nInstance;
	credential: CredentialRef;
}

/** Registers the describe's beforeAll and afterAll; `take` receives what started. */
export function useRealN8n(
	sandboxOptions: Omit<SandboxOptions, 'port' | 'quiet'>,
	options: Omit<TrioN8nOptions, 'account'>,
	take: (started: RealN8n) => void,
): void {
	let setup: TrioN8n | undefined;
	beforeAll(async () => {
		const sandbox = await startTestSandbox(sandboxOptions);
		setup = await startN8nWithTrio({ ...options, account: sandbox });
		take({ sandbox, n8n: setup.n8n, credential: setup.credential });
	});
	afterAll(() => setup?.stop());
}
