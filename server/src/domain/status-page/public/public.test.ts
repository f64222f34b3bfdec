import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp } from '../../../../test/servers.ts';
import type { Upstate } from '../../../app.ts';
import type { Db } from '../../../db/client.ts';
import { createTestDb } from '../../../../test/db.ts';
import { codeOf } from '../../../../test/expect-error.ts';
import { createWorkspace, ctxFor, storedResult, TEAM_LIMITS } from '../../../../test/factories.ts';
import { createTestUpstate, publicDeps } from '../../../../test/upstate.ts';
import { createComponentGroup } from '../../component-group/index.ts';
import { createMonitor } from '../../monitor/index.ts';
import { createPageComponent } from '../../page-component/index.ts';
import { createStatusPage, updateStatusPage } from '../index.ts';
import { findPublicPage } from './open-page.ts';
import {
	getPublicReport,
	getPublicStatusPage,
	listPublicHistory,
	PublicPageOutput,
	requestStatusPageAccess,
	resolveCustomDomain,
	unlockStatusPage,
	verifyStatusPageAccess,
	type PublicDeps,
	type ReaderFacts
} from './index.ts';

let db: Db;
let upstate: Upstate;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let deps: PublicDeps;
const NOW = new Date('2026-11-22T12:00:00Z');
const PAID = {
	...TEAM_LIMITS,
	'password-protection': true,
	'email-domain-protection': true,
	'ip-restriction': true,
	'custom-domain': true,
	'custom-theme': true,
	i18n: true,
	'no-index': true
};

