import { requireScope, type ServiceContext } from '../context.ts';
import { parseInput } from '../parse.ts';
import { getMonitorInWorkspace, toMonitorOutput } from './internal.ts';
import { MonitorIdInput, type MonitorOutput } from './schemas.ts';

export async function getMonitor(args: {
	ctx: ServiceContext;
	input: MonitorIdInput;
}): Promise<MonitorOutput> {
	const { ctx } = args;
	requireScope(ctx, 'read');
	const { monitorId } = parseInput(MonitorIdInput, args.input);
	return toMonitorOutput(
		await getMonitorInWorkspace({ tx: ctx.db, id: monitorId, workspaceId: ctx.workspace.id })
	);
}
