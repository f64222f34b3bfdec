import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed, onTestFinished } from 'vitest';
import { createEmbeddedAnalytics } from '../server/src/analytics/index.ts';
import { createDb, type Db } from '../server/src/db/client.ts';
import { createMonitor, removeMonitor } from '../server/src/domain/monitor/index.ts';
import { createPrivateLocation } from '../server/src/domain/private-location/index.ts';
import { createStatusPage } from '../server/src/domain/status-page/index.ts';
import { createStatusReport } from '../server/src/domain/status-report/index.ts';
import { createWorkspace, ctxFor, storedResult, TEAM_LIMITS } from '../server/test/factories.ts';
import { axe } from './axe.ts';
import { launchBrowser, startSmtp, startStack, type Stack, signIn } from './harness.ts';

// The dashboard's form and layout primitives as a person meets them, at a desktop width and at
// 390 px: the monitor list's tag filter (a GET form, no JS needed), the confirm dialog for
// deleting (a modal with JavaScript, a two-step plain form post without), field errors linked
// to their inputs, limits said and enforced with maxlength, and one timestamp format with its zone
// (the latency chart axis writes it short).
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let stack: Stack;
let browser: Browser;
let db: Db;
let signedIn: BrowserContext;
let ctx: ReturnType<typeof ctxFor>;
let reportsUrl = '';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-primitives-'));
const TIME = /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}:\d{2} UTC$/;
const AXIS_TIME = /^\d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2} UTC$/;

beforeAll(async () => {
	smtp = await startSmtp();
	stack = await startStack({
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		DATA_DIR: dataDir,
		WORKSPACE_DEFAULT_LIMITS: JSON.stringify(TEAM_LIMITS)
	});
	db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	browser = await launchBrowser();
	const page = await browser.newPage();
	await signIn(page, { dashboard: stack.urls.dashboard, smtp, email: 'lin@example.test' });
	signedIn = page.context();
	ctx = ctxFor(db, await db.workspace.findFirstOrThrow());
	for (const [name, tags] of [
		['Checkout api', ['prod', 'payments']],
		['Checkout staging', ['staging', 'payments']],
		['Blog', ['production']]
	] as const)
		await createMonitor({
			ctx,
			input: {
				type: 'http',
				name,
				periodicity: '10m',
				url: 'https://example.com/',
				tags: [...tags]
			}
		});
	const statusPage = await createStatusPage({ ctx, input: { title: 'Ops', slug: 'ops' } });
	await createStatusReport({
		ctx,
		input: {
			pageId: statusPage.id,
			title: 'Slow checkout',
			status: 'investigating',
			message: 'Looking into it.',
			notify: false
		}
	});
	reportsUrl = `${stack.urls.dashboard}/status-pages/${statusPage.id}/reports`;
});

afterAll(async () => {
	await browser?.close();
	await db?.$disconnect();
	await stack?.stop();
	await smtp?.close();
});

async function tab(width: number, javaScriptEnabled: boolean): Promise<Page> {
	const context = await browser.newContext({
		javaScriptEnabled,
		viewport: { width, height: 800 }
	});
	await context.addCookies(await signedIn.cookies());
	const page = await context.newPage();
	onTestFailed(async () => {
		const text = await page
			.locator('body')
			.innerText()
			.catch(() => '');
		console.log(`--- at ${page.url()} ---\n${text.slice(0, 2000)}`);
	});
	return page;
}

const monitorNames = (page: Page) =>
	page.locator('table tbody tr td:first-child a[href^="/monitors/"]').allInnerTexts();

