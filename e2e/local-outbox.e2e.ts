import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../server/src/db/client.ts';
import { createPageComponent } from '../server/src/domain/page-component/index.ts';
import { createStatusPage } from '../server/src/domain/status-page/index.ts';
import { TEAM_LIMITS, ctxFor } from '../server/test/factories.ts';
import { axe } from './axe.ts';
import { launchBrowser, openMagicLink, startStack, until, type Stack } from './harness.ts';

// A local trial with no mail transport (not production, no SMTP_URL): the first sign-in link
// comes from the server log, every later mail is kept under Settings -> Mail with its links
// clickable, and a private webhook target is refused when the channel is saved.
let stack: Stack;
let browser: Browser;
let db: Db;
let desktop: Page;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-outbox-'));
const EMAIL = 'ann@example.test';

beforeAll(async () => {
	stack = await startStack({
		NODE_ENV: 'development',
		SMTP_URL: '',
		EMAIL_PROVIDER_API_KEY: '',
		DATA_DIR: dataDir,
		UPSTATE_SERVICES: 'status-page,workflows,dashboard',
		WORKSPACE_DEFAULT_LIMITS: JSON.stringify({ ...TEAM_LIMITS, 'status-subscribers': true })
	});
	db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
});

async function requestLink(page: Page): Promise<void> {
	await page.goto(`${stack.urls.dashboard}/sign-in`);
	await page.getByLabel('E-mail').fill(EMAIL);
	await page.getByRole('button', { name: 'Send sign-in link' }).click();
	await page.getByText('the sign-in link was not e-mailed').waitFor();
	expect(await page.getByRole('status').innerText()).toContain('open Settings → Mail there');
}

// Opens the newest mail with `subject` on Settings -> Mail and returns its links' targets.
async function openMail(page: Page, subject: string): Promise<string[]> {
	await page.goto(`${stack.urls.dashboard}/settings/mail`);
	await page.getByRole('link', { name: subject }).first().click();
	await page.getByRole('heading', { name: subject }).waitFor();
	return page
		.locator('article a')
		.evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
}

