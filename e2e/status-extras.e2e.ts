import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedAnalytics } from '../server/src/analytics/index.ts';
import { createDb, type Db } from '../server/src/db/client.ts';
import { createMaintenance } from '../server/src/domain/maintenance/index.ts';
import { createPageComponent } from '../server/src/domain/page-component/index.ts';
import { createStatusPage, updateStatusPage } from '../server/src/domain/status-page/index.ts';
import { markPageChanged } from '../server/src/domain/status-page/public/page-changes.ts';
import {
	createStatusReport,
	resolveStatusReport
} from '../server/src/domain/status-report/index.ts';
import { createWorkspace, ctxFor, storedResult, TEAM_LIMITS } from '../server/test/factories.ts';
import { issueKey } from '../server/test/upstate.ts';
import { launchBrowser, startStack, type Stack } from './harness.ts';
import { axe } from './axe.ts';
import { seedMonitorPage } from './seed.ts';

// Feeds, Statuspage v2 JSON, badges, the embed view, the render cache and accessibility, on the
// production build. Data is written straight into the database before a page is first read;
// the cache test writes through the REST API of the same process, as the dashboard would.
let stack: Stack;
let browser: Browser;
let db: Db;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'upstate-e2e-extras-'));
const PAID = {
	...TEAM_LIMITS,
	'page-components': 50,
	'password-protection': true,
	'ip-restriction': true,
	'custom-domain': true,
	'no-index': true
};

beforeAll(async () => {
	stack = await startStack({
		DATA_DIR: dataDir,
		UPSTATE_SERVICES: 'status-page,api',
		TRUSTED_PROXY_HOPS: '1',
		// Long enough that only the content version can explain a fresh render in these tests.
		STATUS_PAGE_CACHE_TTL_SECONDS: '600'
	});
	db = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
	browser = await launchBrowser();
});

afterAll(async () => {
	await browser?.close();
	await stack?.stop();
});

type Res = { status: number; headers: http.IncomingHttpHeaders; body: string };
function request(
	url: string,
	opts: { headers?: Record<string, string>; method?: string; body?: string } = {}
): Promise<Res> {
	return new Promise((resolve, reject) => {
		const req = http.request(
			url,
			{ method: opts.method ?? 'GET', headers: opts.headers },
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (c: Buffer) => chunks.push(c));
				res.on('end', () => {
					const raw = Buffer.concat(chunks);
					const body =
						res.headers['content-encoding'] === 'gzip'
							? gunzipSync(raw).toString()
							: raw.toString();
					resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
				});
			}
		);
		req.on('error', reject);
		req.end(opts.body);
	});
}
const get = (url: string, headers: Record<string, string> = {}) => request(url, { headers });

let n = 0;
const slug = () => `x-${Date.now()}-${n++}`;

// A public page with two static components, a resolved and an open report, and maintenance
// windows in the past, now and in the future.
async function seedPage(opts: { customDomain?: string; allowIndex?: boolean } = {}) {
	const ws = await createWorkspace(db, { limits: PAID });
	const ctx = ctxFor(db, ws);
	const s = slug();
	const page = await createStatusPage({
		ctx,
		input: {
			title: 'Acme & Co',
			slug: s,
			custom_domain: opts.customDomain,
			allow_index: opts.allowIndex
		}
	});
	const api = await createPageComponent({
		ctx,
		input: { pageId: page.id, type: 'static', name: 'API', order: 0 }
	});
	const web = await createPageComponent({
		ctx,
		input: { pageId: page.id, type: 'static', name: 'Website', order: 1 }
	});
	const old = await createStatusReport({
		ctx,
		input: {
			pageId: page.id,
			title: 'Slow logins',
			status: 'investigating',
			message: 'Looking into <slow> logins',
			pageComponentIds: [web.id],
			impacts: [{ componentId: web.id, impact: 'degraded_performance' }],
			notify: false
		}
	});
	await resolveStatusReport({
		ctx,
		input: { reportId: old.id, message: 'Fixed.', impacts: [], notify: false }
	});
	const open = await createStatusReport({
		ctx,
		input: {
			pageId: page.id,
			title: 'API errors',
			status: 'identified',
			message: 'Errors on writes',
			pageComponentIds: [api.id],
			impacts: [{ componentId: api.id, impact: 'major_outage' }],
			notify: false
		}
	});
	const hour = 3_600_000;
	const at = (ms: number) => new Date(Date.now() + ms).toISOString();
	for (const [title, from, to] of [
		['Past upgrade', -3 * hour, -2 * hour],
		['Database move', -hour, hour],
		['Network work', 24 * hour, 25 * hour]
	] as const) {
		await createMaintenance({
			ctx,
			input: {
				pageId: page.id,
				title,
				from: at(from),
				to: at(to),
				pageComponentIds: [web.id],
				notify: false
			}
		});
	}
	return { ws, page, slug: s, api, web, old, open };
}

