import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/client.ts';
import { alertingWorkspace, systemCtx, testNotifier } from '../../../test/alerting.ts';
import { createTestDb } from '../../../test/db.ts';
import { startFakeVendor } from '../../../test/fake-vendor.ts';
import { recordStatusChange } from '../incident/index.ts';
import { PROCESS_ID } from './claims.ts';
import { listDeliveryAttempts, runDueDeliveries } from './index.ts';

let db: Db;
let clock = Date.parse('2026-11-24T12:00:00Z');
beforeAll(async () => {
	({ db } = await createTestDb());
	vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterAll(() => vi.restoreAllMocks());

const notifier = testNotifier();
const change = (
	ctx: Parameters<typeof systemCtx>[0],
	monitorId: number,
	from: string,
	to: string
) =>
	recordStatusChange({
		ctx: systemCtx(ctx),
		input: { monitorId, from, to: to as 'error', at: new Date((clock += 60_000)).toISOString() },
		dashboardUrl: 'http://dash.test'
	});
const kinds = (requests: Array<{ body: string }>) =>
	requests.map((r) => (JSON.parse(r.body) as { event: string }).event);
const rowsOf = async (workspaceId: number) =>
	(await db.delivery.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } })).map(
		(d) => d.status
	);

describe('ordered delivery per channel and monitor', () => {
	it('holds a recovery while the alert before it is in flight elsewhere', async () => {
		const hook = await startFakeVendor();
		const { ws, ctx, monitor } = await alertingWorkspace(db, `${hook.url}/h`);
		await change(ctx, monitor.id, 'active', 'error');
		// Another live worker of this process holds the alert, its lease not run out.
		await db.delivery.updateMany({
			where: { workspaceId: ws.id },
			data: {
				status: 'sending',
				claimedBy: 'other-run',
				claimedByProcess: PROCESS_ID,
				lockedUntil: new Date(Date.now() + 60_000)
			}
		});
		await change(ctx, monitor.id, 'error', 'active');
		expect(await runDueDeliveries({ db, notifier })).toMatchObject({ claimed: 0, sent: 0 });
		expect(hook.requests).toHaveLength(0);
		// The alert's send completes: the recovery goes out after it.
		await db.delivery.updateMany({
			where: { workspaceId: ws.id, status: 'sending' },
			data: { status: 'sent', claimedBy: null, claimedByProcess: null, lockedUntil: null }
		});
		expect(await runDueDeliveries({ db, notifier })).toMatchObject({ claimed: 1, sent: 1 });
		expect(kinds(hook.requests)).toEqual(['recovery']);
		await hook.close();
	});

	it('sends alert then recovery when both are due, one after the other', async () => {
		const hook = await startFakeVendor();
		const { ws, ctx, monitor } = await alertingWorkspace(db, `${hook.url}/h`);
		await change(ctx, monitor.id, 'active', 'error');
		await change(ctx, monitor.id, 'error', 'active');
		expect(await runDueDeliveries({ db, notifier })).toMatchObject({ claimed: 2, sent: 2 });
		expect(kinds(hook.requests)).toEqual(['alert', 'recovery']);
		expect(await rowsOf(ws.id)).toEqual(['sent', 'sent']);
		await hook.close();
	});

	it('drops an alert that failed and would be retried after its recovery, and logs it as superseded', async () => {
		let failing = true;
		const hook = await startFakeVendor(() => ({ status: failing ? 503 : 200 }));
		const { ws, ctx, monitor, channel } = await alertingWorkspace(db, `${hook.url}/h`);
		await change(ctx, monitor.id, 'active', 'error');
		expect(await runDueDeliveries({ db, notifier })).toMatchObject({ retried: 1 });
		failing = false;
		await change(ctx, monitor.id, 'error', 'active');
		// The alert waits for its retry in 30 s; the recovery is due now and goes alone.
		expect(await runDueDeliveries({ db, notifier })).toMatchObject({
			claimed: 1,
			sent: 1,
			superseded: 1
		});
		expect(kinds(hook.requests)).toEqual(['alert', 'recovery']);
		expect(hook.requests.map((r) => r.path)).toEqual(['/h', '/h']);
		expect(await rowsOf(ws.id)).toEqual(['superseded', 'sent']);
		const log = await listDeliveryAttempts({
			ctx,
			input: { notificationChannelId: channel.id }
		});
		expect(log.data.map((a) => [a.event, a.ok, a.error])).toEqual([
			['recovery', true, null],
			['alert', false, 'superseded: the recovery of this episode was ready first'],
			['alert', false, expect.stringMatching(/503/)]
		]);
		await hook.close();
	});

	it('a recovery in the same batch as a failing alert supersedes it', async () => {
		const hook = await startFakeVendor((req) => ({
			status: (JSON.parse(req.body) as { event: string }).event === 'alert' ? 503 : 200
		}));
		const { ws, ctx, monitor } = await alertingWorkspace(db, `${hook.url}/h`);
		await change(ctx, monitor.id, 'active', 'error');
		await change(ctx, monitor.id, 'error', 'active');
		expect(await runDueDeliveries({ db, notifier })).toMatchObject({ sent: 1, superseded: 1 });
		expect(kinds(hook.requests)).toEqual(['alert', 'recovery']);
		expect(await rowsOf(ws.id)).toEqual(['superseded', 'sent']);
		await hook.close();
	});
});

describe('claims of a process that is gone', () => {
	it('are released at once, not after the lease', async () => {
		const hook = await startFakeVendor();
		const { ws, ctx, monitor } = await alertingWorkspace(db, `${hook.url}/h`);
		await change(ctx, monitor.id, 'active', 'error');
		const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
			encoding: 'utf8'
		}).stdout.trim();
		const [host] = PROCESS_ID.split(':');
		await db.delivery.updateMany({
			where: { workspaceId: ws.id },
			data: {
				status: 'sending',
				attempts: 1,
				claimedBy: 'dead-run',
				claimedByProcess: `${host}:${dead}:deadbeef`,
				lockedUntil: new Date(Date.now() + 60_000)
			}
		});
		expect(await runDueDeliveries({ db, notifier })).toMatchObject({ claimed: 1, sent: 1 });
		expect(kinds(hook.requests)).toEqual(['alert']);
		const row = await db.delivery.findFirstOrThrow({ where: { workspaceId: ws.id } });
		expect(row).toMatchObject({ status: 'sent', attempts: 2, claimedByProcess: null });
		await hook.close();
	});

	it("are kept while the claiming process lives (this one's own, another boot id is gone)", async () => {
		const hook = await startFakeVendor();
		const { ws, ctx, monitor } = await alertingWorkspace(db, `${hook.url}/h`);
		await change(ctx, monitor.id, 'active', 'error');
		await db.delivery.updateMany({
			where: { workspaceId: ws.id },
			data: {
				status: 'sending',
				claimedBy: 'live-run',
				claimedByProcess: PROCESS_ID,
				lockedUntil: new Date(Date.now() + 60_000)
			}
		});
		expect(await runDueDeliveries({ db, notifier })).toMatchObject({ claimed: 0 });
		const [host, pid] = PROCESS_ID.split(':');
		await db.delivery.updateMany({
			where: { workspaceId: ws.id },
			data: { claimedByProcess: `${host}:${pid}:0ldb00t0` }
		});
		expect(await runDueDeliveries({ db, notifier })).toMatchObject({ claimed: 1, sent: 1 });
		await hook.close();
	});
});
