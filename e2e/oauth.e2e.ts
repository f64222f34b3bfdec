import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { connectWithOAuth, MemoryOAuthProvider } from '../server/test/oauth-client.ts';
import { freePort, launchBrowser, signIn, startSmtp, startStack, type Stack } from './harness.ts';

// An assistant connects to /mcp as it does for a person: the official MCP SDK client's OAuth
// support against the all-in-one server, and a person approving the consent screen in
// Chromium, with and without JavaScript; then Settings → Integrations → Connected apps.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let stack: Stack;
let browser: Browser;
let page: Page;
let noJs: BrowserContext;
let callback: http.Server;
let redirectUrl = '';
const landed: string[] = [];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-oauth-'));
const email = 'ada@example.test';

// The assistant's loopback redirect URI: a real server that only records where it was sent.
async function startCallback(): Promise<void> {
	const port = await freePort();
	callback = http.createServer((req, res) => {
		if (req.url?.startsWith('/callback')) landed.push(`http://127.0.0.1:${port}${req.url}`);
		res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this tab.');
	});
	await new Promise<void>((r) => callback.listen(port, '127.0.0.1', r));
	redirectUrl = `http://127.0.0.1:${port}/callback`;
}

async function nextLanding(before: number): Promise<string> {
	for (let i = 0; i < 100 && landed.length === before; i++)
		await new Promise((r) => setTimeout(r, 100));
	const url = landed[before];
	if (!url) throw new Error('the browser never reached the redirect URI');
	return url;
}

// Approve on the consent screen in `tab`: pick the workspace and access, click Allow.
const approveIn =
	(tab: Page, choice: { workspace?: string; access?: 'Read only' | 'Read & write' } = {}) =>
	async (consentUrl: string) => {
		const before = landed.length;
		await tab.goto(consentUrl);
		if (choice.workspace)
			await tab.getByLabel('Workspace').selectOption({ label: choice.workspace });
		if (choice.access)
			await tab.getByRole('radio', { name: new RegExp(`^${choice.access}`) }).check();
		await tab.getByRole('button', { name: 'Allow' }).click();
		return nextLanding(before);
	};

const mcpUrl = () => `${stack.urls.api}/mcp`;

