import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Upstate } from '../src/app.ts';
import type { Db } from '../src/db/client.ts';
import { createMonitor } from '../src/domain/monitor/index.ts';
import { removeMember } from '../src/domain/member/index.ts';
import { createStatusPage } from '../src/domain/status-page/index.ts';
import { createCaller } from '../src/router/root.ts';
import { createTestDb } from './db.ts';
import { createUser, createWorkspace, ctxFor } from './factories.ts';
import { connectWithOAuth, MemoryOAuthProvider } from './oauth-client.ts';
import { createTestUpstate, issueKey, startApi } from './upstate.ts';

// The OAuth server as an assistant meets it: the official MCP SDK client's OAuth support over
// real HTTP, the consent screen played through the dashboard's own procedures.
let db: Db;
let upstate: Upstate;
let api: Awaited<ReturnType<typeof startApi>>;
let ws: Awaited<ReturnType<typeof createWorkspace>>;
let other: Awaited<ReturnType<typeof createWorkspace>>;
let owner: { id: number; email: string };
let member: { id: number; email: string };
let pageId: number;
let otherMonitorId: number;

const consentAs = (user: { id: number; email: string }) =>
	createCaller({
		upstate,
		db,
		requestId: 'test',
		user: { id: user.id, email: user.email },
		sessionId: null,
		service: null
	});

const dashboardAs = (user: { id: number }, role: 'owner' | 'admin' | 'member') =>
	createCaller({
		upstate,
		db,
		requestId: 'test',
		user: { id: user.id, email: 'x@example.test' },
		sessionId: null,
		service: ctxFor(db, ws, { type: 'user', userId: user.id, role })
	});

// The person on the consent screen approves: what the dashboard's form action does.
const approve =
	(user: { id: number; email: string }, workspaceId: number, access: 'read' | 'write') =>
	async (consentUrl: string) => {
		const request = new URL(consentUrl).searchParams.get('request') ?? '';
		return (await consentAs(user).oauth.approve({ request, workspaceId, access })).redirectTo;
	};

const mcpUrl = () => `${api.url}/mcp`;
const tools = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
const structured = (r: Awaited<ReturnType<Client['callTool']>>) =>
	r.structuredContent as { data: Array<{ id: number; name: string }> };

beforeAll(async () => {
	({ db } = await createTestDb());
	// Many connections from one address in a minute: more than the default OAuth budget.
	upstate = createTestUpstate(db, { RATE_LIMIT_OAUTH_REQUESTS: '1000' });
	api = await startApi(upstate);
	ws = await createWorkspace(db);
	other = await createWorkspace(db);
	owner = await createUser(db);
	member = await createUser(db);
	await db.membership.createMany({
		data: [
			{ workspaceId: ws.id, userId: owner.id, role: 'owner' },
			{ workspaceId: ws.id, userId: member.id, role: 'member' },
			{ workspaceId: other.id, userId: owner.id, role: 'owner' }
		]
	});
	await createMonitor({
		ctx: ctxFor(db, ws),
		input: { type: 'http', name: 'Mine', periodicity: '1m', url: 'https://example.com' }
	});
	otherMonitorId = (
		await createMonitor({
			ctx: ctxFor(db, other),
			input: { type: 'http', name: 'Theirs', periodicity: '1m', url: 'https://example.org' }
		})
	).id;
	pageId = (
		await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'Acme', slug: `acme-${ws.id}` } })
	).id;
});
afterAll(() => api.close());

