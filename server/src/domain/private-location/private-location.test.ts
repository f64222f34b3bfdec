import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createWorkspace, ctxFor, readKey } from '../../../test/factories.ts';
import type { ServiceContext } from '../context.ts';
import { createMonitor, getMonitor } from '../monitor/index.ts';
import {
	authenticatePrivateLocation,
	createPrivateLocation,
	getPrivateLocation,
	listAssignedMonitors,
	listPrivateLocations,
	removePrivateLocation,
	updatePrivateLocation
} from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

const monitorIn = (ctx: ServiceContext) =>
	createMonitor({ ctx, input: { type: 'tcp', name: 't', periodicity: '1m', uri: 'db:5432' } });

describe('private location service', () => {
	it('creates with a key shown on the single read only, assigns monitors and authenticates the key', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws);
		const [a, b] = [await monitorIn(ctx), await monitorIn(ctx)];
		const loc = await createPrivateLocation({
			ctx,
			input: { name: 'Office', monitor_ids: [a.id], metadata: { rack: 'r1' } }
		});
		expect(loc).toMatchObject({
			name: 'Office',
			monitor_ids: [a.id],
			metadata: { rack: 'r1' },
			status: 'unknown',
			last_seen_at: null
		});
		expect(loc.token).toMatch(/^usp_/);
		expect((await getPrivateLocation({ ctx, input: { privateLocationId: loc.id } })).token).toBe(
			loc.token
		);
		const list = await listPrivateLocations({ ctx, input: { perPage: 100 } });
		expect(list.data).toEqual([expect.objectContaining({ id: loc.id, monitor_count: 1 })]);
		expect(JSON.stringify(list)).not.toContain(loc.token);
		expect((await getMonitor({ ctx, input: { monitorId: a.id } })).private_location_ids).toEqual([
			loc.id
		]);
		const updated = await updatePrivateLocation({
			ctx,
			input: { privateLocationId: loc.id, monitor_ids: [b.id] }
		});
		expect(updated.monitor_ids).toEqual([b.id]);
		expect(await authenticatePrivateLocation({ db, key: loc.token })).toEqual({
			privateLocationId: loc.id,
			workspaceId: ws.id,
			name: 'Office'
		});
		await removePrivateLocation({ ctx, input: { privateLocationId: loc.id } });
		expect(await authenticatePrivateLocation({ db, key: loc.token })).toBeNull();
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, entityType: 'private_location' },
			orderBy: { id: 'asc' }
		});
		expect(audit.map((x) => x.action)).toEqual([
			'private_location.create',
			'private_location.update',
			'private_location.delete'
		]);
		expect(JSON.stringify(audit)).not.toContain(loc.token);
	});

	it('bounds perPage at 100 and the name at 256, and needs the private-locations feature', async () => {
		const ctx = ctxFor(db, await createWorkspace(db));
		expect(await codeOf(listPrivateLocations({ ctx, input: { perPage: 101 } }))).toMatch(
			/^VALIDATION: perPage/
		);
		expect(await codeOf(createPrivateLocation({ ctx, input: { name: 'x'.repeat(257) } }))).toMatch(
			/^VALIDATION: name/
		);
		const off = ctxFor(
			db,
			await createWorkspace(db, { plan: 'free', limits: { 'private-locations': false } })
		);
		expect(await codeOf(createPrivateLocation({ ctx: off, input: { name: 'x' } }))).toBe(
			"LIMIT_EXCEEDED: your plan does not include 'private-locations'"
		);
	});

	it('rejects read-only key', async () => {
		const ws = await createWorkspace(db);
		expect(
			await codeOf(createPrivateLocation({ ctx: ctxFor(db, ws, readKey()), input: { name: 'x' } }))
		).toMatch(/^FORBIDDEN/);
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const mine = ctxFor(db, await createWorkspace(db));
		const theirs = ctxFor(db, await createWorkspace(db));
		const loc = await createPrivateLocation({ ctx: theirs, input: { name: 'x' } });
		expect(
			await codeOf(getPrivateLocation({ ctx: mine, input: { privateLocationId: loc.id } }))
		).toBe(`NOT_FOUND: private location ${loc.id} not found`);
		const theirMonitor = await monitorIn(theirs);
		expect(
			await codeOf(
				createPrivateLocation({ ctx: mine, input: { name: 'y', monitor_ids: [theirMonitor.id] } })
			)
		).toBe(`NOT_FOUND: monitor ${theirMonitor.id} not found`);
	});

	it('leaves nothing behind on invalid input', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws);
		expect(
			await codeOf(createPrivateLocation({ ctx, input: { name: 'x', monitor_ids: [999999] } }))
		).toMatch(/^NOT_FOUND/);
		expect(await db.privateLocation.count({ where: { workspaceId: ws.id } })).toBe(0);
		expect(await db.auditLog.count({ where: { workspaceId: ws.id } })).toBe(0);
	});

	it('sends OTLP export settings to the probe only while the plan has otel', async () => {
		const ws = await createWorkspace(db);
		const ctx = ctxFor(db, ws);
		const open_telemetry = {
			endpoint: 'http://collector:4318/v1/metrics',
			headers: [{ key: 'x-api-key', value: 'k' }]
		};
		const m = await createMonitor({
			ctx,
			input: {
				type: 'tcp',
				name: 'o',
				periodicity: '1m',
				uri: 'db:5432',
				active: true,
				open_telemetry
			}
		});
		const loc = await createPrivateLocation({ ctx, input: { name: 'L', monitor_ids: [m.id] } });
		const location = { privateLocationId: loc.id, workspaceId: ws.id, name: 'L' };
		expect(await listAssignedMonitors({ db, location })).toEqual([
			expect.objectContaining({ id: m.id, open_telemetry })
		]);
		await db.workspace.update({
			where: { id: ws.id },
			data: { limits: JSON.stringify({ ...JSON.parse(ws.limits), otel: false }) }
		});
		expect(await listAssignedMonitors({ db, location })).toEqual([
			expect.objectContaining({ id: m.id, open_telemetry: null })
		]);
	});
});