const RFC822 =
	/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} (GMT|[+-]\d{4})$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const xml = new XMLParser({
	ignoreAttributes: false,
	attributeNamePrefix: '@',
	isArray: (_name, jpath) =>
		['rss.channel.item', 'feed.entry', 'feed.link', 'feed.entry.link'].includes(String(jpath))
});

describe('feeds', () => {
	it('RSS 2.0: well-formed, required channel and item elements, RFC 822 dates, unique guids', async () => {
		const { slug: s, open } = await seedPage();
		const res = await get(`${stack.urls.status}/${s}/feed.rss`);
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
		expect(XMLValidator.validate(res.body)).toBe(true);
		const rss = xml.parse(res.body).rss;
		expect(rss['@version']).toBe('2.0');
		const channel = rss.channel;
		expect(channel.title).toBe('Acme & Co');
		expect(channel.link).toBe(`${stack.urls.status}/${s}`);
		expect(channel.description).toBeTruthy();
		expect(channel.lastBuildDate).toMatch(RFC822);
		expect(channel.item).toHaveLength(5); // two reports, three maintenance windows
		for (const item of channel.item) {
			expect(item.title).toBeTruthy();
			expect(item.link).toMatch(new RegExp(`^${stack.urls.status}/${s}`));
			expect(item.pubDate).toMatch(RFC822);
			expect(Number.isNaN(Date.parse(item.pubDate))).toBe(false);
		}
		expect(
			new Set(channel.item.map((i: { guid: { '#text': string } }) => i.guid['#text'])).size
		).toBe(5);
		const report = channel.item.find((i: { link: string }) =>
			i.link.endsWith(`/reports/${open.id}`)
		);
		expect(report.title).toBe('API errors (Identified)');
		expect(report.description).toContain('Errors on writes');
	});

	it('Atom: well-formed, feed and entry ids, titles, RFC 3339 updated, links, escaped content', async () => {
		const { slug: s, old } = await seedPage();
		const res = await get(`${stack.urls.status}/${s}/feed.atom`);
		expect(res.status).toBe(200);
		expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
		expect(XMLValidator.validate(res.body)).toBe(true);
		const feed = xml.parse(res.body).feed;
		expect(feed['@xmlns']).toBe('http://www.w3.org/2005/Atom');
		expect(feed.id).toBe(`${stack.urls.status}/${s}`);
		expect(feed.title).toBe('Acme & Co');
		expect(feed.updated).toMatch(RFC3339);
		expect(feed.author.name).toBe('Acme & Co');
		expect(feed.link.map((l: { '@rel': string }) => l['@rel']).sort()).toEqual([
			'alternate',
			'self'
		]);
		expect(feed.entry).toHaveLength(5);
		const ids = feed.entry.map((e: { id: string }) => e.id);
		expect(new Set(ids).size).toBe(5);
		for (const e of feed.entry) {
			expect(e.title).toBeTruthy();
			expect(e.updated).toMatch(RFC3339);
			expect(e.link[0]['@href']).toMatch(/^http:\/\//);
		}
		const resolved = feed.entry.find((e: { id: string }) => e.id.endsWith(`/reports/${old.id}`));
		expect(resolved.title).toBe('Slow logins (Resolved)');
		// HTML content, escaped once in XML: the reader's markup survives as text.
		expect(resolved.content['#text']).toContain('Looking into &lt;slow&gt; logins');
	});
});

describe('Statuspage v2 JSON', () => {
	const FILES = [
		'summary.json',
		'status.json',
		'components.json',
		'incidents.json',
		'incidents/unresolved.json',
		'scheduled-maintenances.json',
		'scheduled-maintenances/upcoming.json',
		'scheduled-maintenances/active.json'
	];

	it('serves every file in the Statuspage shapes, readable cross-origin', async () => {
		const { slug: s, page, api, web, old, open } = await seedPage();
		const base = `${stack.urls.status}/${s}/api/v2`;
		const files: Record<string, Record<string, unknown>> = {};
		for (const f of FILES) {
			const res = await get(`${base}/${f}`, { origin: 'https://aggregator.example' });
			expect(res.status, f).toBe(200);
			expect(res.headers['access-control-allow-origin'], f).toBe('*');
			expect(res.headers['content-type'], f).toContain('application/json');
			files[f] = JSON.parse(res.body);
			expect(files[f].page, f).toEqual({
				id: String(page.id),
				name: 'Acme & Co',
				url: `${stack.urls.status}/${s}`,
				time_zone: 'Etc/UTC',
				updated_at: expect.stringMatching(RFC3339)
			});
		}
		const summary = files['summary.json'] as Record<string, never>;
		expect(Object.keys(summary).sort()).toEqual(
			['components', 'incidents', 'page', 'scheduled_maintenances', 'status'].sort()
		);
		// API in major outage, Website under maintenance: some major → partial outage banner.
		expect(summary.status).toEqual({ indicator: 'major', description: 'Partial System Outage' });
		expect(files['status.json'].status).toEqual(summary.status);
		expect(summary.components).toEqual([
			expect.objectContaining({
				id: String(api.id),
				name: 'API',
				status: 'major_outage',
				position: 1,
				group: false,
				group_id: null,
				page_id: String(page.id)
			}),
			expect.objectContaining({
				id: String(web.id),
				name: 'Website',
				status: 'under_maintenance',
				position: 2
			})
		]);
		const incidents = files['incidents.json'].incidents as Record<string, never>[];
		expect(incidents.map((i) => i.id)).toEqual([String(open.id), String(old.id)]);
		const current = incidents[0] as Record<string, unknown>;
		expect(current).toMatchObject({
			name: 'API errors',
			status: 'identified',
			impact: 'critical',
			resolved_at: null,
			shortlink: `${stack.urls.status}/${s}/reports/${open.id}`,
			page_id: String(page.id),
			created_at: expect.stringMatching(RFC3339)
		});
		expect(current.incident_updates).toEqual([
			expect.objectContaining({
				status: 'identified',
				body: 'Errors on writes',
				incident_id: String(open.id),
				display_at: expect.stringMatching(RFC3339),
				affected_components: [
					{
						code: String(api.id),
						name: 'API',
						old_status: 'operational',
						new_status: 'major_outage'
					}
				]
			})
		]);
		expect((current.components as { id: string }[]).map((c) => c.id)).toEqual([String(api.id)]);
		expect(incidents[1]).toMatchObject({
			status: 'resolved',
			impact: 'minor',
			resolved_at: expect.stringMatching(RFC3339)
		});
		expect(
			(files['incidents/unresolved.json'].incidents as { id: string }[]).map((i) => i.id)
		).toEqual([String(open.id)]);
		expect((summary.incidents as { id: string }[]).map((i) => i.id)).toEqual([String(open.id)]);

		const names = (f: string) =>
			(files[f].scheduled_maintenances as { name: string; status: string }[]).map(
				(m) => `${m.name}:${m.status}`
			);
		expect(names('scheduled-maintenances.json')).toEqual([
			'Network work:scheduled',
			'Database move:in_progress',
			'Past upgrade:completed'
		]);
		expect(names('scheduled-maintenances/upcoming.json')).toEqual(['Network work:scheduled']);
		expect(names('scheduled-maintenances/active.json')).toEqual(['Database move:in_progress']);
		expect(names('summary.json')).toEqual(['Network work:scheduled', 'Database move:in_progress']);
		const active = (
			files['scheduled-maintenances/active.json'].scheduled_maintenances as Record<
				string,
				unknown
			>[]
		)[0];
		expect(active).toMatchObject({
			impact: 'maintenance',
			scheduled_for: expect.stringMatching(RFC3339),
			scheduled_until: expect.stringMatching(RFC3339)
		});
		expect((await get(`${base}/nope.json`)).status).toBe(404);
	});

	it('at the root of a custom domain: JSON, feed and badge', async () => {
		const domain = `${slug()}.status.example.com`;
		await seedPage({ customDomain: domain });
		const summary = await get(`${stack.urls.status}/api/v2/summary.json`, { host: domain });
		expect(summary.status).toBe(200);
		expect(JSON.parse(summary.body).page.url).toBe(`http://${domain}`);
		const rss = await get(`${stack.urls.status}/feed.rss`, { host: domain });
		expect(xml.parse(rss.body).rss.channel.link).toBe(`http://${domain}`);
		expect((await get(`${stack.urls.status}/badge.svg`, { host: domain })).status).toBe(200);
	});

	it('a protected page gives readers without access 401/403 and no data, on every view', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const locked = slug();
		await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Secret Corp', slug: locked, access_type: 'password', password: 'pw-pw-pw' }
		});
		const office = slug();
		await createStatusPage({
			ctx: ctxFor(db, ws),
			input: {
				title: 'Office Corp',
				slug: office,
				access_type: 'ip-restriction',
				allowed_ip_ranges: '10.0.0.0/8'
			}
		});
		const views = [
			'api/v2/summary.json',
			'api/v2/incidents.json',
			'feed.rss',
			'feed.atom',
			'badge.svg'
		];
		for (const v of views) {
			const res = await get(`${stack.urls.status}/${locked}/${v}`);
			expect(res.status, v).toBe(401);
			expect(res.body, v).not.toContain('Secret Corp');
			const denied = await get(`${stack.urls.status}/${office}/${v}`, {
				'x-forwarded-for': '203.0.113.9'
			});
			expect(denied.status, v).toBe(403);
			expect(denied.body, v).not.toContain('Office Corp');
			const allowed = await get(`${stack.urls.status}/${office}/${v}`, {
				'x-forwarded-for': '10.1.2.3'
			});
			expect(allowed.status, v).toBe(200);
			// A gated page is never indexed, kept by a cache or read by another origin, whatever
			// the reader was let see.
			for (const r of [res, denied, allowed]) {
				expect(r.headers['x-robots-tag'], v).toBe('noindex');
				expect(r.headers['cache-control'], v).toBe('private, no-store');
				expect(r.headers['access-control-allow-origin'], v).toBeUndefined();
			}
		}
	});

	it('a gated page is private on every view, from the render cache too; a public one is not', async () => {
		const { slug: open, old } = await seedPage();
		const ws = await createWorkspace(db, { limits: PAID });
		const office = slug();
		const page = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: {
				title: 'Office Corp',
				slug: office,
				access_type: 'ip-restriction',
				allowed_ip_ranges: '10.0.0.0/8'
			}
		});
		const c = await createPageComponent({
			ctx: ctxFor(db, ws),
			input: { pageId: page.id, type: 'static', name: 'Door', order: 0 }
		});
		const report = await createStatusReport({
			ctx: ctxFor(db, ws),
			input: {
				pageId: page.id,
				title: 'Door stuck',
				status: 'investigating',
				message: 'Looking',
				pageComponentIds: [c.id],
				impacts: [],
				notify: false
			}
		});
		const views = [
			'',
			'/history',
			`/reports/${report.id}`,
			'/embed',
			'/api/v2/summary.json',
			'/feed.rss',
			'/badge.svg',
			`/components/${c.id}/badge.svg`
		];
		const inside = { 'x-forwarded-for': '10.1.2.3', 'accept-encoding': 'gzip' };
		for (const v of views) {
			// The second read is a hit, served before SvelteKit from stored headers.
			for (let i = 0; i < 2; i++) {
				const res = await get(`${stack.urls.status}/${office}${v}`, inside);
				expect(res.status, v).toBe(200);
				expect(res.headers['cache-control'], v).toBe('private, no-store');
				expect(res.headers['access-control-allow-origin'], v).toBeUndefined();
			}
			expect(
				(await get(`${stack.urls.status}/${office}${v}`, { 'x-forwarded-for': '198.51.100.7' }))
					.headers['cache-control'],
				v
			).toBe('private, no-store');
		}
		const pub = (v: string) =>
			get(`${stack.urls.status}/${open}${v}`, { 'accept-encoding': 'gzip' });
		for (const v of ['', `/reports/${old.id}`]) {
			expect((await pub(v)).headers['cache-control'], v).toBeUndefined();
		}
		for (const v of ['/api/v2/summary.json', '/feed.rss', '/badge.svg']) {
			for (let i = 0; i < 2; i++) {
				const res = await pub(v);
				expect(res.headers['access-control-allow-origin'], v).toBe('*');
				expect(res.headers['cache-control'], v).toBeUndefined();
			}
		}
	});
});

