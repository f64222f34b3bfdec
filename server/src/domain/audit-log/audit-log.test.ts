import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { TEAM_LIMITS, createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import { createMonitor, updateMonitor } from '../monitor/index.ts';
import { createPrivateLocation } from '../private-location/index.ts';
import { getAuditLog, listAuditLogs } from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

const AUDIT_LIMITS = { ...TEAM_LIMITS, 'audit-log': true };
const auditWorkspace = () => createWorkspace(db, { limits: AUDIT_LIMITS });
const http = {
	type: 'http' as const,
	name: 'API',
	periodicity: '1m' as const,
	url: 'https://a.test'
};
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

// An entry written straight to the table, for times and snapshots a verb would not produce.
const rawEntry = (workspaceId: number, createdAt: Date, after: unknown = { name: 'old' }) =>
	db.auditLog.create({
		data: {
			workspaceId,
			actorType: 'system',
			actorId: 'test',
			action: 'monitor.update',
			entityType: 'monitor',
			entityId: '1',
			after: JSON.stringify(after),
			createdAt
		}
	});

describe('audit log service', () => {
	it('lists entries newest first with the actor, and gets one with its snapshots', async () => {
		const ws = await auditWorkspace();
		const ctx = ctxFor(db, ws, { type: 'user', userId: 7, role: 'owner' });
		const m = await createMonitor({ ctx, input: http });
		await updateMonitor({ ctx, input: { monitorId: m.id, name: 'API v2' } });
		const list = await listAuditLogs({ ctx });
		expect(list.pagination).toEqual({ page: 1, perPage: 50, totalSize: 2, totalPages: 1 });
		expect(list.data).toEqual([
			expect.objectContaining({
				action: 'monitor.update',
				actor_type: 'user',
				actor_id: 'user_7',
				actor_user_id: 7,
				entity_type: 'monitor',
				entity_id: String(m.id),
				changedFields: ['name']
			}),
			expect.objectContaining({ action: 'monitor.create', entity_id: String(m.id) })
		]);
		expect(list.data[0]).not.toHaveProperty('before');
		const entry = await getAuditLog({ ctx, input: { auditLogId: list.data[0].id } });
		expect(entry.before).toMatchObject({ id: m.id, name: 'API' });
		expect(entry.after).toMatchObject({ id: m.id, name: 'API v2' });
		expect(entry.changedFields).toEqual(['name']);
		expect(new Date(entry.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
	});

	it('serves read-only keys (both verbs are reads)', async () => {
		const ws = await auditWorkspace();
		await createMonitor({ ctx: ctxFor(db, ws), input: http });
		const ctx = ctxFor(db, ws, readKey());
		const [first] = (await listAuditLogs({ ctx })).data;
		expect((await getAuditLog({ ctx, input: { auditLogId: first.id } })).action).toBe(
			'monitor.create'
		);
	});

	it("returns NOT_FOUND for another workspace's id and never lists its entries", async () => {
		const mine = ctxFor(db, await auditWorkspace());
		const theirs = ctxFor(db, await auditWorkspace());
		await createMonitor({ ctx: theirs, input: http });
		const [their] = (await listAuditLogs({ ctx: theirs })).data;
		expect(await codeOf(getAuditLog({ ctx: mine, input: { auditLogId: their.id } }))).toBe(
			`NOT_FOUND: audit log entry ${their.id} not found`
		);
		expect((await listAuditLogs({ ctx: mine })).data).toEqual([]);
	});

	it('serves the last 14 days only, in the list and by id', async () => {
		const ws = await auditWorkspace();
		const ctx = ctxFor(db, ws);
		const old = await rawEntry(ws.id, daysAgo(15));
		const recent = await rawEntry(ws.id, daysAgo(13));
		const list = await listAuditLogs({ ctx });
		expect(list.data.map((e) => e.id)).toEqual([recent.id]);
		expect(list.pagination.totalSize).toBe(1);
		expect(await codeOf(getAuditLog({ ctx, input: { auditLogId: old.id } }))).toBe(
			`NOT_FOUND: audit log entry ${old.id} not found`
		);
		expect((await getAuditLog({ ctx, input: { auditLogId: recent.id } })).id).toBe(recent.id);
	});

	it('filters by entity type and by entity, and pages with perPage at most 50', async () => {
		const ws = await auditWorkspace();
		const ctx = ctxFor(db, ws);
		const [a, b] = [
			await createMonitor({ ctx, input: http }),
			await createMonitor({ ctx, input: http })
		];
		await updateMonitor({ ctx, input: { monitorId: a.id, retry: 5 } });
		await createPrivateLocation({ ctx, input: { name: 'Office' } });
		const monitors = await listAuditLogs({ ctx, input: { entityType: 'monitor' } });
		expect(monitors.data.map((e) => [e.action, Number(e.entity_id)])).toEqual([
			['monitor.update', a.id],
			['monitor.create', b.id],
			['monitor.create', a.id]
		]);
		// entityId is text on every surface (REST no longer turns `?entityId=12` into a number).
		const one = await listAuditLogs({
			ctx,
			input: { entityType: 'monitor', entityId: String(a.id) }
		});
		expect(one.data.map((e) => e.action)).toEqual(['monitor.update', 'monitor.create']);
		const page2 = await listAuditLogs({ ctx, input: { perPage: 3, page: 2 } });
		expect(page2.pagination).toEqual({ page: 2, perPage: 3, totalSize: 4, totalPages: 2 });
		expect(page2.data.map((e) => [e.action, Number(e.entity_id)])).toEqual([
			['monitor.create', a.id]
		]);
		expect(await codeOf(listAuditLogs({ ctx, input: { perPage: 51 } }))).toMatch(
			/^VALIDATION: perPage/
		);
		expect(await codeOf(listAuditLogs({ ctx, input: { entityId: '1' } }))).toBe(
			'VALIDATION: entityId: entityId needs entityType'
		);
	});

	it("answers LIMIT_EXCEEDED naming 'audit-log' when the plan lacks it", async () => {
		const ws = await createWorkspace(db); // TEAM_LIMITS: no audit-log
		const ctx = ctxFor(db, ws);
		const entry = await rawEntry(ws.id, new Date());
		const message = "LIMIT_EXCEEDED: your plan does not include 'audit-log'";
		expect(await codeOf(listAuditLogs({ ctx }))).toBe(message);
		expect(await codeOf(getAuditLog({ ctx, input: { auditLogId: entry.id } }))).toBe(message);
	});

	it('never returns a secret field of a snapshot, at any depth', async () => {
		const ws = await auditWorkspace();
		const ctx = ctxFor(db, ws);
		const entry = await rawEntry(ws.id, new Date(), {
			name: 'x',
			token: 'usp_secret',
			nested: { password: 'hunter2', keep: 1 }
		});
		expect((await getAuditLog({ ctx, input: { auditLogId: entry.id } })).after).toEqual({
			name: 'x',
			nested: { keep: 1 }
		});
	});
});
