/**
 * The credential store and the authentication step, for an n8n without a database.
 *
 * What is provided: the store. Credentials are handed in per run (keyed by credential type)
 * instead of being read from n8n's database; they are still kept encrypted with n8n-core's
 * Credentials class and the instance's encryption key, and decrypted on use.
 *
 * What is real: the credential classes of this package, their property defaults (applied the
 * way n8n applies them when it decrypts a credential), and their `authenticate` definition. A
 * generic definition's keys and values, such as `X-API-KEY: ={{$credentials.apiKey}}`, are
 * resolved through the workflow's n8n expression engine with `$credentials` as an additional
 * key, which is what n8n's own credentials helper does.
 */
import { Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, isExpression, NodeHelpers, UnexpectedError } from 'n8n-workflow';

import { TrioVmsApi } from '../../credentials/TrioVmsApi.credentials';

/** Credential types known to the engine, by name. */
export class CredentialTypeRegistry {
	private readonly types = new Map<string, ICredentialType>();

	constructor(types: ICredentialType[] = [new TrioVmsApi()]) {
		for (const type of types) this.register(type);
	}

	register(type: ICredentialType): void {
		this.types.set(type.name, type);
	}

	recognizes(name: string): boolean {
		return this.types.has(name);
	}

	getByName(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) throw new UnexpectedError(`Unknown credential type "${name}" in the test engine`);
		return type;
	}
}

export class TestCredentialsHelper extends ICredentialsHelper {
	/** Encrypted, like n8n's database holds them: type -> Credentials. */
	private readonly store = new Map<string, Credentials>();

	constructor(
		private readonly credentialTypes: CredentialTypeRegistry = new CredentialTypeRegistry(),
	) {
		super();
	}

	async setCredentials(type: string, data: ICredentialDataDecryptedObject): Promise<void> {
		const credentials = new Credentials({ id: type, name: `${type} (test)` }, type);
		await credentials.setData(data);
		this.store.set(type, credentials);
	}

	has(type: string): boolean {
		return this.store.has(type);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (typeof authenticate === 'function')
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		if (!authenticate) return requestOptions as IHttpRequestOptions;
		if (authenticate.type !== 'generic') {
			throw new UnexpectedError(
				`Authentication type "${String(authenticate.type)}" is not supported by the test engine`,
			);
		}
		if (!workflow || !node)
			throw new UnexpectedError(
				'A generic credential needs the workflow and node to resolve its expressions',
			);

		// Each group (headers, qs, body, auth) gets every key/value resolved, as n8n does.
		const target = requestOptions as unknown as Record<string, IDataObject | undefined>;
		for (const [group, entries] of Object.entries(authenticate.properties)) {
			const resolvedGroup: IDataObject = { ...(target[group] ?? {}) };
			for (const [key, value] of Object.entries(entries as Record<string, unknown>)) {
				resolvedGroup[this.resolve(key, credentials, workflow, node)] = this.resolve(
					value,
					credentials,
					workflow,
					node,
				);
			}
			target[group] = resolvedGroup;
		}
		return requestOptions as IHttpRequestOptions;
	}

	private resolve(
		value: unknown,
		credentials: ICredentialDataDecryptedObject,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(value)) return String(value);
		const resolved = workflow.expression.getSimpleParameterValue(
			node,
			value as string,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		return resolved === undefined || resolved === null || resolved === false || resolved === ''
			? ''
			: String(resolved);
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		_node: INode,
		_credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		// The package's credential has no expirable token to refresh.
		return undefined;
	}

	async runPreAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	getParentTypes(name: string): string[] {
		const extended = this.credentialTypes.recognizes(name)
			? (this.credentialTypes.getByName(name).extends ?? [])
			: [];
		return extended.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		const type = this.credentialTypes.getByName(credentialType);
		if (!type.restrictToSupportedNodes) return true;
		return (type.supportedNodes ?? []).some(
			(name) => nodeType === name || nodeType.endsWith(`.${name}`),
		);
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		const credentials = this.store.get(type);
		if (!credentials) {
			throw new UnexpectedError(
				`No "${type}" credentials were given to the test engine (node credential "${nodeCredentials.name}")`,
			);
		}
		return credentials;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = await (await this.getCredentials(nodeCredentials, type)).getData();
		// n8n fills in the credential type's defaults for what the user left unset (e.g. the tenant).
		const withDefaults = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			stored as INodeParameters,
			true,
			false,
			null,
			null,
		);
		return (withDefaults ?? stored) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		await this.setCredentials(type, data);
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const current = (await this.store.get(type)?.getData()) ?? {};
		await this.setCredentials(type, { ...current, oauthTokenData: data.oauthTokenData });
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialTypes.getByName(type).properties;
	}
}
