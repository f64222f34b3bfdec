import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { SignInProviders } from './providers.ts';

const base = {
	DATA_DIR: '/tmp/upstate-providers-test',
	NEXT_PUBLIC_URL: 'https://up.example.test'
};

function providers(env: Record<string, string>): SignInProviders {
	const config = loadConfig({ ...base, ...env });
	return new SignInProviders({
		providers: config.authProviders,
		dashboardUrl: config.urls.dashboard
	});
}

describe('sign-in providers from AUTH_<PROVIDER>_*', () => {
	it('reads GitHub, Google and OpenID Connect issuers, GitHub first, and ignores AUTH_SECRET', () => {
		const config = loadConfig({
			...base,
			AUTH_SECRET: 'x',
			AUTH_KEYCLOAK_ID: 'kc',
			AUTH_KEYCLOAK_SECRET: 'kc-secret',
			AUTH_KEYCLOAK_ISSUER: 'https://sso.example.test/realms/main',
			AUTH_KEYCLOAK_NAME: 'Company SSO',
			AUTH_GOOGLE_ID: 'g',
			AUTH_GOOGLE_SECRET: 'g-secret',
			AUTH_GITHUB_ID: 'gh',
			AUTH_GITHUB_SECRET: 'gh-secret',
			AUTH_GITLAB_ID: '',
			AUTH_GITLAB_SECRET: ''
		});
		expect(config.authProviders).toEqual([
			{ id: 'github', name: 'GitHub', kind: 'github', clientId: 'gh', clientSecret: 'gh-secret' },
			{ id: 'google', name: 'Google', kind: 'google', clientId: 'g', clientSecret: 'g-secret' },
			{
				id: 'keycloak',
				name: 'Company SSO',
				kind: 'oidc',
				clientId: 'kc',
				clientSecret: 'kc-secret',
				issuer: 'https://sso.example.test/realms/main'
			}
		]);
		expect(loadConfig(base).authProviders).toEqual([]);
	});

	it('stops at start with the variable to set when a provider is half configured', () => {
		expect(() => loadConfig({ ...base, AUTH_GITHUB_ID: 'gh' })).toThrow(
			new ConfigError(
				'AUTH_GITHUB_SECRET is required to sign in with GITHUB: set the client secret of the OAuth app registered at the provider (README "Sign-in").'
			)
		);
		expect(() => loadConfig({ ...base, AUTH_ACME_ID: 'a', AUTH_ACME_SECRET: 's' })).toThrow(
			/^AUTH_ACME_ISSUER must be the URL of an OpenID Connect issuer/
		);
	});

	it('builds the GitHub authorization URL: client, callback, scopes, state and PKCE S256', async () => {
		const p = providers({ AUTH_GITHUB_ID: 'gh-client', AUTH_GITHUB_SECRET: 's' });
		const { url, flow } = await p.start({ provider: 'github', next: '/monitors/3' });
		const u = new URL(url);
		expect(u.origin + u.pathname).toBe('https://github.com/login/oauth/authorize');
		expect(Object.fromEntries(u.searchParams)).toEqual({
			client_id: 'gh-client',
			response_type: 'code',
			redirect_uri: 'https://up.example.test/api/auth/callback/github',
			scope: 'read:user user:email',
			state: flow.state,
			code_challenge: expect.stringMatching(/^[\w-]{43}$/),
			code_challenge_method: 'S256'
		});
		expect(flow).toMatchObject({ provider: 'github', next: '/monitors/3', nonce: undefined });
		expect(u.searchParams.get('code_challenge')).not.toBe(flow.verifier);
	});

	it('builds the Google authorization URL with a nonce, and a fresh state per attempt', async () => {
		const p = providers({ AUTH_GOOGLE_ID: 'g-client', AUTH_GOOGLE_SECRET: 's' });
		const { url, flow } = await p.start({ provider: 'google' });
		const u = new URL(url);
		expect(u.origin + u.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
		expect(Object.fromEntries(u.searchParams)).toEqual({
			client_id: 'g-client',
			response_type: 'code',
			redirect_uri: 'https://up.example.test/api/auth/callback/google',
			scope: 'openid email profile',
			state: flow.state,
			nonce: flow.nonce,
			code_challenge: expect.stringMatching(/^[\w-]{43}$/),
			code_challenge_method: 'S256'
		});
		expect(flow.nonce).toMatch(/^[\w-]{20,}$/);
		expect((await p.start({ provider: 'google' })).flow.state).not.toBe(flow.state);
	});

	it('reports an unreachable issuer as unavailable, and an unknown provider as such', async () => {
		const p = providers({
			AUTH_ACME_ID: 'a',
			AUTH_ACME_SECRET: 's',
			AUTH_ACME_ISSUER: 'http://127.0.0.1:1/'
		});
		await expect(p.start({ provider: 'acme' })).rejects.toMatchObject({ reason: 'unavailable' });
		await expect(p.start({ provider: 'nope' })).rejects.toMatchObject({ reason: 'provider' });
	});
});
