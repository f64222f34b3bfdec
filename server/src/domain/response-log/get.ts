import type { AnalyticsStore } from '../../analytics/index.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { NotFoundError } from '../errors.ts';
import { requireFeature } from '../limits.ts';
import { parseInput } from '../parse.ts';
import { locationNames, toLogSummary } from './internal.ts';
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
		...toLogSummary(r, names),
		url: monitor?.url ?? monitor?.uri ?? '',
		timing: r.timing,
		headers: r.headers,
		error: r.error,
		assertions: JSON.parse(r.assertions)
	};
}
