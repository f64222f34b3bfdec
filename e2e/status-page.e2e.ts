import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedAnalytics, type AnalyticsStore } from '../server/src/analytics/index.ts';
import { createDb, type Db } from '../server/src/db/client.ts';
import { createMonitor } from '../server/src/domain/monitor/index.ts';
import { createPageComponent } from '../server/src/domain/page-component/index.ts';
import { createStatusPage } from '../server/src/domain/status-page/index.ts';
import { createWorkspace, ctxFor, storedResult, TEAM_LIMITS } from '../server/test/factories.ts';
import { launchBrowser, startSmtp, startStack, type Stack } from './harness.ts';

// The status site as readers meet it: the production build behind the all-in-one process,
// one trusted proxy hop configured, data written straight into its database.
let stack: Stack;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let browser: Browser;
let db: Db;
let analytics: AnalyticsStore;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-status-'));
const PAID = {
	...TEAM_LIMITS,
	'page-components': 50,
	'password-protection': true,
	'email-domain-protection': true,
	'ip-restriction': true,
	'custom-domain': true,
	'custom-theme': true,
	i18n: true,
	'no-index': true
};

beforeAll(async () => {
	smtp = await startSmtp();
	stack = await startStack({
		SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
		DATA_DIR: dataDir,
		UPSTATE_SERVICES: 'status-page',
		TRUSTED_PROXY_HOPS: '1'
	});
	db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	analytics = createEmbeddedAnalytics({ url: `file:${path.join(dataDir, 'analytics.db')}` });
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
	analytics?.close();
	await smtp?.close();
});

// Raw HTTP so the test controls Host, X-Forwarded-For and Accept-Encoding exactly.
function get(
	url: string,
	headers: Record<string, string> = {}
): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number; body: string }> {
	return new Promise((resolve, reject) => {
		http
			.get(url, { headers }, (res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () => {
					const raw = Buffer.concat(chunks);
					const body =
						res.headers['content-encoding'] === 'gzip'
							? gunzipSync(raw).toString()
							: raw.toString();
					resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: raw.length, body });
				});
			})
			.on('error', reject);
	});
}

let n = 0;
const slug = () => `e2e-${Date.now()}-${n++}`;

