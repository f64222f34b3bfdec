import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchBrowser, startSmtp, startStack, type Stack } from './harness.ts';

// Status reports, maintenance and the full page settings form, driven with JavaScript off:
// every dashboard form here must work as a plain form post (STYLE 31).
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let stack: Stack;
let browser: Browser;
let noJs: BrowserContext;
let page: Page;
let base: string;

beforeAll(async () => {
	smtp = await startSmtp();
	stack = await startStack({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
	browser = await launchBrowser();
	const withJs = await browser.newPage();
	const email = 'grace@example.test';
	await withJs.goto(`${stack.urls.dashboard}/sign-in`, { waitUntil: 'networkidle' });
	await withJs.getByLabel('E-mail').fill(email);
	await withJs.getByRole('button', { name: 'Send sign-in link' }).click();
	await withJs.getByText('Check your e-mail').waitFor();
	let text = '';
	for (let i = 0; i < 100 && !text; i++) {
		text = smtp.mails.find((m) => m.to === email)?.text ?? '';
		await new Promise((r) => setTimeout(r, 100));
	}
	await withJs.goto(/https?:\/\/\S+\/auth\/verify\?token=[\w-]+/.exec(text)?.[0] ?? '');
	await withJs.waitForURL(/\/monitors/);
	noJs = await browser.newContext({ javaScriptEnabled: false });
	await noJs.addCookies(await withJs.context().cookies());
	page = await noJs.newPage();
	await page.goto(`${stack.urls.dashboard}/status-pages`);
	await page.getByLabel('Title').fill('Acme status');
	await page.getByLabel('Slug').fill('acme');
	await page.getByRole('button', { name: 'Create status page' }).click();
	await page.waitForURL(/\/status-pages\/\d+$/);
	base = page.url();
	await page.getByLabel('Component name').fill('API');
	await page.getByRole('button', { name: 'Add component' }).click();
	await page.getByRole('cell', { name: 'API', exact: true }).waitFor();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
});

const visible = (text: string | RegExp) => page.getByText(text).first().isVisible();

describe('status reports and maintenance in the dashboard, without JavaScript', () => {
	it('creates, updates, edits and resolves a report', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(`${base}/reports`);
		await page.getByLabel('Title').fill('API errors');
		await page.getByLabel('Message (public)').fill('Looking into it');
		await page.locator('input[name=pageComponentIds]').first().check();
		await page.locator('select[name^=impact_]').first().selectOption('major_outage');
		// Notify defaults to off (spec 4.1 rule 7).
		expect(await page.getByLabel('Notify subscribers').isChecked()).toBe(false);
		await page.getByRole('button', { name: 'Publish report' }).click();
		await page.waitForURL(/\/reports\/\d+$/);
		expect(await visible('Looking into it')).toBe(true);
		expect(await visible('API: Major outage')).toBe(true);
		expect(await visible(/not notified/)).toBe(true);

		// A blank message is refused with the error under the field.
		await page.getByLabel('Message (public)', { exact: true }).fill('   ');
		await page.getByRole('button', { name: 'Post update' }).click();
		expect(await visible(/expected string to have >=1 characters/)).toBe(true);

		await page.getByLabel('New status').selectOption('identified');
		await page.getByLabel('Message (public)', { exact: true }).fill('Bad deploy');
		await page.locator('#update-notify').check();
		await page.getByRole('button', { name: 'Post update' }).click();
		await page.getByText('Bad deploy').waitFor();
		expect(await visible(/subscribers notified/)).toBe(true);

		await page.getByLabel('Title').fill('API 5xx');
		await page.getByRole('button', { name: 'Save details' }).click();
		await page.getByRole('heading', { name: 'API 5xx' }).waitFor();

		await page.getByLabel('Final message (public)').fill('Rolled back');
		await page.getByRole('button', { name: 'Resolve report' }).click();
		await page.getByText('Rolled back').waitFor();
		expect(await visible(/Resolved · opened/)).toBe(true);

		await page.goto(`${base}/reports`);
		expect(await page.getByRole('link', { name: 'API 5xx' }).isVisible()).toBe(true);
	});

	it('schedules, edits and deletes maintenance, with the date error on the end field', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(`${base}/maintenance`);
		await page.locator('#new-title').fill('DB upgrade');
		await page.locator('#new-from').fill('2026-12-01T02:00');
		await page.locator('#new-to').fill('2026-12-01T01:00');
		await page.getByRole('button', { name: 'Schedule', exact: true }).click();
		expect(await visible('End date must be after start date.')).toBe(true);
		await page.locator('#new-to').fill('2026-12-01T04:00');
		await page.getByRole('button', { name: 'Schedule', exact: true }).click();
		await page.getByText('2026-12-01 02:00 → 2026-12-01 04:00 UTC').waitFor();

		await page.getByText('DB upgrade').first().click(); // opens the <details>
		await page.locator('input[id$="-title"]:not(#new-title)').fill('Database upgrade');
		await page.getByRole('button', { name: 'Save window' }).click();
		await page.getByText('Database upgrade').waitFor();
		await page.getByText('Database upgrade').click();
		await page.getByRole('button', { name: 'Delete window' }).click();
		await page.getByText('No maintenance scheduled.').waitFor();
	});

	it('edits every page setting with errors on their fields, and orders components', async () => {
		onTestFailed(async () => console.log(page.url(), await page.locator('body').innerText()));
		await page.goto(base);
		await page.getByLabel('Custom theme, light (JSON)').fill('{not json');
		await page.getByRole('button', { name: 'Save page' }).click();
		expect(await visible(/must be a JSON object/)).toBe(true);

		await page.getByLabel('Custom theme, light (JSON)').fill('');
		await page.getByLabel('Who can see the page').selectOption('password');
		await page.getByRole('button', { name: 'Save page' }).click();
		expect(await visible("required when access_type is 'password'")).toBe(true);

		await page.getByLabel('Who can see the page').selectOption('public');
		await page.getByLabel('Description').fill('All our services');
		await page.getByLabel('Default locale').fill('de');
		await page.getByLabel('Locales').fill('de');
		await page.getByLabel('Allow search engines to index').check();
		await page.getByRole('button', { name: 'Save page' }).click();
		await page.getByText('Saved.').waitFor();
		await page.reload();
		expect(await page.getByLabel('Description').inputValue()).toBe('All our services');
		expect(await page.getByLabel('Default locale').inputValue()).toBe('de');
		expect(await page.getByLabel('Who can see the page').inputValue()).toBe('public');

		await page.getByLabel('Order of API', { exact: true }).fill('4');
		await page.getByRole('button', { name: 'Save order of API' }).click();
		await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
		expect(await page.getByLabel('Order of API', { exact: true }).inputValue()).toBe('4');
	});
});
