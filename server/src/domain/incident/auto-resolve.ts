import type { Db } from '../../db/client.ts';
import { resolveLimits } from '../limits.ts';
import type { ServiceContext, WorkspaceRef } from '../context.ts';
import { recordStatusChange } from './record-status-change.ts';

export type AutoResolveCounts = { checked: number; resolved: number; enqueued: number };

// The scheduled safety net behind the status forwards: an incident stays open only while its
// monitor is failing. If the monitor is `active` again but the forward that says so was lost
// (workflows down, a 401), the incident is resolved through the same rule as a forward, so the
// recovery is sent once. A paused monitor's incident stays open until it is resolved by hand:
// nothing says it recovered.
export async function autoResolveIncidents(args: {
	db: Db;
	ctxFor: (workspace: WorkspaceRef) => ServiceContext;
	dashboardUrl: string;
}): Promise<AutoResolveCounts> {
	const open = await args.db.incident.findMany({
		where: { resolvedAt: null },
		select: {
			monitorId: true,
			monitor: { select: { status: true } },
			workspace: { select: { id: true, plan: true, limits: true } }
		},
		orderBy: { id: 'asc' }
	});
	const counts: AutoResolveCounts = { checked: open.length, resolved: 0, enqueued: 0 };
	for (const incident of open) {
		if (incident.monitor.status !== 'active') continue;
		const w = incident.workspace;
		const result = await recordStatusChange({
			ctx: args.ctxFor({ ...w, limits: resolveLimits(w.limits) }),
			input: {
				monitorId: incident.monitorId,
				from: 'error',
				to: 'active',
				error: '',
				at: new Date().toISOString()
			},
			dashboardUrl: args.dashboardUrl
		});
		if (result.action === 'resolved') counts.resolved++;
		counts.enqueued += result.enqueued;
	}
	return counts;
}
