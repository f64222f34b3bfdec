import type { Db } from '../../db/client.ts';
import type { ServiceContext, WorkspaceRef } from '../context.ts';
import { resolveLimits } from '../limits.ts';
import { isInMaintenance } from './internal.ts';
import { recordStatusChange } from './record-status-change.ts';

export type OpenMissedCounts = { failing: number; opened: number; enqueued: number };

// The other half of the forwards' safety net: a monitor in `error` with no open incident lost
// the forward that would have opened one (workflows down, a 401). Open it now through the same
// rule as a forward, so the alert goes out once. Skipped: paused monitors, monitors in a
// maintenance window now (the next run after the window catches them), and an error episode
// that already had its incident (one resolved by hand while still failing is not reopened).
export async function openMissedIncidents(args: {
	db: Db;
	ctxFor: (workspace: WorkspaceRef) => ServiceContext;
	dashboardUrl: string;
	now?: Date;
}): Promise<OpenMissedCounts> {
	const now = args.now ?? new Date();
	const failing = await args.db.monitor.findMany({
		where: { status: 'error', active: true, incidents: { none: { resolvedAt: null } } },
		select: {
			id: true,
			statusAt: true,
			workspace: { select: { id: true, plan: true, limits: true } },
			incidents: { select: { startedAt: true }, orderBy: { startedAt: 'desc' }, take: 1 }
		},
		orderBy: { id: 'asc' }
	});
	const counts: OpenMissedCounts = { failing: failing.length, opened: 0, enqueued: 0 };
	for (const monitor of failing) {
		// A monitor last changed before this column existed counts as having had its incident.
		const since = monitor.statusAt ?? new Date(0);
		const last = monitor.incidents[0]?.startedAt;
		if (last && last >= since) continue;
		const w = monitor.workspace;
		const inWindow = await isInMaintenance({
			tx: args.db,
			workspaceId: w.id,
			monitorId: monitor.id,
			at: now
		});
		if (inWindow) continue;
		const result = await recordStatusChange({
			ctx: args.ctxFor({ ...w, limits: resolveLimits(w.limits) }),
			input: {
				monitorId: monitor.id,
				from: 'active',
				to: 'error',
				error: '',
				at: (monitor.statusAt ?? now).toISOString()
			},
			dashboardUrl: args.dashboardUrl
		});
		if (result.action === 'opened') counts.opened++;
		counts.enqueued += result.enqueued;
	}
	return counts;
}