describe('incident history', () => {
	it('pages by whole months with a link to older ones, so no report is cut', async () => {
		const { page, slug: s, ws } = await seedPage();
		// 40 reports in each of three old months: the newest listing ends inside one of them.
		for (const month of ['2025-03', '2025-02', '2025-01'])
			await db.statusReport.createMany({
				data: Array.from({ length: 40 }, (_, i) => ({
					workspaceId: ws.id,
					pageId: page.id,
					title: `Old ${month} ${i}`,
					status: 'resolved',
					resolvedAt: new Date(`${month}-02T00:00:00Z`),
					createdAt: new Date(Date.parse(`${month}-01T00:00:00Z`) + i * 3_600_000)
				}))
			});
		const first = await get(`${stack.urls.status}/${s}/history`);
		expect(first.status).toBe(200);
		expect(first.body).toContain('Old 2025-03 39');
		expect(first.body).toContain('Old 2025-02 0');
		expect(first.body).not.toContain('Old 2025-01');
		expect(first.body).toContain(`href="/${s}/history/2025-01"`);
		const older = await get(`${stack.urls.status}/${s}/history/2025-01`);
		expect(older.status).toBe(200);
		expect(older.body).toContain('Old 2025-01 39');
		expect(older.body).toContain('Old 2025-01 0');
		expect(older.body).not.toContain('Old 2025-02');
		expect(older.body).toContain(`href="/${s}/history"`);
		expect(older.body).not.toContain('rel="next"');
		for (const month of ['2024-12', '2025-13', 'latest'])
			expect((await get(`${stack.urls.status}/${s}/history/${month}`)).status, month).toBe(404);
	});
});

