import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Upstate } from '../src/app.ts';
import type { Db } from '../src/db/client.ts';
import { createCaller } from '../src/router/root.ts';
import { createTestDb } from './db.ts';
import { createUser, createWorkspace } from './factories.ts';
import { connectWithOAuth, MemoryOAuthProvider } from './oauth-client.ts';
import { createTestUpstate, startApi } from './upstate.ts';

// Client ID Metadata Documents served over https on 127.0.0.1 with a CA made here, and
// oauth4webapi as a second, independent OAuth client.
let db: Db;
let upstate: Upstate;
let api: Awaited<ReturnType<typeof startApi>>;
let docs: https.Server;
let docsUrl = '';
let caFile = '';
let ws: Awaited<ReturnType<typeof createWorkspace>>;
let user: { id: number; email: string };
const served = new Map<string, { type: string; body: string }>();
const fetches = new Map<string, number>(); // document path → times the server fetched it
const REDIRECT = 'http://127.0.0.1:43111/callback';

function makeCa(): { ca: string; key: string; cert: string; caFile: string } {
	const dir = mkdtempSync(path.join(os.tmpdir(), 'upstate-cimd-ca-'));
	const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
	run(
		'req',
		'-x509',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-days',
		'2',
		'-subj',
		'/CN=Upstate Test CA',
		'-keyout',
		'ca.key',
		'-out',
		'ca.pem'
	);
	run(
		'req',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-subj',
		'/CN=localhost',
		'-keyout',
		'srv.key',
		'-out',
		'srv.csr'
	);
	writeFileSync(path.join(dir, 'ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
	run(
		'x509',
		'-req',
		'-in',
		'srv.csr',
		'-CA',
		'ca.pem',
		'-CAkey',
		'ca.key',
		'-CAcreateserial',
		'-days',
		'2',
		'-extfile',
		'ext.cnf',
		'-out',
		'srv.pem'
	);
	const read = (f: string) => readFileSync(path.join(dir, f), 'utf8');
	return {
		ca: read('ca.pem'),
		key: read('srv.key'),
		cert: read('srv.pem'),
		caFile: path.join(dir, 'ca.pem')
	};
}

const consentCaller = () =>
	createCaller({ upstate, db, requestId: 't', user, sessionId: null, service: null });

const approve = async (consentUrl: string) => {
	const request = new URL(consentUrl).searchParams.get('request') ?? '';
	return (await consentCaller().oauth.approve({ request, workspaceId: ws.id, access: 'write' }))
		.redirectTo;
};

function serveDocument(
	name: string,
	doc: Record<string, unknown> | ((url: string) => unknown),
	type = 'application/json'
): string {
	const url = `${docsUrl}/${name}`;
	served.set(`/${name}`, {
		type,
		body: JSON.stringify(typeof doc === 'function' ? doc(url) : doc)
	});
	return url;
}

beforeAll(async () => {
	const tls = makeCa();
	caFile = tls.caFile;
	docs = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
		fetches.set(req.url ?? '', (fetches.get(req.url ?? '') ?? 0) + 1);
		const doc = served.get(req.url ?? '');
		if (!doc) return res.writeHead(404).end();
		res.writeHead(200, { 'content-type': doc.type }).end(doc.body);
	});
	await new Promise<void>((r) => docs.listen(0, '127.0.0.1', r));
	docsUrl = `https://localhost:${(docs.address() as AddressInfo).port}`;
	({ db } = await createTestDb());
	upstate = createTestUpstate(db, { OAUTH_TEST_CIMD_CA: caFile });
	api = await startApi(upstate);
	ws = await createWorkspace(db);
	user = await createUser(db);
	await db.membership.create({ data: { workspaceId: ws.id, userId: user.id, role: 'owner' } });
});
afterAll(async () => {
	await api.close();
	await new Promise((r) => docs.close(r));
});

const authorize = (clientId: string, extra: Record<string, string> = {}) =>
	fetch(
		`${api.url}/oauth/authorize?${new URLSearchParams({
			client_id: clientId,
			redirect_uri: REDIRECT,
			response_type: 'code',
			code_challenge: 'c'.repeat(43),
			code_challenge_method: 'S256',
			...extra
		})}`,
		{ redirect: 'manual' }
	);

