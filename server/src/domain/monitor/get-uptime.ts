import { z } from 'zod';
import type { AnalyticsStore } from '../../analytics/index.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { UptimeDayOutput } from '../status-page/public/schemas.ts';
import { buildUptimeDays, uptimeWindow, type DayCounts } from '../status-page/public/uptime.ts';
import { getMonitorInWorkspace } from './internal.ts';
import { MonitorIdInput } from './schemas.ts';

export const MonitorUptimeOutput = z.object({
	monitorId: z.number(),
	days: z.array(UptimeDayOutput) // 90 UTC days, oldest first
});
export type MonitorUptimeOutput = z.infer<typeof MonitorUptimeOutput>;

// The dashboard's 90-day bar: the status page's cell rules for the monitor alone (daily counts
// from analytics.dailyStatus; incidents outside maintenance colour a day as an outage).
export async function getMonitorUptime(args: {
	ctx: ServiceContext;
	analytics: Pick<AnalyticsStore, 'dailyStatus'>;
	input: MonitorIdInput;
}): Promise<MonitorUptimeOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { monitorId } = parseInput(MonitorIdInput, args.input);
	await getMonitorInWorkspace({ tx: ctx.db, id: monitorId, workspaceId: ctx.workspace.id });
	const now = new Date();
	const days = uptimeWindow(now);
	const since = new Date(`${days[0]}T00:00:00Z`);
	const [daily, incidents] = await Promise.all([
		args.analytics.dailyStatus({ monitorIds: [monitorId], since: since.getTime() }),
		ctx.db.incident.findMany({
			where: {
				monitorId,
				duringMaintenance: false,
				OR: [{ resolvedAt: null }, { resolvedAt: { gte: since } }]
			},
			select: { startedAt: true, resolvedAt: true }
		})
	]);
	const counts = new Map<string, DayCounts>(daily.map((d) => [d.day, d]));
	const events = incidents.map((i) => ({
		kind: 'incident' as const,
		from: i.startedAt,
		to: i.resolvedAt
	}));
	return { monitorId, days: buildUptimeDays({ days, counts, events, now }) };
}
