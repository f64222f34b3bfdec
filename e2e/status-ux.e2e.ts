import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createEmbeddedAnalytics, type AnalyticsStore } from '../server/src/analytics/index.ts';
import { createDb, type Db } from '../server/src/db/client.ts';
import { createMaintenance } from '../server/src/domain/maintenance/index.ts';
import { createPageComponent } from '../server/src/domain/page-component/index.ts';
import { createStatusPage, type StatusLocale } from '../server/src/domain/status-page/index.ts';
import { createStatusReport } from '../server/src/domain/status-report/index.ts';
import { createWorkspace, ctxFor, storedResult, TEAM_LIMITS } from '../server/test/factories.ts';
import { launchBrowser, startStack, type Stack } from './harness.ts';
import { seedMonitorPage } from './seed.ts';

// The status site as a reader meets it on a phone and abroad: local times, long words, the
// uptime bar at phone width, feeds, and what a wrong address says. Production build; data is
// written straight into the stack's database before a page is first read.
let stack: Stack;
let browser: Browser;
let db: Db;
let analytics: AnalyticsStore;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-ux-'));
const PAID = { ...TEAM_LIMITS, 'page-components': 50, i18n: true };

beforeAll(async () => {
	stack = await startStack({ DATA_DIR: dataDir, UPSTATE_SERVICES: 'status-page' });
	db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	analytics = createEmbeddedAnalytics({ url: `file:${path.join(dataDir, 'analytics.db')}` });
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	analytics?.close();
});

let n = 0;
const slug = () => `ux-${Date.now()}-${n++}`;
const LONG_URL = `https://example.com/${'very-long-path-segment-'.repeat(40)}end`;
const LONG_WORD = 'Datenbankinfrastrukturmodernisierung'.repeat(7);

// A page with an open report whose message holds a long URL and a maintenance window titled
// with one long word, in the given language.
async function seedPage(input: { default_locale?: StatusLocale; locales?: StatusLocale[] } = {}) {
	const ws = await createWorkspace(db, { limits: PAID });
	const ctx = ctxFor(db, ws);
	const s = slug();
	const page = await createStatusPage({ ctx, input: { title: 'Acme', slug: s, ...input } });
	const api = await createPageComponent({
		ctx,
		input: { pageId: page.id, type: 'static', name: 'API', order: 0 }
	});
	const report = await createStatusReport({
		ctx,
		input: {
			pageId: page.id,
			title: 'API errors',
			status: 'investigating',
			message: `Follow along at ${LONG_URL}`,
			pageComponentIds: [api.id],
			impacts: [{ componentId: api.id, impact: 'major_outage' }],
			notify: false
		}
	});
	const hour = 3_600_000;
	await createMaintenance({
		ctx,
		input: {
			pageId: page.id,
			title: LONG_WORD,
			message: `See ${LONG_URL}`,
			from: new Date(Date.now() + hour).toISOString(),
			to: new Date(Date.now() + 2 * hour).toISOString(),
			pageComponentIds: [api.id],
			notify: false
		}
	});
	return { ws, page, slug: s, report };
}

async function open(context: BrowserContext, url: string) {
	const page = await context.newPage();
	const errors: string[] = [];
	page.on('pageerror', (e) => errors.push(e.message));
	const res = await page.goto(url);
	onTestFailed(async () =>
		console.log(
			url,
			errors,
			await page
				.locator('body')
				.innerText()
				.catch(() => '(closed)')
		)
	);
	return { page, errors, status: res?.status() };
}

const FIELDS = {
	year: 'numeric',
	month: 'short',
	day: 'numeric',
	hour: 'numeric',
	minute: '2-digit',
	timeZoneName: 'short'
} as const;
const shownTimes = (page: Page) =>
	page
		.locator('time[data-local]')
		.evaluateAll((all) => all.map((t) => [(t as HTMLTimeElement).dateTime, t.textContent]));

