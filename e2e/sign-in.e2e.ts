import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Provider from 'oidc-provider';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createDb, type Db } from '../server/src/db/client.ts';
import {
	freePort,
	launchBrowser,
	openMagicLink,
	signIn,
	startSmtp,
	startStack,
	type Stack
} from './harness.ts';

// Dashboard sign-in end to end: a real OpenID Connect server (panva's oidc-provider, with its
// development login and consent pages) on 127.0.0.1, the all-in-one process, Chromium.
let stack: Stack;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let browser: Browser;
let db: Db;
let oidcServer: http.Server;
let issuer: string;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-sign-in-'));

// The people the OpenID Connect server knows, by the login typed on its page.
const ACCOUNTS: Record<string, { email: string; email_verified: boolean }> = {
	'new-person': { email: 'newbie@example.test', email_verified: true },
	mallory: { email: 'owner@example.test', email_verified: false },
	'owner-at-acme': { email: 'owner@example.test', email_verified: true }
};

beforeAll(async () => {
	smtp = await startSmtp();
	// The issuer's address must be known before the stack starts, and the stack's callback URL
	// before the provider's client is registered: listen first, attach the provider after.
	let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
	oidcServer = http.createServer((req, res) => handler(req, res));
	const port = await freePort();
	await new Promise<void>((resolve) => oidcServer.listen(port, '127.0.0.1', resolve));
	issuer = `http://127.0.0.1:${port}`;
	stack = await startStack({
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		DATA_DIR: dataDir,
		UPSTATE_SERVICES: 'dashboard',
		AUTH_ACME_ID: 'upstate',
		AUTH_ACME_SECRET: 'acme-client-secret',
		AUTH_ACME_ISSUER: issuer,
		AUTH_ACME_NAME: 'Acme ID',
		AUTH_GITHUB_ID: 'gh-client-id',
		AUTH_GITHUB_SECRET: 'gh-secret',
		AUTH_GOOGLE_ID: 'google-client-id',
		AUTH_GOOGLE_SECRET: 'google-secret'
	});
	const provider = new Provider(issuer, {
		clients: [
			{
				client_id: 'upstate',
				client_secret: 'acme-client-secret',
				redirect_uris: [`${stack.urls.dashboard}/api/auth/callback/acme`]
			}
		],
		claims: { openid: ['sub'], email: ['email', 'email_verified'] },
		cookies: { keys: ['e2e-oidc-cookie-key'] },
		features: { devInteractions: { enabled: true } },
		findAccount: (_ctx, sub) => ({
			accountId: sub,
			claims: () => ({ sub, ...ACCOUNTS[sub] })
		})
	});
	handler = provider.callback();
	db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
	oidcServer?.closeAllConnections();
	await new Promise((resolve) => oidcServer?.close(resolve));
});

const pages: Page[] = [];
const browserErrors: string[] = [];
async function freshPage(options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
	const context: BrowserContext = await browser.newContext(options);
	// The provider's development pages import a web font nobody can reach here.
	await context.route(/fonts\.googleapis\.com/, (route) => route.abort());
	const page = await context.newPage();
	page.on(
		'console',
		(m) => m.type() === 'error' && browserErrors.push(`${page.url()}: ${m.text()}`)
	);
	page.on('pageerror', (err) => browserErrors.push(`${page.url()}: ${err.stack ?? err.message}`));
	pages.push(page);
	return page;
}

function logOnFailure() {
	onTestFailed(async () => {
		for (const page of pages) {
			const text = await page
				.locator('body')
				.innerText()
				.catch(() => '');
			console.log(`--- at ${page.url()} ---\n${text.slice(0, 1500)}`);
		}
		console.log(`--- browser errors ---\n${browserErrors.join('\n')}`);
		console.log(`--- server log ---\n${stack.logs.join('').slice(-4000)}`);
	});
}

// Sign in at the OpenID Connect server's own pages (login, then consent).
async function signInAtAcme(page: Page, login: string): Promise<void> {
	await page.goto(`${stack.urls.dashboard}/sign-in`);
	await page.getByRole('button', { name: 'Sign in with Acme ID' }).click();
	await page.getByPlaceholder('Enter any login').fill(login);
	await page.getByPlaceholder('and password').fill('any');
	await page.getByRole('button', { name: 'Sign-in' }).click();
	await page.getByRole('button', { name: 'Continue' }).click();
}

