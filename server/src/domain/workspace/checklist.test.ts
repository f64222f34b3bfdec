import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import { createMonitor } from '../monitor/index.ts';
import { createStatusPage } from '../status-page/index.ts';
import { getChecklist } from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

describe('getChecklist', () => {
	it('ticks each step from what exists in this workspace only', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws, readKey());
		const none = {
			monitor: false,
			firstResult: false,
			statusPage: false,
			channel: false,
			teammate: false,
			assistant: false
		};
		expect(await getChecklist({ ctx })).toEqual(none);
		// Another workspace's things tick nothing here.
		const other = await createWorkspace(db);
		await createMonitor({
			ctx: ctxFor(db, other),
			input: { type: 'http', name: 'X', periodicity: '1m', url: 'https://e.test' }
		});
		expect(await getChecklist({ ctx })).toEqual(none);

		const m = await createMonitor({
			ctx: ctxFor(db, ws),
			input: { type: 'http', name: 'Shop', periodicity: '1m', url: 'https://e.test' }
		});
		expect(await getChecklist({ ctx })).toMatchObject({ monitor: true, firstResult: false });
		await db.monitor.update({ where: { id: m.id }, data: { status: 'active' } });
		await createStatusPage({ ctx: ctxFor(db, ws), input: { title: 'Shop', slug: `s-${ws.id}` } });
		const user = await db.user.create({ data: { email: `t-${ws.id}@example.test` } });
		await db.membership.create({ data: { workspaceId: ws.id, userId: user.id } });
		await db.membership.create({
			data: {
				workspaceId: ws.id,
				userId: (await db.user.create({ data: { email: `u-${ws.id}@example.test` } })).id
			}
		});
		expect(await getChecklist({ ctx })).toEqual({
			...none,
			monitor: true,
			firstResult: true,
			statusPage: true,
			teammate: true
		});
	});
});
