import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { launchBrowser, startSmtp, startStack, type Stack, signIn } from './harness.ts';

// The live monitor page at phone width: checks appear in the heartbeat strip without a
// reload; when the target fails, the latest error and a link to the open incident appear;
// a background tab stops asking for updates.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let site: http.Server;
let siteUrl: string;
let failing = false;
let stack: Stack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
	smtp = await startSmtp();
	site = http.createServer((_req, res) => {
		res.statusCode = failing ? 503 : 200;
		res.end(failing ? 'down for maintenance' : 'ok');
	});
	await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
	siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
	stack = await startStack({
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		LOCAL_PROBE_INTERVAL_MS: '1000',
		WORKSPACE_DEFAULT_LIMITS: JSON.stringify({
			periodicity: ['30s', '1m', '5m', '10m', '30m', '1h']
		})
	});
	browser = await launchBrowser();
	page = await browser.newPage({ viewport: { width: 390, height: 844 } });
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
	site?.close();
});

// Waits for `ok()` without reloading the page, up to `seconds`.
async function until(ok: () => Promise<boolean>, seconds: number) {
	for (let i = 0; i < seconds; i++) {
		if (await ok()) return;
		await new Promise((r) => setTimeout(r, 1000));
	}
	throw new Error(`not seen within ${seconds} s`);
}

describe('live monitor page', () => {
	it(
		'fills the strip live, then shows the error and the open incident',
		{ timeout: 300_000 },
		async () => {
			onTestFailed(async () => {
				const text = await page
					.locator('body')
					.innerText()
					.catch(() => '');
				console.log(`--- at ${page.url()} ---\n${text.slice(0, 3000)}`);
			});
			await signIn(page, { dashboard: stack.urls.dashboard, smtp, email: 'kai@example.test' });
			await page.goto(`${stack.urls.dashboard}/monitors/new`, { waitUntil: 'networkidle' });
			await page.getByLabel('Name').fill('Shop');
			await page.getByLabel('URL').fill(siteUrl);
			await page.getByLabel('Frequency').selectOption('30s');
			await page.getByLabel('Retries').fill('0');
			await page.getByRole('button', { name: 'Create monitor' }).click();
			await page.waitForURL(/\/monitors\/\d+$/);
			await page.getByText('No checks yet').first().waitFor();

			const strip = page
				.getByRole('list', { name: 'Latest checks from Local' })
				.getByRole('button');
			await until(async () => (await strip.count()) > 0, 90);
			// Tap (focus) a check: its time, status, latency show.
			await strip.first().focus();
			await expect(page.getByRole('tooltip').first().innerText()).resolves.toMatch(
				/UTC · Up \(200\) · \d+ ms/
			);

			failing = true;
			const incident = page.getByRole('link', { name: /^Open incident since / });
			await until(() => incident.isVisible(), 150);
			await expect(incident.getAttribute('href')).resolves.toMatch(/^\/incidents\/\d+$/);
			await expect(page.getByTestId('latest-error').innerText()).resolves.toMatch(/503/);
			await expect(strip.last().getAttribute('aria-label')).resolves.toMatch(/· Down \(503\) ·/);
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
				390
			);
		}
	);

	it('asks for updates only while the tab is visible', async () => {
		const asked: string[] = [];
		page.on('request', (r) => {
			if (r.url().endsWith('/live')) asked.push(r.url());
		});
		const hide = (state: 'hidden' | 'visible') =>
			page.evaluate((s) => {
				Object.defineProperty(document, 'visibilityState', { value: s, configurable: true });
				document.dispatchEvent(new Event('visibilitychange'));
			}, state);
		await hide('hidden');
		asked.length = 0;
		await new Promise((r) => setTimeout(r, 12_000));
		expect(asked).toEqual([]);
		await hide('visible');
		await until(async () => asked.length > 0, 5);
	});

	it('the list shows state, last check, 24 h uptime and a strip; filters work without JavaScript', async () => {
		for (const javaScriptEnabled of [true, false]) {
			const context = await browser.newContext({
				javaScriptEnabled,
				viewport: { width: 390, height: 844 }
			});
			await context.addCookies(await page.context().cookies());
			const list = await context.newPage();
			await list.goto(`${stack.urls.dashboard}/monitors`);
			const row = list.getByRole('row').filter({ hasText: 'Shop' });
			await expect(
				row.getByRole('img', { name: /^Latest checks of Shop: \d+ up, \d+ down$/ }).count()
			).resolves.toBe(1);
			await expect(row.getByText(/^\d+\.\d\d %$/).count()).resolves.toBe(1);
			await expect(row.getByText(/UTC$/).count()).resolves.toBe(1);
			await expect(row.getByText('Outage').count()).resolves.toBe(1);

			await list.getByLabel('State').selectOption('error');
			await list.getByRole('button', { name: 'Filter' }).click();
			await list.waitForURL(/state=error/);
			await expect(list.getByRole('link', { name: 'Shop' }).count()).resolves.toBe(1);
			await list.getByLabel('Type').selectOption('tcp');
			await list.getByRole('button', { name: 'Filter' }).click();
			await list.getByText('No monitor matches these filters.').waitFor();
			await list.goto(`${stack.urls.dashboard}/monitors?q=sho`);
			await expect(list.getByRole('link', { name: 'Shop' }).count()).resolves.toBe(1);
			await expect(list.getByLabel('Search').inputValue()).resolves.toBe('sho');
			expect(await list.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
				390
			);
			await context.close();
		}
	});
});