describe('discovery', () => {
	it('answers /mcp without credentials with 401 and the protected-resource metadata URL', async () => {
		const res = await fetch(mcpUrl(), {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream'
			},
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
		});
		expect(res.status).toBe(401);
		expect(res.headers.get('www-authenticate')).toBe(
			`Bearer resource_metadata="${api.url}/.well-known/oauth-protected-resource/mcp", scope="read write"`
		);
	});

	it('serves both metadata documents with the configured issuer, whatever the Host', async () => {
		for (const path of [
			'/.well-known/oauth-protected-resource/mcp',
			'/.well-known/oauth-protected-resource'
		]) {
			const res = await fetch(`${api.url}${path}`, { headers: { host: 'evil.example' } });
			// Browser-based clients read it cross-origin.
			expect(res.headers.get('access-control-allow-origin')).toBe('*');
			expect(await res.json()).toEqual({
				resource: `${api.url}/mcp`,
				authorization_servers: [api.url],
				scopes_supported: ['read', 'write'],
				bearer_methods_supported: ['header'],
				resource_name: 'Upstate MCP server'
			});
		}
		const as = await (
			await fetch(`${api.url}/.well-known/oauth-authorization-server`, {
				headers: { host: 'evil.example' }
			})
		).json();
		expect(as).toMatchObject({
			issuer: api.url,
			authorization_endpoint: `${api.url}/oauth/authorize`,
			token_endpoint: `${api.url}/oauth/token`,
			registration_endpoint: `${api.url}/oauth/register`,
			revocation_endpoint: `${api.url}/oauth/revoke`,
			code_challenge_methods_supported: ['S256'],
			token_endpoint_auth_methods_supported: ['none'],
			client_id_metadata_document_supported: true,
			authorization_response_iss_parameter_supported: true
		});
	});
});

describe('the MCP SDK client signs in', () => {
	it('registers, is sent to consent, gets a token and calls tools as the workspace chosen', async () => {
		const provider = new MemoryOAuthProvider({ name: 'Claude Test' });
		let consentUrl = '';
		const client = await connectWithOAuth({
			mcpUrl: mcpUrl(),
			provider,
			approve: async (url) => {
				consentUrl = url;
				const landed = await approve(owner, ws.id, 'write')(url);
				const q = new URL(landed).searchParams;
				expect(q.get('iss')).toBe(api.url);
				expect(q.get('state')).toBe('st-123');
				return landed;
			}
		});
		expect(consentUrl.startsWith(`${upstate.config.urls.consent}/oauth/consent?`)).toBe(true);
		expect(provider.saved?.access_token).toMatch(/^us_oat_[\w-]{43}$/);
		expect(provider.saved).toMatchObject({
			token_type: 'Bearer',
			expires_in: 3600,
			scope: 'write'
		});
		expect(await tools(client)).toContain('create_status_report');
		const listed = structured(await client.callTool({ name: 'list_monitors', arguments: {} }));
		expect(listed.data.map((m) => m.name)).toEqual(['Mine']);
		// Another workspace's monitor is NOT_FOUND.
		const theirs = await client.callTool({
			name: 'get_monitor',
			arguments: { monitorId: otherMonitorId }
		});
		expect(theirs.isError).toBe(true);
		// A mutation is audited as mcp, with the grant and the consenting user.
		await client.callTool({
			name: 'create_status_report',
			arguments: { pageId, title: 'Down', status: 'investigating', message: 'x', notify: false }
		});
		const grant = await db.oAuthGrant.findFirstOrThrow({
			where: { userId: owner.id, revokedAt: null, client: { clientName: 'Claude Test' } }
		});
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, entityType: { in: ['oauth_grant', 'status_report'] } },
			orderBy: { id: 'asc' }
		});
		expect(audit.map((a) => [a.action, a.actorType, a.actorId, a.actorUserId])).toEqual([
			['oauth_grant.create', 'user', `user_${owner.id}`, owner.id],
			['status_report.create', 'mcp', `oat_${grant.id}`, owner.id]
		]);
		expect(JSON.stringify(await db.oAuthToken.findMany())).not.toContain(
			provider.saved?.access_token
		);
		await client.close();
	});

	it('downgraded to read-only: no mutation tools, and the verb refuses them anyway', async () => {
		const client = await connectWithOAuth({
			mcpUrl: mcpUrl(),
			provider: new MemoryOAuthProvider({ name: 'Read Only' }),
			approve: approve(member, ws.id, 'read')
		});
		const names = await tools(client);
		expect(names).toContain('list_monitors');
		expect(names.filter((n) => !/^(list|get)_/.test(n))).toEqual([]);
		await expect(
			client.callTool({
				name: 'create_status_report',
				arguments: { pageId, title: 'No', status: 'investigating', message: 'x', notify: false }
			})
		).rejects.toThrow(/FORBIDDEN/);
		expect(await db.statusReport.count({ where: { title: 'No' } })).toBe(0);
		await client.close();
	});
});

