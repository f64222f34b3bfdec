import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startFakeVendor } from '../server/test/fake-vendor.ts';
import {
	launchBrowser,
	openMagicLink,
	startSmtp,
	startStack,
	type Stack,
	signIn,
	waitForMail as waitForMailTo
} from './harness.ts';

// Notification channels in the dashboard with JavaScript disabled: create a Slack channel wired
// to a monitor, send a test to a fake Slack on 127.0.0.1, edit without re-entering the webhook
// URL (it is kept, and never rendered back), delete.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let slack: Awaited<ReturnType<typeof startFakeVendor>>;
let stack: Stack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
	smtp = await startSmtp();
	slack = await startFakeVendor(() => ({ status: 200 }));
	stack = await startStack({
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
		WORKSPACE_DEFAULT_LIMITS: JSON.stringify({ monitors: 5, 'notification-channels': 5 })
	});
	browser = await launchBrowser();
	page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
	await slack?.close();
});

const waitForMail = (to: string) => waitForMailTo(smtp, to);

describe('notifications page without JavaScript', () => {
	it('creates a Slack channel, sends a test, keeps the secret on edit and deletes it', async () => {
		onTestFailed(async () => {
			const text = await page
				.locator('body')
				.innerText()
				.catch(() => '');
			console.log(`--- at ${page.url()} ---\n${text.slice(0, 2000)}\n${stack.logs.join('')}`);
		});
		const email = 'grace@example.test';
		await page.goto(`${stack.urls.dashboard}/sign-in`);
		await page.getByLabel('E-mail').fill(email);
		await page.getByRole('button', { name: 'Send sign-in link' }).click();
		const link = /https?:\/\/\S+\/auth\/verify\?token=[\w-]+/.exec(
			(await waitForMail(email)).text
		)?.[0];
		await openMagicLink(page, link as string);
		await page.goto(`${stack.urls.dashboard}/monitors/new`);
		await page.getByLabel('Name').fill('Checkout');
		await page.getByLabel('URL').fill('https://example.com/checkout');
		await page.getByLabel('Frequency').selectOption('10m');
		await page.getByRole('button', { name: 'Create monitor' }).click();
		await page.waitForURL(/\/monitors\/\d+/);

		await page.getByRole('link', { name: 'Notifications' }).click();
		await page.waitForURL(/\/notifications$/);
		await page.getByLabel('Provider').selectOption('slack');
		await page.getByRole('button', { name: 'Continue' }).click();
		await page.waitForURL(/\/notifications\/new\?provider=slack/);
		await page.getByLabel('Channel name').fill('SRE room');
		await page.getByLabel('Webhook URL').fill(`${slack.url}/services/T1/B1/sekret-abcd`);
		await page.getByRole('button', { name: 'Create channel' }).click();
		await page.waitForURL(/\/notifications\/\d+$/);
		await page.getByLabel('Checkout').check();
		await page.getByRole('button', { name: 'Save channel' }).click();
		await page.getByText('Saved.').waitFor();

		await page.getByRole('button', { name: 'Send test' }).click();
		await page.getByText('Delivered (status 200)').waitFor();
		expect(slack.requests.map((r) => [r.method, r.path])).toEqual([
			['POST', '/services/T1/B1/sekret-abcd']
		]);
		expect(JSON.parse(slack.requests[0].body).text).toBe(
			'Test notification from Upstate (Checkout)'
		);

		await page.getByLabel('Channel name').fill('SRE');
		await page.getByRole('button', { name: 'Save channel' }).click();
		await page.getByText('Saved.').waitFor();
		expect(await page.content()).not.toContain('sekret');
		await expect(page.getByLabel('Webhook URL').getAttribute('placeholder')).resolves.toBe(
			'Saved (…abcd). Leave empty to keep.'
		);
		await page.getByRole('button', { name: 'Send test' }).click();
		await page.getByText('Delivered (status 200)').waitFor();
		expect(slack.requests.map((r) => r.path)).toEqual([
			'/services/T1/B1/sekret-abcd',
			'/services/T1/B1/sekret-abcd'
		]);

		await page.goto(`${stack.urls.dashboard}/notifications`);
		await expect(page.getByRole('cell', { name: 'Checkout' }).isVisible()).resolves.toBe(true);
		await page.getByRole('link', { name: 'SRE' }).click();
		await page.waitForURL(/\/notifications\/\d+$/);
		// Deleting is two steps: open the section, which says what goes, then delete.
		expect(await page.getByRole('button', { name: 'Delete channel' }).isVisible()).toBe(false);
		await page.getByText('Delete channel…').click();
		await page.getByText('its monitors stop alerting through it').waitFor();
		await page.getByRole('button', { name: 'Delete channel' }).click();
		await page.waitForURL(/\/notifications$/);
		await page.getByText('No notification channels yet.').waitFor();
	});

	it('keeps ticked monitors after a failed save and clears optional ntfy fields on edit', async () => {
		await page.goto(`${stack.urls.dashboard}/monitors/new`);
		await page.getByLabel('Name').fill('Billing');
		await page.getByLabel('URL').fill('https://example.com/billing');
		await page.getByLabel('Frequency').selectOption('10m');
		await page.getByRole('button', { name: 'Create monitor' }).click();
		await page.waitForURL(/\/monitors\/\d+/);

		await page.goto(`${stack.urls.dashboard}/notifications/new?provider=ntfy`);
		await page.getByLabel('Topic').fill('not a topic!');
		await page.getByLabel('Checkout').check();
		await page.getByLabel('Billing').check();
		await page.getByRole('button', { name: 'Create channel' }).click();
		await page.getByText('must be 1-64 letters').first().waitFor();
		await expect(page.getByLabel('Topic').inputValue()).resolves.toBe('not a topic!');
		// Optional fields say so in the label; the error names the field as labelled, on its input.
		expect(await page.getByLabel('Access token (optional)', { exact: true }).count()).toBe(1);
		expect(await page.getByLabel('Topic', { exact: true }).getAttribute('aria-invalid')).toBe(
			'true'
		);
		const describedBy = (await page.getByLabel('Topic').getAttribute('aria-describedby')) ?? '';
		const errorText = await page.locator(`[id="${describedBy.split(' ').at(-1)}"]`).innerText();
		expect(errorText).toMatch(/^Topic: .*must be 1-64 letters/);
		await expect(page.getByLabel('Checkout').isChecked()).resolves.toBe(true);
		await expect(page.getByLabel('Billing').isChecked()).resolves.toBe(true);

		await page.getByLabel('Topic').fill('alerts');
		await page.getByLabel('Server URL').fill('https://ntfy.example.com');
		await page.getByLabel('Access token').fill('tk_secret-wxyz');
		await page.getByRole('button', { name: 'Create channel' }).click();
		await page.waitForURL(/\/notifications\/\d+$/);
		await expect(page.getByLabel('Server URL').inputValue()).resolves.toBe(
			'https://ntfy.example.com'
		);

		// A failed edit shows the boxes as the user left them, not as stored.
		await page.getByLabel('Topic').fill('not a topic!');
		await page.getByLabel('Billing').uncheck();
		await page.getByRole('button', { name: 'Save channel' }).click();
		await page.getByText('must be 1-64 letters').first().waitFor();
		await expect(page.getByLabel('Checkout').isChecked()).resolves.toBe(true);
		await expect(page.getByLabel('Billing').isChecked()).resolves.toBe(false);

		await page.getByLabel('Topic').fill('alerts');
		await page.getByLabel('Server URL').fill('');
		await page.getByLabel('Remove the saved value').check();
		await page.getByRole('button', { name: 'Save channel' }).click();
		await page.getByText('Saved.').waitFor();
		await page.goto(page.url().replace(/\?.*$/, ''));
		await expect(page.getByLabel('Server URL').inputValue()).resolves.toBe('');
		await expect(page.getByLabel('Access token').getAttribute('placeholder')).resolves.toBe('');
		expect(await page.getByLabel('Remove the saved value').count()).toBe(0);
		await expect(page.getByLabel('Billing').isChecked()).resolves.toBe(false);
	});
});

