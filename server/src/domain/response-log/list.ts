import type { AnalyticsStore } from '../../analytics/index.ts';
import { requireScope, type ServiceContext } from '../context.ts';
import { ValidationError } from '../errors.ts';
import { requireFeature } from '../limits.ts';
import { getMonitorInWorkspace } from '../monitor/internal.ts';
import { parseInput } from '../parse.ts';
import { locationNames, toLogSummary } from './internal.ts';
import { ListResponseLogsInput, WINDOWS, type ResponseLogListOutput } from './schemas.ts';

// Recent per-location HTTP results, newest first (spec 4.1 list_response_logs; plan key
// `response-logs`).
export async function listResponseLogs(args: {
	ctx: ServiceContext;
	analytics: AnalyticsStore;
	input: ListResponseLogsInput;
}): Promise<ResponseLogListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const input = parseInput(ListResponseLogsInput, args.input);
	const monitor = await getMonitorInWorkspace({
		tx: ctx.db,
		id: input.monitorId,
		workspaceId: ctx.workspace.id
	});
	if (monitor.type !== 'http')
		throw new ValidationError('monitorId: response logs exist for HTTP monitors only', [
			{ path: 'monitorId', message: 'response logs exist for HTTP monitors only' }
		]);
	requireFeature(ctx.workspace.limits, 'response-logs');
	const { rows, total } = await args.analytics.listResults({
		monitorId: monitor.id,
		since: Date.now() - WINDOWS[input.window],
		limit: input.limit,
		offset: input.offset
	});
	const names = await locationNames(
		ctx,
		rows.map((r) => r.locationId)
	);
	return {
		data: rows.map((r) => toLogSummary(r, names)),
		pagination: { limit: input.limit, offset: input.offset, totalSize: total }
	};
}