// A second, independent client: the raw endpoints as oauth4webapi speaks them.
describe('tokens', () => {
	type Tokens = { access_token: string; refresh_token: string };
	const form = (body: Record<string, string>) => ({
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(body)
	});

	async function register(name = 'Raw'): Promise<string> {
		const res = await fetch(`${api.url}/oauth/register`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ client_name: name, redirect_uris: ['http://localhost/cb'] })
		});
		expect(res.status).toBe(201);
		return ((await res.json()) as { client_id: string }).client_id;
	}

	async function authorize(clientId: string, user = owner, challenge = CHALLENGE) {
		const q = new URLSearchParams({
			client_id: clientId,
			redirect_uri: 'http://localhost:5555/cb',
			response_type: 'code',
			code_challenge: challenge,
			code_challenge_method: 'S256',
			state: 's',
			resource: `${api.url}/mcp`
		});
		const res = await fetch(`${api.url}/oauth/authorize?${q}`, { redirect: 'manual' });
		expect(res.status).toBe(302);
		const landed = await approve(user, ws.id, 'write')(res.headers.get('location') ?? '');
		return new URL(landed).searchParams.get('code') ?? '';
	}

	const exchange = (clientId: string, code: string, verifier = VERIFIER) =>
		fetch(
			`${api.url}/oauth/token`,
			form({
				grant_type: 'authorization_code',
				code,
				client_id: clientId,
				code_verifier: verifier,
				redirect_uri: 'http://localhost:5555/cb'
			})
		);
	const refresh = (token: string) =>
		fetch(`${api.url}/oauth/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: token })
		});
	const listMonitors = (token: string) =>
		fetch(mcpUrl(), {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
				authorization: `Bearer ${token}`
			},
			body: JSON.stringify({
				jsonrpc: '2.0',
				id: 1,
				method: 'tools/call',
				params: { name: 'list_monitors', arguments: {} }
			})
		});
	// RFC 6750 3.1: a presented token that no longer works is invalid_token, so the client
	// refreshes or reconnects rather than treating it as a first, unauthenticated call.
	const expectInvalidToken = async (res: Response) => {
		expect(res.status).toBe(401);
		expect(res.headers.get('www-authenticate')).toBe(
			`Bearer error="invalid_token", error_description="invalid, expired or revoked access token: refresh it or connect the app again", resource_metadata="${api.url}/.well-known/oauth-protected-resource/mcp", scope="read write"`
		);
	};
	async function connected(name?: string): Promise<{ clientId: string; tokens: Tokens }> {
		const clientId = await register(name);
		const res = await exchange(clientId, await authorize(clientId));
		expect(res.status).toBe(200);
		return { clientId, tokens: (await res.json()) as Tokens };
	}

	it('refuses a wrong PKCE verifier with an RFC 6749 body', async () => {
		const clientId = await register();
		const res = await exchange(clientId, await authorize(clientId), 'x'.repeat(43));
		expect(res.status).toBe(400);
		expect(await res.json()).toEqual({
			error: 'invalid_grant',
			error_description: 'PKCE verification failed: code_verifier does not match code_challenge'
		});
	});

	it('uses a code once; a second use revokes what the first one issued', async () => {
		const clientId = await register();
		const code = await authorize(clientId);
		const first = (await (await exchange(clientId, code)).json()) as Tokens;
		expect((await listMonitors(first.access_token)).status).toBe(200);
		const again = await exchange(clientId, code);
		expect(again.status).toBe(400);
		expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
		expect((await listMonitors(first.access_token)).status).toBe(401);
	});

	it('rotates refresh tokens and revokes the grant when a spent one comes back', async () => {
		const { tokens } = await connected();
		const res = await refresh(tokens.refresh_token);
		expect(res.status).toBe(200);
		expect(res.headers.get('cache-control')).toBe('no-store');
		const next = (await res.json()) as Tokens;
		expect(next.refresh_token).not.toBe(tokens.refresh_token);
		expect((await listMonitors(next.access_token)).status).toBe(200);
		const reused = await refresh(tokens.refresh_token);
		expect(await reused.json()).toEqual({
			error: 'invalid_grant',
			error_description: 'the refresh token was already used: the connection is revoked'
		});
		expect((await listMonitors(next.access_token)).status).toBe(401);
		expect((await refresh(next.refresh_token)).status).toBe(400);
	});

	it('refuses an expired access token, refresh token and code', async () => {
		const { clientId, tokens } = await connected();
		const past = new Date(Date.now() - 1000);
		await db.oAuthToken.updateMany({
			where: { grant: { clientId } },
			data: { expiresAt: past }
		});
		await expectInvalidToken(await listMonitors(tokens.access_token));
		expect(await (await refresh(tokens.refresh_token)).json()).toEqual({
			error: 'invalid_grant',
			error_description: 'the refresh token expired'
		});
		const code = await authorize(clientId);
		await db.oAuthAuthorizationCode.updateMany({ where: { clientId }, data: { expiresAt: past } });
		expect(await (await exchange(clientId, code)).json()).toEqual({
			error: 'invalid_grant',
			error_description: 'the authorization code expired'
		});
	});

	it('revokes the grant by either token (RFC 7009)', async () => {
		for (const which of ['access_token', 'refresh_token'] as const) {
			const { tokens } = await connected();
			const res = await fetch(`${api.url}/oauth/revoke`, form({ token: tokens[which] }));
			expect(res.status).toBe(200);
			await expectInvalidToken(await listMonitors(tokens.access_token));
			expect((await refresh(tokens.refresh_token)).status).toBe(400);
		}
		expect((await fetch(`${api.url}/oauth/revoke`, form({ token: 'us_oat_unknown' }))).status).toBe(
			200
		);
	});

	it('keeps one live grant per client and user: connecting again replaces it', async () => {
		const clientId = await register('Twice');
		const first = (await (await exchange(clientId, await authorize(clientId))).json()) as Tokens;
		const second = (await (await exchange(clientId, await authorize(clientId))).json()) as Tokens;
		expect((await listMonitors(first.access_token)).status).toBe(401);
		expect((await listMonitors(second.access_token)).status).toBe(200);
		expect(await db.oAuthGrant.count({ where: { clientId, revokedAt: null } })).toBe(1);
	});

	it('connected apps: members revoke their own, owners any; the next call is a 401', async () => {
		const mine = await connected('Owner App');
		const clientId = await register('Member App');
		const memberCode = await authorize(clientId, member);
		const theirs = (await (await exchange(clientId, memberCode)).json()) as Tokens;
		const apps = (await dashboardAs(member, 'member').oauth.listGrants()).data;
		const ownerApp = apps.find((a) => a.client_name === 'Owner App');
		const memberApp = apps.find((a) => a.client_name === 'Member App');
		expect(ownerApp).toMatchObject({
			scope: 'write',
			user_email: owner.email,
			client_origin: 'registered'
		});
		expect(memberApp?.last_used_at).toBeNull();
		await expect(
			dashboardAs(member, 'member').oauth.revokeGrant({ grantId: ownerApp?.id ?? 0 })
		).rejects.toThrow(/members revoke only their own/);
		await dashboardAs(owner, 'owner').oauth.revokeGrant({ grantId: memberApp?.id ?? 0 });
		expect((await listMonitors(theirs.access_token)).status).toBe(401);
		expect((await listMonitors(mine.tokens.access_token)).status).toBe(200);
		const deleted = await db.auditLog.findFirstOrThrow({
			where: { action: 'oauth_grant.delete', entityId: String(memberApp?.id) }
		});
		expect(deleted).toMatchObject({ actorType: 'user', actorUserId: owner.id });
	});

	it("another workspace's grant is NOT_FOUND in connected apps, and consent to a foreign workspace too", async () => {
		const foreign = await db.oAuthGrant.create({
			data: { clientId: await register(), userId: owner.id, workspaceId: other.id, scope: 'read' }
		});
		await expect(
			dashboardAs(owner, 'owner').oauth.revokeGrant({ grantId: foreign.id })
		).rejects.toThrow(`connected app ${foreign.id} not found`);
		const clientId = await register();
		const q = new URLSearchParams({
			client_id: clientId,
			redirect_uri: 'http://localhost/cb',
			response_type: 'code',
			code_challenge: CHALLENGE,
			code_challenge_method: 'S256'
		});
		const toConsent = await fetch(`${api.url}/oauth/authorize?${q}`, { redirect: 'manual' });
		await expect(
			approve(member, other.id, 'write')(toConsent.headers.get('location') ?? '')
		).rejects.toThrow(`workspace ${other.id} not found`);
	});

	it('a connection works only while its user is a member, however the membership ended', async () => {
		const leaver = await createUser(db);
		await db.membership.create({ data: { workspaceId: ws.id, userId: leaver.id, role: 'member' } });
		const clientId = await register('Gone App');
		const tokens = (await (
			await exchange(clientId, await authorize(clientId, leaver))
		).json()) as Tokens;
		expect((await listMonitors(tokens.access_token)).status).toBe(200);
		// Not through removeMember (which revokes): the row simply goes.
		await db.membership.delete({
			where: { workspaceId_userId: { workspaceId: ws.id, userId: leaver.id } }
		});
		expect((await listMonitors(tokens.access_token)).status).toBe(401);
		expect(await (await refresh(tokens.refresh_token)).json()).toEqual({
			error: 'invalid_grant',
			error_description: 'the user is no longer a member of the workspace'
		});
	});

	it('removing a member from the workspace revokes their connections', async () => {
		const leaver = await createUser(db);
		await db.membership.create({ data: { workspaceId: ws.id, userId: leaver.id, role: 'member' } });
		const clientId = await register('Leaver App');
		const tokens = (await (
			await exchange(clientId, await authorize(clientId, leaver))
		).json()) as Tokens;
		expect((await listMonitors(tokens.access_token)).status).toBe(200);
		await removeMember({
			ctx: ctxFor(db, ws, { type: 'user', userId: owner.id, role: 'owner' }),
			input: { userId: leaver.id }
		});
		expect((await listMonitors(tokens.access_token)).status).toBe(401);
		expect(
			await db.auditLog.count({
				where: { action: 'oauth_grant.delete', workspaceId: ws.id, actorUserId: owner.id }
			})
		).toBeGreaterThan(0);
	});

	it('x-service-key wins over a bearer token; tokens in the query string and on REST are ignored', async () => {
		const { tokens } = await connected();
		const otherKey = await issueKey(db, other, 'read');
		const both = await fetch(mcpUrl(), {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
				authorization: `Bearer ${tokens.access_token}`,
				'x-service-key': otherKey
			},
			body: JSON.stringify({
				jsonrpc: '2.0',
				id: 1,
				method: 'tools/call',
				params: { name: 'list_monitors', arguments: {} }
			})
		});
		const body = (await both.json()) as {
			result: { structuredContent: { data: Array<{ name: string }> } };
		};
		expect(body.result.structuredContent.data.map((m) => m.name)).toEqual(['Theirs']);
		const badKey = await fetch(mcpUrl(), {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
				authorization: `Bearer ${tokens.access_token}`,
				'x-service-key': 'us_wrong'
			},
			body: '{}'
		});
		expect(badKey.status).toBe(401);
		const inQuery = await fetch(`${mcpUrl()}?access_token=${tokens.access_token}`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream'
			},
			body: '{}'
		});
		expect(inQuery.status).toBe(401);
		const rest = await fetch(`${api.url}/v1/monitors`, {
			headers: { authorization: `Bearer ${tokens.access_token}` }
		});
		expect(rest.status).toBe(401);
	});
});

describe('bad requests', () => {
	const authorizeUrl = (params: Record<string, string>) =>
		`${api.url}/oauth/authorize?${new URLSearchParams(params)}`;
	let clientId = '';
	beforeAll(async () => {
		const res = await fetch(`${api.url}/oauth/register`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'client_name=Form&redirect_uris=http%3A%2F%2F127.0.0.1%2Fcb'
		});
		// Registration takes JSON (RFC 7591); a form carries no array, so it is refused.
		expect(res.status).toBe(400);
		clientId = (
			(await (
				await fetch(`${api.url}/oauth/register`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] })
				})
			).json()) as { client_id: string }
		).client_id;
	});

	it('registers only the redirect URIs of spec 4.2 rule 4', async () => {
		const register = (uris: string[], extra = {}) =>
			fetch(`${api.url}/oauth/register`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ redirect_uris: uris, ...extra })
			});
		for (const ok of [
			'http://127.0.0.1:4000/cb',
			'http://[::1]/cb',
			'http://localhost:9/x',
			'https://claude.ai/api/mcp/auth_callback',
			'https://chatgpt.com/connector_platform_oauth_redirect',
			'https://insiders.vscode.dev/redirect',
			'cursor://anysphere.cursor-mcp/oauth/callback',
			'vscode://vscode.github-authentication/did-authenticate',
			'windsurf://codeium.windsurf/oauth',
			`${api.url.replace('http:', 'https:')}/cb`
		])
			expect((await register([ok])).status, ok).toBe(201);
		for (const bad of [
			'https://evil.example/cb',
			'https://claude.ai.evil.example/cb',
			'http://claude.ai/cb',
			'javascript:alert(1)',
			'myapp://cb',
			'http://127.0.0.1/cb#frag',
			'not a url'
		]) {
			const res = await register(['http://127.0.0.1/ok', bad]);
			expect(res.status, bad).toBe(400);
			expect(((await res.json()) as { error: string }).error).toBe('invalid_redirect_uri');
		}
		const secret = await register(['http://127.0.0.1/cb'], {
			token_endpoint_auth_method: 'client_secret_basic'
		});
		expect(await secret.json()).toMatchObject({ error: 'invalid_client_metadata' });
		expect(await db.oAuthClient.count({ where: { redirectUris: { contains: 'evil' } } })).toBe(0);
	});

	it('shows a page, never a redirect, until the client and redirect URI are known', async () => {
		for (const params of [
			{ response_type: 'code' },
			{ client_id: 'uc_unknown', redirect_uri: 'http://127.0.0.1/cb' },
			{ client_id: clientId, redirect_uri: 'https://evil.example/cb' }
		] as Array<Record<string, string>>) {
			const res = await fetch(authorizeUrl(params), { redirect: 'manual' });
			expect(res.status).toBe(400);
			expect(res.headers.get('location')).toBeNull();
			expect(await res.text()).toContain('This app cannot connect to Upstate');
		}
	});

	it('redirects the other errors to the client with state and iss', async () => {
		const base = {
			client_id: clientId,
			response_type: 'code',
			code_challenge: CHALLENGE,
			code_challenge_method: 'S256',
			state: 'abc'
		};
		const cases: Array<[Record<string, string>, string]> = [
			[{ ...base, code_challenge_method: 'plain' }, 'invalid_request'],
			[{ ...base, code_challenge: '' }, 'invalid_request'],
			[{ ...base, response_type: 'token' }, 'unsupported_response_type'],
			[{ ...base, scope: 'admin' }, 'invalid_scope'],
			[{ ...base, resource: 'https://elsewhere.example/mcp' }, 'invalid_target']
		];
		for (const [params, error] of cases) {
			const res = await fetch(authorizeUrl(params), { redirect: 'manual' });
			expect(res.status).toBe(302);
			const to = new URL(res.headers.get('location') ?? '');
			expect(to.origin + to.pathname).toBe('https://claude.ai/api/mcp/auth_callback');
			expect(to.searchParams.get('error')).toBe(error);
			expect(to.searchParams.get('state')).toBe('abc');
			expect(to.searchParams.get('iss')).toBe(api.url);
		}
	});

	it('deny sends access_denied to the client', async () => {
		const toConsent = await fetch(
			authorizeUrl({
				client_id: clientId,
				response_type: 'code',
				code_challenge: CHALLENGE,
				code_challenge_method: 'S256',
				state: 'q'
			}),
			{ redirect: 'manual' }
		);
		const request = new URL(toConsent.headers.get('location') ?? '').searchParams.get('request');
		const { redirectTo } = await consentAs(owner).oauth.deny({ request: request ?? '' });
		const q = new URL(redirectTo).searchParams;
		expect([q.get('error'), q.get('state'), q.get('iss')]).toEqual(['access_denied', 'q', api.url]);
	});

	it('refuses lone surrogates as bad input, never a 500', async () => {
		const json = (path: string, body: string) =>
			fetch(`${api.url}${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body
			});
		const reg = await json(
			'/oauth/register',
			'{"client_name":"bad \\ud800","redirect_uris":["http://127.0.0.1/cb"]}'
		);
		expect([reg.status, ((await reg.json()) as { error: string }).error]).toEqual([
			400,
			'invalid_client_metadata'
		]);
		const token = await json(
			'/oauth/token',
			'{"grant_type":"authorization_code","code":"\\udc00"}'
		);
		expect([token.status, ((await token.json()) as { error: string }).error]).toEqual([
			400,
			'invalid_request'
		]);
	});

	it('drops registrations that led to no consent within a day', async () => {
		const stale = await db.oAuthClient.create({
			data: { id: 'uc_stale', clientName: 'Stale', createdAt: new Date(Date.now() - 2 * 86400000) }
		});
		const used = await db.oAuthClient.create({
			data: { id: 'uc_used', clientName: 'Used', createdAt: new Date(Date.now() - 2 * 86400000) }
		});
		await db.oAuthGrant.create({
			data: {
				clientId: used.id,
				userId: owner.id,
				workspaceId: ws.id,
				scope: 'read',
				revokedAt: new Date()
			}
		});
		await fetch(`${api.url}/oauth/register`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ redirect_uris: ['http://127.0.0.1/cb'] })
		});
		expect(await db.oAuthClient.findUnique({ where: { id: stale.id } })).toBeNull();
		expect(await db.oAuthClient.findUnique({ where: { id: used.id } })).not.toBeNull();
	});

	it('answers token endpoint errors as RFC 6749 bodies, 413 included', async () => {
		const post = (body: string, type = 'application/x-www-form-urlencoded') =>
			fetch(`${api.url}/oauth/token`, { method: 'POST', headers: { 'content-type': type }, body });
		const cases: Array<[Response, number, string]> = [
			[await post('grant_type=password'), 400, 'unsupported_grant_type'],
			[await post(''), 400, 'invalid_request'],
			[await post('grant_type=authorization_code&code=x'), 400, 'invalid_request'],
			[await post('grant_type=refresh_token&refresh_token=us_ort_nope'), 400, 'invalid_grant'],
			[await post('{bad json', 'application/json'), 400, 'invalid_request'],
			[
				await post(`grant_type=refresh_token&refresh_token=${'a'.repeat(70000)}`),
				413,
				'invalid_request'
			]
		];
		for (const [res, status, error] of cases) {
			const body = (await res.json()) as { error: string };
			expect([res.status, body.error, Object.keys(body)]).toEqual([
				status,
				error,
				['error', 'error_description']
			]);
		}
	});
});

const VERIFIER = 'a-verifier-of-forty-three-characters-or-more';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