describe('notifications page with JavaScript', () => {
	it('keeps showing stored settings after a save, so a second save keeps them', async () => {
		const js = await (await browser.newContext()).newPage();
		await signIn(js, { dashboard: stack.urls.dashboard, smtp, email: 'ada@example.test' });
		// Type once hydrated: typing during hydration lost the create once (1 run in 8).
		await js.goto(`${stack.urls.dashboard}/notifications/new?provider=ntfy`, {
			waitUntil: 'networkidle'
		});
		await js.getByLabel('Topic').fill('alerts');
		await js.getByLabel('Server URL').fill('https://ntfy.example.com');
		await js.getByRole('button', { name: 'Create channel' }).click();
		await js.waitForURL(/\/notifications\/\d+$/);
		await js.waitForLoadState('networkidle');
		for (const name of ['Ops', 'Ops room']) {
			await js.getByLabel('Channel name').fill(name);
			await js.getByRole('button', { name: 'Save channel' }).click();
			await js.getByText('Saved.').waitFor();
			await expect(js.getByLabel('Server URL').inputValue()).resolves.toBe(
				'https://ntfy.example.com'
			);
		}
		await js.reload();
		await expect(js.getByLabel('Server URL').inputValue()).resolves.toBe(
			'https://ntfy.example.com'
		);
	});
});

describe('a webhook channel after AUTH_SECRET changed', () => {
	it('shows the new signing secret an edit had to generate', async () => {
		const env = {
			SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
			NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
			DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-rotate-'))
		};
		const email = 'rotate@example.test';
		const before = await startStack(env);
		const first = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
		await signIn(first, { dashboard: before.urls.dashboard, smtp, email });
		await first.goto(`${before.urls.dashboard}/notifications/new?provider=webhook`);
		await first.getByLabel('Endpoint URL').fill('https://example.com/hook');
		await first.getByRole('button', { name: 'Create channel' }).click();
		const original = await first.locator('#signing-secret').inputValue();
		await first.getByText('Continue to the channel').click();
		await first.waitForURL(/\/notifications\/\d+$/);
		const channelPath = new URL(first.url()).pathname;
		await before.stop();

		smtp.mails.length = 0;
		const after = await startStack({
			...env,
			AUTH_SECRET: 'rotated-secret-rotated-secret-rotated'
		});
		try {
			const second = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
			await signIn(second, { dashboard: after.urls.dashboard, smtp, email });
			await second.goto(`${after.urls.dashboard}${channelPath}`);
			await second.getByLabel('Channel name').fill('Receiver');
			await second.getByRole('button', { name: 'Save channel' }).click();
			await second.getByText('Saved.').waitFor();
			const renewed = await second.locator('#signing-secret').inputValue();
			expect(renewed).toMatch(/^whsec_/);
			expect(renewed).not.toBe(original);
		} finally {
			await after.stop();
		}
	});
});
