import { z } from 'zod';
import type { AnalyticsStore } from '../../analytics/index.ts';
import { SERIES_STEP } from '../../analytics/contract.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { locationNames } from '../response-log/internal.ts';
import { getMonitorInWorkspace } from './internal.ts';

export const MonitorLatencyInput = z.object({
	monitorId: z.number().int().positive(),
	window: z.enum(['1d', '7d', '14d']).default('1d'),
	locationId: z.number().int().positive().optional()
});
export type MonitorLatencyInput = z.input<typeof MonitorLatencyInput>;

const ms = z.number().nullable();
export const LatencyPointOutput = z.object({
	timestamp: z.string(),
	count: z.number(),
	p50Latency: ms,
	p75Latency: ms,
	p90Latency: ms,
	p95Latency: ms,
	p99Latency: ms
});
export const MonitorLatencyOutput = z.object({
	monitorId: z.number(),
	window: z.enum(['1d', '7d', '14d']),
	stepMs: z.number(),
	locations: z.array(
		z.object({ locationId: z.number(), region: z.string(), points: z.array(LatencyPointOutput) })
	)
});
export type MonitorLatencyOutput = z.infer<typeof MonitorLatencyOutput>;

// p50-p99 latency over time per location (the `endpoint__http_latency_<window>__v1` pipes),
// for charts; only buckets with results appear.
export async function getMonitorLatency(args: {
	ctx: ServiceContext;
	analytics: AnalyticsStore;
	input: MonitorLatencyInput;
}): Promise<MonitorLatencyOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { monitorId, window, locationId } = parseInput(MonitorLatencyInput, args.input);
	await getMonitorInWorkspace({ tx: ctx.db, id: monitorId, workspaceId: ctx.workspace.id });
	const points = await args.analytics.latencySeries({ monitorId, window, locationId });
	const names = await locationNames(
		ctx,
		points.map((p) => p.locationId)
	);
	const byLocation = new Map<number, MonitorLatencyOutput['locations'][number]>();
	for (const { locationId: id, bucket, monitorId: _m, ...values } of points) {
		const loc = byLocation.get(id) ?? {
			locationId: id,
			region: names.get(id) ?? `location ${id}`,
			points: []
		};
		loc.points.push({ timestamp: new Date(bucket).toISOString(), ...values });
		byLocation.set(id, loc);
	}
	return { monitorId, window, stepMs: SERIES_STEP[window], locations: [...byLocation.values()] };
}
