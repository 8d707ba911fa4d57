/**
 * The part of n8n's dependency-injection container that node execution needs, set up once per
 * test file (Jest gives every test file its own module registry, so its own Container).
 *
 * Everything here is n8n's own service class, resolved through the real Container: instance
 * settings, the logger, the cipher, the outbound HTTP client (OutboundHttp) and the binary data
 * service. What n8n would read from its database is either not needed to run nodes (instance id,
 * signing secrets: left at the values the classes derive themselves) or provided in memory (the
 * encryption key list: just the instance key).
 */
import { Container } from '@n8n/di';
import {
	BinaryDataService,
	Cipher,
	EncryptionKeyProxy,
	InstanceSettings,
	type KeyInfo,
} from 'n8n-core';
import { Expression } from 'n8n-workflow';

import { startDeduplicationService } from './deduplication';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type BinaryDataMode = 'filesystem' | 'default';

export interface EngineEnvironment {
	/** Temporary n8n user folder: its settings file, and binary data in filesystem mode. */
	userFolder: string;
	binaryDataMode: BinaryDataMode;
}

let environment: EngineEnvironment | undefined;
let ready: Promise<EngineEnvironment> | undefined;

function removeUserFolder(): void {
	if (environment) rmSync(environment.userFolder, { recursive: true, force: true });
}

// Clean up after the test file that loaded the engine; the exit hook covers use outside Jest
// (and a module first loaded from inside a running test, where Jest refuses new hooks).
const jestAfterAll = (globalThis as { afterAll?: (fn: () => void) => void }).afterAll;
let cleanupRegistered = false;
try {
	if (typeof jestAfterAll === 'function') {
		jestAfterAll(removeUserFolder);
		cleanupRegistered = true;
	}
} catch {
	cleanupRegistered = false;
}
if (!cleanupRegistered) process.once('exit', removeUserFolder);

/**
 * Prepares the Container. The environment variables are n8n's own configuration switches; they
 * must be set before the first Container.get because @n8n/config reads them when a config class
 * is first constructed. Values already set in the environment win, so a developer can e.g. run
 * with N8N_LOG_LEVEL=debug or N8N_DEFAULT_BINARY_DATA_MODE=default.
 */
export async function ensureEngineContainer(): Promise<EngineEnvironment> {
	ready ??= (async () => {
		const userFolder = mkdtempSync(join(tmpdir(), 'trio-vms-engine-'));
		environment = { userFolder, binaryDataMode: 'filesystem' };
		process.env.N8N_USER_FOLDER = userFolder;
		process.env.N8N_LOG_LEVEL ??= 'silent';
		process.env.N8N_DIAGNOSTICS_ENABLED ??= 'false';
		// Binary data goes to files under the temporary user folder, as in a default n8n install.
		process.env.N8N_DEFAULT_BINARY_DATA_MODE ??= 'filesystem';
		environment.binaryDataMode =
			process.env.N8N_DEFAULT_BINARY_DATA_MODE === 'default' ? 'default' : 'filesystem';

		// isolated-vm is not built here, so expressions must use n8n's in-process (legacy) evaluator.
		// It is the default; setting it says so, and guards against another test switching it.
		Expression.setExpressionEngine('legacy');

		// Creates the settings file (encryption key) in the temporary folder.
		const settings = Container.get(InstanceSettings);
		// n8n keeps its data-encryption keys in its database. Without one, the only key is the
		// instance key from the settings file, described the way n8n describes that legacy key.
		const instanceKey: KeyInfo = {
			id: 'instance',
			value: Container.get(Cipher).encryptDEKWithInstanceKey(settings.encryptionKey),
			algorithm: 'aes-256-cbc',
			format: 'no-prefix',
		};
		Container.get(EncryptionKeyProxy).setProvider({
			getActiveKey: async () => instanceKey,
			getKeyById: async (id) => (id === instanceKey.id ? instanceKey : null),
			getLegacyKey: async () => instanceKey,
		});
		if (environment.binaryDataMode === 'filesystem') {
			// Without init() the service keeps binary data inline as base64 ("default" mode).
			await Container.get(BinaryDataService).init();
		}
		// The store behind this.helpers.checkProcessedAndRecord (deduplication.ts).
		await startDeduplicationService();
		return environment;
	})();
	return await ready;
}
