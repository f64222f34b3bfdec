import * as oidc from 'openid-client';
import { z } from 'zod';
import type { AuthProviderConfig } from '../config.ts';
import type { SignInFailure, SignInFlow } from '../domain/auth/schemas.ts';
import { ServiceError } from '../domain/errors.ts';

// OAuth / OpenID Connect sign-in for the dashboard, on panva's `openid-client` v6 (certified
// OpenID Connect relying party, the protocol checks done for us: state, PKCE S256, nonce, ID
// token claims, issuer). GitHub is plain OAuth 2 with its endpoints preset; Google and any other
// issuer are OpenID Connect, Google preset, the others by discovery on first use.

export type ProviderProfile = {
	provider: string;
	subject: string;
	email: string | null;
	emailVerified: boolean;
};

// A sign-in that did not happen: UNAUTHORIZED, with the reason the sign-in page explains.
export class ProviderSignInError extends ServiceError {
	readonly reason: SignInFailure;
	constructor(reason: SignInFailure, message: string, options?: { cause?: unknown }) {
		super('UNAUTHORIZED', message, options);
		this.reason = reason;
	}
}

const GITHUB = {
	issuer: 'https://github.com/login/oauth',
	authorization_endpoint: 'https://github.com/login/oauth/authorize',
	token_endpoint: 'https://github.com/login/oauth/access_token'
};
const GITHUB_API = 'https://api.github.com';
const GOOGLE = {
	issuer: 'https://accounts.google.com',
	authorization_endpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
	token_endpoint: 'https://oauth2.googleapis.com/token',
	userinfo_endpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
	jwks_uri: 'https://www.googleapis.com/oauth2/v3/certs'
};

export class SignInProviders {
	readonly list: Array<{ id: string; name: string }>;
	private readonly byId: Map<string, AuthProviderConfig>;
	private readonly configs = new Map<string, Promise<oidc.Configuration>>();
	private readonly dashboardUrl: string;

	constructor(args: { providers: AuthProviderConfig[]; dashboardUrl: string }) {
		this.byId = new Map(args.providers.map((p) => [p.id, p]));
		this.list = args.providers.map((p) => ({ id: p.id, name: p.name }));
		this.dashboardUrl = args.dashboardUrl.replace(/\/$/, '');
	}

	// The address to register at the provider (Auth.js's path, so existing apps keep working).
	callbackUrl(id: string): string {
		return `${this.dashboardUrl}/api/auth/callback/${id}`;
	}

	async start(args: {
		provider: string;
		next?: string;
	}): Promise<{ url: string; flow: SignInFlow }> {
		const provider = this.get(args.provider);
		const config = await this.configuration(provider);
		const verifier = oidc.randomPKCECodeVerifier();
		const flow: SignInFlow = {
			provider: provider.id,
			state: oidc.randomState(),
			verifier,
			nonce: provider.kind === 'github' ? undefined : oidc.randomNonce(),
			next: args.next
		};
		const url = oidc.buildAuthorizationUrl(config, {
			redirect_uri: this.callbackUrl(provider.id),
			scope: provider.kind === 'github' ? 'read:user user:email' : 'openid email profile',
			state: flow.state,
			code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
			code_challenge_method: 'S256',
			...(flow.nonce ? { nonce: flow.nonce } : {})
		});
		return { url: url.href, flow };
	}