const identities = (subject: string) => db.userIdentity.findMany({ where: { subject } });

describe('sign-in providers', () => {
	it('shows a button per configured provider, GitHub and Google first', async () => {
		logOnFailure();
		const page = await freshPage();
		await page.goto(`${stack.urls.dashboard}/sign-in`);
		expect(await page.getByRole('button', { name: /^Sign in with / }).allInnerTexts()).toEqual([
			'Sign in with GitHub',
			'Sign in with Google',
			'Sign in with Acme ID'
		]);
	});

	it('sends the browser to GitHub and Google with the client, callback, state and PKCE', async () => {
		logOnFailure();
		for (const [button, origin, extra] of [
			['GitHub', 'https://github.com/login/oauth/authorize', { scope: 'read:user user:email' }],
			['Google', 'https://accounts.google.com/o/oauth2/v2/auth', { scope: 'openid email profile' }]
		] as const) {
			const page = await freshPage();
			let asked: URL | undefined;
			await page.context().route(new RegExp(`^${origin}`), (route) => {
				asked = new URL(route.request().url());
				return route.fulfill({ status: 200, body: 'the provider' });
			});
			await page.goto(`${stack.urls.dashboard}/sign-in?next=/monitors/new`);
			await page.getByRole('button', { name: `Sign in with ${button}` }).click();
			await page.getByText('the provider').waitFor();
			const id = button.toLowerCase();
			expect(asked?.origin + (asked?.pathname ?? '')).toBe(origin);
			expect(Object.fromEntries(asked?.searchParams ?? [])).toMatchObject({
				client_id: `${id === 'github' ? 'gh' : 'google'}-client-id`,
				redirect_uri: `${stack.urls.dashboard}/api/auth/callback/${id}`,
				response_type: 'code',
				state: expect.stringMatching(/^[\w-]{20,}$/),
				code_challenge: expect.stringMatching(/^[\w-]{43}$/),
				code_challenge_method: 'S256',
				...extra
			});
			expect(asked?.searchParams.has('nonce')).toBe(id === 'google');
			const flow = (await page.context().cookies()).find((c) => c.name === 'upstate_signin_flow');
			expect(flow).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/callback' });
		}
	});

	it('signs a new person in through the OpenID Connect server and creates their workspace', async () => {
		logOnFailure();
		const page = await freshPage();
		await signInAtAcme(page, 'new-person');
		await page.waitForURL(/\/monitors/);
		const [identity] = await identities('new-person');
		expect(identity).toMatchObject({ provider: 'acme', email: 'newbie@example.test' });
		expect(await db.membership.count({ where: { userId: identity.userId, role: 'owner' } })).toBe(
			1
		);
	});

	it('an unverified e-mail at the provider does not take over the account with that address', async () => {
		logOnFailure();
		const owner = await freshPage();
		await signIn(owner, { dashboard: stack.urls.dashboard, smtp, email: 'owner@example.test' });
		const page = await freshPage();
		await signInAtAcme(page, 'mallory');
		await page.waitForURL(/\/sign-in\?error=unverified&provider=acme/);
		await expect(page.getByRole('alert').innerText()).resolves.toBe(
			'Your Acme ID account has no verified e-mail address. Verify your address at Acme ID and try again, or sign in with an e-mail link.'
		);
		expect(await identities('mallory')).toEqual([]);
		await page.goto(`${stack.urls.dashboard}/monitors`);
		await page.waitForURL(/\/sign-in/);

		// The same address, verified at the provider, links to the owner's account.
		const linked = await freshPage();
		await signInAtAcme(linked, 'owner-at-acme');
		await linked.waitForURL(/\/monitors/);
		const user = await db.user.findUniqueOrThrow({ where: { email: 'owner@example.test' } });
		expect((await identities('owner-at-acme')).map((i) => i.userId)).toEqual([user.id]);
		expect(await db.membership.count({ where: { userId: user.id } })).toBe(1);
	});

	it('explains a cancelled sign-in and a callback without a sign-in in progress', async () => {
		logOnFailure();
		const page = await freshPage();
		await page.goto(`${stack.urls.dashboard}/sign-in`);
		await page.getByRole('button', { name: 'Sign in with Acme ID' }).click();
		await page.getByRole('link', { name: '[ Cancel ]' }).click();
		await page.waitForURL(/\/sign-in\?error=cancelled/);
		await expect(page.getByRole('alert').innerText()).resolves.toBe(
			'Sign-in at Acme ID was cancelled. Try again, or use an e-mail link.'
		);
		// No sign-in in progress in this browser, then one whose state is not the one sent back.
		for (const started of [false, true]) {
			if (started) {
				await page.goto(`${stack.urls.dashboard}/sign-in`);
				await page.getByRole('button', { name: 'Sign in with Acme ID' }).click();
				await page.getByPlaceholder('Enter any login').waitFor();
			}
			const back = new URLSearchParams({ code: 'stolen', state: 'guess', iss: issuer });
			await page.goto(`${stack.urls.dashboard}/api/auth/callback/acme?${back}`);
			await page.waitForURL(/\/sign-in\?error=expired/);
			await expect(page.getByRole('alert').innerText()).resolves.toMatch(
				/^The sign-in with Acme ID took too long or was started in another tab/
			);
		}
		expect(stack.logs.join('')).toMatch(
			/\[auth\] provider sign-in failed provider=acme reason=expired/
		);
	});
});