describe('client ID metadata documents', () => {
	it('the MCP SDK client connects with its document URL as client_id, no registration', async () => {
		const clientId = serveDocument('claude.json', (url: string) => ({
			client_id: url,
			client_name: 'Doc Assistant',
			redirect_uris: [REDIRECT],
			token_endpoint_auth_method: 'none'
		}));
		const clientsBefore = await db.oAuthClient.count();
		const provider = new MemoryOAuthProvider({
			redirectUrl: REDIRECT,
			clientMetadataUrl: clientId
		});
		let consent: { clientName: string; clientOrigin: string } | undefined;
		const client = await connectWithOAuth({
			mcpUrl: `${api.url}/mcp`,
			provider,
			approve: async (url) => {
				consent = await consentCaller().oauth.consent({
					request: new URL(url).searchParams.get('request') ?? ''
				});
				return approve(url);
			}
		});
		expect(provider.info?.client_id).toBe(clientId);
		expect(consent).toMatchObject({
			clientName: 'Doc Assistant',
			clientOrigin: new URL(docsUrl).host
		});
		expect((await client.listTools()).tools.length).toBeGreaterThan(0);
		expect(await db.oAuthClient.count()).toBe(clientsBefore + 1);
		await client.close();
	});

	it('fetches the document once per authorization request, and again for the next one', async () => {
		let name = 'First name';
		const clientId = serveDocument('once.json', (url: string) => ({
			client_id: url,
			client_name: name,
			redirect_uris: [REDIRECT]
		}));
		const fetched = () => fetches.get('/once.json') ?? 0;
		const toConsent = await authorize(clientId, { state: 'one' });
		expect(toConsent.status).toBe(302);
		const consentUrl = toConsent.headers.get('location') ?? '';
		const request = new URL(consentUrl).searchParams.get('request') ?? '';
		expect(fetched()).toBe(1);
		// The document changes after the check: this request keeps what /oauth/authorize saw.
		name = 'Renamed';
		served.set('/once.json', {
			type: 'application/json',
			body: JSON.stringify({
				client_id: clientId,
				client_name: name,
				redirect_uris: ['https://claude.ai/elsewhere']
			})
		});
		expect(await consentCaller().oauth.consent({ request })).toMatchObject({
			clientName: 'First name',
			redirectHost: new URL(REDIRECT).host
		});
		const landed = new URL(await approve(consentUrl));
		expect(landed.origin + landed.pathname).toBe(REDIRECT);
		expect(landed.searchParams.get('state')).toBe('one');
		expect(fetched()).toBe(1);
		// A new authorization request fetches again, and sees the document as it is now.
		const next = await authorize(clientId, { state: 'two' });
		expect(next.status).toBe(400);
		expect(await next.text()).toContain('is not one of the client');
		expect(fetched()).toBe(2);
	});

	it('refuses a consent whose sealed request was altered or has expired', async () => {
		const clientId = serveDocument('sealed.json', (url: string) => ({
			client_id: url,
			redirect_uris: [REDIRECT]
		}));
		const request =
			new URL((await authorize(clientId)).headers.get('location') ?? '').searchParams.get(
				'request'
			) ?? '';
		const [payload, mac] = request.split('.');
		const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
		const reseal = (changes: Record<string, unknown>) =>
			`${Buffer.from(JSON.stringify({ ...claims, ...changes })).toString('base64url')}.${mac}`;
		for (const forged of [
			reseal({ redirectUri: 'https://claude.ai/cb' }),
			reseal({ scope: 'write', codeChallenge: 'd'.repeat(43) }),
			`${payload}.x${mac?.slice(1)}`,
			'garbage'
		])
			await expect(
				consentCaller().oauth.approve({ request: forged, workspaceId: ws.id, access: 'write' })
			).rejects.toThrow(
				'the authorization request is not one this server issued: go back to the app and connect again'
			);
		const realNow = Date.now;
		Date.now = () => realNow() + 31 * 60 * 1000;
		try {
			await expect(consentCaller().oauth.consent({ request })).rejects.toThrow(
				'the authorization request expired: go back to the app and connect again'
			);
		} finally {
			Date.now = realNow;
		}
	});

	it('refuses a document that does not echo its URL, is not JSON, or is too large', async () => {
		const wrongId = serveDocument('wrong.json', {
			client_id: 'https://other.example/doc.json',
			redirect_uris: [REDIRECT]
		});
		const html = serveDocument(
			'html.json',
			(url: string) => ({ client_id: url, redirect_uris: [REDIRECT] }),
			'text/html'
		);
		const big = serveDocument('big.json', (url: string) => ({
			client_id: url,
			redirect_uris: [REDIRECT],
			client_name: 'x'.repeat(20000)
		}));
		const otherRedirect = serveDocument('redirect.json', (url: string) => ({
			client_id: url,
			redirect_uris: ['https://claude.ai/cb']
		}));
		for (const [url, message] of [
			[wrongId, 'must equal its URL'],
			[html, 'not application/json'],
			[big, 'larger than'],
			[`${docsUrl}/missing.json`, 'HTTP 404'],
			[otherRedirect, 'is not one of the client']
		]) {
			const res = await authorize(url);
			expect(res.status, url).toBe(400);
			expect(res.headers.get('location')).toBeNull();
			expect(await res.text()).toContain(message);
		}
	});

	it('without the test CA setting, loopback documents are refused by the SSRF guard', async () => {
		const guarded = createTestUpstate(db);
		const other = await startApi(guarded);
		try {
			const url = serveDocument('guarded.json', (u: string) => ({
				client_id: u,
				redirect_uris: [REDIRECT]
			}));
			const res = await fetch(
				`${other.url}/oauth/authorize?${new URLSearchParams({ client_id: url, redirect_uri: REDIRECT })}`,
				{ redirect: 'manual' }
			);
			expect(res.status).toBe(400);
			expect(await res.text()).toContain('loopback');
		} finally {
			await other.close();
		}
	});
});