describe('status site', () => {
	it('password page works without JavaScript: form, wrong password, right password, signed cookie', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const s = slug();
		await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Private status', slug: s, access_type: 'password', password: 'let me in' }
		});
		const context = await browser.newContext({ javaScriptEnabled: false });
		const page = await context.newPage();
		await page.goto(`${stack.urls.status}/${s}`);
		await expect(
			page.getByRole('heading', { name: 'This page is protected' }).isVisible()
		).resolves.toBe(true);
		await page.getByLabel('Password').fill('wrong');
		await page.getByRole('button', { name: 'View status' }).click();
		await page.getByRole('alert').waitFor();
		expect(await page.getByRole('alert').innerText()).toBe('wrong password');
		await page.getByLabel('Password').fill('let me in');
		await page.getByRole('button', { name: 'View status' }).click();
		await page.getByRole('status').waitFor();
		expect(await page.getByRole('status').innerText()).toBe('All systems operational');
		expect(page.url()).toBe(`${stack.urls.status}/${s}`);
		const cookies = await context.cookies();
		const pass = cookies.find((c) => c.name.startsWith('upstate_page_'));
		expect(pass).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
		expect(pass?.value).not.toContain('let me in');
		await context.close();
	});

	it('email-domain page without JavaScript: ask for a link, open it, continue, read the page', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const s = slug();
		await createStatusPage({
			ctx: ctxFor(db, ws),
			input: {
				title: 'Team status',
				slug: s,
				access_type: 'email-domain',
				auth_email_domains: ['acme.test']
			}
		});
		const context = await browser.newContext({ javaScriptEnabled: false });
		const page = await context.newPage();
		await page.goto(`${stack.urls.status}/${s}`);
		await page.getByLabel('E-mail address').fill('eve@evil.test');
		await page.getByRole('button', { name: 'Send me a link' }).click();
		await page.getByRole('alert').waitFor();
		await page.getByLabel('E-mail address').fill('ada@acme.test');
		await page.getByRole('button', { name: 'Send me a link' }).click();
		await page.getByText('Check your inbox').waitFor();
		let link: string | undefined;
		for (let i = 0; i < 100 && !link; i++) {
			link = smtp.mails
				.filter((m) => m.to === 'ada@acme.test')
				.map((m) => /http:\/\/\S+\/access\?token=[\w-]+/.exec(m.text)?.[0])
				.find(Boolean);
			if (!link) await new Promise((r) => setTimeout(r, 100));
		}
		expect(link?.startsWith(`${stack.urls.status}/${s}/access?token=`)).toBe(true);
		expect(smtp.mails.some((m) => m.to === 'eve@evil.test')).toBe(false);
		// Opening the link uses nothing up (mail scanners follow links); the button does.
		await page.goto(link as string);
		await page.goto(link as string);
		await page.getByRole('button', { name: 'Continue to the status page' }).click();
		await page.getByRole('status').waitFor();
		expect(page.url()).toBe(`${stack.urls.status}/${s}`);
		expect(await page.getByRole('status').innerText()).toBe('All systems operational');
		await context.close();
	});

	it('ip-restriction behind one proxy: the entry the proxy appended decides, a forged one does not', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const s = slug();
		await createStatusPage({
			ctx: ctxFor(db, ws),
			input: {
				title: 'Office',
				slug: s,
				access_type: 'ip-restriction',
				allowed_ip_ranges: '10.0.0.0/8'
			}
		});
		const url = `${stack.urls.status}/${s}`;
		// The proxy appended the real client 10.1.2.3.
		expect((await get(url, { 'x-forwarded-for': '10.1.2.3' })).status).toBe(200);
		// The client forged 10.1.2.3; the proxy appended its real address 203.0.113.9.
		expect((await get(url, { 'x-forwarded-for': '10.1.2.3, 203.0.113.9' })).status).toBe(403);
		// No proxy entry at all (the request went around the proxy): refused.
		expect((await get(url)).status).toBe(403);
	});

	it('custom domain, theme override, locale switch and noindex over HTTP', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const s = slug();
		const domain = `${s}.status.example.com`;
		await createStatusPage({
			ctx: ctxFor(db, ws),
			input: {
				title: 'Acme',
				slug: s,
				custom_domain: domain,
				custom_theme: { light: { '--primary': '#123456' }, dark: { '--primary': '#abcdef' } },
				locales: ['en', 'de', 'ja'],
				allow_index: false
			}
		});
		const home = await get(`${stack.urls.status}/`, { host: domain });
		expect(home.status).toBe(200);
		expect(home.body).toContain('<title>Acme</title>');
		expect(home.body).toContain(`href="/history"`);
		expect(home.headers['x-robots-tag']).toBe('noindex');
		expect(home.body).toContain('<meta name="robots" content="noindex"');
		expect(home.body).toContain(':root:root{--primary:#123456}');
		expect(home.body).toContain(
			'@media (prefers-color-scheme: dark){:root:root{--primary:#abcdef}}'
		);
		expect((await get(`${stack.urls.status}/history`, { host: domain })).status).toBe(200);

		const german = await get(`${stack.urls.status}/${s}?lang=de`);
		expect(german.body).toContain('<html lang="de">');
		expect(german.body).toContain('Alle Systeme funktionieren');
		const cookie = String(german.headers['set-cookie']).split(';')[0];
		expect(cookie).toBe('upstate_lang=de');
		const remembered = await get(`${stack.urls.status}/${s}`, { cookie });
		expect(remembered.body).toContain('Alle Systeme funktionieren');
		// A language the page does not offer falls back to its default.
		expect((await get(`${stack.urls.status}/${s}?lang=fr`)).body).toContain(
			'All systems operational'
		);
	});

	it('rows stored with a script in the locale and javascript: links render inert', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const s = slug();
		const p = await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'Stored', slug: s } });
		// Straight into the database: what an older or bypassed write side may have left.
		await db.statusPage.update({
			where: { id: p.id },
			data: {
				defaultLocale: '"><script>window.pwned=1</script>',
				locales: JSON.stringify(['de', 'x"><script>window.pwned=2</script>']),
				homepageUrl: 'javascript:window.pwned=3',
				contactUrl: 'javascript:window.pwned=4',
				icon: 'javascript:window.pwned=5'
			}
		});
		const url = `${stack.urls.status}/${s}`;
		for (const path of ['', '/history', '?lang=de']) {
			const res = await get(`${url}${path}`);
			expect(res.status, path).toBe(200);
			expect(res.body, path).not.toContain('pwned');
		}
		expect((await get(url)).body).toContain('<html lang="en">');
		expect((await get(`${url}?lang=de`)).body).toContain('<html lang="de">');
		const context = await browser.newContext();
		const page = await context.newPage();
		await page.goto(url);
		expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
		expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
		await context.close();
	});

	it("a page claiming the status site's own host does not take it over; /@domain paths are not addresses", async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const thief = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Thief', slug: slug() }
		});
		// STATUS_PAGE_URL is http://127.0.0.1:<port>; the write side would refuse this domain.
		await db.statusPage.update({ where: { id: thief.id }, data: { customDomain: '127.0.0.1' } });
		const root = await get(`${stack.urls.status}/`, { host: '127.0.0.1' });
		expect(root.status).toBe(200);
		expect(root.body).toContain('Upstate status pages');
		expect(root.body).not.toContain('Thief');

		const s = slug();
		const domain = `${s}.status.example.com`;
		await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Victim', slug: s, custom_domain: domain, locales: ['en', 'de'] }
		});
		// Asked for by its internal path on the main host first: not found, so nothing is cached
		// there that the domain's readers could be served.
		for (const path of [`/@${domain}/history`, `/@${domain}`, `/@${domain}/api/v2/status.json`])
			expect((await get(`${stack.urls.status}${path}`, { 'accept-encoding': 'gzip' })).status).toBe(
				404
			);
		for (let i = 0; i < 2; i++) {
			const history = await get(`${stack.urls.status}/history`, { host: domain });
			expect(history.status).toBe(200);
			expect(history.body).toContain('href="/history?lang=de"');
			expect(history.body).not.toContain('/@');
		}
		expect((await get(`${stack.urls.status}/@${domain}/history`)).status).toBe(404);
	});

	it('the gate form sends the reader back to a path on this site only', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const s = slug();
		await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Gated', slug: s, access_type: 'password', password: 'let me in' }
		});
		const url = `${stack.urls.status}/${s}`;
		const gate = await get(url);
		expect(gate.body).toContain(`name="next" value="/${s}"`);
		const unlock = (next: string) =>
			new Promise<http.IncomingMessage>((resolve, reject) => {
				const body = new URLSearchParams({ password: 'let me in', next }).toString();
				http
					.request(`${url}?/unlock`, {
						method: 'POST',
						headers: {
							origin: stack.urls.status,
							accept: 'text/html',
							'content-type': 'application/x-www-form-urlencoded'
						}
					})
					.on('response', (res) => resolve(res.resume()))
					.on('error', reject)
					.end(body);
			});
		expect((await unlock(`/${s}/history`)).headers.location).toBe(`/${s}/history`);
		for (const next of ['/\t/evil.example', '//evil.example', '/\\evil.example'])
			expect((await unlock(next)).headers.location, next).toBe(`/${s}`);
	});

	it('a page with 20 monitor components and 90-day bars stays under 100 KB transferred', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const ctx = ctxFor(db, ws);
		const s = slug();
		const p = await createStatusPage({ ctx, input: { title: 'Big', slug: s } });
		const rows = [];
		for (let i = 0; i < 20; i++) {
			const m = await createMonitor({
				ctx,
				input: { type: 'http', name: `Service ${i}`, periodicity: '1m', url: 'https://e.test' }
			});
			await createPageComponent({
				ctx,
				input: {
					pageId: p.id,
					type: 'monitor',
					monitor_id: m.id,
					order: i,
					description: `The ${i}th service`
				}
			});
			for (let d = 0; d < 90; d++) {
				for (let k = 0; k < 3; k++) {
					rows.push(
						storedResult({
							workspaceId: ws.id,
							monitorId: m.id,
							startedAt: Date.now() - d * 86_400_000 - k * 60_000,
							outcome: (d + k + i) % 17 === 0 ? 'error' : 'success'
						})
					);
				}
			}
		}
		for (let i = 0; i < rows.length; i += 500)
			await analytics.insertResults(rows.slice(i, i + 500));
		const res = await get(`${stack.urls.status}/${s}`, { 'accept-encoding': 'gzip' });
		expect(res.status).toBe(200);
		expect(res.headers['content-encoding']).toBe('gzip');
		// One button per day and component (the bars are the only buttons on the page).
		expect(res.body.match(/<button\b/g)?.length).toBeGreaterThanOrEqual(1800);
		expect(res.body).not.toContain('<script type="module"');
		// The bars carry real data: days with checks and failures, not empty cells.
		expect(res.body).toMatch(/100% uptime, 3 checks, 0 failed/);
		expect(res.body).toMatch(/66\.67% uptime, 3 checks, 1 failed/);
		const assets = [...res.body.matchAll(/<link[^>]+href="([^"]+\.css)"/g)].map((m) => m[1]);
		let total = res.bytes;
		for (const a of assets) {
			total += (
				await get(new URL(a, `${stack.urls.status}/${s}`).href, { 'accept-encoding': 'gzip' })
			).bytes;
		}
		console.log(
			`[size] html=${res.bytes}B gzip (raw ${Buffer.byteLength(res.body)}B) css=${total - res.bytes}B total=${total}B`
		);
		expect(total).toBeLessThan(100 * 1024);
	});
});
