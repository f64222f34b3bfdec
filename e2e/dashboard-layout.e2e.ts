import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createDb, type Db } from '../server/src/db/client.ts';
import { recordStatusChange } from '../server/src/domain/incident/index.ts';
import { createMaintenance } from '../server/src/domain/maintenance/index.ts';
import { createMonitor } from '../server/src/domain/monitor/index.ts';
import { createNotificationChannel } from '../server/src/domain/notification-channel/index.ts';
import { createPageComponent } from '../server/src/domain/page-component/index.ts';
import { createPrivateLocation } from '../server/src/domain/private-location/index.ts';
import { createStatusPage } from '../server/src/domain/status-page/index.ts';
import { createStatusReport } from '../server/src/domain/status-report/index.ts';
import { createVault } from '../server/src/notify/vault.ts';
import { ctxFor, TEAM_LIMITS } from '../server/test/factories.ts';
import { axe } from './axe.ts';
import {
	AUTH_SECRET,
	launchBrowser,
	startSmtp,
	startStack,
	type Stack,
	signIn
} from './harness.ts';

// Every dashboard route at a phone width (390 px) and at a desktop width: no horizontal scroll,
// even with a 256-character unbroken name, and no serious or critical axe violation; the
// phone menu folds and unfolds with and without JavaScript; both apps serve a favicon.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let stack: Stack;
let browser: Browser;
let db: Db;
let signedIn: BrowserContext;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-layout-'));
const LONG = 'W'.repeat(256);
const routes: string[] = [];

beforeAll(async () => {
	smtp = await startSmtp();
	stack = await startStack({
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		DATA_DIR: dataDir,
		WORKSPACE_DEFAULT_LIMITS: JSON.stringify({ ...TEAM_LIMITS, 'audit-log': true })
	});
	db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	browser = await launchBrowser();
	const page = await browser.newPage();
	await signIn(page, { dashboard: stack.urls.dashboard, smtp, email: 'ada@example.test' });
	signedIn = page.context();

	// Something on every page, each with the longest unbroken name a field allows.
	const ws = await db.workspace.findFirstOrThrow();
	const ctx = ctxFor(db, ws);
	const monitor = await createMonitor({
		ctx,
		input: {
			type: 'http',
			name: LONG,
			periodicity: '10m',
			url: `https://${'a'.repeat(60)}.test/${'p'.repeat(190)}`
		}
	});
	const { incidentId } = await recordStatusChange({
		ctx,
		input: {
			monitorId: monitor.id,
			from: 'active',
			to: 'error',
			error: `Timeout ${'x'.repeat(200)}`,
			at: new Date().toISOString()
		},
		dashboardUrl: stack.urls.dashboard
	});
	const statusPage = await createStatusPage({
		ctx,
		input: { title: LONG.slice(0, 256), slug: 'long' }
	});
	const component = await createPageComponent({
		ctx,
		input: { pageId: statusPage.id, type: 'monitor', monitor_id: monitor.id, name: LONG }
	});
	const report = await createStatusReport({
		ctx,
		input: {
			pageId: statusPage.id,
			title: LONG,
			status: 'investigating',
			message: 'M'.repeat(500),
			pageComponentIds: [component.id],
			notify: false
		}
	});
	await createMaintenance({
		ctx,
		input: {
			pageId: statusPage.id,
			title: LONG,
			message: 'N'.repeat(500),
			from: new Date(Date.now() + 3_600_000).toISOString(),
			to: new Date(Date.now() + 7_200_000).toISOString(),
			pageComponentIds: [component.id],
			notify: false
		}
	});
	const channel = await createNotificationChannel({
		ctx,
		input: {
			name: LONG,
			provider_type: 'webhook',
			monitor_ids: [monitor.id],
			webhook: { endpoint: `https://example.com/${'h'.repeat(200)}` }
		},
		vault: createVault(AUTH_SECRET)
	});
	const location = await createPrivateLocation({
		ctx,
		input: { name: LONG, monitor_ids: [monitor.id] }
	});
	const audit = await db.auditLog.findFirstOrThrow({ where: { workspaceId: ws.id } });
	routes.push(
		'/monitors',
		'/monitors/new',
		`/monitors/${monitor.id}`,
		'/incidents',
		`/incidents/${incidentId}`,
		'/status-pages',
		`/status-pages/${statusPage.id}`,
		`/status-pages/${statusPage.id}/reports`,
		`/status-pages/${statusPage.id}/reports/${report.id}`,
		`/status-pages/${statusPage.id}/maintenance`,
		`/status-pages/${statusPage.id}/subscribers`,
		'/notifications',
		'/notifications/new?provider=webhook',
		`/notifications/${channel.id}`,
		'/private-locations',
		`/private-locations/${location.id}`,
		'/settings',
		'/settings/api-keys',
		'/settings/audit-log',
		`/settings/audit-log/${audit.id}`
	);
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	await smtp?.close();
});

function dump(page: () => Page) {
	onTestFailed(async () => {
		const text = await page()
			.locator('body')
			.innerText()
			.catch(() => '');
		console.log(`--- at ${page().url()} ---\n${text.slice(0, 2000)}`);
	});
}

describe('dashboard layout', () => {
	// The phone run is also the dark-mode run: axe checks contrast in both schemes.
	for (const [width, colorScheme] of [
		[390, 'dark'],
		[1280, 'light']
	] as const) {
		it(`every route at ${width} px (${colorScheme}): no wider than the viewport, no serious axe violation`, async () => {
			const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme });
			await context.addCookies(await signedIn.cookies());
			const page = await context.newPage();
			dump(() => page);
			for (const route of routes) {
				const res = await page.goto(`${stack.urls.dashboard}${route}`, {
					waitUntil: 'networkidle'
				});
				expect(res?.status(), route).toBe(200);
				const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
				expect(scroll, route).toBeLessThanOrEqual(width);
				expect(await axe(page, ['serious', 'critical']), route).toEqual([]);
			}
			const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
			expect(background).toBe(colorScheme === 'dark' ? 'oklch(0.17 0.01 260)' : 'oklch(0.985 0 0)');
			await context.close();
		});
	}

	for (const javaScriptEnabled of [true, false]) {
		it(`the phone menu folds and unfolds (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, async () => {
			const context = await browser.newContext({
				javaScriptEnabled,
				viewport: { width: 390, height: 800 }
			});
			await context.addCookies(await signedIn.cookies());
			const page = await context.newPage();
			dump(() => page);
			await page.goto(`${stack.urls.dashboard}/monitors`);
			const incidents = page
				.getByRole('navigation', { name: 'Main' })
				.getByRole('link', { name: 'Incidents' });
			await expect(incidents.isVisible()).resolves.toBe(false);
			await page.getByText('Menu', { exact: true }).click();
			await incidents.click();
			await page.waitForURL(/\/incidents$/);
			await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
			await expect(incidents.isVisible()).resolves.toBe(false);
			await context.close();
		});
	}

	it('both apps serve a favicon', async () => {
		for (const base of [stack.urls.dashboard, stack.urls.status]) {
			const res = await fetch(`${base}/favicon.svg`);
			expect(res.status, base).toBe(200);
			expect(res.headers.get('content-type'), base).toContain('image/svg+xml');
		}
		const html = await (await fetch(`${stack.urls.dashboard}/sign-in`)).text();
		expect(html).toContain('<link rel="icon" href="/favicon.svg"');
	});
});
