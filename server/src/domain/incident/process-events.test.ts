import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { createTestDb } from '../../../test/db.ts';
import { alertingWorkspace, systemCtx } from '../../../test/alerting.ts';
import { ctxFor } from '../../../test/factories.ts';
import { processStatusEvents, pruneStatusEvents, STATUS_EVENT_RETENTION_MS } from './index.ts';

let db: Db;
beforeAll(async () => {
	({ db } = await createTestDb());
});

const setup = () => alertingWorkspace(db, 'https://hooks.example.com/upstate');
const event = (
	ws: { id: number },
	monitorId: number,
	from: string,
	to: string,
	at: string,
	error = ''
) => db.statusEvent.create({ data: { workspaceId: ws.id, monitorId, from, to, error, at } });
const run = (only?: { workspaceId: number; monitorId: number; upToEventId: number }) =>
	processStatusEvents({
		db,
		ctxFor: (workspace) => systemCtx({ ...ctxFor(db, { ...workspace, limits: '{}' }), workspace }),
		dashboardUrl: 'http://dash.test',
		only
	});
const sent = async (workspaceId: number) =>
	(await db.delivery.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } })).map(
		(d) => `${(JSON.parse(d.payload) as { event: { kind: string } }).event.kind} ${d.dedupeKey}`
	);

describe('status events', () => {
	it('a committed short failure whose forward was lost is an incident with alert and recovery', async () => {
		const { ws, monitor, channel } = await setup();
		await event(ws, monitor.id, 'active', 'error', '2026-11-24T10:00:00Z', 'HTTP 500');
		await event(ws, monitor.id, 'error', 'active', '2026-11-24T10:00:30Z');
		const done = await run();
		expect(done.map((d) => d.result.action)).toEqual(['opened', 'resolved']);
		const incident = await db.incident.findFirstOrThrow({ where: { monitorId: monitor.id } });
		expect(incident).toMatchObject({
			startedAt: new Date('2026-11-24T10:00:00Z'),
			resolvedAt: new Date('2026-11-24T10:00:30Z'),
			autoResolved: true,
			errorMessage: 'HTTP 500'
		});
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, entityType: 'incident' },
			orderBy: { id: 'asc' }
		});
		expect(audit.map((a) => a.action)).toEqual(['incident.open', 'incident.resolve']);
		expect(await sent(ws.id)).toEqual([
			`alert channel:${channel.id}:incident:${incident.id}:alert`,
			`recovery channel:${channel.id}:incident:${incident.id}:recovery`
		]);
		// Processing again (a second sweep, a late forward) changes nothing.
		expect(await run()).toEqual([]);
		expect(await sent(ws.id)).toHaveLength(2);
		expect(await db.statusEvent.count({ where: { workspaceId: ws.id, processedAt: null } })).toBe(
			0
		);
	});

	it('a degraded change is notified from its event, and its recovery after it', async () => {
		const { ws, monitor, channel } = await setup();
		await event(ws, monitor.id, 'active', 'degraded', '2026-11-24T11:00:00Z');
		const second = await event(ws, monitor.id, 'degraded', 'active', '2026-11-24T11:01:00Z');
		// The forward of the second event arrives first: the first is processed before it.
		const done = await run({ workspaceId: ws.id, monitorId: monitor.id, upToEventId: second.id });
		expect(done.map((d) => d.result.action)).toEqual(['degraded', 'recovered']);
		expect(await sent(ws.id)).toEqual([
			`degraded channel:${channel.id}:monitor:${monitor.id}:degraded:2026-11-24T11:00:00.000Z`,
			`recovery channel:${channel.id}:monitor:${monitor.id}:recovery:2026-11-24T11:01:00.000Z`
		]);
	});

	it("an event of another workspace's monitor is not processed by a forward naming this one", async () => {
		const a = await setup();
		const b = await setup();
		const foreign = await event(b.ws, b.monitor.id, 'active', 'error', '2026-11-24T12:00:00Z');
		const done = await run({
			workspaceId: a.ws.id,
			monitorId: b.monitor.id,
			upToEventId: foreign.id
		});
		expect(done).toEqual([]);
		expect(await db.incident.count({ where: { monitorId: b.monitor.id } })).toBe(0);
	});

	it('deletes processed events after a week, never pending ones', async () => {
		const { ws, monitor } = await setup();
		const old = new Date(Date.now() - STATUS_EVENT_RETENTION_MS - 60_000);
		const done = await event(ws, monitor.id, 'active', 'degraded', old.toISOString());
		await db.statusEvent.update({ where: { id: done.id }, data: { processedAt: old } });
		const pending = await event(ws, monitor.id, 'degraded', 'active', old.toISOString());
		expect(await pruneStatusEvents({ db })).toBeGreaterThanOrEqual(1);
		const left = await db.statusEvent.findMany({ where: { workspaceId: ws.id } });
		expect(left.map((e) => e.id)).toEqual([pending.id]);
	});
});