describe('no-index on every view', () => {
	it('feeds, JSON files and badges of an allow_index: false page send x-robots-tag', async () => {
		const hidden = await seedPage({ allowIndex: false });
		const shown = await seedPage();
		const views = (c: number) => [
			'feed.rss',
			'feed.atom',
			'api/v2/summary.json',
			'api/v2/incidents/unresolved.json',
			'api/v2/scheduled-maintenances.json',
			'badge.svg',
			`components/${c}/badge.svg`
		];
		for (const v of views(hidden.api.id)) {
			const res = await get(`${stack.urls.status}/${hidden.slug}/${v}`);
			expect(res.status, v).toBe(200);
			expect(res.headers['x-robots-tag'], v).toBe('noindex');
		}
		for (const v of views(shown.api.id)) {
			const res = await get(`${stack.urls.status}/${shown.slug}/${v}`);
			expect(res.status, v).toBe(200);
			expect(res.headers['x-robots-tag'], v).toBeUndefined();
		}
	});
});

describe('badges and the embed view', () => {
	it('page and component badges are well-formed SVG with the state label and colour', async () => {
		const { slug: s, api, web } = await seedPage();
		const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });
		const badge = async (p: string) => {
			const res = await get(`${stack.urls.status}/${s}/${p}`);
			expect(res.status).toBe(200);
			expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
			expect(XMLValidator.validate(res.body)).toBe(true);
			const svg = parser.parse(res.body).svg;
			return {
				svg,
				texts: svg.g[1].text.map((t: { '#text': string }) => t['#text']),
				fill: svg.g[0].rect[1]['@fill']
			};
		};
		const page = await badge('badge.svg');
		expect(page.svg['@xmlns']).toBe('http://www.w3.org/2000/svg');
		expect(page.texts).toEqual(['Acme & Co', 'Partial outage']);
		expect(page.fill).toBe('#be5300');
		expect(page.svg['@aria-label']).toBe('Acme & Co: Partial outage');
		const down = await badge(`components/${api.id}/badge.svg`);
		expect(down.texts).toEqual(['API', 'Major outage']);
		expect(down.fill).toBe('#cc2827');
		const maint = await badge(`components/${web.id}/badge.svg`);
		expect(maint.texts).toEqual(['Website', 'Under maintenance']);
		expect(maint.fill).toBe('#0871c1');
		expect((await get(`${stack.urls.status}/${s}/components/999999/badge.svg`)).status).toBe(404);
	});

	it('only the embed view may be framed', async () => {
		const { slug: s } = await seedPage();
		const embed = await get(`${stack.urls.status}/${s}/embed`);
		expect(embed.status).toBe(200);
		expect(embed.headers['x-frame-options']).toBeUndefined();
		expect(embed.headers['content-security-policy'] ?? '').not.toContain('frame-ancestors');
		expect(embed.body).toContain('role="status"');
		expect(embed.body).toContain('API');
		const full = await get(`${stack.urls.status}/${s}`);
		expect(full.headers['x-frame-options']).toBe('DENY');
		expect(full.headers['content-security-policy']).toBe("frame-ancestors 'none'");
	});
});