for (const width of [1280, 390]) {
	describe(`at ${width} px`, () => {
		it('filters the monitor list by one tag without JavaScript, exactly, and clears it', async () => {
			const page = await tab(width, false);
			await page.goto(`${stack.urls.dashboard}/monitors`);
			expect(await monitorNames(page)).toHaveLength(3);
			const tag = page.getByLabel('Tag', { exact: true });
			expect(await tag.locator('option').allInnerTexts()).toEqual([
				'Any',
				'payments',
				'prod',
				'production',
				'staging'
			]);
			await tag.selectOption('prod');
			await page.getByRole('button', { name: 'Filter' }).click();
			await page.waitForURL(/[?&]tag=prod(&|$)/);
			// "prod" is not "production": a tag matches whole.
			expect(await monitorNames(page)).toEqual(['Checkout api']);
			expect(await page.getByLabel('Tag', { exact: true }).inputValue()).toBe('prod');

			// With the search: both narrow.
			await page.goto(`${stack.urls.dashboard}/monitors?tag=payments&q=staging`);
			expect(await monitorNames(page)).toEqual(['Checkout staging']);
			await page.goto(`${stack.urls.dashboard}/monitors?tag=nobody`);
			await page.getByText('No monitor matches these filters.').waitFor();
			await page.getByRole('link', { name: 'Clear' }).click();
			expect(await monitorNames(page)).toHaveLength(3);
			// A row's tag links to its filter.
			await page.getByRole('link', { name: 'production', exact: true }).click();
			await page.waitForURL(/[?&]tag=production(&|$)/);
			expect(await monitorNames(page)).toEqual(['Blog']);
			const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
			expect(scroll).toBeLessThanOrEqual(width);
		});

		it('links each field error to its input, once, and says limits before they stop the typing', async () => {
			const page = await tab(width, false);
			await page.goto(`${stack.urls.dashboard}/monitors/new`);
			const name = page.getByLabel('Name', { exact: true });
			expect(await name.getAttribute('maxlength')).toBe('256');
			const nameHint = await name.getAttribute('aria-describedby');
			expect(await page.locator(`#${nameHint}`).innerText()).toBe('Up to 256 characters.');
			expect(await page.getByLabel('URL', { exact: true }).getAttribute('maxlength')).toBe('2048');
			expect(await page.getByLabel('Description').getAttribute('maxlength')).toBe('1024');
			// Typing stops at the limit rather than being cut after saving.
			await name.pressSequentially('n'.repeat(260));
			expect((await name.inputValue()).length).toBe(256);

			await name.fill('Tagged');
			await page.getByLabel('URL', { exact: true }).fill('https://example.com/');
			await page.getByLabel('Frequency').selectOption('10m');
			await page.getByLabel('Tags').fill(`ok ${'t'.repeat(65)}`);
			await page.getByRole('button', { name: 'Create monitor' }).click();
			await page.getByRole('alert').waitFor();

			const tags = page.getByLabel('Tags');
			expect(await tags.getAttribute('aria-invalid')).toBe('true');
			const describedBy = ((await tags.getAttribute('aria-describedby')) ?? '').split(' ');
			expect(describedBy).toContain('tags-error');
			const error = page.locator('#tags-error');
			expect(await error.innerText()).toBe('Tags: use at most 64 characters.');
			// Said once on the page, and only under its field.
			expect(await page.getByText('use at most 64 characters').count()).toBe(1);
			expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe(
				null
			);
			// What was typed stays.
			expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Tagged');
		});

		it('asks in a dialog before deleting with JavaScript; Cancel keeps the monitor', async () => {
			const monitor = await createMonitor({
				ctx,
				input: {
					type: 'http',
					name: `Doomed ${width}`,
					periodicity: '10m',
					url: 'https://example.com/'
				}
			});
			const page = await tab(width, true);
			await page.goto(`${stack.urls.dashboard}/monitors/${monitor.id}`, {
				waitUntil: 'networkidle'
			});
			const dialog = page.getByRole('dialog', { name: 'Delete monitor?' });
			expect(await dialog.isVisible()).toBe(false);
			await page.getByRole('button', { name: 'Delete monitor…' }).click();
			await dialog.waitFor();
			expect(await dialog.innerText()).toContain(`Doomed ${width} stops being checked`);
			expect(await axe(page, ['serious', 'critical'])).toEqual([]);
			await dialog.getByRole('button', { name: 'Cancel' }).click();
			await dialog.waitFor({ state: 'hidden' });
			expect(await db.monitor.count({ where: { id: monitor.id } })).toBe(1);

			// Escape closes it too, deleting nothing.
			await page.getByRole('button', { name: 'Delete monitor…' }).click();
			await dialog.waitFor();
			await page.keyboard.press('Escape');
			await dialog.waitFor({ state: 'hidden' });
			expect(await db.monitor.count({ where: { id: monitor.id } })).toBe(1);

			await page.getByRole('button', { name: 'Delete monitor…' }).click();
			await dialog.getByRole('button', { name: 'Delete monitor', exact: true }).click();
			await page.waitForURL(/\/monitors$/);
			expect(await db.monitor.count({ where: { id: monitor.id } })).toBe(0);
		});

		it('asks in two plain steps before deleting without JavaScript', async () => {
			const monitor = await createMonitor({
				ctx,
				input: {
					type: 'http',
					name: `Gone ${width}`,
					periodicity: '10m',
					url: 'https://example.com/'
				}
			});
			const page = await tab(width, false);
			await page.goto(`${stack.urls.dashboard}/monitors/${monitor.id}`);
			const remove = page.getByRole('button', { name: 'Delete monitor', exact: true });
			expect(await remove.isVisible()).toBe(false);
			await page.getByText('Delete monitor…').click();
			await page.getByText(`Gone ${width} stops being checked`).waitFor();
			await remove.click();
			await page.waitForURL(/\/monitors$/);
			expect(await db.monitor.count({ where: { id: monitor.id } })).toBe(0);
		});

		it('posts ticked checkboxes as before without JavaScript (private location assignments)', async () => {
			const location = await createPrivateLocation({
				ctx,
				input: { name: `Office ${width}`, monitor_ids: [] }
			});
			const page = await tab(width, false);
			await page.goto(`${stack.urls.dashboard}/private-locations/${location.id}`);
			await page.getByLabel('Blog', { exact: true }).check();
			await page.getByRole('button', { name: 'Save assignments' }).click();
			await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
			const blog = await db.monitor.findFirstOrThrow({ where: { name: 'Blog' } });
			expect(
				await db.privateLocationMonitor.findMany({
					where: { privateLocationId: location.id },
					select: { monitorId: true }
				})
			).toEqual([{ monitorId: blog.id }]);
			expect(await page.getByLabel('Blog', { exact: true }).isChecked()).toBe(true);
		});

		it('labels the latency chart axis in the same format, cut short, with the zone', async () => {
			const monitor = await createMonitor({
				ctx,
				input: {
					type: 'http',
					name: `Charted ${width}`,
					periodicity: '10m',
					url: 'https://example.com/'
				}
			});
			// The tag filter test counts the monitors: leave none behind.
			onTestFinished(async () => {
				await removeMonitor({ ctx, input: { monitorId: monitor.id } });
			});
			const analytics = createEmbeddedAnalytics({
				url: `file:${path.join(dataDir, 'analytics.db')}`
			});
			await analytics.insertResults(
				Array.from({ length: 18 }, (_, i) =>
					storedResult({
						workspaceId: ctx.workspace.id,
						monitorId: monitor.id,
						startedAt: Date.now() - (i + 1) * 20 * 60_000
					})
				)
			);
			analytics.close();
			const page = await tab(width, false);
			await page.goto(`${stack.urls.dashboard}/monitors/${monitor.id}`);
			const labels = await page
				.locator('figure[data-slot="latency-chart"] svg text')
				.allTextContents();
			const axis = labels.filter((t) => !t.endsWith(' ms'));
			expect(axis).toHaveLength(2);
			for (const text of axis) expect(text).toMatch(AXIS_TIME);
		});

		it('writes times in one format with the zone (reports list and report)', async () => {
			const page = await tab(width, false);
			await page.goto(reportsUrl);
			const times = page.locator('main time');
			expect(await times.count()).toBeGreaterThan(0);
			for (const text of await times.allInnerTexts()) expect(text).toMatch(TIME);
			const datetime = await times.first().getAttribute('datetime');
			expect(new Date(datetime ?? '').toISOString()).toBe(datetime);
			await page.getByRole('link', { name: 'Slow checkout' }).click();
			await page.waitForURL(/\/reports\/\d+$/);
			const reportTimes = await page.locator('main time').allInnerTexts();
			expect(reportTimes.length).toBeGreaterThan(1);
			for (const text of reportTimes) expect(text).toMatch(TIME);
		});
	});
}

