import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../db/client.ts';
import { createTestDb } from '../../../../test/db.ts';
import { createWorkspace, ctxFor, TEAM_LIMITS } from '../../../../test/factories.ts';
import { createTestUpstate } from '../../../../test/upstate.ts';
import { createComponentGroup } from '../../component-group/index.ts';
import { createPageComponent } from '../../page-component/index.ts';
import { createStatusPage } from '../index.ts';
import { getPublicFeed, getStatuspageV2, type PublicDeps } from './index.ts';

let db: Db;
let deps: PublicDeps;
beforeAll(async () => {
	({ db } = await createTestDb());
	const upstate = createTestUpstate(db);
	deps = {
		db,
		analytics: upstate.analytics,
		mailer: upstate.mailer,
		secret: 'test-secret',
		trustedProxyHops: 0,
		statusPageUrl: 'https://status.test/'
	};
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