describe('a local trial with no mail transport (e2e)', () => {
	it('signs in from the log, then reads later mails under Settings → Mail (desktop, JavaScript)', async () => {
		desktop = await browser.newPage({ viewport: { width: 1280, height: 800 } });
		await requestLink(desktop);
		let line = '';
		await until(() => {
			line =
				stack.logs.join('').match(/\[mail\] kept in the local outbox .*to=ann@\S+ .*/)?.[0] ?? '';
			return line !== '';
		});
		const first = /links=(http\S+\/auth\/verify\?token=[\w-]+)/.exec(line)?.[1] ?? '';
		await openMagicLink(desktop, first);
		await desktop
			.getByRole('navigation', { name: 'Main' })
			.getByRole('link', { name: 'Mail' })
			.click();
		await desktop.waitForURL(/\/settings\/mail$/);
		await desktop.getByRole('link', { name: 'Sign in to Upstate' }).waitFor();
		expect(await axe(desktop, ['serious', 'critical'])).toEqual([]);

		// A subscriber confirmation: a reader subscribes on the status page (no JavaScript).
		const ws = await db.workspace.findFirstOrThrow();
		const ctx = ctxFor(db, ws);
		const slug = `trial-${ws.id}`;
		const statusPage = await createStatusPage({ ctx, input: { title: 'Acme', slug } });
		await createPageComponent({
			ctx,
			input: { pageId: statusPage.id, type: 'static', name: 'API' }
		});
		const reader = await browser.newContext({ javaScriptEnabled: false });
		const readerPage = await reader.newPage();
		await readerPage.goto(`${stack.urls.status}/${slug}`);
		await readerPage.getByLabel('E-mail address').fill('reader@example.com');
		await readerPage.getByRole('button', { name: 'Subscribe' }).click();
		await readerPage.getByRole('status').waitFor();
		await until(
			async () => (await db.outboxMail.count({ where: { to: 'reader@example.com' } })) === 1
		);
		const confirm = await openMail(desktop, 'Confirm your subscription to Acme');
		const confirmLink = confirm.find((l) => l.includes('/subscribe/confirm?token='));
		expect(confirmLink?.startsWith(`${stack.urls.status}/${slug}/subscribe/confirm?token=`)).toBe(
			true
		);
		expect(await axe(desktop, ['serious', 'critical'])).toEqual([]);
		await readerPage.goto(confirmLink ?? '');
		await readerPage.getByRole('button', { name: 'Confirm subscription' }).click();
		await readerPage.getByRole('status').waitFor();
		const sub = await db.pageSubscriber.findFirstOrThrow({ where: { pageId: statusPage.id } });
		expect(sub.confirmedAt).not.toBeNull();
		await reader.close();

		// An e-mail channel's test send is kept, not refused.
		await desktop.goto(`${stack.urls.dashboard}/notifications/new?provider=email`);
		await desktop.getByLabel('Channel name').fill('Inbox');
		await desktop.getByLabel('E-mail address').fill('ops@example.test');
		await desktop.getByRole('button', { name: 'Create channel' }).click();
		await desktop.waitForURL(/\/notifications\/\d+$/);
		const channelUrl = desktop.url();
		await desktop.getByRole('button', { name: 'Send test' }).click();
		await desktop.getByText('Delivered (status 250)').waitFor();
		const details = await openMail(
			desktop,
			'[Upstate] Test notification from Upstate (Example monitor)'
		);
		expect(details).toContain(channelUrl);
		await desktop.locator('article a', { hasText: '/notifications/' }).click();
		await desktop.waitForURL(channelUrl);

		// A webhook on a loopback address is refused at save, saying how to allow it.
		await desktop.goto(`${stack.urls.dashboard}/notifications/new?provider=webhook`);
		await desktop.getByLabel('Channel name').fill('Local hook');
		await desktop.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hook');
		await desktop.getByRole('button', { name: 'Create channel' }).click();
		await desktop.getByText('NOTIFY_ALLOW_PRIVATE_TARGETS=true').first().waitFor();
		// The field's own error line (FieldError), named as the form labels the field.
		expect(await desktop.locator('#webhook-endpoint-error').innerText()).toBe(
			'Endpoint URL: 127.0.0.1 is a private, loopback or link-local address (127.0.0.1): Upstate does not send there. An operator can allow private targets with NOTIFY_ALLOW_PRIVATE_TARGETS=true.'
		);
		expect(desktop.url()).toMatch(/\/notifications\/new/);
		expect(await db.notificationChannel.count({ where: { name: 'Local hook' } })).toBe(0);
	});

	it('signs in on a 390 px phone without JavaScript by a link read on the desktop’s Settings → Mail', async () => {
		const phoneContext = await browser.newContext({
			javaScriptEnabled: false,
			viewport: { width: 390, height: 800 }
		});
		const phone = await phoneContext.newPage();
		await requestLink(phone);
		await until(async () => (await db.outboxMail.count({ where: { to: EMAIL } })) === 2);
		const links = await openMail(desktop, 'Sign in to Upstate');
		const newest = await db.outboxMail.findFirstOrThrow({
			where: { to: EMAIL },
			orderBy: { id: 'desc' }
		});
		expect(desktop.url()).toMatch(new RegExp(`/settings/mail/${newest.id}$`));
		const link = links.find((l) => l.includes('/auth/verify?token=')) ?? '';
		await openMagicLink(phone, link);

		// Without JavaScript the pages render and fit; axe runs in a 390 px tab with JavaScript.
		const phoneJs = await browser.newContext({ viewport: { width: 390, height: 800 } });
		await phoneJs.addCookies(await phoneContext.cookies());
		const axePage = await phoneJs.newPage();
		for (const route of ['/settings/mail', `/settings/mail/${newest.id}`]) {
			const res = await phone.goto(`${stack.urls.dashboard}${route}`);
			expect(res?.status(), route).toBe(200);
			const width = await phone.evaluate(() => document.documentElement.scrollWidth);
			expect(width, route).toBeLessThanOrEqual(390);
			await axePage.goto(`${stack.urls.dashboard}${route}`, { waitUntil: 'networkidle' });
			expect(await axe(axePage, ['serious', 'critical']), route).toEqual([]);
		}
		// The mail's link is a plain link there too.
		expect(await phone.locator('article a').first().getAttribute('href')).toBe(link);
		await phoneJs.close();
		await phoneContext.close();
	});
});