describe('times in the reader zone', () => {
	it('a German page read in New York shows German dates in New York time, without errors', async () => {
		const { slug: s, report } = await seedPage({ default_locale: 'de', locales: ['de'] });
		const context = await browser.newContext({
			locale: 'de-DE',
			timezoneId: 'America/New_York'
		});
		for (const url of [`/${s}`, `/${s}/reports/${report.id}`]) {
			const { page, errors } = await open(context, `${stack.urls.status}${url}`);
			const times = await shownTimes(page);
			expect(times.length, url).toBeGreaterThan(0);
			for (const [iso, text] of times) {
				const zoned = new Date(iso ?? '').toLocaleString('de-DE', {
					...FIELDS,
					timeZone: 'America/New_York'
				});
				expect(text, url).toBe(zoned);
				expect(text).toMatch(/GMT-[45]$/);
			}
			expect(errors, url).toEqual([]);
		}
		await context.close();
	});

	it('an English page keeps English dates for a German reader, in their zone', async () => {
		const { slug: s } = await seedPage();
		const context = await browser.newContext({ locale: 'de-DE', timezoneId: 'Asia/Tokyo' });
		const { page, errors } = await open(context, `${stack.urls.status}/${s}`);
		for (const [iso, text] of await shownTimes(page))
			expect(text).toBe(
				new Date(iso ?? '').toLocaleString('en', { ...FIELDS, timeZone: 'Asia/Tokyo' })
			);
		expect(errors).toEqual([]);
		await context.close();
	});
});

describe('on a phone (390 × 844)', () => {
	it('long words and URLs wrap: no view is wider than the screen', async () => {
		const { slug: s, report } = await seedPage();
		const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
		for (const url of [`/${s}`, `/${s}/reports/${report.id}`, `/${s}/history`]) {
			const { page } = await open(context, `${stack.urls.status}${url}`);
			await page
				.getByText(/Follow along at/)
				.first()
				.waitFor();
			const width = await page.evaluate(() => document.documentElement.scrollWidth);
			expect(width, url).toBeLessThanOrEqual(390);
		}
		await context.close();
	});

	it('the uptime bar shows 30 wide days with their own label and uptime; keys stay on them', async () => {
		const s = slug();
		const { ws, monitor: m } = await seedMonitorPage(db, {
			limits: PAID,
			slug: s,
			title: 'Shop',
			monitor: 'Checkout'
		});
		// Two checks a day; one of them failed on each day from 60 to 89 days ago.
		await analytics.insertResults(
			Array.from({ length: 180 }, (_, i) => {
				const d = Math.floor(i / 2);
				return storedResult({
					workspaceId: ws.id,
					monitorId: m.id,
					startedAt: Date.now() - d * 86_400_000 - (i % 2) * 60_000,
					outcome: d >= 60 && i % 2 ? 'error' : 'success'
				});
			})
		);
		const shown = async (width: number) => {
			const context = await browser.newContext({ viewport: { width, height: 844 } });
			const { page } = await open(context, `${stack.urls.status}/${s}`);
			const bar = page.locator('[data-slot="uptime-bar"]');
			const widths = await bar
				.locator('button')
				.evaluateAll((all) => all.map((b) => b.getBoundingClientRect().width).filter((w) => w > 0));
			const labels = await bar.locator('p').innerText();
			return { context, page, widths, labels };
		};

		const wide = await shown(1280);
		expect(wide.widths).toHaveLength(90);
		expect(wide.labels).toMatch(/^90 days ago\s+83\.33% uptime\s+Today$/);
		await wide.context.close();
		const medium = await shown(600);
		expect(medium.widths).toHaveLength(60);
		expect(medium.labels).toMatch(/^60 days ago\s+100% uptime\s+Today$/);
		await medium.context.close();

		const { context, page, widths, labels } = await shown(390);
		expect(widths).toHaveLength(30);
		expect(Math.min(...widths)).toBeGreaterThanOrEqual(9.5);
		expect(labels).toMatch(/^30 days ago\s+100% uptime\s+Today$/);
		// The shown days are the newest 30; Tab enters at today, Home and the arrows stay on them.
		const days = page.locator('ol[aria-label="Checkout"] button'); // shown or not
		const focused = () =>
			days.evaluateAll((all) => all.findIndex((el) => el === document.activeElement));
		for (let i = 0; i < 30 && (await focused()) < 0; i++) await page.keyboard.press('Tab');
		expect(await focused()).toBe(89);
		await page.keyboard.press('Home');
		expect(await focused()).toBe(60);
		await page.keyboard.press('ArrowLeft');
		expect(await focused()).toBe(60);
		await page.keyboard.press('ArrowRight');
		expect(await focused()).toBe(61);
		await page.keyboard.press('End');
		expect(await focused()).toBe(89);
		// Left at a day a narrower screen hides: the stop returns to today, so Tab still finds it.
		await page.setViewportSize({ width: 1280, height: 844 });
		await page.keyboard.press('Home');
		expect(await focused()).toBe(0);
		await page.keyboard.press('Tab');
		expect(await focused()).toBe(-1);
		await page.setViewportSize({ width: 390, height: 844 });
		// The page hears of the resize a frame later (the resize event), then moves the stop.
		await page.waitForFunction(() => {
			const all = document.querySelectorAll<HTMLElement>('ol[aria-label="Checkout"] button');
			return all[all.length - 1].tabIndex === 0;
		});
		await page.keyboard.press('Shift+Tab');
		expect(await focused()).toBe(89);
		await context.close();
	});
});