// Last: it changes the session's workspace (and changes it back).
describe('the sidebar workspace switch', () => {
	it('switches workspace at 390 px without JavaScript, from the folded menu', async () => {
		const other = await createWorkspace(db);
		const user = await db.user.findFirstOrThrow({ where: { email: 'lin@example.test' } });
		await db.membership.create({ data: { workspaceId: other.id, userId: user.id } });
		const page = await tab(390, false);
		const home = await db.workspace.findUniqueOrThrow({ where: { id: ctx.workspace.id } });
		const switchTo = async (name: string) => {
			await page.goto(`${stack.urls.dashboard}/monitors`);
			await page.getByText('Menu', { exact: true }).click();
			const select = page.getByLabel('Workspace', { exact: true });
			expect(await select.locator('option').allInnerTexts()).toEqual(
				expect.arrayContaining([home.name, other.name])
			);
			await select.selectOption({ label: name });
			await page.getByRole('button', { name: 'Go' }).click();
			await page.waitForURL(/\/monitors$/);
			await page.getByText('Menu', { exact: true }).click();
			expect(await page.getByLabel('Workspace', { exact: true }).inputValue()).toBe(
				String(name === home.name ? home.id : other.id)
			);
		};
		await switchTo(other.name);
		expect(await monitorNames(page)).toEqual([]);
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
			390
		);
		await switchTo(home.name);
		expect(await monitorNames(page)).toHaveLength(3);
	});
});
