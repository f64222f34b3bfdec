import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../server/src/db/client.ts';
import { createPageComponent } from '../server/src/domain/page-component/index.ts';
import { createStatusPage } from '../server/src/domain/status-page/index.ts';
import { createStatusReport } from '../server/src/domain/status-report/index.ts';
import { createSubscriberNotifier } from '../server/src/domain/subscriber/index.ts';
import { TEAM_LIMITS, createWorkspace, ctxFor } from '../server/test/factories.ts';
import { launchBrowser, startSmtp, startStack, type Stack } from './harness.ts';

// A reader subscribes on the status page with JavaScript off, confirms from the mail, receives
// a notice from the workflows process's delivery worker, and unsubscribes with one click.
let stack: Stack;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let browser: Browser;
let db: Db;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-subscribers-'));

beforeAll(async () => {
	smtp = await startSmtp();
	stack = await startStack({
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		DATA_DIR: dataDir,
		UPSTATE_SERVICES: 'status-page,workflows'
	});
	db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
});

async function until(fn: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
	const end = Date.now() + ms;
	while (!(await fn())) {
		if (Date.now() > end) throw new Error('condition not met in time');
		await new Promise((r) => setTimeout(r, 50));
	}
}

const linkIn = (text: string, route: string) =>
	text.match(new RegExp(`https?://\\S+/${route}\\?token=\\S+`))?.[0] ?? '';

describe('status page subscribers (e2e, no JavaScript)', () => {
	it('subscribe, confirm, notice with one-click unsubscribe, nothing after', async () => {
		const ws = await createWorkspace(db, {
			limits: { ...TEAM_LIMITS, 'status-subscribers': true }
		});
		const ctx = ctxFor(db, ws);
		const slug = `subs-${ws.id}`;
		const statusPage = await createStatusPage({ ctx, input: { title: 'Acme', slug } });
		const api = await createPageComponent({
			ctx,
			input: { pageId: statusPage.id, type: 'static', name: 'API' }
		});
		await createPageComponent({
			ctx,
			input: { pageId: statusPage.id, type: 'static', name: 'Web' }
		});
		const context = await browser.newContext({ javaScriptEnabled: false });
		const page = await context.newPage();
		await page.goto(`${stack.urls.status}/${slug}`);
		await page.getByLabel('E-mail address').fill('reader@example.com');
		await page.getByRole('checkbox', { name: 'API' }).check();
		await page.getByRole('button', { name: 'Subscribe' }).click();
		await page.getByRole('status').waitFor();
		expect(await page.getByRole('status').innerText()).toMatch(/^Check your inbox/);

		await until(() => smtp.mails.some((m) => m.to === 'reader@example.com'));
		const confirmLink = linkIn(smtp.mails.at(-1)?.text ?? '', 'subscribe/confirm');
		expect(confirmLink.startsWith(`${stack.urls.status}/${slug}/subscribe/confirm?token=`)).toBe(
			true
		);
		await page.goto(confirmLink);
		// Opening the link alone confirms nothing (mail scanners follow links).
		const sub = () => db.pageSubscriber.findFirstOrThrow({ where: { pageId: statusPage.id } });
		expect((await sub()).confirmedAt).toBeNull();
		expect((await sub()).componentIds).toBe(JSON.stringify([api.id]));
		await page.getByRole('button', { name: 'Confirm subscription' }).click();
		await page.getByRole('status').waitFor();
		expect((await sub()).confirmedAt).not.toBeNull();

		const publish = (title: string) =>
			createStatusReport({
				ctx,
				notifier: createSubscriberNotifier({ db, statusPageUrl: stack.urls.status }),
				input: {
					pageId: statusPage.id,
					title,
					status: 'investigating',
					message: 'Errors on the API',
					pageComponentIds: [api.id],
					notify: true
				}
			});
		expect((await publish('API down')).notified).toBe(true);
		await until(() => smtp.mails.some((m) => m.subject === '[Acme] New incident: API down'));
		const notice = smtp.mails.find((m) => m.subject === '[Acme] New incident: API down');
		expect(notice?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
		const unsubscribe = (notice?.headers['list-unsubscribe'] ?? '').slice(1, -1);
		expect(unsubscribe.startsWith(`${stack.urls.status}/${slug}/unsubscribe?token=`)).toBe(true);

		// A GET (a scanner, or the reader opening the link) shows a button and changes nothing.
		const get = await fetch(unsubscribe);
		expect(get.status).toBe(200);
		expect(await get.text()).toContain('Unsubscribe from these updates');
		expect((await sub()).unsubscribedAt).toBeNull();
		// RFC 8058 one-click, as a mail provider sends it: a POST with no Origin header.
		const post = await fetch(unsubscribe, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'List-Unsubscribe=One-Click'
		});
		expect(post.status).toBe(200);
		expect((await sub()).unsubscribedAt).not.toBeNull();

		const before = await db.delivery.count({ where: { workspaceId: ws.id } });
		await publish('API down again');
		expect(await db.delivery.count({ where: { workspaceId: ws.id } })).toBe(before);
		await context.close();
	}, 90_000);

	it('without the plan feature the form is not shown', async () => {
		const ws = await createWorkspace(db, { limits: TEAM_LIMITS });
		const slug = `nosubs-${ws.id}`;
		await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'Free', slug } });
		const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
		await page.goto(`${stack.urls.status}/${slug}`);
		await page.getByRole('status').waitFor();
		expect(await page.getByRole('button', { name: 'Subscribe' }).count()).toBe(0);
		expect((await fetch(`${stack.urls.status}/${slug}/subscribe`)).status).toBe(404);
	});
});
