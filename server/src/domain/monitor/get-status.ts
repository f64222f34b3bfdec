import { z } from 'zod';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getMonitorInWorkspace } from './internal.ts';
import { MonitorIdInput } from './schemas.ts';

export const MonitorStatusOutput = z.object({
	monitorId: z.number(),
	status: z.enum(['active', 'degraded', 'error', 'unknown']),
	// Self-hosted checks run from private locations: each is a region here (spec 1.3.1).
	regions: z.array(
		z.object({
			region: z.string(),
			privateLocationId: z.number(),
			status: z.enum(['active', 'degraded', 'error', 'unknown']),
			lastSeenAt: z.string().nullable()
		})
	)
});
export type MonitorStatusOutput = z.infer<typeof MonitorStatusOutput>;

// Current health per location, no time window (spec 4.1 get_monitor_status).
export async function getMonitorStatus(args: {
	ctx: ServiceContext;
	input: MonitorIdInput;
}): Promise<MonitorStatusOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { monitorId } = parseInput(MonitorIdInput, args.input);
	const monitor = await getMonitorInWorkspace({
		tx: ctx.db,
		id: monitorId,
		workspaceId: ctx.workspace.id
	});
	const links = await ctx.db.privateLocationMonitor.findMany({
		where: { monitorId },
		include: { privateLocation: true },
		orderBy: { privateLocationId: 'asc' }
	});
	return {
		monitorId,
		status: monitor.status as MonitorStatusOutput['status'],
		regions: links.map((l) => ({
			region: l.privateLocation.name,
			privateLocationId: l.privateLocationId,
			status: l.status as MonitorStatusOutput['status'],
			lastSeenAt: l.privateLocation.lastSeenAt?.toISOString() ?? null
		}))
	};
}
