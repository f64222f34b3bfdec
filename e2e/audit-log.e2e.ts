import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@libsql/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import {
	launchBrowser,
	startSmtp,
	startStack,
	type Stack,
	signIn as signInByLink
} from './harness.ts';

// Settings → Audit log: the upgrade notice on a plan without `audit-log`, then, with it, the
// list, the entity-type filter and an entry's before/after, all with JavaScript turned off.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let stack: Stack;
let browser: Browser;
let page: Page;
let noJs: BrowserContext;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-audit-'));

beforeAll(async () => {
	smtp = await startSmtp();
	stack = await startStack({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, DATA_DIR: dataDir });
	browser = await launchBrowser();
	page = await browser.newPage();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
});

const signIn = (email: string) =>
	signInByLink(page, { dashboard: stack.urls.dashboard, smtp, email });

// What an operator does on a self-hosted instance (spec 4.3): edit the workspace's limits.
async function enableAuditLog() {
	const db = createClient({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	await db.execute(`UPDATE workspace SET limits = json_set(limits, '$."audit-log"', json('true'))`);
	db.close();
}

describe('audit log page', () => {
	it('shows an upgrade notice without the feature, then lists, filters and shows an entry', async () => {
		let current: Page = page;
		onTestFailed(async () => {
			const text = await current
				.locator('body')
				.innerText()
				.catch(() => '');
			console.log(`--- at ${current.url()} ---\n${text.slice(0, 3000)}`);
		});
		const email = 'lin@example.test';
		await signIn(email);
		await page.goto(`${stack.urls.dashboard}/monitors/new`, { waitUntil: 'networkidle' });
		await page.getByLabel('Name').fill('API');
		await page.getByLabel('URL').fill('https://example.com/health');
		await page.getByLabel('Frequency').selectOption('10m');
		await page.getByRole('button', { name: 'Create monitor' }).click();
		await page.waitForURL(/\/monitors\/\d+$/);
		const monitorId = /\/monitors\/(\d+)$/.exec(page.url())?.[1];
		await page.getByLabel('Name', { exact: true }).fill('API v2');
		await page.getByRole('button', { name: 'Save changes' }).click();
		await page.getByRole('heading', { name: 'API v2' }).first().waitFor();

		noJs = await browser.newContext({ javaScriptEnabled: false });
		await noJs.addCookies(await page.context().cookies());
		const plain = await noJs.newPage();
		current = plain;
		await plain.goto(`${stack.urls.dashboard}/settings/audit-log`);
		await plain.getByRole('heading', { name: 'The audit log is not part of your plan' }).waitFor();
		expect(await plain.getByRole('table').count()).toBe(0);

		await enableAuditLog();
		await plain.goto(`${stack.urls.dashboard}/settings/audit-log`);
		const rows = plain.getByRole('table').getByRole('row');
		const actions = async () =>
			(await rows.allInnerTexts()).slice(1).map((r) => r.split('\t')[1]?.trim());
		expect(await actions()).toEqual(
			expect.arrayContaining(['monitor.create', 'workspace.create', 'member.create'])
		);
		expect((await actions())[0]).toBe('monitor.update');

		await plain.getByLabel('Entity type').selectOption('monitor');
		await plain.getByRole('button', { name: 'Filter' }).click();
		await plain.waitForURL(/entityType=monitor/);
		expect(await actions()).toEqual(['monitor.update', 'monitor.create']);
		const row = rows.nth(1);
		expect(await row.innerText()).toContain(`monitor ${monitorId}`);
		expect(await row.innerText()).toContain(`Dashboard · ${email}`);
		expect(await row.innerText()).toMatch(/\bname\b/); // the changed field
		expect(await rows.nth(2).innerText()).toContain('created');

		await row.getByRole('link').click();
		await plain.waitForURL(/\/settings\/audit-log\/\d+$/);
		await plain.getByRole('heading', { name: 'monitor.update' }).waitFor();
		const nameRow = plain.getByRole('row', { name: /^name changed/ });
		expect((await nameRow.innerText()).split('\t').map((c) => c.trim())).toEqual([
			'name changed',
			'API',
			'API v2'
		]);
		await plain.getByRole('link', { name: `monitor ${monitorId}` }).click();
		await plain.waitForURL(/entityId=/);
		expect(await actions()).toEqual(['monitor.update', 'monitor.create']);
	});
});
