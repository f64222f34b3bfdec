import { z } from 'zod';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getMonitorInWorkspace } from './internal.ts';
import { MonitorIdInput } from './schemas.ts';

const Location = z.object({
	region: z.string(),
	privateLocationId: z.number(),
	lastSeenAt: z.string().nullable()
});

// Spec 4.1: per-region health is only active, degraded or error. A location that has not
// checked the monitor yet has no health: it is listed apart, under `pending`.
export const MonitorStatusOutput = z.object({
	monitorId: z.number(),
	// Self-hosted checks run from private locations: each is a region here (spec 1.3.1).
	regions: z.array(Location.extend({ status: z.enum(['active', 'degraded', 'error']) })),
	pending: z.array(Location)
});
export type MonitorStatusOutput = z.infer<typeof MonitorStatusOutput>;

type Health = MonitorStatusOutput['regions'][number]['status'];
const HEALTH: Health[] = ['active', 'degraded', 'error'];

// Current health per location, no time window (spec 4.1 get_monitor_status).
export async function getMonitorStatus(args: {
	ctx: ServiceContext;
	input: MonitorIdInput;
}): Promise<MonitorStatusOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { monitorId } = parseInput(MonitorIdInput, args.input);
	await getMonitorInWorkspace({
		tx: ctx.db,
		id: monitorId,
		workspaceId: ctx.workspace.id
	});
	const links = await ctx.db.privateLocationMonitor.findMany({
		where: { monitorId },
		include: { privateLocation: true },
		orderBy: { privateLocationId: 'asc' }
	});
	const location = (l: (typeof links)[number]) => ({
		region: l.privateLocation.name,
		privateLocationId: l.privateLocationId,
		lastSeenAt: l.privateLocation.lastSeenAt?.toISOString() ?? null
	});
	const checked = links.filter((l) => HEALTH.includes(l.status as Health));
	return {
		monitorId,
		regions: checked.map((l) => ({ ...location(l), status: l.status as Health })),
		pending: links.filter((l) => !checked.includes(l)).map(location)
	};
}
