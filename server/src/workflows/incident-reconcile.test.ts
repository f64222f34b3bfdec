import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Upstate } from '../app.ts';
import type { Db } from '../db/client.ts';
import { alertingWorkspace, systemCtx } from '../../test/alerting.ts';
import { createTestDb } from '../../test/db.ts';
import { createTestUpstate } from '../../test/upstate.ts';
import { recordStatusChange, resolveIncident } from '../domain/incident/index.ts';
import { createMaintenance } from '../domain/maintenance/index.ts';
import { createPageComponent } from '../domain/page-component/index.ts';
import { createStatusPage } from '../domain/status-page/index.ts';
import { jobNamed, runJob } from './jobs.ts';

let db: Db;
let upstate: Upstate;
beforeAll(async () => {
	({ db } = await createTestDb());
	upstate = createTestUpstate(db);
});

// The job over the whole database, as the workflows cron runs it; returns its one log line.
async function runReconcile(): Promise<string> {
	const lines: string[] = [];
	const log = vi.spyOn(console, 'log').mockImplementation((line) => void lines.push(String(line)));
	try {
		await runJob(upstate, jobNamed('incident-auto-resolve'));
	} finally {
		log.mockRestore();
	}
	const ours = lines.filter((l) => l.startsWith('[workflows]'));
	expect(ours).toHaveLength(1);
	return ours[0];
}

// A monitor that ingest turned to `error` whose forward to workflows was lost.
async function failingMonitor(opts: { active?: boolean } = {}) {
	const setup = await alertingWorkspace(db, 'https://hooks.example.com/upstate');
	const statusAt = new Date(Date.now() - 3 * 60_000);
	await db.monitor.update({
		where: { id: setup.monitor.id },
		data: { status: 'error', statusAt, active: opts.active ?? true }
	});
	return { ...setup, statusAt };
}
const incidentsOf = (monitorId: number) =>
	db.incident.findMany({ where: { monitorId }, orderBy: { id: 'asc' } });
const alerts = async (workspaceId: number) =>
	(await db.delivery.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } })).map(
		(d) => (JSON.parse(d.payload) as { event: { kind: string } }).event.kind
	);

describe('incident reconcile (the lost forward to `error`)', () => {
	it('opens the missing incident from when the monitor failed, alerts once, and logs one line', async () => {
		const { ws, monitor, statusAt } = await failingMonitor();
		expect(await runReconcile()).toMatch(
			/^\[workflows\] incident-auto-resolve checked=\d+ resolved=0 enqueued=1 failing=1 opened=1$/
		);
		const [incident, ...rest] = await incidentsOf(monitor.id);
		expect(rest).toEqual([]);
		expect(incident).toMatchObject({ openMonitorId: monitor.id, startedAt: statusAt });
		expect(await alerts(ws.id)).toEqual(['alert']);
		const audit = await db.auditLog.findMany({
			where: { workspaceId: ws.id, entityType: 'incident' }
		});
		expect(audit).toMatchObject([
			{ action: 'incident.open', actorType: 'system', actorId: 'incident-auto-resolve' }
		]);
		// The next run finds the incident open and sends nothing more.
		expect(await runReconcile()).toMatch(/ enqueued=0 failing=0 opened=0$/);
		expect(await alerts(ws.id)).toEqual(['alert']);
	});

	it('does not reopen an incident resolved by hand while the monitor still fails', async () => {
		const { ws, ctx, monitor } = await failingMonitor();
		await runReconcile();
		const [incident] = await incidentsOf(monitor.id);
		await resolveIncident({ ctx, input: { incidentId: incident.id } });
		expect(await runReconcile()).toMatch(/ failing=1 opened=0$/);
		expect(await incidentsOf(monitor.id)).toHaveLength(1);
		// A new failure after that (ingest sets statusAt again) gets its own incident.
		await db.monitor.update({
			where: { id: monitor.id },
			data: { statusAt: new Date(Date.now() + 1000) }
		});
		expect(await runReconcile()).toMatch(/ opened=1$/);
		expect(await incidentsOf(monitor.id)).toHaveLength(2);
		expect(await alerts(ws.id)).toEqual(['alert', 'alert']);
	});

	it('leaves paused monitors and monitors in a maintenance window alone', async () => {
		const paused = await failingMonitor({ active: false });
		const maintained = await failingMonitor();
		const ctx = maintained.ctx;
		const page = await createStatusPage({
			ctx,
			input: { title: 'P', slug: `p-${maintained.ws.id}` }
		});
		const component = await createPageComponent({
			ctx,
			input: { pageId: page.id, type: 'monitor', monitor_id: maintained.monitor.id }
		});
		await createMaintenance({
			ctx,
			input: {
				pageId: page.id,
				pageComponentIds: [component.id],
				title: 'Upgrade',
				from: new Date(Date.now() - 3_600_000).toISOString(),
				to: new Date(Date.now() + 3_600_000).toISOString(),
				notify: false
			}
		});
		expect(await runReconcile()).toMatch(/ opened=0$/);
		expect(await incidentsOf(paused.monitor.id)).toEqual([]);
		expect(await incidentsOf(maintained.monitor.id)).toEqual([]);
		expect(await alerts(maintained.ws.id)).toEqual([]);
	});

	it('is a no-op when the forward did arrive', async () => {
		const { ws, ctx, monitor, statusAt } = await failingMonitor();
		await recordStatusChange({
			ctx: systemCtx(ctx),
			input: {
				monitorId: monitor.id,
				from: 'active',
				to: 'error',
				error: 'HTTP 500',
				at: statusAt.toISOString()
			},
			dashboardUrl: 'http://dash.test'
		});
		expect(await runReconcile()).toMatch(/ opened=0$/);
		expect(await incidentsOf(monitor.id)).toHaveLength(1);
		expect(await alerts(ws.id)).toEqual(['alert']);
	});
});