describe('finding more', () => {
	it('announces the RSS and Atom feeds in the head and links them on every view', async () => {
		const { slug: s, report } = await seedPage();
		const context = await browser.newContext({ javaScriptEnabled: false });
		for (const url of [`/${s}`, `/${s}/reports/${report.id}`, `/${s}/history`]) {
			const { page } = await open(context, `${stack.urls.status}${url}`);
			const alternates = await page
				.locator('head link[rel=alternate]')
				.evaluateAll((all) => all.map((l) => [l.getAttribute('type'), l.getAttribute('href')]));
			expect(alternates, url).toEqual([
				['application/rss+xml', `/${s}/feed.rss`],
				['application/atom+xml', `/${s}/feed.atom`]
			]);
			for (const name of ['RSS', 'Atom']) {
				const href = await page.getByRole('link', { name, exact: true }).getAttribute('href');
				const res = await fetch(new URL(href ?? '', page.url()));
				expect(res.status, `${url} ${name}`).toBe(200);
			}
		}
		await context.close();
	});

	it('an unknown report says so, in the chosen language; a page gone says no page', async () => {
		const { slug: s } = await seedPage({ default_locale: 'en', locales: ['en', 'de'] });
		const context = await browser.newContext({ javaScriptEnabled: false });
		for (const [url, text] of [
			[`/${s}/reports/999999`, 'There is no such report on this page.'],
			[`/${s}/reports/abc`, 'There is no such report on this page.'],
			[`/${s}/reports/999999?lang=de`, 'Diese Meldung gibt es auf dieser Seite nicht.'],
			[`/${s}-gone/reports/1`, 'No status page here.']
		]) {
			const { page, status } = await open(context, `${stack.urls.status}${url}`);
			expect(status, url).toBe(404);
			expect(await page.locator('main').innerText(), url).toContain(text);
		}
		await context.close();
	});

	it('a month without reports in the page history lists as empty; before the page it is 404', async () => {
		const { slug: s } = await seedPage();
		const thisMonth = new Date().toISOString().slice(0, 7);
		const d = new Date();
		const lastYear = `${d.getUTCFullYear() - 1}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
		const context = await browser.newContext({ javaScriptEnabled: false });
		const { page, status } = await open(context, `${stack.urls.status}/${s}/history/${thisMonth}`);
		expect(status).toBe(200);
		expect(await page.getByText('API errors').count()).toBe(1);
		// The page was created this month: a year earlier is outside its history.
		const before = await open(context, `${stack.urls.status}/${s}/history/${lastYear}`);
		expect(before.status).toBe(404);
		await context.close();

		const ws = await createWorkspace(db, { limits: PAID });
		const quiet = slug();
		await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'Quiet', slug: quiet } });
		const empty = await browser.newContext({ javaScriptEnabled: false });
		const month = await open(empty, `${stack.urls.status}/${quiet}/history/${thisMonth}`);
		expect(month.status).toBe(200);
		expect(await month.page.getByText('No incidents reported this month.').isVisible()).toBe(true);
		await empty.close();
	});
});
