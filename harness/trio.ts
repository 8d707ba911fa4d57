/**
 * What every real-n8n suite sets up the same way: a Trio VMS credential for the sandbox (or any
 * service that stands in for Trio), and one n8n with the packed package and that credential.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { startN8n, type N8nInstance, type StartN8nOptions, type WorkflowJson } from './n8n';
import { packPackage } from './pack';

/** A saved credential as workflow JSON refers to it. */
export interface CredentialRef {
	id: string;
	name: string;
}

/** A Trio VMS account: where it answers and its two keys (webhook management needs the admin one). */
export interface TrioAccount {
	url: string;
	adminKey: string;
	key: string;
}

/** One webhook registration as Trio's GET /api/v3/Webhooks lists it (the sandbox's own type). */
export type { Registration } from '../sandbox/types';

/** Which of the account's keys a credential holds; 'admin' can also manage webhooks. */
type KeyKind = 'admin' | 'plain';

/** The data of a Trio VMS credential for the Custom environment at `url`. */
export function trioCredentialData(url: string, apiKey: string): Record<string, string> {
	return { apiKey, environment: 'custom', baseUrl: url };
}

/** Saves a Trio VMS credential for the account in n8n, with its admin key unless told otherwise. */
export async function createTrioCredential(
	n8n: Pick<N8nInstance, 'createCredential'>,
	name: string,
	account: TrioAccount,
	key: KeyKind = 'admin',
): Promise<CredentialRef> {
	const apiKey = key === 'admin' ? account.adminKey : account.key;
	const created = await n8n.createCredential(
		name,
		'trioVmsApi',
		trioCredentialData(account.url, apiKey),
	);
	return { id: created.id, name: created.name };
}

/**
 * A workflow of one Trio VMS Trigger node ('Trio VMS Trigger' unless `nodeName`), to save and
 * activate; its production URL is productionWebhookUrl(webhookId, 'webhook').
 */
export function triggerWorkflow(
	name: string,
	webhookId: string,
	parameters: Record<string, unknown>,
	credential: CredentialRef,
	nodeName = 'Trio VMS Trigger',
): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: nodeName,
				type: 'n8n-nodes-trio-vms.trioVmsTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters,
				credentials: { trioVmsApi: { id: credential.id, name: credential.name } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

export interface TrioN8nOptions extends Omit<StartN8nOptions, 'tarball' | 'userFolder'> {
	/** The service the credential points to, started by the caller; stopped with the rest. */
	account: TrioAccount & { stop(): Promise<void> };
	/** Default 'Trio sandbox'. */
	credentialName?: string;
	/** Default 'admin'. */
	key?: KeyKind;
	/**
	 * Give n8n a user folder of its own under os.tmpdir() with this prefix, kept until stop(), for
	 * a test that reads it or starts n8n again on it (restart()).
	 */
	userFolderPrefix?: string;
	/** Give n8n this user folder (kept on stop()), e.g. its HOME, as n8n has when nothing moves it. */
	userFolder?: string;
}

export interface TrioN8n {
	/** The running n8n (a new one after restart()). */
	n8n: N8nInstance;
	credential: CredentialRef;
	userFolder: string | undefined;
	/** Stops n8n and starts it again on the same user folder (a new port unless `port`). */
	restart(port?: number): Promise<N8nInstance>;
	/** Stops n8n and the account's service, and removes the user folder made for it. */
	stop(): Promise<void>;
}

/**
 * Starts n8n with the packed package and a Trio VMS credential for `account`. When anything
 * fails the account's service is stopped too, so a failed beforeAll leaves nothing running.
 */
export async function startN8nWithTrio(options: TrioN8nOptions): Promise<TrioN8n> {
	const {
		account,
		credentialName = 'Trio sandbox',
		key = 'admin',
		userFolderPrefix,
		userFolder: givenFolder,
		...start
	} = options;
	const madeFolder = userFolderPrefix
		? fs.mkdtempSync(path.join(os.tmpdir(), userFolderPrefix))
		: undefined;
	const userFolder = givenFolder ?? madeFolder;
	let n8n: N8nInstance | undefined;
	const stop = async (): Promise<void> => {
		await n8n?.stop();
		await account.stop();
		if (madeFolder) fs.rmSync(madeFolder, { recursive: true, force: true });
	};
	try {
		const tarball = await packPackage();
		n8n = await startN8n({ ...start, tarball, userFolder });
		const credential = await createTrioCredential(n8n, credentialName, account, key);
		const setup: TrioN8n = {
			n8n,
			credential,
			userFolder,
			restart: async (port) => {
				await setup.n8n.stop();
				n8n = undefined;
				n8n = await startN8n({ ...start, tarball, userFolder, ...(port ? { port } : {}) });
				setup.n8n = n8n;
				return n8n;
			},
			stop,
		};
		return setup;
	} catch (error) {
		await stop().catch(() => undefined);
		throw error;
	}
}
