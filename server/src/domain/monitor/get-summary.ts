import { z } from 'zod';
import type { AnalyticsStore } from '../../analytics/index.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { WINDOWS } from '../response-log/schemas.ts';
import { getMonitorInWorkspace } from './internal.ts';

export const MonitorSummaryInput = z.object({
	monitorId: z.number().int().positive(),
	window: z.enum(['1d', '7d', '14d']).default('1d')
});
export type MonitorSummaryInput = z.input<typeof MonitorSummaryInput>;

const ms = z.number().nullable();
export const MonitorSummaryOutput = z.object({
	monitorId: z.number(),
	window: z.enum(['1d', '7d', '14d']),
	success: z.number(),
	degraded: z.number(),
	error: z.number(),
	p50Latency: ms,
	p75Latency: ms,
	p90Latency: ms,
	p95Latency: ms,
	p99Latency: ms,
	lastPingAt: z.string().nullable()
});
export type MonitorSummaryOutput = z.infer<typeof MonitorSummaryOutput>;

// Counts and latency percentiles over a window (spec 4.1 get_monitor_summary); the same rows as
// the `endpoint__http_metrics_<window>__v1` pipes.
export async function getMonitorSummary(args: {
	ctx: ServiceContext;
	analytics: AnalyticsStore;
	input: MonitorSummaryInput;
}): Promise<MonitorSummaryOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { monitorId, window } = parseInput(MonitorSummaryInput, args.input);
	await getMonitorInWorkspace({ tx: ctx.db, id: monitorId, workspaceId: ctx.workspace.id });
	const s = await args.analytics.summary({ monitorId, since: Date.now() - WINDOWS[window] });
	return {
		monitorId,
		window,
		...s,
		lastPingAt: s.lastPingAt === null ? null : new Date(s.lastPingAt).toISOString()
	};
}
