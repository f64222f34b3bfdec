import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { monitorInclude, toMonitorOutput } from './internal.ts';
import { ListMonitorsInput, type MonitorListOutput } from './schemas.ts';

// Newest first (spec 4.1 list_monitors), with activeIncidentCount.
export async function listMonitors(args: {
	ctx: ServiceContext;
	input?: ListMonitorsInput;
}): Promise<MonitorListOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { page, perPage } = parseInput(ListMonitorsInput, args.input);
	const where = { workspaceId: ctx.workspace.id };
	const [rows, totalSize] = await Promise.all([
		ctx.db.monitor.findMany({
			where,
			include: monitorInclude,
			orderBy: { id: 'desc' },
			skip: (page - 1) * perPage,
			take: perPage
		}),
		ctx.db.monitor.count({ where })
	]);
	return {
		data: rows.map(toMonitorOutput),
		pagination: { page, perPage, totalSize, totalPages: Math.ceil(totalSize / perPage) }
	};
}
