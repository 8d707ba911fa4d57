import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

/**
 * The agency's API key and where the service lives. The key leaves n8n only in the X-API-KEY
 * header that n8n adds from `authenticate`. The nodes read it, but only to mask it in error
 * messages, to derive keys for their own memories (hashed) and to sign the trigger's delivery
 * tokens; they never send it anywhere else.
 */
export class TrioVmsApi implements ICredentialType {
	name = 'trioVmsApi';

	displayName = 'Trio VMS API';

	icon: Icon = {
		light: 'file:../nodes/shared/trioVms.svg',
		dark: 'file:../nodes/shared/trioVms.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-trio-vms/n8n-nodes-trio-vms#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Your agency API key. Create it on your User Profile page in the Trio web application, or ask your MSP contact for one.',
		},
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{
					name: 'Production',
					value: 'production',
					description: 'https://api.triovms.com/{tenant}',
				},
				{
					name: 'UAT (Testing)',
					value: 'uat',
					description: 'https://api-uat.triovms.com/{tenant}',
				},
				{
					name: 'Custom URL',
					value: 'custom',
					description: 'Another address, such as a test copy of Trio',
				},
			],
			default: 'production',
		},
		{
			displayName: 'Tenant',
			name: 'tenant',
			type: 'string',
			default: 'ahsa',
			required: true,
			description:
				'Your managed-service provider\'s part of the address, e.g. "ahsa" in https://api.triovms.com/ahsa. Ask your MSP contact if unsure.',
			displayOptions: { show: { environment: ['production', 'uat'] } },
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. http://127.0.0.1:4010',
			description:
				'The address of the Trio service, up to but not including /api/v3. It must start with https://; http:// works only for a test service on this computer.',
			displayOptions: { show: { environment: ['custom'] } },
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-API-KEY': '={{$credentials.apiKey}}',
			},
		},
	};

	/**
	 * A candidate lookup for an address that cannot exist: the cheapest call every key may make,
	 * answered with an empty list. The base URL rule is the one in nodes/shared/credentials.ts:
	 * a Custom URL over plain http:// to any host but this machine is replaced by an address under
	 * .invalid (RFC 6761: never resolves), so the key is not sent in clear and the error names why.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL:
				'={{ $credentials.environment === "custom" ? (/^http:\\/\\//i.test(String($credentials.baseUrl).trim()) && !/^http:\\/\\/(localhost|127(\\.\\d{1,3}){3}|\\[::1\\])(:\\d+)?(\\/|$)/i.test(String($credentials.baseUrl).trim()) ? "https://plain-http-is-allowed-only-for-localhost.invalid" : String($credentials.baseUrl).trim().replace(/\\/+$/, "").replace(/\\/api\\/v3$/i, "")) : ($credentials.environment === "uat" ? "https://api-uat.triovms.com/" : "https://api.triovms.com/") + encodeURIComponent(String($credentials.tenant || "ahsa").trim().replace(/^\\/+|\\/+$/g, "")) }}',
			url: '/api/v3/candidates',
			qs: { email: 'n8n-credential-test@example.invalid' },
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The service refused the API key: it is wrong, expired or lacks permission. Create a new key on your Trio User Profile page or ask your MSP contact.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Nothing answers at this address. Check the environment, the tenant or the base URL (it must end before /api/v3).',
				},
			},
		],
	};
}
