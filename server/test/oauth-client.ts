import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
	OAuthClientInformationMixed,
	OAuthClientMetadata,
	OAuthTokens
} from '@modelcontextprotocol/sdk/shared/auth.js';

// An assistant's OAuth state, kept in memory: what a real MCP client stores between runs.
export class MemoryOAuthProvider implements OAuthClientProvider {
	authorizationUrl: URL | undefined;
	info: OAuthClientInformationMixed | undefined;
	saved: OAuthTokens | undefined;
	verifier = '';
	readonly clientMetadataUrl?: string;
	private readonly redirect: string;
	private readonly name: string;
	constructor(opts: { redirectUrl?: string; clientMetadataUrl?: string; name?: string } = {}) {
		this.redirect = opts.redirectUrl ?? 'http://127.0.0.1:33418/callback';
		this.clientMetadataUrl = opts.clientMetadataUrl;
		this.name = opts.name ?? 'Test Assistant';
	}
	get redirectUrl() {
		return this.redirect;
	}
	get clientMetadata(): OAuthClientMetadata {
		return {
			client_name: this.name,
			redirect_uris: [this.redirect],
			grant_types: ['authorization_code', 'refresh_token'],
			response_types: ['code'],
			token_endpoint_auth_method: 'none'
		};
	}
	state() {
		return 'st-123';
	}
	clientInformation() {
		return this.info;
	}
	saveClientInformation(info: OAuthClientInformationMixed) {
		this.info = info;
	}
	tokens() {
		return this.saved;
	}
	saveTokens(tokens: OAuthTokens) {
		this.saved = tokens;
	}
	redirectToAuthorization(url: URL) {
		this.authorizationUrl = url;
	}
	saveCodeVerifier(v: string) {
		this.verifier = v;
	}
	codeVerifier() {
		return this.verifier;
	}
}

export function mcpClient(mcpUrl: string, provider: OAuthClientProvider) {
	const client = new Client({ name: 'oauth-test', version: '1.0.0' });
	const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
	return { client, transport };
}

// The whole sign-in as an assistant performs it: connect (401 → discovery → registration or
// metadata document → authorization URL), let `approve` play the person on the consent screen
// (it gets the consent URL and returns where the browser lands), then finish and reconnect.
export async function connectWithOAuth(args: {
	mcpUrl: string;
	provider: MemoryOAuthProvider;
	approve: (consentUrl: string) => Promise<string>;
}): Promise<Client> {
	const first = mcpClient(args.mcpUrl, args.provider);
	await first.client.connect(first.transport).then(
		() => {
			throw new Error('connected without signing in');
		},
		(err: unknown) => {
			if (!(err instanceof UnauthorizedError)) throw err;
		}
	);
	const authorizationUrl = args.provider.authorizationUrl;
	if (!authorizationUrl) throw new Error('the client was not sent to authorize');
	const res = await fetch(authorizationUrl, { redirect: 'manual' });
	const consentUrl = res.headers.get('location');
	if (res.status !== 302 || !consentUrl)
		throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
	const landed = new URL(await args.approve(consentUrl));
	const code = landed.searchParams.get('code');
	if (!code) throw new Error(`no code in ${landed.href}`);
	await first.transport.finishAuth(code);
	const second = mcpClient(args.mcpUrl, args.provider);
	await second.client.connect(second.transport);
	return second.client;
}
