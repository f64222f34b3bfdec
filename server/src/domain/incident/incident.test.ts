import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { alertingWorkspace, systemCtx } from '../../../test/alerting.ts';
import { codeOf } from '../../../test/expect-error.ts';
import { createUser, ctxFor, readKey } from '../../../test/factories.ts';
import type { ServiceContext } from '../context.ts';
import { createMaintenance } from '../maintenance/index.ts';
import { getMonitor, listMonitors } from '../monitor/index.ts';
import { createPageComponent } from '../page-component/index.ts';
import { createStatusPage } from '../status-page/index.ts';
import {
	acknowledgeIncident,
	getIncident,
	listIncidents,
	autoResolveIncidents,
	recordStatusChange,
	resolveIncident
} from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

const DASH = 'http://dash.test';
let clock = Date.parse('2026-11-22T10:00:00Z');
const change = (ctx: ServiceContext, monitorId: number, from: string, to: string, error = '') =>
	recordStatusChange({
		ctx: systemCtx(ctx),
		input: {
			monitorId,
			from,
			to: to as 'error',
			error,
			at: new Date((clock += 60_000)).toISOString()
		},
		dashboardUrl: DASH
	});
const setup = () => alertingWorkspace(db, 'https://hooks.example.com/upstate');
const deliveries = (workspaceId: number) =>
	db.delivery.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } });
const events = async (workspaceId: number) =>
	(await deliveries(workspaceId)).map(
		(d) => (JSON.parse(d.payload) as { event: { kind: string } }).event.kind
	);