describe('oauth4webapi as the client', () => {
	it('discovers, authorizes with PKCE, checks iss, exchanges, refreshes and revokes', async () => {
		const options = { [oauth.allowInsecureRequests]: true };
		const issuer = new URL(api.url);
		const as = await oauth.processDiscoveryResponse(
			issuer,
			await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' })
		);
		const clientId = serveDocument('o4w.json', (url: string) => ({
			client_id: url,
			client_name: 'oauth4webapi',
			redirect_uris: [REDIRECT]
		}));
		const client: oauth.Client = { client_id: clientId };
		const verifier = oauth.generateRandomCodeVerifier();
		const state = oauth.generateRandomState();
		const url = new URL(as.authorization_endpoint ?? '');
		url.search = new URLSearchParams({
			client_id: clientId,
			redirect_uri: REDIRECT,
			response_type: 'code',
			scope: 'read',
			state,
			resource: `${api.url}/mcp`,
			code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
			code_challenge_method: 'S256'
		}).toString();
		const toConsent = await fetch(url, { redirect: 'manual' });
		const landed = new URL(await approve(toConsent.headers.get('location') ?? ''));
		const params = oauth.validateAuthResponse(as, client, landed, state);
		const tokens = await oauth.processAuthorizationCodeResponse(
			as,
			client,
			await oauth.authorizationCodeGrantRequest(
				as,
				client,
				oauth.None(),
				params,
				REDIRECT,
				verifier,
				options
			)
		);
		// The client asked for read: the user's "write" cannot raise it.
		expect(tokens.scope).toBe('read');
		expect(tokens.access_token).toMatch(/^us_oat_/);
		const refreshed = await oauth.processRefreshTokenResponse(
			as,
			client,
			await oauth.refreshTokenGrantRequest(
				as,
				client,
				oauth.None(),
				tokens.refresh_token ?? '',
				options
			)
		);
		expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
		await oauth.processRevocationResponse(
			await oauth.revocationRequest(as, client, oauth.None(), refreshed.access_token, options)
		);
		await expect(
			oauth
				.refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token ?? '', options)
				.then((r) => oauth.processRefreshTokenResponse(as, client, r))
		).rejects.toMatchObject({ error: 'invalid_grant' });
		// A response without the right iss is refused by the client (RFC 9207).
		const forged = new URL(landed);
		forged.searchParams.set('iss', 'https://evil.example');
		expect(() => oauth.validateAuthResponse(as, client, forged, state)).toThrow();
	});
});
