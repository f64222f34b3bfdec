import type { AnalyticsStore } from '../../analytics/index.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { NotFoundError } from '../errors.ts';
import { requireFeature } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { locationNames } from './internal.ts';
import { GetResponseLogInput, type ResponseLogOutput } from './schemas.ts';

// One result with its timing breakdown, redacted headers, error and assertion results.
export async function getResponseLog(args: {
	ctx: ServiceContext;
	analytics: AnalyticsStore;
	input: GetResponseLogInput;
}): Promise<ResponseLogOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { logId } = parseInput(GetResponseLogInput, args.input);
	const r = await args.analytics.getResult(logId);
	if (!r || r.workspaceId !== ctx.workspace.id) throw new NotFoundError('response log', logId);
	requireFeature(ctx.workspace.limits, 'response-logs');
	const monitor = await ctx.db.monitor.findFirst({
		where: { id: r.monitorId, workspaceId: ctx.workspace.id },
		select: { url: true, uri: true }
	});
	const names = await locationNames(ctx, [r.locationId]);
	return {
		id: r.resultId,
		monitorId: r.monitorId,
		region: names.get(r.locationId) ?? `location ${r.locationId}`,
		timestamp: new Date(r.startedAt).toISOString(),
		status: r.outcome,
		statusCode: r.statusCode,
		latency: r.latency,
		url: monitor?.url ?? monitor?.uri ?? '',
		timing: r.timing,
		headers: r.headers,
		error: r.error,
		assertions: JSON.parse(r.assertions)
	};
}
