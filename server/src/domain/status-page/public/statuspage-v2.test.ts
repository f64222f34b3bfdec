import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../db/client.ts';
import { createTestDb } from '../../../../test/db.ts';
import { createWorkspace, ctxFor, TEAM_LIMITS } from '../../../../test/factories.ts';
import { createTestUpstate, publicDeps } from '../../../../test/upstate.ts';
import { createComponentGroup } from '../../component-group/index.ts';
import { createPageComponent } from '../../page-component/index.ts';
import { createStatusPage } from '../index.ts';
import { getPublicFeed, getStatuspageV2, type PublicDeps } from './index.ts';

let db: Db;
let deps: PublicDeps;
beforeAll(async () => {
	({ db } = await createTestDb());
	deps = publicDeps(createTestUpstate(db), { statusPageUrl: 'https://status.test/' });
});
const anon = { socketAddress: '127.0.0.1' };

describe('getStatuspageV2', () => {
	it('lists a group as a group component with its members, and members with group_id', async () => {
		const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'page-components': 10 } });
		const ctx = ctxFor(db, ws);
		const slug = `v2-${Date.now()}`;
		const page = await createStatusPage({ ctx, input: { title: 'Grouped', slug } });
		const lone = await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'static', name: 'CDN', order: 0 }
		});
		const group = await createComponentGroup({ ctx, input: { pageId: page.id, name: 'EU' } });
		const a = await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'static', name: 'EU API', order: 1, group_id: group.id }
		});
		const b = await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'static', name: 'EU DB', order: 2, group_id: group.id }
		});
		const { access, v2 } = await getStatuspageV2({
			deps,
			input: { page: { slug }, reader: anon }
		});
		expect(access).toBe('granted');
		expect(v2?.page).toMatchObject({ id: String(page.id), url: `https://status.test/${slug}` });
		expect(v2?.status).toEqual({ indicator: 'none', description: 'All Systems Operational' });
		expect(
			v2?.components.map((c) => [c.id, c.name, c.group, c.group_id, c.components ?? null])
		).toEqual([
			[String(lone.id), 'CDN', false, null, null],
			[`g${group.id}`, 'EU', true, null, [String(a.id), String(b.id)]],
			[String(a.id), 'EU API', false, `g${group.id}`, null],
			[String(b.id), 'EU DB', false, `g${group.id}`, null]
		]);
		expect(v2?.incidents).toEqual([]);
		expect(v2?.scheduled_maintenances).toEqual([]);
	});

	it('keeps an old unresolved report and a long window past the 50 newest; derives maintenance updates', async () => {
		const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'page-components': 10 } });
		const ctx = ctxFor(db, ws);
		const slug = `v2-many-${Date.now()}`;
		const page = await createStatusPage({ ctx, input: { title: 'Busy', slug } });
		const api = await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'static', name: 'API', order: 0 }
		});
		const web = await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'static', name: 'Web', order: 1 }
		});
		const day = 86_400_000;
		const ago = (ms: number) => new Date(Date.now() - ms);
		const base = { workspaceId: ws.id, pageId: page.id };
		const stale = await db.statusReport.create({
			data: { ...base, title: 'Still open', status: 'monitoring', createdAt: ago(90 * day) }
		});
		// A whole-page window scheduled 70 days ago, opened 60 days ago, runs for another 30.
		const long = await db.maintenance.create({
			data: {
				...base,
				title: 'Migration',
				from: ago(60 * day),
				to: ago(-30 * day),
				createdAt: ago(70 * day)
			}
		});
		for (let i = 0; i < 50; i++) {
			await db.statusReport.create({
				data: { ...base, title: `Old ${i}`, status: 'resolved', resolvedAt: ago(i * day) }
			});
			await db.maintenance.create({
				data: {
					...base,
					title: `Done ${i}`,
					from: ago(i * day + 7200_000),
					to: ago(i * day),
					createdAt: ago(i * day + 7 * day)
				}
			});
		}
		const upcoming = await db.maintenance.create({
			data: { ...base, title: 'Later', from: ago(-day), to: ago(-day - 3600_000) }
		});
		const { v2 } = await getStatuspageV2({ deps, input: { page: { slug }, reader: anon } });
		const incidents = v2?.incidents ?? [];
		expect(incidents).toHaveLength(51);
		expect(incidents.at(-1)).toMatchObject({ id: String(stale.id), status: 'monitoring' });
		const windows = v2?.scheduled_maintenances ?? [];
		// The 50 latest by start (Later, Done 0 to 48) and the open window they pushed out.
		expect(windows).toHaveLength(51);
		const byId = new Map(windows.map((m) => [m.id, m]));
		const migration = byId.get(`m${long.id}`);
		expect(migration).toMatchObject({ status: 'in_progress' });
		expect(migration?.components.map((c) => c.name)).toEqual(['API', 'Web']);
		expect(migration?.incident_updates.map((u) => u.status)).toEqual(['in_progress', 'scheduled']);
		expect(migration?.incident_updates[0]).toMatchObject({
			display_at: long.from.toISOString(),
			affected_components: [
				{
					code: String(api.id),
					name: 'API',
					old_status: 'operational',
					new_status: 'under_maintenance'
				},
				{
					code: String(web.id),
					name: 'Web',
					old_status: 'operational',
					new_status: 'under_maintenance'
				}
			]
		});
		expect(byId.get(`m${upcoming.id}`)?.incident_updates.map((u) => u.status)).toEqual([
			'scheduled'
		]);
		const done = windows.find((m) => m.name === 'Done 3');
		expect(done?.status).toBe('completed');
		expect(done?.incident_updates.map((u) => [u.status, u.display_at])).toEqual([
			[
				'completed',
				ago(3 * day)
					.toISOString()
					.slice(0, 13) && done?.scheduled_until
			],
			['in_progress', done?.scheduled_for],
			['scheduled', done?.created_at]
		]);
	});

	it('orders a maintenance timeline by time, also for a window entered after it opened', async () => {
		const ws = await createWorkspace(db, { limits: { ...TEAM_LIMITS, 'page-components': 10 } });
		const ctx = ctxFor(db, ws);
		const slug = `v2-late-${Date.now()}`;
		const page = await createStatusPage({ ctx, input: { title: 'Late', slug } });
		await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'static', name: 'API', order: 0 }
		});
		const hour = 3_600_000;
		const ago = (ms: number) => new Date(Date.now() - ms);
		const base = { workspaceId: ws.id, pageId: page.id };
		// Entered now for a window that opened an hour ago; entered now for one already over;
		// scheduled a day ahead of a window that is over.
		const running = await db.maintenance.create({
			data: { ...base, title: 'Running', message: 'Moving racks', from: ago(hour), to: ago(-hour) }
		});
		const backfilled = await db.maintenance.create({
			data: { ...base, title: 'Backfilled', from: ago(3 * hour), to: ago(2 * hour) }
		});
		const planned = await db.maintenance.create({
			data: {
				...base,
				title: 'Planned',
				from: ago(3 * hour),
				to: ago(2 * hour),
				createdAt: ago(27 * hour)
			}
		});
		const { v2 } = await getStatuspageV2({ deps, input: { page: { slug }, reader: anon } });
		const byId = new Map((v2?.scheduled_maintenances ?? []).map((m) => [m.id, m]));
		const timeline = (id: number) =>
			byId.get(`m${id}`)?.incident_updates.map((u) => [u.status, u.display_at]) ?? [];
		for (const m of byId.values()) {
			const times = m.incident_updates.map((u) => Date.parse(u.display_at));
			expect(times, m.name).toEqual([...times].sort((a, b) => b - a));
		}
		expect(timeline(running.id)).toEqual([['in_progress', running.createdAt.toISOString()]]);
		expect(byId.get(`m${running.id}`)?.incident_updates[0]).toMatchObject({
			body: 'Moving racks',
			affected_components: [{ name: 'API', new_status: 'under_maintenance' }]
		});
		expect(timeline(backfilled.id)).toEqual([['completed', backfilled.createdAt.toISOString()]]);
		expect(timeline(planned.id)).toEqual([
			['completed', planned.to.toISOString()],
			['in_progress', planned.from.toISOString()],
			['scheduled', planned.createdAt.toISOString()]
		]);
	});

	it('gives a reader without access no data, only the decision', async () => {
		const ws = await createWorkspace(db, {
			limits: { ...TEAM_LIMITS, 'password-protection': true }
		});
		const slug = `v2-locked-${Date.now()}`;
		await createStatusPage({
			ctx: ctxFor(db, ws),
			input: { title: 'Locked', slug, access_type: 'password', password: 'pw-pw-pw' }
		});
		const input = { page: { slug }, reader: anon };
		expect(await getStatuspageV2({ deps, input })).toMatchObject({
			access: 'password',
			head: { allow_index: false },
			v2: null
		});
		const feed = await getPublicFeed({ deps, input });
		expect(feed.access).toBe('password');
		expect(feed.feed).toBeNull();
	});
});