beforeAll(async () => {
	({ db } = await createTestDb());
	smtp = await startSmtp();
	upstate = createTestUpstate(db, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` });
	deps = publicDeps(upstate, { now: () => NOW });
});
afterAll(() => smtp.close());

let n = 0;
const slug = () => `pub-${Date.now()}-${n++}`;
const anon: ReaderFacts = { socketAddress: '127.0.0.1' };

// Test factories for the write side another verb set owns: rows straight through Prisma.
async function addReport(
	ws: { id: number },
	pageId: number,
	r: {
		title: string;
		createdAt: Date;
		resolvedAt?: Date;
		components?: number[];
		updates: { status: string; message: string; date: Date; impacts?: [number, string][] }[];
	}
) {
	return db.statusReport.create({
		data: {
			workspaceId: ws.id,
			pageId,
			title: r.title,
			status: r.resolvedAt ? 'resolved' : (r.updates.at(-1)?.status ?? 'investigating'),
			resolvedAt: r.resolvedAt ?? null,
			createdAt: r.createdAt,
			components: { create: (r.components ?? []).map((componentId) => ({ componentId })) },
			updates: {
				create: r.updates.map((u) => ({
					status: u.status,
					message: u.message,
					date: u.date,
					impacts: {
						create: (u.impacts ?? []).map(([componentId, impact]) => ({ componentId, impact }))
					}
				}))
			}
		}
	});
}

async function addMaintenance(
	ws: { id: number },
	pageId: number,
	m: { title: string; from: Date; to: Date; components?: number[] }
) {
	return db.maintenance.create({
		data: {
			workspaceId: ws.id,
			pageId,
			title: m.title,
			from: m.from,
			to: m.to,
			components: { create: (m.components ?? []).map((componentId) => ({ componentId })) }
		}
	});
}

describe('public status page read', () => {
	it('shows components in order and groups, with states, uptime bars, reports and maintenance', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const ctx = ctxFor(db, ws);
		const p = await createStatusPage({
			ctx,
			input: { title: 'Acme', slug: slug(), description: 'Our services' }
		});
		const monitor = (name: string) =>
			createMonitor({
				ctx,
				input: { type: 'http', name, periodicity: '1m', url: 'https://e.test' }
			});
		const api = await monitor('API');
		const web = await monitor('Web');
		await db.monitor.update({ where: { id: api.id }, data: { status: 'active' } });
		await db.monitor.update({ where: { id: web.id }, data: { status: 'error' } });
		const group = await createComponentGroup({ ctx, input: { pageId: p.id, name: 'Core' } });
		const cApi = await createPageComponent({
			ctx,
			input: {
				pageId: p.id,
				type: 'monitor',
				monitor_id: api.id,
				order: 1,
				group_id: group.id,
				group_order: 2
			}
		});
		await createPageComponent({
			ctx,
			input: {
				pageId: p.id,
				type: 'monitor',
				monitor_id: web.id,
				order: 1,
				group_id: group.id,
				group_order: 1
			}
		});
		const cDocs = await createPageComponent({
			ctx,
			input: { pageId: p.id, type: 'static', name: 'Docs', order: 0 }
		});
		const cMail = await createPageComponent({
			ctx,
			input: { pageId: p.id, type: 'static', name: 'Mail', order: 5 }
		});
		// Check results: two days ago API had 98 % (2 failures), yesterday 100 %.
		const day = (d: string, i: number) => Date.parse(`${d}T10:00:00Z`) + i * 60_000;
		const result = (monitorId: number, at: number, outcome: 'success' | 'degraded' | 'error') =>
			storedResult({ workspaceId: ws.id, monitorId, startedAt: at, outcome });
		await upstate.analytics.insertResults([
			...Array.from({ length: 98 }, (_, i) => result(api.id, day('2026-11-20', i), 'success')),
			...Array.from({ length: 2 }, (_, i) => result(api.id, day('2026-11-20', 100 + i), 'error')),
			...Array.from({ length: 10 }, (_, i) =>
				result(api.id, day('2026-11-21', i), i < 5 ? 'degraded' : 'success')
			)
		]);
		await db.incident.create({
			data: { workspaceId: ws.id, monitorId: web.id, startedAt: new Date('2026-11-22T08:00:00Z') }
		});
		// Flagged as during maintenance: not an outage on the bar.
		await db.incident.create({
			data: {
				workspaceId: ws.id,
				monitorId: api.id,
				startedAt: new Date('2026-11-21T08:00:00Z'),
				resolvedAt: new Date('2026-11-21T09:00:00Z'),
				duringMaintenance: true
			}
		});
		// Docs: an open report whose latest update says partial outage; Mail: maintenance now.
		await addReport(ws, p.id, {
			title: 'Docs are slow',
			createdAt: new Date('2026-11-22T09:00:00Z'),
			components: [cDocs.id],
			updates: [
				{
					status: 'investigating',
					message: 'Looking',
					date: new Date('2026-11-22T09:00:00Z'),
					impacts: [[cDocs.id, 'degraded_performance']]
				},
				{
					status: 'identified',
					message: 'Found it',
					date: new Date('2026-11-22T10:00:00Z'),
					impacts: [[cDocs.id, 'partial_outage']]
				}
			]
		});
		await addReport(ws, p.id, {
			title: 'API blip',
			createdAt: new Date('2026-11-20T11:00:00Z'),
			resolvedAt: new Date('2026-11-20T12:00:00Z'),
			components: [cApi.id],
			updates: [
				{
					status: 'investigating',
					message: 'Errors',
					date: new Date('2026-11-20T11:00:00Z'),
					impacts: [[cApi.id, 'major_outage']]
				},
				{
					status: 'resolved',
					message: 'Fixed',
					date: new Date('2026-11-20T12:00:00Z'),
					impacts: [[cApi.id, 'operational']]
				}
			]
		});
		await addMaintenance(ws, p.id, {
			title: 'Mail move',
			from: new Date('2026-11-22T11:00:00Z'),
			to: new Date('2026-11-22T13:00:00Z'),
			components: [cMail.id]
		});
		await addMaintenance(ws, p.id, {
			title: 'Next week',
			from: new Date('2026-11-29T11:00:00Z'),
			to: new Date('2026-11-29T13:00:00Z')
		});
		await addMaintenance(ws, p.id, {
			title: 'Long gone',
			from: new Date('2026-11-01T11:00:00Z'),
			to: new Date('2026-11-01T13:00:00Z')
		});

		const out = await getPublicStatusPage({
			deps,
			input: { page: { slug: p.slug }, reader: anon }
		});
		expect(out.access).toBe('granted');
		const page = out.page!;
		expect(page.description).toBe('Our services');
		expect(
			page.sections.map((s) =>
				s.kind === 'group'
					? `${s.name}(${s.components.map((c) => `${c.name}:${c.state}`).join(',')})`
					: `${s.component.name}:${s.component.state}`
			)
		).toEqual([
			'Docs:partial_outage',
			'Core(Web:major_outage,API:operational)',
			'Mail:under_maintenance'
		]);
		expect(page.banner).toBe('partial_outage');
		const core = page.sections[1];
		if (core.kind !== 'group') throw new Error('expected the group');
		const apiBar = core.components[1].uptime!;
		expect(apiBar).toHaveLength(90);
		expect(apiBar.find((d) => d.day === '2026-11-20')).toMatchObject({
			uptime: 98,
			checks: 100,
			failed: 2,
			color: 'major',
			reports: [{ title: 'API blip' }]
		});
		expect(apiBar.find((d) => d.day === '2026-11-21')).toMatchObject({
			uptime: 100,
			color: 'operational'
		});
		expect(core.components[0].uptime?.at(-1)?.color).toBe('major'); // open incident today
		expect(page.sections[0].kind === 'component' && page.sections[0].component.uptime).toBeNull();
		expect(page.active_reports.map((r) => r.title)).toEqual(['Docs are slow']);
		expect(page.active_reports[0].updates.map((u) => u.message)).toEqual(['Found it', 'Looking']);
		expect(page.maintenances.map((m) => [m.title, m.in_progress])).toEqual([
			['Mail move', true],
			['Next week', false]
		]);
		expect(JSON.stringify(out)).not.toMatch(/workspace|password|scrypt/i);
		// The procedure returns this without parsing it: the schema must accept it unchanged.
		expect(PublicPageOutput.parse(out)).toStrictEqual(out);

		const history = await listPublicHistory({
			deps,
			input: { page: { slug: p.slug }, reader: anon }
		});
		expect(history.months?.map((m) => [m.month, m.reports.map((r) => r.title)])).toEqual([
			['2026-11', ['Docs are slow', 'API blip']]
		]);
		const report = await getPublicReport({
			deps,
			input: { page: { slug: p.slug }, reader: anon, reportId: page.active_reports[0].id }
		});
		expect(report.report?.title).toBe('Docs are slow');
		const other = await createStatusPage({ ctx, input: { title: 'Other', slug: slug() } });
		expect(
			await codeOf(
				getPublicReport({
					deps,
					input: { page: { slug: other.slug }, reader: anon, reportId: page.active_reports[0].id }
				})
			)
		).toBe(`NOT_FOUND: status report ${page.active_reports[0].id} not found`);
		expect(
			await codeOf(
				getPublicStatusPage({ deps, input: { page: { slug: 'no-such-page-x' }, reader: anon } })
			)
		).toBe('NOT_FOUND: status page no-such-page-x not found');
	});

	it('applies theme, custom theme, locales and no-index; white-label only with the plan', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const p = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: {
				title: 'Themed',
				slug: slug(),
				theme: 'ocean',
				custom_theme: { light: { '--primary': '#123456' }, dark: {} },
				default_locale: 'de',
				locales: ['en', 'fr'],
				allow_index: false
			}
		});
		const { head } = await getPublicStatusPage({
			deps,
			input: { page: { slug: p.slug }, reader: anon }
		});
		expect(head.theme.light['--primary']).toBe('#123456');
		expect(head.theme.dark['--primary']).toBe('oklch(0.72 0.12 230)');
		expect(head.locales).toEqual(['de', 'en', 'fr']);
		expect(head.allow_index).toBe(false);
		expect(head.white_label).toBe(false);
		// A downgrade keeps the page safe: no custom theme, English only (spec 2.3), still not indexed.
		await db.workspace.update({ where: { id: ws.id }, data: { limits: '{}' } });
		const after = (
			await getPublicStatusPage({ deps, input: { page: { slug: p.slug }, reader: anon } })
		).head;
		expect(after.theme.light['--primary']).toBe('oklch(0.5 0.14 230)');
		expect(after.default_locale).toBe('en');
		expect(after.locales).toEqual(['en']);
		expect(after.allow_index).toBe(false);
	});

	it('serves a page on its custom domain only while the plan has custom-domain', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const domain = `${slug()}.example.com`;
		const p = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Custom', slug: slug(), custom_domain: domain }
		});
		expect(
			await resolveCustomDomain({
				db,
				statusPageUrl: deps.statusPageUrl,
				host: `${domain.toUpperCase()}:443`
			})
		).toBe(p.slug);
		// The raw read gives the very row Prisma would.
		const prismaRow = await db.statusPage.findUniqueOrThrow({ where: { id: p.id } });
		expect((await findPublicPage(db, { domain })).row).toStrictEqual(prismaRow);
		expect((await findPublicPage(db, { slug: p.slug })).row).toStrictEqual(prismaRow);
		const out = await getPublicStatusPage({ deps, input: { page: { domain }, reader: anon } });
		expect(out.head).toMatchObject({ slug: p.slug, base: '' });
		expect(
			(await getPublicStatusPage({ deps, input: { page: { slug: p.slug }, reader: anon } })).head
				.base
		).toBe(`/${p.slug}`);
		expect(
			await resolveCustomDomain({
				db,
				statusPageUrl: deps.statusPageUrl,
				host: 'unknown.example.com'
			})
		).toBeNull();
		await db.workspace.update({ where: { id: ws.id }, data: { limits: '{}' } });
		expect(
			await resolveCustomDomain({ db, statusPageUrl: deps.statusPageUrl, host: domain })
		).toBeNull();
	});
});

// Rows as the write side might once have stored them, written straight to the database.
describe('stored values the read side re-checks', () => {
	it('never links a non-http(s) homepage, contact or icon; a contact may be mailto', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const p = await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'L', slug: slug() } });
		const read = async () =>
			getPublicStatusPage({ deps, input: { page: { slug: p.slug }, reader: anon } });
		await db.statusPage.update({
			where: { id: p.id },
			data: {
				homepageUrl: 'javascript:alert(1)',
				contactUrl: ' JavaScript:alert(2)',
				icon: 'data:image/svg+xml,<svg onload=alert(3)>'
			}
		});
		let out = await read();
		expect(out.page).toMatchObject({ homepage_url: null, contact_url: null });
		expect(out.head.icon).toBeNull();
		await db.statusPage.update({
			where: { id: p.id },
			data: {
				homepageUrl: 'https://acme.test/',
				contactUrl: 'mailto:ops@acme.test',
				icon: 'mailto:ops@acme.test'
			}
		});
		out = await read();
		expect(out.page).toMatchObject({
			homepage_url: 'https://acme.test/',
			contact_url: 'mailto:ops@acme.test'
		});
		expect(out.head.icon).toBeNull();
	});

	it('reads locales the site ships only: anything else falls back to English', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const p = await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'L', slug: slug() } });
		await db.statusPage.update({
			where: { id: p.id },
			data: {
				defaultLocale: '"><script>alert(1)</script>',
				locales: JSON.stringify(['de-AT', 'x"><img src=x>', 'ja', 42])
			}
		});
		const { head } = await getPublicStatusPage({
			deps,
			input: { page: { slug: p.slug }, reader: anon }
		});
		expect(head.default_locale).toBe('en');
		expect(head.locales).toEqual(['en', 'de', 'ja']);
		await db.statusPage.update({ where: { id: p.id }, data: { locales: 'not json' } });
		expect(
			(await getPublicStatusPage({ deps, input: { page: { slug: p.slug }, reader: anon } })).head
				.locales
		).toEqual(['en']);
	});

	it("never resolves the status site's own host to a page that claims it", async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const p = await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'T', slug: slug() } });
		await db.statusPage.update({ where: { id: p.id }, data: { customDomain: 'status.test' } });
		const args = { db, statusPageUrl: 'http://status.test:3003' };
		expect(await resolveCustomDomain({ ...args, host: 'status.test:3003' })).toBeNull();
		expect(await resolveCustomDomain({ ...args, host: 'STATUS.TEST' })).toBeNull();
		expect(
			await resolveCustomDomain({
				...args,
				statusPageUrl: 'http://other.test',
				host: 'status.test'
			})
		).toBe(p.slug);
	});

	it('says whether the page is public, for CORS and caching', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const open = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'O', slug: slug() }
		});
		const closed = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: {
				title: 'C',
				slug: slug(),
				access_type: 'ip-restriction',
				allowed_ip_ranges: '127.0.0.0/8'
			}
		});
		const headOf = async (s: string) =>
			(await getPublicStatusPage({ deps, input: { page: { slug: s }, reader: anon } })).head;
		expect((await headOf(open.slug)).public).toBe(true);
		// Granted (the reader is inside the range), and still not public.
		const read = await getPublicStatusPage({
			deps,
			input: { page: { slug: closed.slug }, reader: anon }
		});
		expect(read.access).toBe('granted');
		expect(read.head.public).toBe(false);
	});
});

describe('public status page rows', () => {
	it('orders components by order then id, group members by group order then id, and reads only its own page', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const ctx = ctxFor(db, ws);
		const p = await createStatusPage({ ctx, input: { title: 'Mine', slug: slug() } });
		const q = await createStatusPage({ ctx, input: { title: 'Other', slug: slug() } });
		const group = await createComponentGroup({ ctx, input: { pageId: p.id, name: 'Core' } });
		const add = (pageId: number, name: string, order: number, inGroup?: number) =>
			createPageComponent({
				ctx,
				input: {
					pageId,
					type: 'static',
					name,
					order,
					...(inGroup === undefined ? {} : { group_id: group.id, group_order: inGroup })
				}
			});
		await add(p.id, 'B', 1);
		await add(p.id, 'A', 0);
		await add(p.id, 'C', 1);
		await add(p.id, 'G3', 2, 1);
		await add(p.id, 'G1', 2, 0);
		await add(p.id, 'G2', 2, 0);
		// Another page of the same workspace: its rows must not show on this one.
		const foreign = await add(q.id, 'Foreign', 0);
		await addReport(ws, q.id, {
			title: 'Elsewhere',
			createdAt: new Date('2026-11-22T09:00:00Z'),
			components: [foreign.id],
			updates: [
				{
					status: 'investigating',
					message: 'x',
					date: new Date('2026-11-22T09:00:00Z'),
					impacts: [[foreign.id, 'major_outage']]
				}
			]
		});
		await addMaintenance(ws, q.id, {
			title: 'Other page window',
			from: new Date('2026-11-22T11:00:00Z'),
			to: new Date('2026-11-22T13:00:00Z')
		});

		const out = await getPublicStatusPage({
			deps,
			input: { page: { slug: p.slug }, reader: anon }
		});
		const page = out.page!;
		expect(
			page.sections.map((s) =>
				s.kind === 'group'
					? `${s.name}(${s.components.map((c) => c.name).join(',')})`
					: s.component.name
			)
		).toEqual(['A', 'B', 'C', 'Core(G1,G2,G3)']);
		expect(page.banner).toBe('operational');
		expect(page.active_reports).toEqual([]);
		expect(page.maintenances).toEqual([]);
		expect(PublicPageOutput.parse(out)).toStrictEqual(out);
	});

	it('leaves out reports and incidents over before the 90 days; a maintenance without components covers the page', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const ctx = ctxFor(db, ws);
		const p = await createStatusPage({ ctx, input: { title: 'Edges', slug: slug() } });
		const m = await createMonitor({
			ctx,
			input: { type: 'http', name: 'API', periodicity: '1m', url: 'https://e.test' }
		});
		await db.monitor.update({ where: { id: m.id }, data: { status: 'active' } });
		const api = await createPageComponent({
			ctx,
			input: { pageId: p.id, type: 'monitor', monitor_id: m.id, order: 0 }
		});
		await createPageComponent({
			ctx,
			input: { pageId: p.id, type: 'static', name: 'Docs', order: 1 }
		});
		const impact = (what: string): [number, string][] => [[api.id, what]];
		// The window starts 2026-08-25 (90 days ending 2026-11-22).
		await addReport(ws, p.id, {
			title: 'Long resolved',
			createdAt: new Date('2026-06-01T10:00:00Z'),
			resolvedAt: new Date('2026-08-24T23:00:00Z'),
			updates: [
				{
					status: 'investigating',
					message: 'x',
					date: new Date('2026-06-01T10:00:00Z'),
					impacts: impact('major_outage')
				}
			]
		});
		await addReport(ws, p.id, {
			title: 'Into the window',
			createdAt: new Date('2026-08-24T20:00:00Z'),
			resolvedAt: new Date('2026-08-25T01:00:00Z'),
			updates: [
				{
					status: 'investigating',
					message: 'x',
					date: new Date('2026-08-24T20:00:00Z'),
					impacts: impact('partial_outage')
				}
			]
		});
		await db.incident.createMany({
			data: [
				// Over before the window: nothing on the bar.
				{
					workspaceId: ws.id,
					monitorId: m.id,
					startedAt: new Date('2026-08-20T10:00:00Z'),
					resolvedAt: new Date('2026-08-20T11:00:00Z')
				},
				// Inside the window: a major day.
				{
					workspaceId: ws.id,
					monitorId: m.id,
					startedAt: new Date('2026-09-10T10:00:00Z'),
					resolvedAt: new Date('2026-09-10T11:00:00Z')
				},
				// Open, but during maintenance: not an outage.
				{
					workspaceId: ws.id,
					monitorId: m.id,
					startedAt: new Date('2026-11-22T11:30:00Z'),
					duringMaintenance: true
				}
			]
		});
		await addMaintenance(ws, p.id, {
			title: 'Everything',
			from: new Date('2026-11-22T11:00:00Z'),
			to: new Date('2026-11-22T13:00:00Z')
		});
		await addMaintenance(ws, p.id, {
			title: 'Before the window',
			from: new Date('2026-08-01T11:00:00Z'),
			to: new Date('2026-08-01T13:00:00Z')
		});

		const out = await getPublicStatusPage({
			deps,
			input: { page: { slug: p.slug }, reader: anon }
		});
		const page = out.page!;
		const states = page.sections.map((s) => (s.kind === 'component' ? s.component.state : s.state));
		expect(states).toEqual(['under_maintenance', 'under_maintenance']);
		expect(page.banner).toBe('under_maintenance');
		expect(page.active_reports).toEqual([]);
		expect(page.maintenances.map((x) => [x.title, x.in_progress, x.components])).toEqual([
			['Everything', true, []]
		]);
		const bar = page.sections[0].kind === 'component' ? page.sections[0].component.uptime! : [];
		const cell = (d: string) => bar.find((c) => c.day === d);
		expect(cell('2026-08-25')).toMatchObject({
			color: 'partial',
			reports: [{ title: 'Into the window' }]
		});
		expect(cell('2026-09-10')?.color).toBe('major');
		expect(cell('2026-11-22')).toMatchObject({
			color: 'maintenance',
			maintenances: [{ title: 'Everything' }]
		});
		expect(bar.filter((c) => c.color !== 'empty').map((c) => c.day)).toEqual([
			'2026-08-25',
			'2026-09-10',
			'2026-11-22'
		]);
		expect(PublicPageOutput.parse(out)).toStrictEqual(out);
	});
});

describe('access gate', () => {
	it('password: gated without a pass, a signed cookie after the right password, revoked on change', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const ctx = ctxFor(db, ws);
		const p = await createStatusPage({
			ctx,
			input: { title: 'Secret', slug: slug(), access_type: 'password', password: 'open sesame' }
		});
		const read = (grant: string | null) =>
			getPublicStatusPage({
				deps,
				input: { page: { slug: p.slug }, reader: { ...anon, grants: grant ? [grant] : [] } }
			});
		expect(await read(null)).toMatchObject({ access: 'password', page: null });
		expect((await read(null)).head.allow_index).toBe(false);
		expect(
			await codeOf(
				unlockStatusPage({
					deps,
					input: { page: { slug: p.slug }, reader: anon, password: 'nope' }
				})
			)
		).toBe('UNAUTHORIZED: wrong password');
		const { cookie } = await unlockStatusPage({
			deps,
			input: { page: { slug: p.slug }, reader: anon, password: 'open sesame' }
		});
		expect(cookie.name).toBe(`upstate_page_${p.id}`);
		expect(cookie.value).not.toContain('sesame');
		expect((await read(cookie.value)).access).toBe('granted');
		expect((await read(`${cookie.value}x`)).access).toBe('password');
		const [exp, mac] = cookie.value.split('.');
		expect((await read(`${Number(exp) + 1000}.${mac}`)).access).toBe('password');
		// Another page does not accept this page's pass.
		const q = await createStatusPage({
			ctx,
			input: { title: 'Other', slug: slug(), access_type: 'password', password: 'open sesame' }
		});
		expect(
			(
				await getPublicStatusPage({
					deps,
					input: { page: { slug: q.slug }, reader: { ...anon, grants: ['junk', cookie.value] } }
				})
			).access
		).toBe('password');
		await updateStatusPage({ ctx, input: { pageId: p.id, password: 'changed' } });
		expect((await read(cookie.value)).access).toBe('password');
		// Reports and history sit behind the same gate.
		const hidden = await getPublicReport({
			deps,
			input: { page: { slug: p.slug }, reader: anon, reportId: 1 }
		});
		expect(hidden).toMatchObject({ access: 'password', report: null });
		expect(
			(await listPublicHistory({ deps, input: { page: { slug: p.slug }, reader: anon } })).months
		).toBeNull();
	});

	it('password: ten wrong guesses from one client close the form for that client only', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const p = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Guarded', slug: slug(), access_type: 'password', password: 'right' }
		});
		const attacker: ReaderFacts = { socketAddress: '198.51.100.1' };
		const unlock = (reader: ReaderFacts, password: string) =>
			unlockStatusPage({ deps, input: { page: { slug: p.slug }, reader, password } });
		for (let i = 0; i < 10; i++) {
			expect(await codeOf(unlock(attacker, `guess-${i}`))).toBe('UNAUTHORIZED: wrong password');
		}
		expect(await codeOf(unlock(attacker, 'right'))).toBe(
			'LIMIT_EXCEEDED: too many wrong passwords: try again in 15 minutes'
		);
		expect((await unlock({ socketAddress: '198.51.100.2' }, 'right')).cookie.value).toBeTruthy();
		// The window slides: 15 minutes later the client may try again.
		const later = { ...deps, now: () => new Date(NOW.getTime() + 16 * 60 * 1000) };
		expect(
			(
				await unlockStatusPage({
					deps: later,
					input: { page: { slug: p.slug }, reader: attacker, password: 'right' }
				})
			).cookie.value
		).toBeTruthy();
	});

	it('a page set to password stays gated after the plan loses password-protection', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const p = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Kept', slug: slug(), access_type: 'password', password: 'pw' }
		});
		await db.workspace.update({ where: { id: ws.id }, data: { limits: '{}' } });
		expect(
			(await getPublicStatusPage({ deps, input: { page: { slug: p.slug }, reader: anon } })).access
		).toBe('password');
	});

	it('email-domain: a one-time link mailed to an allowed address sets the pass', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const p = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: {
				title: 'Team',
				slug: slug(),
				access_type: 'email-domain',
				auth_email_domains: ['Acme.test']
			}
		});
		const page = { slug: p.slug };
		expect((await getPublicStatusPage({ deps, input: { page, reader: anon } })).access).toBe(
			'email-domain'
		);
		const before = smtp.mails.length;
		expect(
			await codeOf(requestStatusPageAccess({ deps, input: { page, email: 'eve@evil.test' } }))
		).toBe('VALIDATION: email: this address cannot open this page');
		expect(
			await codeOf(requestStatusPageAccess({ deps, input: { page, email: 'eve@sub.acme.test' } }))
		).toMatch(/^VALIDATION/);
		expect(smtp.mails.length).toBe(before);
		await requestStatusPageAccess({ deps, input: { page, email: 'Ada@acme.test' } });
		const mail = smtp.mails.at(-1);
		expect(mail?.to).toBe('ada@acme.test');
		const token = new RegExp(`http://status\\.test/${p.slug}/access\\?token=([\\w-]+)`).exec(
			mail?.text ?? ''
		)?.[1];
		expect(token).toBeTruthy();
		const { cookie } = await verifyStatusPageAccess({ deps, input: { page, token: token! } });
		expect(
			(
				await getPublicStatusPage({
					deps,
					input: { page, reader: { ...anon, grants: ['junk', cookie.value] } }
				})
			).access
		).toBe('granted');
		expect(await codeOf(verifyStatusPageAccess({ deps, input: { page, token: token! } }))).toBe(
			'UNAUTHORIZED: this link is invalid or has expired: request a new one'
		);
	});

	it('ip-restriction: the socket address without proxies; behind one, a forged X-Forwarded-For does not get in', async () => {
		const ws = await createWorkspace(db, { limits: PAID });
		const p = await createStatusPage({
			ctx: ctxFor(db, ws),
			input: {
				title: 'Office',
				slug: slug(),
				access_type: 'ip-restriction',
				allowed_ip_ranges: '10.0.0.0/8, 192.168.1.0/24'
			}
		});
		const read = (reader: ReaderFacts, hops: number) =>
			getPublicStatusPage({
				deps: { ...deps, trustedProxyHops: hops },
				input: { page: { slug: p.slug }, reader }
			}).then((o) => o.access);
		// No proxy: the header is ignored whatever it says.
		expect(await read({ socketAddress: '10.1.2.3' }, 0)).toBe('granted');
		expect(await read({ socketAddress: '203.0.113.7', forwardedFor: '10.1.2.3' }, 0)).toBe(
			'ip-denied'
		);
		// One proxy that appends the real peer: the client forged 10.1.2.3, the proxy added its address.
		expect(
			await read({ socketAddress: '127.0.0.1', forwardedFor: '10.1.2.3, 203.0.113.7' }, 1)
		).toBe('ip-denied');
		expect(await read({ socketAddress: '127.0.0.1', forwardedFor: '192.168.1.20' }, 1)).toBe(
			'granted'
		);
		expect(await read({ socketAddress: '10.0.0.1', forwardedFor: null }, 1)).toBe('ip-denied');
	});
});
