import { z } from 'zod';
import { DAY, RECENT_CHECKS_MAX } from '../../analytics/contract.ts';
import type { AnalyticsStore } from '../../analytics/index.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { NotFoundError } from '../errors.ts';
import { parseInput } from '../parse.ts';

export const RecentChecksInput = z.object({
	monitorIds: z.array(z.number().int().positive()).min(1).max(100),
	perLocation: z.number().int().min(1).max(RECENT_CHECKS_MAX).default(RECENT_CHECKS_MAX)
});
export type RecentChecksInput = z.input<typeof RecentChecksInput>;

const Outcome = z.enum(['success', 'degraded', 'error']);
export const RecentCheck = z.object({
	at: z.string(),
	outcome: Outcome,
	latency: z.number(),
	statusCode: z.number().nullable(),
	error: z.string()
});
export const RecentChecksOutput = z.object({
	monitors: z.array(
		z.object({
			monitorId: z.number(),
			// The newest check of any location, with its error when it failed.
			latest: RecentCheck.nullable(),
			// Counts over the last day, from the hourly rollups (24 h uptime).
			day: z.object({ success: z.number(), degraded: z.number(), error: z.number() }),
			locations: z.array(
				z.object({
					locationId: z.number(),
					location: z.string(),
					checks: z.array(RecentCheck) // oldest first
				})
			)
		})
	)
});
export type RecentChecksOutput = z.infer<typeof RecentChecksOutput>;

// The latest checks of monitors per location: the dashboard's heartbeat strips. Locations are
// named by the workspace's private locations (the built-in probe is one, "Local").
export async function getRecentChecks(args: {
	ctx: ServiceContext;
	analytics: AnalyticsStore;
	input: RecentChecksInput;
}): Promise<RecentChecksOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const input = parseInput(RecentChecksInput, args.input);
	const ids = [...new Set(input.monitorIds)];
	const owned = await ctx.db.monitor.findMany({
		where: { workspaceId: ctx.workspace.id, id: { in: ids } },
		select: { id: true }
	});
	const missing = ids.find((id) => !owned.some((m) => m.id === id));
	if (missing !== undefined) throw new NotFoundError('monitor', missing);
	const [rows, counts] = await Promise.all([
		args.analytics.recentChecks({ monitorIds: ids, perLocation: input.perLocation }),
		args.analytics.counts({ monitorIds: ids, since: Date.now() - DAY })
	]);
	const byMonitor = new Map<number, typeof rows>();
	for (const r of rows) byMonitor.set(r.monitorId, [...(byMonitor.get(r.monitorId) ?? []), r]);
	const locationIds = [...new Set(rows.map((r) => r.locationId))];
	const names = new Map(
		(
			await ctx.db.privateLocation.findMany({
				where: { workspaceId: ctx.workspace.id, id: { in: locationIds } },
				select: { id: true, name: true }
			})
		).map((l) => [l.id, l.name])
	);
	return {
		monitors: ids.map((monitorId) => {
			const mine = (byMonitor.get(monitorId) ?? []).sort((a, b) => a.startedAt - b.startedAt);
			const day = counts.find((c) => c.monitorId === monitorId);
			const byLocation = new Map<number, typeof mine>();
			for (const r of mine)
				byLocation.set(r.locationId, [...(byLocation.get(r.locationId) ?? []), r]);
			const newest = mine.at(-1);
			return {
				monitorId,
				latest: newest ? toCheck(newest) : null,
				day: {
					success: day?.success ?? 0,
					degraded: day?.degraded ?? 0,
					error: day?.error ?? 0
				},
				locations: [...byLocation].map(([locationId, checks]) => ({
					locationId,
					location: names.get(locationId) ?? `Location ${locationId}`,
					checks: checks.map(toCheck)
				}))
			};
		})
	};
}

function toCheck(r: {
	startedAt: number;
	outcome: string;
	latency: number;
	statusCode: number | null;
	error: string;
}) {
	return {
		at: new Date(r.startedAt).toISOString(),
		outcome: Outcome.catch('error').parse(r.outcome),
		latency: r.latency,
		statusCode: r.statusCode,
		error: r.error
	};
}
