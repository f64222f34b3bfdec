import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { StoredResult } from '../analytics/index.ts';
import { createTestDb } from '../../test/db.ts';
import { alertingWorkspace, systemCtx } from '../../test/alerting.ts';
import { startFakeVendor } from '../../test/fake-vendor.ts';
import { createWorkspace } from '../../test/factories.ts';
import { recordStatusChange } from '../domain/incident/index.ts';
import { createTestUpstate } from '../../test/upstate.ts';
import { JOBS, runJob } from './jobs.ts';

const row = (workspaceId: number, startedAt: number): StoredResult => ({
	resultId: randomUUID(),
	workspaceId,
	monitorId: 1,
	locationId: 1,
	startedAt,
	latency: 10,
	outcome: 'success',
	statusCode: 200,
	error: '',
	timing: {},
	headers: {},
	assertions: '[]',
	grpcStatus: '',
	packetLoss: null
});

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
			expect(await runJob(upstate, job)).toEqual({ claimed: 1, sent: 1, retried: 0, failed: 0 });
			expect(await runJob(upstate, job)).toEqual({ claimed: 0, sent: 0, retried: 0, failed: 0 });
			expect(log.mock.calls.flat().join('\n')).toMatch(
				/^\[workflows\] notification-delivery claimed=1 sent=1 retried=0 failed=0$/m
			);
		} finally {
			log.mockRestore();
			await hook.close();
		}
		expect(hook.requests).toHaveLength(1);
	});
});