describe('render cache', () => {
	// Setup writes come from this test's process, which the status site learns of by polling
	// page_change. Two views are cached, the page is renamed, and once the cached summary shows
	// the new name the site has taken in every earlier change too (it reads them in order), and
	// dropped the cached page view with it: the flood below starts from a settled, empty cache.
	async function siteCaughtUp(ws: Parameters<typeof ctxFor>[1], pageId: number, url: string) {
		await get(url);
		await get(`${url}/api/v2/summary.json`);
		const name = `Settled ${Math.random()}`;
		await updateStatusPage({
			ctx: ctxFor(db, ws),
			input: { pageId, title: name }
		});
		for (let i = 0; i < 100; i++) {
			if ((await get(`${url}/api/v2/summary.json`)).body.includes(name)) return;
			await new Promise((done) => setTimeout(done, 100));
		}
		throw new Error('the status site never saw the setup writes');
	}

	it('N concurrent readers with random query strings cause one render; a write through the API drops it', async () => {
		const { ws, page, slug: s, api } = await seedPage();
		const url = `${stack.urls.status}/${s}`;
		await siteCaughtUp(ws, page.id, url);
		const flood = await Promise.all(
			Array.from({ length: 25 }, (_, i) =>
				get(`${url}?r=${Math.random()}&i=${i}`, { 'user-agent': `ua-${i}` })
			)
		);
		expect(flood.every((r) => r.status === 200)).toBe(true);
		expect(flood.filter((r) => r.headers['x-cache'] === 'MISS')).toHaveLength(1);
		expect(new Set(flood.map((r) => r.body)).size).toBe(1);
		expect((await get(`${url}?another=${Math.random()}`)).headers['x-cache']).toBe('HIT');
		const json = await get(`${url}/api/v2/summary.json?cb=${Math.random()}`);
		expect((await get(`${url}/api/v2/summary.json?cb=${Math.random()}`)).headers['x-cache']).toBe(
			'HIT'
		);
		expect(JSON.parse(json.body).incidents).toHaveLength(1);

		const key = await issueKey(db, ws, 'write');
		const apiUrl = stack.urls.api;
		const created = await request(`${apiUrl}/v1/status-reports`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-service-key': key },
			body: JSON.stringify({
				pageId: page.id,
				title: 'Fresh incident',
				status: 'investigating',
				message: 'Just now',
				pageComponentIds: [api.id],
				notify: false
			})
		});
		expect(created.status).toBe(201);
		const after = await get(url);
		expect(after.headers['x-cache']).toBe('MISS');
		expect(after.body).toContain('Fresh incident');
		const v2 = await get(`${url}/api/v2/summary.json`);
		expect(JSON.parse(v2.body).incidents).toHaveLength(2);
	});

	it('drops cached views when another process changes the page (its page change row)', async () => {
		// This test's own database client is "another process": only the row can tell the site.
		const other = createDb({ url: `file:${path.join(dataDir, 'upstate.db')}` });
		const ws = await createWorkspace(db, { limits: PAID });
		const s = slug();
		const page = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Before rename', slug: s }
		});
		const url = `${stack.urls.status}/${s}`;
		await get(url);
		const cached = await get(url);
		expect(cached.headers['x-cache']).toBe('HIT');
		expect(cached.body).toContain('Before rename');
		const until = async (ok: (r: Res) => boolean) => {
			for (let i = 0; i < 100; i++) {
				const r = await get(url);
				if (ok(r)) return r;
				await new Promise((done) => setTimeout(done, 100));
			}
			throw new Error('the status site kept serving the old page');
		};
		await updateStatusPage({
			ctx: ctxFor(other, ws),
			input: { pageId: page.id, title: 'After rename' }
		});
		expect((await until((r) => r.body.includes('After rename'))).status).toBe(200);
		// Unpublished elsewhere (no verb does this yet): the write marks the page as a verb would,
		// and the page is gone from the site, not served from the cache.
		await other.$transaction(async (tx) => {
			await tx.statusPage.update({ where: { id: page.id }, data: { published: false } });
			await markPageChanged(tx, page.id);
		});
		await until((r) => r.status === 404);
		await other.$disconnect();
	});

	it('serves hits before SvelteKit only after the gate: an allowed address gets the page, a denied one never does', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const s = slug();
		const page = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: {
				title: 'Branch Office',
				slug: s,
				access_type: 'ip-restriction',
				allowed_ip_ranges: '10.0.0.0/8'
			}
		});
		await createPageComponent({
			ctx: ctxFor(db, ws),
			input: { pageId: page.id, type: 'static', name: 'Vault door', order: 0 }
		});
		const url = `${stack.urls.status}/${s}`;
		const inside = { 'x-forwarded-for': '10.9.8.7', 'accept-encoding': 'gzip' };
		const outside = { 'x-forwarded-for': '198.51.100.7', 'accept-encoding': 'gzip' };
		const first = await get(url, inside);
		expect(first.headers['x-cache']).toBe('MISS');
		for (let i = 0; i < 3; i++) {
			const hit = await get(`${url}?i=${i}`, inside);
			expect(hit.status).toBe(200);
			expect(hit.headers['x-cache']).toBe('HIT');
			expect(hit.body).toContain('Vault door');
			const denied = await get(`${url}?i=${i}`, outside);
			expect(denied.status).toBe(403);
			expect(denied.body).not.toContain('Vault door');
		}
		// A client-written X-Forwarded-For entry left of the proxy's is not trusted.
		const spoofed = await get(url, { 'x-forwarded-for': '10.0.0.1, 198.51.100.7' });
		expect(spoofed.status).toBe(403);
		expect(spoofed.body).not.toContain('Vault door');
		// Without gzip the reader still gets the stored body, inflated.
		const plain = await get(url, { 'x-forwarded-for': '10.9.8.7' });
		expect(plain.headers['content-encoding']).toBeUndefined();
		expect(plain.body).toBe(first.body);
	});

	it('keys on the locale and the access decision, not on who asks', async () => {
		const ws = await createWorkspace(db, { limits: { ...PAID, i18n: true } });
		const s = slug();
		await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Multi', slug: s, locales: ['en', 'de'] }
		});
		const url = `${stack.urls.status}/${s}`;
		expect((await get(url)).body).toContain('All systems operational');
		const de = await get(`${url}?lang=de`);
		expect(de.body).toContain('Alle Systeme funktionieren');
		expect(String(de.headers['set-cookie'])).toContain('upstate_lang=de');
		const again = await get(`${url}?lang=de&x=1`);
		expect(again.headers['x-cache']).toBe('HIT');
		expect(String(again.headers['set-cookie'])).toContain('upstate_lang=de');
		expect((await get(url, { cookie: 'upstate_lang=de' })).body).toContain(
			'Alle Systeme funktionieren'
		);
	});
});

