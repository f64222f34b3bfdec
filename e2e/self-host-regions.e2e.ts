import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchBrowser, startSmtp, startStack, type Stack, signIn } from './harness.ts';

// A self-hosted install (SELF_HOST) names only the private locations a monitor runs from: no
// hosted region ids on the monitor page or in its form, with JavaScript on or off.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let stack: Stack;
let browser: Browser;

beforeAll(async () => {
	smtp = await startSmtp();
	stack = await startStack({
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		SELF_HOST: 'true',
		WORKSPACE_DEFAULT_LIMITS: JSON.stringify({ monitors: 5 })
	});
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
});

describe('regions on a self-hosted install', () => {
	it('a new monitor runs from Local and shows no hosted region', async () => {
		const js = await browser.newPage();
		await signIn(js, { dashboard: stack.urls.dashboard, smtp, email: 'ops@example.test' });
		for (const javaScriptEnabled of [true, false]) {
			const context = await browser.newContext({ javaScriptEnabled });
			await context.addCookies(await js.context().cookies());
			const page = await context.newPage();
			onTestFailed(async () => {
				const text = await page
					.locator('main')
					.innerText()
					.catch(() => '');
				console.log(`--- at ${page.url()} ---\n${text.slice(0, 3000)}`);
			});
			await page.goto(`${stack.urls.dashboard}/monitors/new`);
			await expect(page.getByLabel('Regions').count()).resolves.toBe(0);
			await page.getByLabel('Name').fill(`Shop ${javaScriptEnabled}`);
			await page.getByLabel('URL').fill('https://example.com/');
			await page.getByRole('button', { name: 'Create monitor' }).click();
			await page.waitForURL(/\/monitors\/\d+$/);
			const body = await page.locator('main').innerText();
			expect(body).toMatch(/ · from Local\b/);
			expect(body).not.toMatch(/\b[a-c]-[a-z]{3}\b/);
			await expect(page.getByLabel('Regions').count()).resolves.toBe(0);
			// Saving an edit keeps the (empty) regions and still names no hosted one.
			await page.getByLabel('Name', { exact: true }).fill(`Shop ${javaScriptEnabled} 2`);
			await page.getByRole('button', { name: 'Save changes' }).click();
			await page.getByText('Saved.').waitFor();
			expect(await page.locator('main').innerText()).not.toMatch(/\bregions\b/);
			await context.close();
		}
	});
});
