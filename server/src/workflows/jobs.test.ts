import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import type { StoredResult } from '../analytics/index.ts';
import { createTestDb } from '../../test/db.ts';
import { alertingWorkspace, systemCtx } from '../../test/alerting.ts';
import { startFakeVendor } from '../../test/fake-vendor.ts';
import { createWorkspace, storedResult } from '../../test/factories.ts';
import { recordStatusChange } from '../domain/incident/index.ts';
import { outboxSize, seedDeliveries } from '../../test/outbox.ts';
import { createTestUpstate } from '../../test/upstate.ts';
import { createWorkflowsServer } from './index.ts';
import { JOBS, jobNamed, runJob } from './jobs.ts';

const row = (workspaceId: number, startedAt: number): StoredResult =>
	storedResult({ workspaceId, monitorId: 1, startedAt });

describe('scheduled jobs', () => {
	it('analytics-retention deletes raw results older than each workspace’s data-retention and logs one line', async () => {
		const { db } = await createTestDb();
		const upstate = createTestUpstate(db);
		const free = await createWorkspace(db, { plan: 'free', limits: {} }); // 1 month
		const long = await createWorkspace(db, { limits: { 'data-retention': '12 months' } });
		const now = Date.now();
		const old = now - 60 * 86_400_000;
		await upstate.analytics.insertResults([
			row(free.id, old),
			row(free.id, now),
			row(long.id, old)
		]);
		const log = vi.spyOn(console, 'log').mockImplementation(() => {});
		try {
			await runJob(
				upstate,
				JOBS.find((j) => j.name === 'analytics-retention') as (typeof JOBS)[number]
			);
			expect(log.mock.calls.flat().join('\n')).toMatch(
				/^\[workflows\] analytics-retention workspaces=\d+ deleted=1 ms=\d+$/m
			);
		} finally {
			log.mockRestore();
		}
		expect(await upstate.analytics.countResults(1)).toBe(2);
	});

	it('notification-delivery sends the due outbox rows once and logs one line', async () => {
		const { db } = await createTestDb();
		const upstate = createTestUpstate(db, {
			NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
			AUTH_SECRET: 'test-auth-secret'
		});
		const hook = await startFakeVendor();
		const { ctx, monitor } = await alertingWorkspace(db, `${hook.url}/hook`);
		await recordStatusChange({
			ctx: systemCtx(ctx),
			input: { monitorId: monitor.id, from: 'active', to: 'error', at: new Date().toISOString() },
			dashboardUrl: 'http://dash.test'
		});
		const log = vi.spyOn(console, 'log').mockImplementation(() => {});
		const job = JOBS.find((j) => j.name === 'notification-delivery') as (typeof JOBS)[number];
		try {
			expect(await runJob(upstate, job)).toEqual({
				claimed: 1,
				sent: 1,
				retried: 0,
				failed: 0,
				superseded: 0
			});
			expect(await runJob(upstate, job)).toEqual({
				claimed: 0,
				sent: 0,
				retried: 0,
				failed: 0,
				superseded: 0
			});
			expect(log.mock.calls.flat().join('\n')).toMatch(
				/^\[workflows\] notification-delivery claimed=1 sent=1 retried=0 failed=0 superseded=0$/m
			);
		} finally {
			log.mockRestore();
			await hook.close();
		}
		expect(hook.requests).toHaveLength(1);
	});

	it('delivery-retention deletes finished deliveries past each workspace’s retention and logs one line', async () => {
		const { db } = await createTestDb();
		const upstate = createTestUpstate(db);
		const free = await createWorkspace(db, { plan: 'free', limits: {} }); // 1 month
		const long = await createWorkspace(db, { limits: { 'data-retention': '12 months' } });
		await seedDeliveries(db, { workspaceId: free.id, status: 'sent', ageDays: 60, attempts: 2 });
		await seedDeliveries(db, { workspaceId: free.id, status: 'failed', ageDays: 45, attempts: 5 });
		await seedDeliveries(db, { workspaceId: free.id, status: 'pending', ageDays: 60 });
		await seedDeliveries(db, { workspaceId: free.id, status: 'sent', ageDays: 2 });
		await seedDeliveries(db, { workspaceId: long.id, status: 'sent', ageDays: 60 });
		const log = vi.spyOn(console, 'log').mockImplementation(() => {});
		try {
			expect(await runJob(upstate, jobNamed('delivery-retention'))).toMatchObject({
				workspaces: 2,
				deliveries: 2,
				attempts: 7
			});
			const lines = log.mock.calls.map((c) => c.join(' '));
			expect(lines.filter((l) => l.startsWith('[workflows]'))).toHaveLength(1);
			expect(lines.join('\n')).toMatch(
				/^\[workflows\] delivery-retention workspaces=2 deliveries=2 attempts=7 ms=\d+$/m
			);
		} finally {
			log.mockRestore();
		}
		expect(await outboxSize(db, free.id)).toEqual([2, 2]);
		expect(await outboxSize(db, long.id)).toEqual([1, 1]);
		expect(jobNamed('delivery-retention').schedule).toBe('43 3 * * *');
	});

	it('GET /cron/delivery-retention needs the bare CRON_SECRET and answers the counts', async () => {
		const { db } = await createTestDb();
		const upstate = createTestUpstate(db, { CRON_SECRET: 'cron-test-secret' });
		const ws = await createWorkspace(db, { limits: {} });
		await seedDeliveries(db, { workspaceId: ws.id, status: 'sent', ageDays: 90, count: 3 });
		const server = createWorkflowsServer({ upstate }).listen(0, '127.0.0.1');
		await new Promise((r) => server.once('listening', r));
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cron/delivery-retention`;
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const log = vi.spyOn(console, 'log').mockImplementation(() => {});
		try {
			for (const authorization of ['wrong-secret', 'Bearer cron-test-secret']) {
				const res = await fetch(url, { headers: { authorization } });
				expect(res.status).toBe(401);
				expect(await res.json()).toEqual({
					error: { code: 'UNAUTHORIZED', message: 'Authorization must be the CRON_SECRET' }
				});
			}
			expect(await outboxSize(db, ws.id)).toEqual([3, 3]);
			const res = await fetch(url, { headers: { authorization: 'cron-test-secret' } });
			expect(res.status).toBe(200);
			expect(await res.json()).toMatchObject({ workspaces: 1, deliveries: 3, attempts: 3 });
		} finally {
			warn.mockRestore();
			log.mockRestore();
			await new Promise((r) => server.close(r));
		}
		expect(await outboxSize(db, ws.id)).toEqual([0, 0]);
	});
});