describe('magic link', () => {
	it('opening it changes nothing (mail scanners); the button signs in, without JavaScript', async () => {
		logOnFailure();
		const page = await freshPage({ javaScriptEnabled: false });
		const email = 'scanned@example.test';
		await page.goto(`${stack.urls.dashboard}/sign-in`);
		await page.getByLabel('E-mail').fill(email);
		await page.getByRole('button', { name: 'Send sign-in link' }).click();
		await page.getByText('Check your e-mail').waitFor();
		const mail = smtp.mails.find((m) => m.to === email);
		const link = /https?:\/\/\S+\/auth\/verify\?token=[\w-]+/.exec(mail?.text ?? '')?.[0] ?? '';
		for (let i = 0; i < 2; i++) {
			const scanned = await fetch(link);
			expect(scanned.status).toBe(200);
			expect(scanned.headers.get('set-cookie')).toBeNull();
		}
		expect(await db.magicLinkToken.count({ where: { email, usedAt: null } })).toBe(1);
		await page.goto(link);
		await page.getByText(`Continue as ${email}.`).waitFor();
		await openMagicLink(page, link);

		// Used now: a styled page says so and mails a new link to the same address.
		await page.goto(link);
		await page.getByRole('heading', { name: 'This sign-in link was already used' }).waitFor();
		expect(await page.getByLabel('E-mail').inputValue()).toBe(email);
		await page.getByRole('button', { name: 'Send a new link' }).click();
		await page.getByText('Check your e-mail for a new sign-in link').waitFor();
		expect(smtp.mails.filter((m) => m.to === email)).toHaveLength(2);
	});

	it('an invited person sees which workspace they are joining, and joins it', async () => {
		logOnFailure();
		const workspace = await db.workspace.create({
			data: { name: 'Acme Corp', slug: `acme-corp-${Date.now()}` }
		});
		const token = 'invitation-token-for-ivy-0123456789';
		await db.invitation.create({
			data: {
				workspaceId: workspace.id,
				email: 'ivy@example.test',
				tokenHash: createHash('sha256').update(token).digest('hex'),
				expiresAt: new Date(Date.now() + 3600_000)
			}
		});
		const page = await freshPage();
		await page.goto(`${stack.urls.dashboard}/invite/accept?token=${token}`);
		await page.waitForURL(/\/sign-in\?next=/);
		await page.getByRole('heading', { name: 'Join Acme Corp on Upstate' }).waitFor();
		expect(await page.getByLabel('E-mail').inputValue()).toBe('ivy@example.test');
		await page.getByRole('button', { name: 'Send sign-in link' }).click();
		await page.getByText('Check your e-mail').waitFor();
		const mail = smtp.mails.find((m) => m.to === 'ivy@example.test');
		await openMagicLink(
			page,
			/https?:\/\/\S+\/auth\/verify\?token=[\w-]+&next=\S+/.exec(mail?.text ?? '')?.[0] ?? ''
		);
		const ivy = await db.user.findUniqueOrThrow({ where: { email: 'ivy@example.test' } });
		expect(await db.membership.findMany({ where: { userId: ivy.id } })).toMatchObject([
			{ workspaceId: workspace.id, role: 'member' }
		]);
	});
});
