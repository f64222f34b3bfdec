import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import {
	launchBrowser,
	openMagicLink,
	startSmtp,
	startStack,
	type Stack,
	waitForMail as waitForMailTo
} from './harness.ts';

// The walking skeleton of issue 2, as a newcomer does it: sign in by magic link, get a
// workspace, create an HTTP monitor, a status page and a component linked to the monitor, see
// the page on the status site, then create an API key and use it on REST and MCP.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let site: http.Server;
let siteUrl: string;
let stack: Stack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
	smtp = await startSmtp();
	site = http.createServer((_req, res) => res.end('welcome'));
	await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
	siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
	stack = await startStack({
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		LOCAL_PROBE_INTERVAL_MS: '1000'
	});
	browser = await launchBrowser();
	page = await browser.newPage();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
	site?.close();
});

const waitForMail = (to: string) => waitForMailTo(smtp, to);

describe('walking skeleton', () => {
	it('signs in, builds a page, sees it public, and uses an API key on REST and MCP', async () => {
		onTestFailed(async () => {
			const text = await page
				.locator('body')
				.innerText()
				.catch(() => '');
			console.log(
				`--- at ${page.url()} ---\n${text.slice(0, 2000)}\n--- server log ---\n${stack.logs.join('')}`
			);
		});
		const email = 'ada@example.test';
		await page.goto(`${stack.urls.dashboard}/sign-in`, { waitUntil: 'networkidle' });
		await page.getByLabel('E-mail').fill(email);
		await page.getByRole('button', { name: 'Send sign-in link' }).click();
		await page.getByText('Check your e-mail').waitFor();
		const link = /https?:\/\/\S+\/auth\/verify\?token=[\w-]+/.exec(
			(await waitForMail(email)).text
		)?.[0];
		expect(link).toBeTruthy();
		await openMagicLink(page, link as string);
		await page.waitForLoadState('networkidle');

		await page.getByRole('link', { name: 'New monitor' }).click();
		await page.waitForURL(/\/monitors\/new/);
		await page.waitForLoadState('networkidle');
		await page.getByLabel('Name').fill('Marketing site');
		await page.getByLabel('URL').fill(siteUrl);
		await page.getByLabel('Frequency').selectOption('10m');
		await page.getByRole('button', { name: 'Create monitor' }).click();
		await page.waitForURL(/\/monitors\/\d+/);
		await expect(page.getByRole('heading', { name: 'Marketing site' }).isVisible()).resolves.toBe(
			true
		);

		await page.goto(`${stack.urls.dashboard}/status-pages`, { waitUntil: 'networkidle' });
		await page.getByLabel('Title').fill('Acme status');
		await page.getByLabel('Slug').fill('acme');
		await page.getByRole('button', { name: 'Create status page' }).click();
		await page.waitForURL(/\/status-pages\/\d+/);
		await page.waitForLoadState('networkidle');
		await page.getByLabel('Component name').fill('Website');
		await page.getByLabel('Monitor').selectOption({ label: 'Marketing site' });
		await page.getByRole('button', { name: 'Add component' }).click();
		await page.getByRole('cell', { name: 'Website', exact: true }).waitFor();

		await page.goto(`${stack.urls.status}/acme`, { waitUntil: 'networkidle' });
		await expect(page.getByRole('heading', { name: 'Acme status' }).isVisible()).resolves.toBe(
			true
		);
		await expect(page.getByText('Website').isVisible()).resolves.toBe(true);

		await page.goto(`${stack.urls.dashboard}/settings/api-keys`, { waitUntil: 'networkidle' });
		await page.getByLabel('Key name').fill('ci');
		await page.getByLabel('Scope').selectOption('write');
		await page.getByRole('button', { name: 'Create API key' }).click();
		const key = (await page.getByLabel('Your new API key').inputValue()).trim();
		expect(key).toMatch(/^us_/);
		// The key acts for the member who made it: the list says who, with their role.
		const row = page
			.getByRole('row')
			.filter({ has: page.getByRole('cell', { name: 'ci', exact: true }) });
		expect((await row.getByRole('cell').nth(3).textContent())?.trim()).toBe(`${email} (owner)`);

		const rest = await fetch(`${stack.urls.api}/v1/monitors`, {
			headers: { 'x-service-key': key }
		});
		expect(rest.status).toBe(200);
		const body = (await rest.json()) as { data: Array<{ name: string; url: string }> };
		expect(body.data.map((m) => [m.name, m.url])).toEqual([['Marketing site', siteUrl]]);

		const client = new Client({ name: 'e2e', version: '1.0.0' });
		await client.connect(
			new StreamableHTTPClientTransport(new URL(`${stack.urls.api}/mcp`), {
				requestInit: { headers: { 'x-service-key': key } }
			})
		);
		const result = await client.callTool({ name: 'list_status_pages', arguments: {} });
		expect(JSON.stringify(result.structuredContent)).toContain('"slug":"acme"');
		await client.close();
	});
});