describe('incident service', () => {
	it('opens one incident on error, stores the failing locations and error, and alerts once', async () => {
		const { ws, ctx, monitor, channel } = await setup();
		const location = await db.privateLocation.create({
			data: { workspaceId: ws.id, name: 'Frankfurt', tokenHash: `h-${ws.id}`, token: 't' }
		});
		await db.privateLocationMonitor.create({
			data: { privateLocationId: location.id, monitorId: monitor.id, status: 'error' }
		});
		const opened = await change(ctx, monitor.id, 'active', 'error', 'HTTP 500');
		expect(opened).toMatchObject({ action: 'opened', enqueued: 1, duringMaintenance: false });
		expect(await change(ctx, monitor.id, 'active', 'error', 'HTTP 500')).toMatchObject({
			action: 'none',
			enqueued: 0
		});
		const incident = await getIncident({ ctx, input: { incidentId: opened.incidentId ?? 0 } });
		expect(incident).toMatchObject({
			monitorId: monitor.id,
			monitorName: 'API',
			status: 'open',
			error: 'HTTP 500',
			failingLocations: ['Frankfurt'],
			resolvedAt: null
		});
		const [row] = await deliveries(ws.id);
		expect(row).toMatchObject({
			kind: 'channel',
			channelId: channel.id,
			incidentId: incident.id,
			status: 'pending',
			dedupeKey: `channel:${channel.id}:incident:${incident.id}:alert`
		});
		expect((await getMonitor({ ctx, input: { monitorId: monitor.id } })).activeIncidentCount).toBe(
			1
		);
		expect((await listMonitors({ ctx })).data[0]?.activeIncidentCount).toBe(1);
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, entityType: 'incident' }
		});
		expect(audit.map((a) => [a.action, a.actorType, a.actorId])).toEqual([
			['incident.open', 'system', 'status-update']
		]);
	});

	it('resolves the open incident when the monitor is active again and sends a recovery', async () => {
		const { ws, ctx, monitor } = await setup();
		const opened = await change(ctx, monitor.id, 'active', 'error');
		const resolved = await change(ctx, monitor.id, 'error', 'active');
		expect(resolved).toMatchObject({
			action: 'resolved',
			incidentId: opened.incidentId,
			enqueued: 1
		});
		const incident = await getIncident({ ctx, input: { incidentId: opened.incidentId ?? 0 } });
		expect(incident).toMatchObject({ status: 'resolved', autoResolved: true, resolvedBy: null });
		expect(incident.durationSeconds).toBe(60);
		expect(await events(ws.id)).toEqual(['alert', 'recovery']);
		expect((await getMonitor({ ctx, input: { monitorId: monitor.id } })).activeIncidentCount).toBe(
			0
		);
		// A new failure is a new incident.
		expect((await change(ctx, monitor.id, 'active', 'error')).action).toBe('opened');
		expect((await listIncidents({ ctx })).data).toHaveLength(2);
		expect((await listIncidents({ ctx, input: { filter: 'open' } })).data).toHaveLength(1);
	});

	it('sends degraded without an incident, and a recovery when degraded ends', async () => {
		const { ws, ctx, monitor } = await setup();
		expect(await change(ctx, monitor.id, 'active', 'degraded')).toMatchObject({
			action: 'degraded',
			incidentId: null,
			enqueued: 1
		});
		expect(await change(ctx, monitor.id, 'degraded', 'active')).toMatchObject({
			action: 'recovered',
			enqueued: 1
		});
		expect(await db.incident.count({ where: { workspaceId: ws.id } })).toBe(0);
		expect(await events(ws.id)).toEqual(['degraded', 'recovery']);
		// error → degraded keeps the incident open and says nothing until active.
		await change(ctx, monitor.id, 'active', 'error');
		expect((await change(ctx, monitor.id, 'error', 'degraded')).action).toBe('none');
		expect((await change(ctx, monitor.id, 'degraded', 'active')).action).toBe('resolved');
		expect(await events(ws.id)).toEqual(['degraded', 'recovery', 'alert', 'recovery']);
	});

	it('sends nothing while the status does not change', async () => {
		const { ws, ctx, monitor } = await setup();
		for (const s of ['active', 'error', 'degraded'])
			expect((await change(ctx, monitor.id, s, s)).action).toBe('none');
		expect(await deliveries(ws.id)).toEqual([]);
		expect(await db.incident.count({ where: { workspaceId: ws.id } })).toBe(0);
	});

	it('records but does not alert while a component of the monitor is in maintenance', async () => {
		const { ws, ctx, monitor } = await setup();
		const page = await createStatusPage({ ctx, input: { title: 'P', slug: `p-${ws.id}` } });
		const component = await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'monitor', monitor_id: monitor.id }
		});
		await createMaintenance({
			ctx,
			input: {
				pageId: page.id,
				pageComponentIds: [component.id],
				title: 'Upgrade',
				from: new Date(clock - 3_600_000).toISOString(),
				to: new Date(clock + 3_600_000 * 24).toISOString(),
				notify: false
			}
		});
		const opened = await change(ctx, monitor.id, 'active', 'error');
		expect(opened).toMatchObject({ action: 'opened', enqueued: 0, duringMaintenance: true });
		expect(
			(await getIncident({ ctx, input: { incidentId: opened.incidentId ?? 0 } })).duringMaintenance
		).toBe(true);
		expect(await change(ctx, monitor.id, 'error', 'active')).toMatchObject({
			action: 'resolved',
			enqueued: 0
		});
		expect(await deliveries(ws.id)).toEqual([]);
	});

	it('opens one incident when two error updates race', async () => {
		const { ws, ctx, monitor } = await setup();
		const at = new Date(clock).toISOString();
		const input = { monitorId: monitor.id, from: 'active', to: 'error' as const, error: 'x', at };
		const results = await Promise.all(
			[1, 2, 3].map(() => recordStatusChange({ ctx: systemCtx(ctx), input, dashboardUrl: DASH }))
		);
		expect(results.map((r) => r.action).sort()).toEqual(['none', 'none', 'opened']);
		expect(await db.incident.count({ where: { workspaceId: ws.id } })).toBe(1);
		expect(await events(ws.id)).toEqual(['alert']);
	});

	it('acknowledges and resolves by hand, audited, without a notification', async () => {
		const { ws, monitor, ctx: ownerCtx } = await setup();
		const user = await createUser(db);
		const ctx = ctxFor(db, ws, { type: 'user', userId: user.id, role: 'member' });
		const { incidentId } = await change(ownerCtx, monitor.id, 'active', 'error');
		const id = incidentId ?? 0;
		const acked = await acknowledgeIncident({ ctx, input: { incidentId: id } });
		expect(acked).toMatchObject({
			status: 'acknowledged',
			acknowledgedBy: { id: user.id, email: user.email }
		});
		expect(await codeOf(acknowledgeIncident({ ctx, input: { incidentId: id } }))).toBe(
			`CONFLICT: incident ${id} is already acknowledged`
		);
		const resolved = await resolveIncident({ ctx, input: { incidentId: id } });
		expect(resolved).toMatchObject({
			status: 'resolved',
			autoResolved: false,
			resolvedBy: { id: user.id }
		});
		expect(await codeOf(resolveIncident({ ctx, input: { incidentId: id } }))).toBe(
			`CONFLICT: incident ${id} is already resolved`
		);
		expect(await events(ws.id)).toEqual(['alert']);
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, entityType: 'incident' },
			orderBy: { id: 'asc' }
		});
		expect(audit.map((a) => [a.action, a.actorId])).toEqual([
			['incident.open', 'status-update'],
			['incident.acknowledge', `user_${user.id}`],
			['incident.resolve', `user_${user.id}`]
		]);
		expect(JSON.parse(audit[2]?.changedFields ?? '[]')).toEqual(['resolvedAt', 'resolvedById']);
	});

	it('rejects read-only key', async () => {
		const { ws, ctx, monitor } = await setup();
		const { incidentId } = await change(ctx, monitor.id, 'active', 'error');
		const read = ctxFor(db, ws, readKey());
		const input = { incidentId: incidentId ?? 0 };
		for (const p of [
			acknowledgeIncident({ ctx: read, input }),
			resolveIncident({ ctx: read, input })
		])
			expect(await codeOf(p)).toMatch(/^FORBIDDEN/);
		expect((await getIncident({ ctx: read, input })).status).toBe('open');
	});

	it("returns NOT_FOUND for another workspace's id", async () => {
		const a = await setup();
		const b = await setup();
		const { incidentId } = await change(a.ctx, a.monitor.id, 'active', 'error');
		const input = { incidentId: incidentId ?? 0 };
		const message = `NOT_FOUND: incident ${input.incidentId} not found`;
		expect(await codeOf(getIncident({ ctx: b.ctx, input }))).toBe(message);
		expect(await codeOf(acknowledgeIncident({ ctx: b.ctx, input }))).toBe(message);
		expect(await codeOf(resolveIncident({ ctx: b.ctx, input }))).toBe(message);
		expect((await listIncidents({ ctx: b.ctx })).data).toEqual([]);
		// Another workspace's monitor id in a status update is NOT_FOUND too, and records nothing.
		expect(await codeOf(change(b.ctx, a.monitor.id, 'error', 'active'))).toBe(
			`NOT_FOUND: monitor ${a.monitor.id} not found`
		);
		expect((await getIncident({ ctx: a.ctx, input })).status).toBe('open');
	});

	it('leaves nothing behind on invalid input', async () => {
		const { ws, ctx, monitor } = await setup();
		const bad = recordStatusChange({
			ctx: systemCtx(ctx),
			input: { monitorId: monitor.id, from: 'active', to: 'down' as 'error', at: 'yesterday' },
			dashboardUrl: DASH
		});
		expect(await codeOf(bad)).toMatch(/^VALIDATION: to: .*; at: /);
		expect(await db.incident.count({ where: { workspaceId: ws.id } })).toBe(0);
		expect(await deliveries(ws.id)).toEqual([]);
		expect(await db.auditLog.count({ where: { workspaceId: ws.id, entityType: 'incident' } })).toBe(
			0
		);
	});
});

describe('incident auto-resolve job', () => {
	it('resolves an incident whose monitor is active again (a lost forward) once, with one recovery', async () => {
		const { ws, ctx, monitor } = await setup();
		const opened = await change(ctx, monitor.id, 'active', 'error', 'HTTP 500');
		const other = await setup();
		await change(other.ctx, other.monitor.id, 'active', 'error', 'HTTP 500');
		await db.monitor.update({ where: { id: monitor.id }, data: { status: 'active' } });
		await db.monitor.update({ where: { id: other.monitor.id }, data: { status: 'error' } });
		const run = () =>
			autoResolveIncidents({
				db,
				ctxFor: (w) => systemCtx({ ...ctx, workspace: w }),
				dashboardUrl: DASH
			});
		expect((await run()).resolved).toBe(1);
		const incident = await db.incident.findUniqueOrThrow({
			where: { id: opened.incidentId ?? 0 }
		});
		expect(incident).toMatchObject({ autoResolved: true, openMonitorId: null });
		expect(await events(ws.id)).toEqual(['alert', 'recovery']);
		expect(await events(other.ws.id)).toEqual(['alert']);
		expect((await run()).resolved).toBe(0);
		expect(await events(ws.id)).toEqual(['alert', 'recovery']);
	});
});
