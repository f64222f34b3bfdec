import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startFakeVendor } from '../server/test/fake-vendor.ts';
import {
	launchBrowser,
	startSmtp,
	startStack,
	type Stack,
	signIn as signInByLink
} from './harness.ts';

// Incidents in the dashboard with JavaScript disabled: the built-in probe sees a target fail,
// an incident opens and a Slack alert is delivered through the outbox; the incident is
// acknowledged and resolved by hand, and the channel's delivery log shows the attempt.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let slack: Awaited<ReturnType<typeof startFakeVendor>>;
let site: http.Server;
let failing = false;
let stack: Stack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
	smtp = await startSmtp();
	slack = await startFakeVendor(() => ({ status: 200 }));
	site = http.createServer((_req, res) => {
		res.statusCode = failing ? 500 : 200;
		res.end(failing ? 'down' : 'ok');
	});
	await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
	stack = await startStack({
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		LOCAL_PROBE_INTERVAL_MS: '1000',
		NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
		WORKSPACE_DEFAULT_LIMITS: JSON.stringify({
			periodicity: ['30s', '1m', '5m', '10m', '30m', '1h'],
			'notification-channels': 5
		})
	});
	browser = await launchBrowser();
	page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
	await slack?.close();
	site?.close();
});

const signIn = (email: string) =>
	signInByLink(page, { dashboard: stack.urls.dashboard, smtp, email });

describe('incidents without JavaScript', () => {
	it('alerts once through Slack, then is acknowledged and resolved by hand', async () => {
		onTestFailed(async () => {
			const text = await page
				.locator('body')
				.innerText()
				.catch(() => '');
			console.log(`--- at ${page.url()} ---\n${text.slice(0, 3000)}\n${stack.logs.join('')}`);
		});
		const email = 'ada@example.test';
		await signIn(email);
		await page.goto(`${stack.urls.dashboard}/monitors/new`);
		await page.getByLabel('Name').fill('Checkout');
		await page.getByLabel('URL').fill(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
		await page.getByLabel('Frequency').selectOption('30s');
		await page.getByRole('button', { name: 'Create monitor' }).click();
		await page.waitForURL(/\/monitors\/\d+$/);

		await page.goto(`${stack.urls.dashboard}/notifications`);
		await page.getByLabel('Provider').selectOption('slack');
		await page.getByRole('button', { name: 'Continue' }).click();
		await page.getByLabel('Channel name').fill('On call');
		await page.getByLabel('Webhook URL').fill(`${slack.url}/services/T1/B1/oncall`);
		await page.getByRole('button', { name: 'Create channel' }).click();
		await page.waitForURL(/\/notifications\/\d+$/);
		const channelUrl = page.url();
		await page.getByLabel('Checkout').check();
		await page.getByRole('button', { name: 'Save channel' }).click();
		await page.getByText('Saved.').waitFor();

		failing = true;
		const incidentLink = page.getByRole('link', { name: 'Checkout' });
		for (let i = 0; i < 120 && !(await incidentLink.isVisible()); i++) {
			await new Promise((r) => setTimeout(r, 1000));
			await page.goto(`${stack.urls.dashboard}/incidents`);
		}
		for (let i = 0; i < 50 && slack.requests.length === 0; i++)
			await new Promise((r) => setTimeout(r, 100));
		expect(slack.requests).toHaveLength(1);
		expect(JSON.stringify(JSON.parse(slack.requests[0]?.body ?? '{}'))).toContain('Checkout');

		await incidentLink.click();
		await page.waitForURL(/\/incidents\/\d+$/);
		const field = (name: string) => page.locator(`dd[data-field="${name}"]`).innerText();
		expect(await field('Status')).toBe('open');
		expect(await field('Failing locations')).toBe('Local');
		expect(await field('Error')).toMatch(/500/);
		await page.getByRole('button', { name: 'Acknowledge' }).click();
		await page.getByText('Acknowledged.').waitFor();
		expect(await field('Acknowledged')).toContain(`by ${email}`);
		await page.getByRole('button', { name: 'Resolve' }).click();
		await page.getByText('Resolved.').waitFor();
		expect(await field('Status')).toBe('resolved');
		expect(await field('Resolved')).toContain(`by ${email}`);
		expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(0);

		await page.goto(channelUrl);
		const log = page.getByRole('region', { name: 'Delivery log' });
		const row = log.getByRole('row').nth(1);
		expect(await row.innerText()).toMatch(/alert\s+1\s+delivered\s+200/);
		expect(slack.requests).toHaveLength(1);
	});
});