describe('accessibility', () => {
	it('axe finds no violations on the page, a report page, history and the password form', async () => {
		const { slug: s, open } = await seedPage();
		const ws = await createWorkspace(db, { limits: PAID });
		const locked = slug();
		await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Locked', slug: locked, access_type: 'password', password: 'pw-pw-pw' }
		});
		const context = await browser.newContext();
		const page = await context.newPage();
		for (const p of [`${s}`, `${s}/reports/${open.id}`, `${s}/history`, locked, `${s}/embed`]) {
			await page.goto(`${stack.urls.status}/${p}`);
			expect(await axe(page), p).toEqual([]);
		}
		await context.close();
	});

	it('the uptime bar: Tab reaches a day and its accessible name describes it', async () => {
		const s = slug();
		const { ws, monitor: m } = await seedMonitorPage(db, {
			limits: PAID,
			slug: s,
			title: 'Shop',
			monitor: 'Checkout'
		});
		const analytics = createEmbeddedAnalytics({
			url: `file:${path.join(dataDir, 'analytics.db')}`
		});
		await analytics.insertResults(
			Array.from({ length: 90 }, (_, d) =>
				storedResult({
					workspaceId: ws.id,
					monitorId: m.id,
					startedAt: Date.now() - d * 86_400_000
				})
			)
		);
		analytics.close();
		const context = await browser.newContext();
		const page = await context.newPage();
		await page.goto(`${stack.urls.status}/${s}`);
		const days = page.getByRole('list', { name: 'Checkout' }).getByRole('button');
		expect(await days.count()).toBe(90);
		let name = '';
		for (let i = 0; i < 30 && !name; i++) {
			await page.keyboard.press('Tab');
			name = await page.evaluate(() => {
				const el = document.activeElement;
				return el?.closest('[data-slot="uptime-bar"]') ? (el.textContent ?? '') : '';
			});
		}
		expect(name).toMatch(/100% uptime, 1 checks, 0 failed/);
		// The same text is the button's accessible name, so a screen reader announces it.
		const focused = page.locator(':focus');
		expect(await focused.evaluate((el) => el.tagName)).toBe('BUTTON');
		const snapshot = await page.locator('[data-slot="uptime-bar"] ol').first().ariaSnapshot();
		expect(snapshot).toContain(`button "${name.trim()}"`);
		// With scripts the bar is one tab stop, entered at today; the arrow keys move by day.
		const focusedIndex = () =>
			days.evaluateAll((all) => all.findIndex((el) => el === document.activeElement));
		expect(await focusedIndex()).toBe(89);
		await page.keyboard.press('ArrowLeft');
		expect(await focusedIndex()).toBe(88);
		await page.keyboard.press('Home');
		expect(await focusedIndex()).toBe(0);
		await page.keyboard.press('ArrowRight');
		expect(await focusedIndex()).toBe(1);
		await page.keyboard.press('Tab');
		expect(await focusedIndex()).toBe(-1);
		await page.keyboard.press('Shift+Tab');
		expect(await focusedIndex()).toBe(1); // back where the reader left the bar
		await context.close();
	});
});
