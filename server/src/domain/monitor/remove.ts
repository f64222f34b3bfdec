import { requireScope, type ServiceContext } from '../context.ts';
import { writeAudit } from '../audit.ts';
import { parseInput } from '../parse.ts';
import { withTransaction } from '../transaction.ts';
import { getMonitorInWorkspace, toMonitorOutput } from './internal.ts';
import { MonitorIdInput } from './schemas.ts';
import { markMonitorPagesChanged } from '../status-page/public/page-changes.ts';

export async function removeMonitor(args: {
	ctx: ServiceContext;
	input: MonitorIdInput;
}): Promise<{ id: number; deleted: true }> {
	const { ctx } = args;
	requireScope(ctx, 'write');
	const { monitorId } = parseInput(MonitorIdInput, args.input);
	return withTransaction(ctx, async (tx) => {
		const row = await getMonitorInWorkspace({ tx, id: monitorId, workspaceId: ctx.workspace.id });
		await markMonitorPagesChanged(tx, row.id);
		await tx.monitor.delete({ where: { id: row.id } });
		await writeAudit({
			ctx,
			tx,
			action: 'monitor.delete',
			entityType: 'monitor',
			entityId: row.id,
			before: toMonitorOutput(row),
			after: null
		});
		return { id: row.id, deleted: true as const };
	});
}
