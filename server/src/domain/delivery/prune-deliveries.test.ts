import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import { outboxSize, seedDeliveries } from '../../../test/outbox.ts';
import type { ServiceContext } from '../context.ts';
import { deliveryRetentionMs, listWorkspacesWithOldDeliveries, pruneDeliveries } from './index.ts';
import { resolveLimits } from '../limits.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

const system = (ctx: ServiceContext): ServiceContext => ({
	...ctx,
	actor: { type: 'system', job: 'delivery-retention' }
});
async function workspace(retention?: string) {
	const ws = await createWorkspace(db, {
		limits: retention ? { 'data-retention': retention } : {}
	});
	return { ws, ctx: system(ctxFor(db, ws)) };
}
const remaining = async (ids: number[]) =>
	(await db.delivery.findMany({ where: { id: { in: ids } }, select: { id: true } })).length;

describe('pruneDeliveries', () => {
	it('keeps the delivery log as long as check data, and never less than 32 days (a whole month of SMS)', () => {
		const days = (r: string) =>
			deliveryRetentionMs(resolveLimits(JSON.stringify(r ? { 'data-retention': r } : {}))) /
			86_400_000;
		expect(days('')).toBe(32); // free plan: 1 month (30 days), raised to the floor
		expect(days('12 months')).toBe(360);
		expect(days('0 months')).toBe(32);
	});

	it('deletes old sent and failed deliveries with their attempts; recent, pending and sending stay', async () => {
		const { ws, ctx } = await workspace(); // 1 month
		const oldSent = await seedDeliveries(db, {
			workspaceId: ws.id,
			status: 'sent',
			ageDays: 45,
			count: 3,
			attempts: 2
		});
		const oldFailed = await seedDeliveries(db, {
			workspaceId: ws.id,
			status: 'failed',
			ageDays: 33,
			attempts: 5
		});
		const recent = [
			...(await seedDeliveries(db, { workspaceId: ws.id, status: 'sent', ageDays: 31 })),
			...(await seedDeliveries(db, { workspaceId: ws.id, status: 'failed', ageDays: 1 }))
		];
		const unfinished = [
			...(await seedDeliveries(db, { workspaceId: ws.id, status: 'pending', ageDays: 400 })),
			...(await seedDeliveries(db, { workspaceId: ws.id, status: 'sending', ageDays: 400 }))
		];
		expect(await pruneDeliveries({ ctx })).toEqual({ deliveries: 4, attempts: 11 });
		expect(await remaining([...oldSent, ...oldFailed])).toBe(0);
		expect(await remaining(recent)).toBe(2);
		expect(await remaining(unfinished)).toBe(2);
		expect(
			await db.deliveryAttempt.count({ where: { deliveryId: { in: [...oldSent, ...oldFailed] } } })
		).toBe(0);
		expect(await outboxSize(db, ws.id)).toEqual([4, 4]);
		expect(await pruneDeliveries({ ctx })).toEqual({ deliveries: 0, attempts: 0 });
	});

	it('scopes to the workspace: a longer data-retention keeps its rows', async () => {
		const short = await workspace('1 month');
		const long = await workspace('12 months');
		await seedDeliveries(db, { workspaceId: short.ws.id, status: 'sent', ageDays: 60 });
		const kept = await seedDeliveries(db, { workspaceId: long.ws.id, status: 'sent', ageDays: 60 });
		const gone = await seedDeliveries(db, {
			workspaceId: long.ws.id,
			status: 'sent',
			ageDays: 400
		});
		expect(await pruneDeliveries({ ctx: short.ctx })).toEqual({ deliveries: 1, attempts: 1 });
		expect(await outboxSize(db, long.ws.id)).toEqual([2, 2]);
		expect(await pruneDeliveries({ ctx: long.ctx })).toEqual({ deliveries: 1, attempts: 1 });
		expect(await remaining(kept)).toBe(1);
		expect(await remaining(gone)).toBe(0);
	});

	it('deletes across several batches, the default 500 and a small one', async () => {
		const { ws, ctx } = await workspace();
		await seedDeliveries(db, { workspaceId: ws.id, status: 'sent', ageDays: 90, count: 1_234 });
		await seedDeliveries(db, { workspaceId: ws.id, status: 'pending', ageDays: 90, count: 3 });
		expect(await pruneDeliveries({ ctx })).toEqual({ deliveries: 1_234, attempts: 1_234 });
		expect(await outboxSize(db, ws.id)).toEqual([3, 3]);

		await seedDeliveries(db, {
			workspaceId: ws.id,
			status: 'failed',
			ageDays: 90,
			count: 7,
			attempts: 3
		});
		expect(await pruneDeliveries({ ctx, input: { batchSize: 3 } })).toEqual({
			deliveries: 7,
			attempts: 21
		});
		expect(await outboxSize(db, ws.id)).toEqual([3, 3]);
	});

	it('lists only workspaces with a finished delivery older than the 30-day floor', async () => {
		const old = await workspace('12 months');
		const fresh = await workspace();
		const pendingOnly = await workspace();
		await seedDeliveries(db, { workspaceId: old.ws.id, status: 'sent', ageDays: 40 });
		await seedDeliveries(db, { workspaceId: fresh.ws.id, status: 'sent', ageDays: 5 });
		await seedDeliveries(db, { workspaceId: pendingOnly.ws.id, status: 'pending', ageDays: 90 });
		const ids = (await listWorkspacesWithOldDeliveries({ db })).map((w) => w.id);
		expect(ids).toContain(old.ws.id);
		expect(ids).not.toContain(fresh.ws.id);
		expect(ids).not.toContain(pendingOnly.ws.id);
	});

	it('rejects read-only key', async () => {
		const { ws } = await workspace();
		await seedDeliveries(db, { workspaceId: ws.id, status: 'sent', ageDays: 90 });
		expect(await codeOf(pruneDeliveries({ ctx: ctxFor(db, ws, readKey()) }))).toMatch(
			/^FORBIDDEN: /
		);
		expect(await outboxSize(db, ws.id)).toEqual([1, 1]);
	});

	it('leaves nothing behind on invalid input', async () => {
		const { ws, ctx } = await workspace();
		await seedDeliveries(db, { workspaceId: ws.id, status: 'sent', ageDays: 90 });
		expect(await codeOf(pruneDeliveries({ ctx, input: { batchSize: 0 } }))).toMatch(
			/^VALIDATION: batchSize/
		);
		expect(await outboxSize(db, ws.id)).toEqual([1, 1]);
	});
});