	// The provider sent the browser back with `search` (code and state, or an error).
	async finish(args: { search: string; flow: SignInFlow }): Promise<ProviderProfile> {
		const provider = this.get(args.flow.provider);
		const config = await this.configuration(provider);
		const current = new URL(`${this.callbackUrl(provider.id)}${args.search}`);
		let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
		try {
			tokens = await oidc.authorizationCodeGrant(config, current, {
				pkceCodeVerifier: args.flow.verifier,
				expectedState: args.flow.state,
				expectedNonce: args.flow.nonce,
				idTokenExpected: provider.kind !== 'github'
			});
		} catch (err) {
			throw grantError(provider, err);
		}
		if (provider.kind === 'github') return githubProfile(config, provider, tokens.access_token);
		const claims = tokens.claims();
		if (!claims) throw new ProviderSignInError('provider', `${provider.name} sent no ID token`);
		let info: Record<string, unknown> = claims;
		// Many issuers (oidc-provider by default) put e-mail in userinfo, not in the ID token.
		if (claims.email === undefined || claims.email_verified === undefined) {
			info = {
				...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub).catch((err) => {
					throw new ProviderSignInError('provider', `${provider.name} userinfo failed`, {
						cause: err
					});
				})),
				...claims
			};
		}
		return {
			provider: provider.id,
			subject: claims.sub,
			email: typeof info.email === 'string' ? info.email.toLowerCase() : null,
			// Some issuers send the string "true".
			emailVerified: info.email_verified === true || info.email_verified === 'true'
		};
	}

	private get(id: string): AuthProviderConfig {
		const provider = this.byId.get(id);
		if (!provider) throw new ProviderSignInError('provider', `no sign-in provider ${id}`);
		return provider;
	}

	// Discovery runs once per provider, on first use, so an unreachable issuer never stops the
	// boot; a failed discovery is forgotten and tried again next time.
	private configuration(p: AuthProviderConfig): Promise<oidc.Configuration> {
		let config = this.configs.get(p.id);
		if (!config) {
			const auth = oidc.ClientSecretBasic(p.clientSecret);
			if (p.kind === 'github')
				config = Promise.resolve(new oidc.Configuration(GITHUB, p.clientId, undefined, auth));
			else if (p.kind === 'google')
				config = Promise.resolve(new oidc.Configuration(GOOGLE, p.clientId, undefined, auth));
			else {
				const issuer = new URL(p.issuer ?? '');
				// Plain http only when the operator configured an http issuer (a lab or a test).
				const execute = issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
				config = oidc.discovery(issuer, p.clientId, undefined, auth, { execute });
			}
			config = config.catch((err) => {
				this.configs.delete(p.id);
				console.log(
					`[auth] provider unreachable provider=${p.id} issuer=${p.issuer} error=${JSON.stringify(errorText(err))}`
				);
				throw new ProviderSignInError(
					'unavailable',
					`${p.name} could not be reached (${p.issuer}): ${errorText(err)}`,
					{ cause: err }
				);
			});
			this.configs.set(p.id, config);
		}
		return config;
	}
}

function grantError(provider: AuthProviderConfig, err: unknown): ProviderSignInError {
	if (err instanceof oidc.AuthorizationResponseError) {
		return err.error === 'access_denied'
			? new ProviderSignInError('cancelled', `sign-in cancelled at ${provider.name}`)
			: new ProviderSignInError('provider', `${provider.name} refused: ${err.error}`);
	}
	if (err instanceof oidc.ResponseBodyError)
		return new ProviderSignInError('provider', `${provider.name} refused: ${err.error}`);
	// A wrong state, issuer or nonce: a stale tab, a replayed link, or someone else's callback.
	if (err instanceof oidc.ClientError && /"(state|iss|nonce)"/.test(errorText(err)))
		return new ProviderSignInError('expired', `${provider.name} sign-in flow mismatch`);
	return new ProviderSignInError('unavailable', `${provider.name}: ${errorText(err)}`, {
		cause: err
	});
}

// openid-client wraps what oauth4webapi found ('unexpected "state" response parameter value').
const errorText = (err: unknown): string =>
	err instanceof Error
		? err.cause instanceof Error
			? `${err.message}: ${err.cause.message}`
			: err.message
		: String(err);

const GithubUser = z.object({ id: z.number() });
const GithubEmails = z.array(
	z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() })
);

// GitHub has no ID token: the user's id, and the primary address if GitHub has verified it.
async function githubProfile(
	config: oidc.Configuration,
	provider: AuthProviderConfig,
	accessToken: string
): Promise<ProviderProfile> {
	const get = async <T>(path: string, schema: z.ZodType<T>): Promise<T> => {
		const res = await oidc.fetchProtectedResource(
			config,
			accessToken,
			new URL(`${GITHUB_API}${path}`),
			'GET',
			undefined,
			new Headers({ accept: 'application/vnd.github+json' })
		);
		if (!res.ok) throw new ProviderSignInError('provider', `GitHub ${path} answered ${res.status}`);
		return schema.parse(await res.json());
	};
	const user = await get('/user', GithubUser);
	const primary = (await get('/user/emails', GithubEmails)).find((e) => e.primary);
	return {
		provider: provider.id,
		subject: String(user.id),
		email: primary?.email.toLowerCase() ?? null,
		emailVerified: primary?.verified ?? false
	};
}
