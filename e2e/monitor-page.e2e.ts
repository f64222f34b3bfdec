import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import {
	launchBrowser,
	startSmtp,
	startStack,
	type Stack,
	signIn as signInByLink
} from './harness.ts';

// The monitor page after real checks by the built-in probe: summary per window, the latency
// chart, response logs and one log; the window switch also without JavaScript.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let site: http.Server;
let siteUrl: string;
let stack: Stack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
	smtp = await startSmtp();
	site = http.createServer((_req, res) => {
		res.setHeader('set-cookie', 'session=secret');
		res.end('welcome');
	});
	await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
	siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
	stack = await startStack({
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		LOCAL_PROBE_INTERVAL_MS: '1000',
		WORKSPACE_DEFAULT_LIMITS: JSON.stringify({
			periodicity: ['30s', '1m', '5m', '10m', '30m', '1h'],
			'response-logs': true
		})
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

const signIn = (email: string) =>
	signInByLink(page, { dashboard: stack.urls.dashboard, smtp, email });

describe('monitor page', () => {
	it('shows summary, latency chart and response logs from real checks, and one log', async () => {
		onTestFailed(async () => {
			const text = await page
				.locator('body')
				.innerText()
				.catch(() => '');
			console.log(`--- at ${page.url()} ---\n${text.slice(0, 3000)}`);
		});
		await signIn('grace@example.test');
		await page.goto(`${stack.urls.dashboard}/monitors/new`, { waitUntil: 'networkidle' });
		await page.getByLabel('Name').fill('API');
		await page.getByLabel('URL').fill(siteUrl);
		await page.getByLabel('Frequency').selectOption('30s');
		await page.getByRole('button', { name: 'Create monitor' }).click();
		await page.waitForURL(/\/monitors\/\d+$/);
		const monitorUrl = page.url();

		// The first check runs within one period (30 s) of the probe picking the monitor up.
		const logLink = page.getByRole('table').last().getByRole('link').first();
		for (let i = 0; i < 90 && !(await logLink.isVisible()); i++) {
			await new Promise((r) => setTimeout(r, 1000));
			await page.goto(monitorUrl, { waitUntil: 'networkidle' });
		}
		await expect(page.getByRole('heading', { name: 'Last 1d' }).isVisible()).resolves.toBe(true);
		const uptime = page
			.locator('#summary-heading + dl dt', { hasText: /^Uptime$/ })
			.locator('xpath=..')
			.locator('dd');
		await expect(uptime.innerText()).resolves.toBe('100.00 %');
		// A new monitor: each check in the latest-checks strip (raw results), no chart of one
		// hourly dot until there are three hours.
		const strip = page.getByRole('list', { name: 'Latest checks from Local' }).getByRole('button');
		await expect(strip.first().getAttribute('aria-label')).resolves.toMatch(
			/^\d+ \w{3} \d{4}, \d\d:\d\d:\d\d UTC · Up \(200\) · \d+ ms$/
		);
		const note = page.getByText('The chart starts after three hours of checks');
		await expect(note.isVisible()).resolves.toBe(true);
		// The shared 90-day bar: one focusable day per UTC day, today's from the real checks.
		const days = page.getByRole('list', { name: /daily uptime/ }).getByRole('button');
		await expect(days.count()).resolves.toBe(90);
		await expect(days.last().textContent()).resolves.toMatch(/100% uptime, \d+ checks, 0 failed/);

		// The window switch is a plain link: it works with JavaScript off.
		const noJs = await browser.newContext({
			javaScriptEnabled: false,
			storageState: await page.context().storageState()
		});
		const plain = await noJs.newPage();
		await plain.goto(monitorUrl);
		await plain.getByRole('link', { name: '7d', exact: true }).click();
		await plain.waitForURL(/window=7d/);
		await expect(plain.getByRole('heading', { name: 'Last 7d' }).isVisible()).resolves.toBe(true);
		await expect(
			plain.getByText('The chart starts after three hours of checks').isVisible()
		).resolves.toBe(true);
		await noJs.close();

		await logLink.click();
		await page.waitForURL(/\/logs\//);
		await expect(page.getByRole('heading', { name: 'Check result' }).isVisible()).resolves.toBe(
			true
		);
		await expect(page.getByText(siteUrl).isVisible()).resolves.toBe(true);
		for (const phase of ['dns', 'connect', 'tls', 'ttfb', 'transfer'])
			await expect(
				page.getByRole('rowheader', { name: phase, exact: true }).isVisible()
			).resolves.toBe(true);
		const ttfb = page.getByRole('row', { name: /ttfb/ }).getByRole('cell');
		await expect(ttfb.innerText()).resolves.toMatch(/^\d+\.\d ms$/);
		const cookie = page.getByRole('row', { name: /set-cookie/ }).getByRole('cell');
		await expect(cookie.innerText()).resolves.toBe('[redacted]');
	});
});
