import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startSmtp, startStack, type Stack, signIn } from './harness.ts';

// A new workspace's first screen: the checklist ticks a step when it happens and can be
// dismissed, with JavaScript on (desktop) and off (phone).
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let stack: Stack;
let browser: Browser;

beforeAll(async () => {
	smtp = await startSmtp();
	stack = await startStack({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
});

describe('first-run checklist', () => {
	for (const [javaScriptEnabled, width] of [
		[true, 1280],
		[false, 390]
	] as const) {
		it(`ticks itself and is dismissed (JavaScript ${javaScriptEnabled ? 'on' : 'off'}, ${width} px)`, async () => {
			const signedIn = await browser.newPage();
			await signIn(signedIn, {
				dashboard: stack.urls.dashboard,
				smtp,
				email: `new-${javaScriptEnabled}@example.test`
			});
			const context = await browser.newContext({
				javaScriptEnabled,
				viewport: { width, height: 800 }
			});
			await context.addCookies(await signedIn.context().cookies());
			const page = await context.newPage();
			await page.goto(`${stack.urls.dashboard}/monitors`);
			const heading = page.getByRole('heading', { name: /^Get started/ });
			await expect(heading.innerText()).resolves.toBe('Get started · 0 of 6 done');
			await page.getByRole('link', { name: 'Create a monitor' }).click();
			await page.getByLabel('Name').fill('Shop');
			await page.getByLabel('URL').fill('https://example.com/');
			await page.getByRole('button', { name: 'Create monitor' }).click();
			await page.waitForURL(/\/monitors\/\d+$/);
			await page.goto(`${stack.urls.dashboard}/monitors`);
			await expect(heading.innerText()).resolves.toBe('Get started · 1 of 6 done');
			await expect(page.getByRole('link', { name: 'Create a monitor' }).count()).resolves.toBe(0);
			await expect(page.getByText('Create a monitor (done)').count()).resolves.toBe(1);
			await page.getByRole('button', { name: 'Dismiss' }).click();
			await page.getByRole('heading', { name: 'Monitors', level: 1 }).waitFor();
			await expect(heading.count()).resolves.toBe(0);
			await page.goto(`${stack.urls.dashboard}/monitors`);
			await expect(heading.count()).resolves.toBe(0);
			await context.close();
			await signedIn.close();
		});
	}
});