beforeAll(async () => {
	smtp = await startSmtp();
	await startCallback();
	stack = await startStack({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, DATA_DIR: dataDir });
	browser = await launchBrowser();
	page = await browser.newPage();
	await signIn(page, { dashboard: stack.urls.dashboard, smtp, email });
	// A second workspace the same person belongs to (what an accepted invitation leaves).
	const db = createClient({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	await db.execute(
		`INSERT INTO workspace (name, slug, updated_at) VALUES ('Side project', 'side', '2026-11-24T00:00:00.000+00:00')`
	);
	await db.execute(
		`INSERT INTO membership (workspace_id, user_id, role) SELECT w.id, u.id, 'owner' FROM workspace w, user u WHERE w.slug = 'side' AND u.email = '${email}'`
	);
	db.close();
	noJs = await browser.newContext({ javaScriptEnabled: false });
	await noJs.addCookies(await page.context().cookies());
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
	await new Promise((r) => callback?.close(r));
});

describe('connecting an assistant', () => {
	it('with JavaScript: the SDK client registers, the person allows read & write, tools work', async () => {
		onTestFailed(async () =>
			console.log(
				await page
					.locator('body')
					.innerText()
					.catch(() => '')
			)
		);
		const provider = new MemoryOAuthProvider({ redirectUrl, name: 'Claude' });
		const client = await connectWithOAuth({
			mcpUrl: mcpUrl(),
			provider,
			approve: async (consentUrl) => {
				await page.goto(consentUrl);
				await page.getByRole('heading', { name: 'Connect Claude to Upstate?' }).waitFor();
				await expect(
					page.getByLabel('Workspace').locator('option').allInnerTexts()
				).resolves.toHaveLength(2);
				return approveIn(page, { workspace: 'Side project' })(consentUrl);
			}
		});
		const landing = new URL(landed.at(-1) ?? '');
		expect(landing.searchParams.get('iss')).toBe(stack.urls.api);
		const names = (await client.listTools()).tools.map((t) => t.name);
		expect(names).toContain('create_status_report');
		await client.close();
	});

	it('without JavaScript: the person downgrades to read-only and mutation tools are gone', async () => {
		const tab = await noJs.newPage();
		const provider = new MemoryOAuthProvider({ redirectUrl, name: 'Cursor' });
		const client = await connectWithOAuth({
			mcpUrl: mcpUrl(),
			provider,
			approve: approveIn(tab, { access: 'Read only' })
		});
		const names = (await client.listTools()).tools.map((t) => t.name);
		expect(names).toContain('list_monitors');
		expect(names.filter((n) => !/^(list|get)_/.test(n))).toEqual([]);
		await client.close();
		await tab.close();
	});

	it('signs in first when needed, then returns to the consent screen; Deny sends access_denied', async () => {
		const fresh = await browser.newContext({ javaScriptEnabled: false });
		const tab = await fresh.newPage();
		const reg = await fetch(`${stack.urls.api}/oauth/register`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ client_name: 'Windsurf', redirect_uris: [redirectUrl] })
		});
		const { client_id } = (await reg.json()) as { client_id: string };
		const authorize = `${stack.urls.api}/oauth/authorize?${new URLSearchParams({
			client_id,
			redirect_uri: redirectUrl,
			response_type: 'code',
			code_challenge: 'x'.repeat(43),
			code_challenge_method: 'S256',
			state: 'keep me',
			scope: 'read write'
		})}`;
		await tab.goto(authorize);
		await tab.waitForURL(/\/sign-in\?next=/);
		const mailsBefore = smtp.mails.length;
		await tab.getByLabel('E-mail').fill(email);
		await tab.getByRole('button', { name: 'Send sign-in link' }).click();
		for (let i = 0; i < 100 && smtp.mails.length === mailsBefore; i++)
			await new Promise((r) => setTimeout(r, 100));
		const link = /https?:\/\/\S+\/auth\/verify\?\S+/.exec(smtp.mails.at(-1)?.text ?? '')?.[0];
		// Opening the link only asks to confirm (mail scanners); signing in goes on to consent.
		await tab.goto(link ?? '');
		await tab.getByRole('button', { name: 'Sign in', exact: true }).click();
		await tab.getByRole('heading', { name: 'Connect Windsurf to Upstate?' }).waitFor();
		const before = landed.length;
		await tab.getByRole('button', { name: 'Deny' }).click();
		const denied = new URL(await nextLanding(before));
		expect(denied.searchParams.get('error')).toBe('access_denied');
		expect(denied.searchParams.get('state')).toBe('keep me');
		await fresh.close();
	});
});

describe('connected apps', () => {
	it('lists the connections of the workspace and revokes one: its next call is a 401', async () => {
		const provider = new MemoryOAuthProvider({ redirectUrl, name: 'VS Code' });
		const tab = await noJs.newPage();
		const client = await connectWithOAuth({ mcpUrl: mcpUrl(), provider, approve: approveIn(tab) });
		await tab.goto(`${stack.urls.dashboard}/settings/integrations`);
		const row = tab.getByRole('row', { name: /VS Code/ });
		await expect(row.innerText()).resolves.toMatch(/Read & write\s+ada@example\.test/);
		await expect(tab.getByRole('row', { name: /Cursor/ }).innerText()).resolves.toContain(
			'Read only'
		);
		// Claude was connected to the other workspace: it is listed there, not here.
		await expect(tab.getByRole('row', { name: /Claude/ }).count()).resolves.toBe(0);
		await row.getByRole('button', { name: 'Revoke VS Code' }).click();
		await tab
			.getByText('No connected apps')
			.or(tab.getByRole('row', { name: /Cursor/ }))
			.first()
			.waitFor();
		await expect(tab.getByRole('row', { name: /VS Code/ }).count()).resolves.toBe(0);
		await expect(client.listTools()).rejects.toThrow();
		const res = await fetch(mcpUrl(), {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
				authorization: `Bearer ${provider.saved?.access_token}`
			},
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
		});
		expect(res.status).toBe(401);
		await tab.close();
	});
});
