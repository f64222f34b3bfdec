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
import {
	launchBrowser,
	openMagicLink,
	startSmtp,
	startStack,
	until,
	type Stack
} from './harness.ts';

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
		UPSTATE_SERVICES: 'status-page,workflows,dashboard',
		WORKSPACE_DEFAULT_LIMITS: JSON.stringify({ ...TEAM_LIMITS, 'status-subscribers': true })
	});
	db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
});

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

	it('a foreign site cannot subscribe through a reader whose address opens the page', async () => {
		const limits = { ...TEAM_LIMITS, 'status-subscribers': true, 'ip-restriction': true };
		const ws = await createWorkspace(db, { limits });
		const slug = `intranet-${ws.id}`;
		await createStatusPage({
			ctx: ctxFor(db, ws),
			input: {
				title: 'Intranet',
				slug,
				access_type: 'ip-restriction',
				allowed_ip_ranges: '127.0.0.1/32'
			}
		});
		// What a form on evil.test makes the browser of someone inside the range send.
		const res = await fetch(`${stack.urls.status}/${slug}/subscribe`, {
			method: 'POST',
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				origin: 'http://evil.test',
				accept: 'text/html'
			},
			body: 'email=spy%40evil.test'
		});
		expect(res.status).toBe(403);
		await new Promise((r) => setTimeout(r, 300));
		expect(smtp.mails.filter((m) => m.to === 'spy@evil.test')).toEqual([]);
		expect(await db.pageSubscriber.count({ where: { email: 'spy@evil.test' } })).toBe(0);
		// The page's own form behind a TLS-terminating proxy: https in Origin, http here.
		const own = await fetch(`${stack.urls.status}/${slug}/subscribe`, {
			method: 'POST',
			headers: {
				'content-type': 'application/x-www-form-urlencoded',
				origin: stack.urls.status.replace('http:', 'https:'),
				accept: 'text/html'
			},
			body: 'email=reader%40intranet.test'
		});
		expect(own.status).toBe(200);
		expect(await db.pageSubscriber.count({ where: { email: 'reader@intranet.test' } })).toBe(1);
	});

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

	it('dashboard Subscribers tab: list, add a webhook (secret shown once), CSV export, remove', async () => {
		const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
		const email = 'owner@example.test';
		await page.goto(`${stack.urls.dashboard}/sign-in`);
		await page.getByLabel('E-mail').fill(email);
		await page.getByRole('button', { name: 'Send sign-in link' }).click();
		await until(() => smtp.mails.some((m) => m.to === email));
		const mail = smtp.mails.find((m) => m.to === email);
		await openMagicLink(
			page,
			/https?:\/\/\S+\/auth\/verify\?token=[\w-]+/.exec(mail?.text ?? '')?.[0] ?? ''
		);
		const { workspaceId } = await db.membership.findFirstOrThrow({
			where: { user: { email } }
		});
		const ws = await db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
		const ctx = ctxFor(db, ws);
		const statusPage = await createStatusPage({
			ctx,
			input: { title: 'Dash', slug: `dash-${ws.id}` }
		});
		await db.pageSubscriber.create({
			data: {
				workspaceId: ws.id,
				pageId: statusPage.id,
				email: '=cmd@example.com',
				tokenHash: `dash-${ws.id}`,
				confirmedAt: new Date()
			}
		});
		const tab = `${stack.urls.dashboard}/status-pages/${statusPage.id}/subscribers`;
		await page.goto(tab);
		const rows = () => page.locator('tbody tr').allInnerTexts();
		expect(await rows()).toEqual([expect.stringMatching(/=cmd@example.com\s+All\s+Confirmed/)]);
		await page.getByLabel('URL').fill('https://hooks.example.com/status');
		await page.getByRole('button', { name: 'Add webhook' }).click();
		await page.getByRole('status').waitFor();
		expect(await page.getByRole('status').innerText()).toMatch(/whsec_/);

		const csv = await page.request.get(`${tab}/export.csv`);
		expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
		const lines = (await csv.text()).split('\r\n');
		expect(lines[0]).toBe('id,type,email,webhook_url,components,status,created_at');
		expect(lines[1]).toMatch(/^\d+,email,'=cmd@example.com,,,confirmed,/);
		expect(lines[2]).toMatch(/^\d+,webhook,,https:\/\/hooks.example.com\/status,,confirmed,/);

		// Removing asks first (without JavaScript: a section that says what it does).
		await page.getByText('Remove =cmd@example.com…').click();
		await page.getByText('=cmd@example.com gets no more updates from this page').waitFor();
		await page.getByRole('button', { name: 'Remove subscriber' }).click();
		await page.waitForLoadState();
		await page.goto(tab);
		expect(await rows()).toEqual([expect.stringContaining('https://hooks.example.com/status')]);
		expect(await db.pageSubscriber.count({ where: { pageId: statusPage.id } })).toBe(1);
		// Another workspace's page is a 404 for this user.
		const other = await createWorkspace(db, { limits: TEAM_LIMITS });
		const foreign = await createStatusPage({
			ctx: ctxFor(db, other),
			input: { title: 'Theirs', slug: `theirs-${other.id}` }
		});
		const res = await page.request.get(
			`${stack.urls.dashboard}/status-pages/${foreign.id}/subscribers/export.csv`
		);
		expect(res.status()).toBe(404);
	}, 90_000);
});
