import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, signIn, startSmtp, startStack, type Stack } from './harness.ts';

// The instance admin's page and the plan's frequencies in the monitor form, as an operator and
// a second user meet them (free plan at first: SELF_HOST=false, as the harness starts it).
let stack: Stack;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let browser: Browser;
let admin: Page;
let other: Page;

beforeAll(async () => {
	smtp = await startSmtp();
	stack = await startStack({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
	browser = await launchBrowser();
	admin = await browser.newPage();
	await signIn(admin, { dashboard: stack.urls.dashboard, smtp, email: 'operator@self.test' });
	other = await (await browser.newContext()).newPage();
	await signIn(other, { dashboard: stack.urls.dashboard, smtp, email: 'member@self.test' });
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
});

const frequencies = async (page: Page) => {
	await page.goto(`${stack.urls.dashboard}/monitors/new`);
	return page.locator('#periodicity option').allTextContents();
};

describe('self-hosting in the dashboard', () => {
	it('offers only the frequencies of the workspace plan', async () => {
		expect(await frequencies(other)).toEqual(['10m', '30m', '1h']);
	});

	it('shows the instance admin page to the first user only', async () => {
		await admin.goto(`${stack.urls.dashboard}/monitors`);
		await admin.getByRole('link', { name: 'Instance admin' }).click();
		await admin.getByRole('heading', { name: 'Instance admin' }).waitFor();
		await other.goto(`${stack.urls.dashboard}/monitors`);
		expect(await other.getByRole('link', { name: 'Instance admin' }).count()).toBe(0);
		const refused = await other.goto(`${stack.urls.dashboard}/admin`);
		expect(refused?.status()).toBe(403);
	});

	it("sets another workspace's plan and limits: the self-host plan, then limits as JSON", async () => {
		await admin.goto(`${stack.urls.dashboard}/admin`);
		const card = admin.locator('form', { has: admin.getByRole('heading', { name: /^member #/ }) });
		await card.getByRole('button', { name: 'Set the self-host plan (everything on)' }).click();
		await card.getByRole('status').waitFor();
		expect(await frequencies(other)).toEqual(['30s', '1m', '5m', '10m', '30m', '1h']);

		await admin.goto(`${stack.urls.dashboard}/admin`);
		await card.getByLabel('Plan').fill('team');
		await card.getByLabel('Limits (JSON)').fill('{"monitors": 3, "periodicity": ["1m", "5m"]}');
		await card.getByRole('button', { name: 'Save', exact: true }).click();
		await card.getByRole('status').waitFor();
		expect(await frequencies(other)).toEqual(['1m', '5m']);

		// A malformed value is refused with the reason, and nothing changes.
		await admin.goto(`${stack.urls.dashboard}/admin`);
		await card.getByLabel('Limits (JSON)').fill('{"monitors": -1}');
		await card.getByRole('button', { name: 'Save', exact: true }).click();
		await card.getByRole('alert').waitFor();
		expect(await card.getByRole('alert').textContent()).toMatch(/monitors/);
		expect(await frequencies(other)).toEqual(['1m', '5m']);
	});
});
